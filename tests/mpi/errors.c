/* The MPI library's failure paths, one per argument (tests/mpi/run.sh):
 *   rank     rank 1 sends to a rank the communicator lacks (fatal)
 *   interall every rank calls MPI_Alltoall on an intercommunicator of
 *            the even and the odd ranks, a collective the library does
 *            not take one for (fatal)
 *   intercalls under MPI_ERRORS_RETURN, on that intercommunicator:
 *            MPI_Alltoall, MPI_Reduce, MPI_Comm_split, MPI_Ibarrier,
 *            MPI_Allreduce with MPI_IN_PLACE and MPI_Bcast from a root
 *            past the remote group; MPI_Comm_remote_size of
 *            MPI_COMM_WORLD; rank 0 prints the classes returned
 *   tag      rank 0 receives with a tag above MPI_TAG_UB (fatal)
 *   root     every rank broadcasts from root -4 (fatal)
 *   abort    rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7)
 *   cabort   rank 3 calls the C library's abort()
 *   oom      rank 1 asks malloc for 100 MiB, more than a node of the
 *            default RAM has, and returns 1 when it gets NULL; given the
 *            memory (ram_mib=128), it writes all of it and checks it
 *   return   rank 2 returns 3 from main
 *   noinit   rank 0 sends before MPI_Init
 *   callerr  rank 2 calls MPI_Comm_call_errhandler(MPI_COMM_WORLD,
 *            MPI_ERR_OTHER): MPI_ERRORS_ARE_FATAL ends it (fatal)
 *   trunc    under MPI_ERRORS_RETURN, rank 1 receives 8 ints into room for 4:
 *            it prints the error class MPI_Recv returned and goes on
 *   nullbuf  rank 0 sends 4 ints from a null pointer (fatal)
 *   inplace  rank 2 receives into MPI_IN_PLACE (fatal)
 *   inplacerecv  every rank's MPI_Allreduce has MPI_IN_PLACE as its
 *            receive buffer (fatal)
 *   buffers  under MPI_ERRORS_RETURN, the three above and MPI_Isend and
 *            MPI_Sendrecv_replace of such buffers: rank 0 prints the
 *            classes returned; a null buffer of no elements is sent and
 *            received (MPI_SUCCESS, the last)
 *   root1    every rank broadcasts from root -1 (fatal)
 *   roots    under MPI_ERRORS_RETURN, every rank calls MPI_Bcast,
 *            MPI_Reduce, MPI_Gather, MPI_Scatter, MPI_Gatherv and
 *            MPI_Ibcast with root -1; rank 0 prints the classes returned
 *   nullreq  rank 1's MPI_Isend has a null pointer as its request (fatal)
 *   nullouts under MPI_ERRORS_RETURN, every rank makes calls with a null
 *            pointer where each writes its result (and MPI_Get_count of
 *            MPI_STATUS_IGNORE); rank 0 prints the classes returned
 *   waitneg  rank 0 waits for -1 requests (fatal)
 *   counts   under MPI_ERRORS_RETURN, rank 0 calls the calls of arrays of
 *            requests with count -1, then with a null array of 2; it
 *            prints the classes returned
 *   nullcounts  every rank's MPI_Reduce_scatter has a null pointer as
 *            its counts (fatal)
 *   nulldispls  every rank's MPI_Alltoallv has a null pointer as its send
 *            displacements (fatal)
 *   bcastinplace  every rank broadcasts MPI_IN_PLACE (fatal)
 *   gatherinplace rank 1 gives MPI_IN_PLACE as its send buffer of a
 *            gather to rank 0 (fatal)
 *   inplaces under MPI_ERRORS_RETURN, every rank calls every collective
 *            with MPI_IN_PLACE where that rank may not give it (the root
 *            one buffer, the others another, as each call has it); ranks
 *            0 (the root) and 1 print the classes returned
 *   keyval   rank 1 gets an attribute of a keyval it freed (fatal)
 *   copyfail every rank duplicates MPI_COMM_WORLD, which has an attribute
 *            whose copy callback returns MPI_ERR_OTHER (fatal)
 *   nthkey   rank 0 asks for key 3 of an info of 3 keys (fatal)
 *   infokey  rank 2 sets a key of 256 characters (fatal)
 *   codes    rank 0 adds error classes for ever (fatal)
 *   matchsize rank 0 asks MPI_Type_match_size for a real of 16 bytes,
 *            which an ARM node has not (fatal)
 *   rmaepoch rank 2 puts into a window before its first fence (fatal)
 *   rmatype  rank 2 puts to a strided target datatype (fatal)
 *   wins     every rank makes windows for ever (fatal) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy_fails(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)x, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

static void print_classes(const char *mode, const int *e, int n)
{
    for (int i = 0; i < n; i++) {
        char s[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(e[i], s, &len);
        printf("%s %d: %s\n", mode, i, s);
    }
}

/* Calls with a null pointer where they write: a request, a new object,
 * an int. Each returns before it sends anything. */
