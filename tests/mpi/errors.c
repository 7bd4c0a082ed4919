/* The MPI library's failure paths, one per argument (tests/mpi/run.sh):
 *   rank     rank 1 sends to a rank the communicator lacks (fatal)
 *   tag      rank 0 receives with a tag above MPI_TAG_UB (fatal)
 *   root     every rank broadcasts from root -4 (fatal)
 *   abort    rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7)
 *   cabort   rank 3 calls the C library's abort()
 *   oom      rank 1 asks malloc for 100 MiB, more than a node of the
 *            default RAM has, and returns 1 when it gets NULL; given the
 *            memory (ram_mib=128), it writes all of it and checks it
 *   return   rank 2 returns 3 from main
 *   noinit   rank 0 sends before MPI_Init
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
 *            MPI_Ibcast with root -1; rank 0 prints the classes returned */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rank, size, buf[8] = { 0 };
    if (!strcmp(mode, "noinit"))
        MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(mode, "rank") && rank == 1)
        MPI_Send(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    if (!strcmp(mode, "tag") && rank == 0)
        MPI_Recv(buf, 1, MPI_INT, 1, 40000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!strcmp(mode, "root"))
        MPI_Bcast(buf, 1, MPI_INT, -4, MPI_COMM_WORLD);
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
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
