/* MPI_Probe and MPI_Iprobe of messages longer than the NIC's largest,
 * which travel as pieces: the count a probe reports is the whole
 * message's, the message is then received whole, the non-overtaking rule
 * holds for the sender's earlier messages, and a probed MPI_Ssend
 * completes when it is received. Rank 0 sends to rank 1; run on 2 or
 * more ranks. Argument: -n INTS, the long messages' length (default
 * 70000: 280,000 bytes, two pieces of a 262,144-byte NIC message). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static int fill(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        v[i] = seed * 1000003 + i;
    return n;
}

static int same(const int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (v[i] != seed * 1000003 + i)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int n = 70000, opt;
    while ((opt = getopt(argc, argv, "n:")) != -1)
        if (opt == 'n')
            n = atoi(optarg);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *a = malloc((size_t)(2 * n + 8) * sizeof *a), *b = a + n + 4, small[4] = { 7, 8, 9, 10 };
    int probe_count = 1, ordered = 1, long_ok = 1, exact_ok = 1, ssend_ok = 1, count;
    MPI_Status st;
    if (rank == 0) {
        MPI_Send(small, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);            /* before the long one */
        MPI_Send(a, fill(a, n, 2), MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(b, fill(b, 65536, 3), MPI_INT, 1, 2, MPI_COMM_WORLD);  /* exactly 262,144 bytes */
        MPI_Ssend(a, fill(a, n, 4), MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Probe(0, 2, MPI_COMM_WORLD, &st);                         /* the long one, whole */
        MPI_Get_count(&st, MPI_INT, &count);
        probe_count = count == n && st.MPI_TAG == 2 && st.MPI_SOURCE == 0;
        MPI_Probe(0, 2, MPI_COMM_WORLD, &st);                         /* again: the same */
        MPI_Get_count(&st, MPI_INT, &count);
        probe_count = probe_count && count == n;
        MPI_Recv(small, 4, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);  /* sent first: comes first */
        ordered = st.MPI_TAG == 1 && small[0] == 7 && small[3] == 10;
        MPI_Recv(a, n, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        long_ok = st.MPI_TAG == 2 && count == n && same(a, n, 2);
        int flag = 0;
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        exact_ok = count == 65536;
        MPI_Recv(b, 65536, MPI_INT, 0, 2, MPI_COMM_WORLD, &st);
        exact_ok = exact_ok && same(b, 65536, 3);
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        ssend_ok = count == n && st.MPI_TAG == 3;
        MPI_Recv(a, n, MPI_INT, 0, 3, MPI_COMM_WORLD, &st);
        ssend_ok = ssend_ok && same(a, n, 4);
    }
    check("probe counts the whole message", probe_count);
    check("earlier message first", ordered);
    check("probed message received", long_ok);
    check("exactly msg_max bytes", exact_ok);
    check("probed ssend completes", ssend_ok);
    if (rank == 0)
        printf("%s\n", fails ? "FAILED" : "all ok");
    free(a);
    MPI_Finalize();
    return 0;
}