static void null_outputs(int rank, int size)
{
    MPI_Comm cart;
    MPI_Group g;
    MPI_Status st = { 0 };
    MPI_Request none = MPI_REQUEST_NULL;
    int buf[4] = { 0 }, one = 1, k = 0, e[30], n = 0, to = (rank + 1) % size;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &one, 0, &cart);
    e[n++] = MPI_Isend(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Issend(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Ibsend(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Irecv(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Send_init(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Recv_init(buf, 1, MPI_INT, to, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Ibarrier(MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Ibcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Ialltoall(buf, 0, MPI_INT, buf, 0, MPI_INT, MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Ineighbor_allgather(buf, 1, MPI_INT, buf + 1, 1, MPI_INT, cart, NULL);
    e[n++] = MPI_Test(&none, NULL, MPI_STATUS_IGNORE);
    e[n++] = MPI_Testall(1, &none, NULL, MPI_STATUSES_IGNORE);
    e[n++] = MPI_Waitany(1, &none, NULL, MPI_STATUS_IGNORE);
    e[n++] = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, NULL, MPI_STATUS_IGNORE);
    e[n++] = MPI_Get_count(&st, MPI_INT, NULL);
    e[n++] = MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &k);
    e[n++] = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Comm_size(MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Comm_dup(MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Comm_split(MPI_COMM_WORLD, 0, rank, NULL);
    e[n++] = MPI_Comm_create(MPI_COMM_WORLD, g, NULL);
    e[n++] = MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &one, 0, NULL);
    e[n++] = MPI_Graph_create(MPI_COMM_WORLD, 1, &k, &k, 0, NULL);
    e[n++] = MPI_Group_incl(g, 1, &rank, NULL);
    e[n++] = MPI_Type_contiguous(2, MPI_INT, NULL);
    e[n++] = MPI_Type_vector(2, 1, 2, MPI_INT, NULL);
    e[n++] = MPI_Type_create_resized(MPI_INT, 0, 8, NULL);
    e[n++] = MPI_Type_size(MPI_INT, NULL);
    e[n++] = MPI_Comm_set_name(MPI_COMM_WORLD, NULL);
    e[n++] = MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &k);
    if (rank == 0)
        print_classes("nullouts", e, n);
}

/* The calls of arrays of requests, with count -1 and with a null array. */
static void request_counts(void)
{
    MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int e[12], n = 0, k, flag, idx[2];
    for (int bad = 0; bad < 2; bad++) {
        int count = bad ? 2 : -1;
        MPI_Request *a = bad ? NULL : rq;
        e[n++] = MPI_Waitall(count, a, MPI_STATUSES_IGNORE);
        e[n++] = MPI_Testall(count, a, &flag, MPI_STATUSES_IGNORE);
        e[n++] = MPI_Waitany(count, a, &k, MPI_STATUS_IGNORE);
        e[n++] = MPI_Testany(count, a, &k, &flag, MPI_STATUS_IGNORE);
        e[n++] = MPI_Waitsome(count, a, &k, idx, MPI_STATUSES_IGNORE);
        e[n++] = MPI_Startall(count, a);
    }
    print_classes("counts", e, n);
}

/* Every collective with MPI_IN_PLACE where this rank may not give it;
 * root 0. */
static void in_place_refused(int rank, int size)
{
    void *ip = MPI_IN_PLACE;
    int b[64] = { 0 }, counts[16], displs[16], e[32], n = 0;
    MPI_Datatype types[16];
    MPI_Request rq;
    for (int r = 0; r < size; r++)
        counts[r] = 1, displs[r] = r, types[r] = MPI_INT;
    e[n++] = MPI_Bcast(ip, 1, MPI_INT, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Ibcast(ip, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Reduce(ip, ip, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Ireduce(ip, ip, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Gather(ip, 1, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Igather(ip, 1, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Gatherv(ip, 1, MPI_INT, ip, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Igatherv(ip, 1, MPI_INT, ip, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Scatter(ip, 1, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Iscatter(ip, 1, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Scatterv(ip, counts, displs, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD);
    e[n++] = MPI_Iscatterv(ip, counts, displs, MPI_INT, ip, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Allgather(b, 1, MPI_INT, ip, 1, MPI_INT, MPI_COMM_WORLD);
    e[n++] = MPI_Iallgather(b, 1, MPI_INT, ip, 1, MPI_INT, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Allgatherv(b, 1, MPI_INT, ip, counts, displs, MPI_INT, MPI_COMM_WORLD);
    e[n++] = MPI_Iallgatherv(b, 1, MPI_INT, ip, counts, displs, MPI_INT, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Alltoall(b, 1, MPI_INT, ip, 1, MPI_INT, MPI_COMM_WORLD);
    e[n++] = MPI_Ialltoall(b, 1, MPI_INT, ip, 1, MPI_INT, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Alltoallv(b, counts, displs, MPI_INT, ip, counts, displs, MPI_INT, MPI_COMM_WORLD);
    e[n++] = MPI_Ialltoallv(b, counts, displs, MPI_INT, ip, counts, displs, MPI_INT, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Alltoallw(b, counts, displs, types, ip, counts, displs, types, MPI_COMM_WORLD);
    e[n++] = MPI_Ialltoallw(b, counts, displs, types, ip, counts, displs, types, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Iallreduce(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Reduce_scatter(b, ip, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    e[n++] = MPI_Ireduce_scatter(b, ip, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Reduce_scatter_block(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    e[n++] = MPI_Ireduce_scatter_block(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Iscan(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Iexscan(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    e[n++] = MPI_Exscan(b, ip, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank < 2)
        print_classes("inplaces", e, n);
}

/* An intercommunicator of the even and the odd ranks, and calls that
 * refuse it (mode interall, intercalls). */
static void inter_calls(const char *mode, int rank)
{
    MPI_Comm local, ic, part;
    int b[8] = { 0 }, r[8], e[8], n = 0, flag;
    MPI_Request rq;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 3, &ic);
    if (!strcmp(mode, "interall"))
        MPI_Alltoall(b, 1, MPI_INT, r, 1, MPI_INT, ic);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    e[n++] = MPI_Alltoall(b, 1, MPI_INT, r, 1, MPI_INT, ic);
    e[n++] = MPI_Reduce(b, r, 1, MPI_INT, MPI_SUM, 0, ic);
    e[n++] = MPI_Comm_split(ic, 0, 0, &part);
    e[n++] = MPI_Ibarrier(ic, &rq);
    e[n++] = MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_INT, MPI_SUM, ic);
    e[n++] = MPI_Bcast(b, 1, MPI_INT, 9, ic);
    e[n++] = MPI_Comm_remote_size(MPI_COMM_WORLD, &flag);
    if (rank == 0)
        print_classes("intercalls", e, n);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rank, size, buf[8] = { 0 };
    if (!strcmp(mode, "noinit"))
        MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(mode, "interall") || !strcmp(mode, "intercalls"))
        inter_calls(mode, rank);
    if (!strcmp(mode, "rmaepoch") || !strcmp(mode, "rmatype")) {
        MPI_Win w;                       /* a put before any fence; one to a strided target type */
        MPI_Datatype every2;
        MPI_Type_vector(2, 1, 2, MPI_INT, &every2);
        MPI_Type_commit(&every2);
        MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
        if (!strcmp(mode, "rmatype"))
            MPI_Win_fence(0, w);
        if (rank == 2)
            MPI_Put(buf, 2, MPI_INT, 0, 0, 1, strcmp(mode, "rmatype") ? MPI_INT : every2, w);
        MPI_Win_fence(0, w);
    }
    if (!strcmp(mode, "rank") && rank == 1)
        MPI_Send(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "tag") && rank == 0)
        MPI_Recv(buf, 1, MPI_INT, 1, 40000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!strcmp(mode, "root"))
        MPI_Bcast(buf, 1, MPI_INT, -4, MPI_COMM_WORLD);
    if (!strcmp(mode, "callerr") && rank == 2)
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    if (!strcmp(mode, "abort") && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 7);
    if (!strcmp(mode, "oom") && rank == 1) {
        unsigned char *big = malloc(100u << 20);
        if (!big)
            return 1;
        memset(big, 0x5a, 100u << 20);
        for (size_t i = 0; i < 100u << 20; i += 4093)
            if (big[i] != 0x5a)
                return 2;
        free(big);
    }
    if (!strcmp(mode, "comms"))          /* past the communicators held at once */
        for (MPI_Comm c;;)
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (!strcmp(mode, "wins"))           /* past the windows held at once */
        for (MPI_Win w;;)
            MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    if (!strcmp(mode, "dtypes") && rank == 1)   /* past the derived types held at once */
        for (MPI_Datatype t;;)
            MPI_Type_contiguous(2, MPI_INT, &t);
    if (!strcmp(mode, "keyval") && rank == 1) {
        int k, stale, flag;
        void *v;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
        stale = k;
        MPI_Comm_free_keyval(&k);
        MPI_Comm_get_attr(MPI_COMM_WORLD, stale, &v, &flag);
    }
    if (!strcmp(mode, "copyfail")) {
        int k;
        MPI_Comm c;
        MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &k, NULL);
        MPI_Comm_set_attr(MPI_COMM_WORLD, k, NULL);
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    }
    if (!strcmp(mode, "nthkey") && rank == 0) {
        MPI_Info info;
        char key[MPI_MAX_INFO_KEY + 1];
        MPI_Info_create(&info);
        MPI_Info_set(info, "a", "1");
        MPI_Info_set(info, "b", "2");
        MPI_Info_set(info, "c", "3");
        MPI_Info_get_nthkey(info, 3, key);
    }
    if (!strcmp(mode, "infokey") && rank == 2) {
        MPI_Info info;
        char key[257];
        memset(key, 'k', 256);
        key[256] = 0;
        MPI_Info_create(&info);
        MPI_Info_set(info, key, "1");
    }
    if (!strcmp(mode, "codes") && rank == 0)   /* past the program's error classes and codes */
        for (int c;;)
            MPI_Add_error_class(&c);
    if (!strcmp(mode, "matchsize") && rank == 0) {
        MPI_Datatype t;
        MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &t);
    }
    if (!strcmp(mode, "cabort") && rank == 3)
        abort();
    if (!strcmp(mode, "return") && rank == 2)
        return 3;
    if (!strcmp(mode, "trunc")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (rank == 0)
            MPI_Send(buf, 8, MPI_INT, 1, 5, MPI_COMM_WORLD);
        if (rank == 1) {
            char s[MPI_MAX_ERROR_STRING];
            int len, e = MPI_Recv(buf, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Error_string(e, s, &len);
            printf("trunc: MPI_Recv returned %s\n", s);
        }
    }
    if (!strcmp(mode, "nullbuf") && rank == 0)
        MPI_Send(NULL, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "inplace") && rank == 2)
        MPI_Recv(MPI_IN_PLACE, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!strcmp(mode, "inplacerecv"))
        MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!strcmp(mode, "buffers")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Request rq;
        int e[6] = { 0 };
        if (rank == 0) {
            e[0] = MPI_Send(NULL, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
            e[1] = MPI_Isend(MPI_IN_PLACE, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &rq);
            e[2] = MPI_Recv(NULL, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            e[3] = MPI_Sendrecv_replace(MPI_IN_PLACE, 1, MPI_INT, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            e[5] = MPI_Send(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD);
        }
        if (rank == 1)
            e[5] = MPI_Recv(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        e[4] = MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            for (int i = 0; i < 6; i++) {
                char s[MPI_MAX_ERROR_STRING];
                int len;
                MPI_Error_string(e[i], s, &len);
                printf("buffers %d: %s\n", i, s);
            }
    }
    if (!strcmp(mode, "root1"))
        MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD);
    if (!strcmp(mode, "roots")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int all[64], counts[16] = { 0 }, displs[16] = { 0 }, e[6];
        MPI_Request rq;
        e[0] = MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD);
        e[1] = MPI_Reduce(buf, all, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD);
        e[2] = MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, -1, MPI_COMM_WORLD);
        e[3] = MPI_Scatter(all, 1, MPI_INT, buf, 1, MPI_INT, -1, MPI_COMM_WORLD);
        e[4] = MPI_Gatherv(buf, 0, MPI_INT, all, counts, displs, MPI_INT, -1, MPI_COMM_WORLD);
        e[5] = MPI_Ibcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD, &rq);
        if (rank == 0)
            for (int i = 0; i < 6; i++) {
                char s[MPI_MAX_ERROR_STRING];
                int len;
                MPI_Error_string(e[i], s, &len);
                printf("roots %d: %s\n", i, s);
            }
    }
    if (!strcmp(mode, "nullreq") && rank == 1)
        MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL);
    if (!strcmp(mode, "waitneg") && rank == 0)
        MPI_Waitall(-1, NULL, MPI_STATUSES_IGNORE);
    if (!strcmp(mode, "bcastinplace"))
        MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "gatherinplace"))
        MPI_Gather(rank == 1 ? MPI_IN_PLACE : buf, 1, MPI_INT, buf + 4, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "nullcounts")) {
        int one[4] = { 1, 1, 1, 1 };
        MPI_Reduce_scatter(one, buf, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    if (!strcmp(mode, "nulldispls")) {
        int one[4] = { 1, 1, 1, 1 }, at[4] = { 0, 1, 2, 3 }, from[4] = { 0 };
        MPI_Alltoallv(from, one, NULL, MPI_INT, buf, one, at, MPI_INT, MPI_COMM_WORLD);
    }
    if (!strcmp(mode, "nullouts") || !strcmp(mode, "counts") || !strcmp(mode, "inplaces"))
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!strcmp(mode, "nullouts"))
        null_outputs(rank, size);
    if (!strcmp(mode, "counts") && rank == 0)
        request_counts();
    if (!strcmp(mode, "inplaces"))
        in_place_refused(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
