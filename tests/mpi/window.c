/* A window of nonblocking sends larger than what the router holds for a
 * node (held_max), as OSU's osu_bw and osu_bibw post them: W MPI_Isend
 * calls of L bytes before one MPI_Waitall, R rounds one way (rank r to
 * r + 1, r even; the receiver acknowledges each round, as osu_bw's does)
 * and then R rounds both ways at once (as osu_bibw's, with no
 * acknowledgement). The last round's messages are checked. Then one
 * MPI_Iallgather of L bytes a rank, whose sends make room the same way
 * from inside the collective's progress. Run on an even number of ranks. Arguments: -l BYTES (default 65536), -w SENDS
 * (default 64), -r ROUNDS (default 2); run it with held_max below W x L
 * (--set held_max=1048576) to cross the bound. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static void fill(unsigned char *p, int len, int seed)
{
    for (int i = 0; i < len; i++)
        p[i] = (unsigned char)(seed * 31 + i);
}

static int same(const unsigned char *p, int len, int seed)
{
    for (int i = 0; i < len; i++)
        if (p[i] != (unsigned char)(seed * 31 + i))
            return 0;
    return 1;
}

/* One round: the sender's W messages to peer, tagged by index; the
 * receiver's W receives; both ways when both; with ack, the receiver's
 * 4-byte acknowledgement after it. With check, 1 if every message held
 * its sender's bytes. */
static int one_round(int peer, int sends, int recvs, int ack, int check_it, int l, int w, unsigned char *s,
                     unsigned char *r, MPI_Request *q)
{
    int n = 0, ok = 1, word = 0;
    if (recvs)
        for (int j = 0; j < w; j++)
            MPI_Irecv(r + (size_t)j * l, l, MPI_BYTE, peer, j, MPI_COMM_WORLD, &q[n++]);
    if (sends)
        for (int j = 0; j < w; j++)
            MPI_Isend(s + (size_t)j * l, l, MPI_BYTE, peer, j, MPI_COMM_WORLD, &q[n++]);
    MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
    if (ack && recvs)
        MPI_Send(&word, 1, MPI_INT, peer, w, MPI_COMM_WORLD);
    else if (ack)
        MPI_Recv(&word, 1, MPI_INT, peer, w, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (check_it && recvs)
        for (int j = 0; j < w; j++)
            ok &= same(r + (size_t)j * l, l, peer * 1000 + j);
    return ok;
}

int main(int argc, char **argv)
{
    int l = 65536, w = 64, rounds = 2, opt;
    while ((opt = getopt(argc, argv, "l:w:r:")) != -1)
        if (opt == 'l')
            l = atoi(optarg);
        else if (opt == 'w')
            w = atoi(optarg);
        else if (opt == 'r')
            rounds = atoi(optarg);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *s = malloc((size_t)w * l), *r = malloc((size_t)w * l);
    MPI_Request *q = malloc(2 * (size_t)w * sizeof *q);
    if (!s || !r || !q || size % 2) {
        if (rank == 0)
            printf("window: needs an even number of ranks and %d x %d bytes twice\n", w, l);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int j = 0; j < w; j++)
        fill(s + (size_t)j * l, l, rank * 1000 + j);
    int peer = rank ^ 1, one_way = 1, both_ways = 1;
    for (int k = 0; k < rounds; k++)
        one_way &= one_round(peer, rank % 2 == 0, rank % 2 == 1, 1, k == rounds - 1, l, w, s, r, q);
    MPI_Barrier(MPI_COMM_WORLD);     /* (messages to a rank still checking would wait unreceived) */
    for (int k = 0; k < rounds; k++)
        both_ways &= one_round(peer, 1, 1, 0, k == rounds - 1, l, w, s, r, q);
    unsigned char *all = malloc((size_t)size * l);
    MPI_Request rq;
    int gathered = all != NULL;
    if (all) {
        MPI_Iallgather(s, l, MPI_BYTE, all, l, MPI_BYTE, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        for (int k = 0; k < size; k++)
            gathered &= same(all + (size_t)k * l, l, k * 1000);
        free(all);
    }
    if (rank == 0)
        printf("window of %d sends of %d bytes, %d rounds\n", w, l, rounds);
    check("one way", one_way);
    check("both ways", both_ways);
    check("iallgather", gathered);
    if (rank == 0)
        printf("%s\n", fails ? "FAILED" : "all ok");
    free(s);
    free(r);
    free(q);
    MPI_Finalize();
    return 0;
}
