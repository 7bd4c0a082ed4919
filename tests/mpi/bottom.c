/* MPI_BOTTOM with a datatype of absolute addresses (MPI-3.1 4.1.5): a
 * struct's members, not contiguous (an int, then a double after padding,
 * then a short), sent and received at MPI_BOTTOM by MPI_Send, MPI_Recv,
 * MPI_Irecv, a persistent receive and MPI_Sendrecv, on a ring. Needs 1
 * rank or more. */
#include <mpi.h>
#include <stdio.h>
#include "check.h"

struct rec { int x; double y; short z; };

/* a type of r's members at their addresses */
static MPI_Datatype absolute(struct rec *r)
{
    MPI_Aint addr[3];
    int bl[3] = { 1, 1, 1 };
    MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_SHORT }, t;
    MPI_Get_address(&r->x, &addr[0]);
    MPI_Get_address(&r->y, &addr[1]);
    MPI_Get_address(&r->z, &addr[2]);
    MPI_Type_create_struct(3, bl, addr, types, &t);
    MPI_Type_commit(&t);
    return t;
}

static int from_rank(const struct rec *r, int from, int k)
{
    return r->x == 10 * from + k && r->y == from + k / 4.0 && r->z == (short)(-from - k);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    struct rec out, in;
    MPI_Datatype ot = absolute(&out), it = absolute(&in);
    const char *how[4] = { "MPI_BOTTOM: Send, Recv", "MPI_BOTTOM: Irecv, Wait", "MPI_BOTTOM: Recv_init, Start",
                           "MPI_BOTTOM: Sendrecv" };
    for (int k = 0; k < 4; k++) {
        out = (struct rec){ 10 * rank + k, rank + k / 4.0, (short)(-rank - k) };
        in = (struct rec){ -1, -1, -1 };
        MPI_Request rq;
        MPI_Status st;
        int count = -1;
        if (k == 0) {
            if (rank % 2 == 0) {
                MPI_Send(MPI_BOTTOM, 1, ot, to, k, MPI_COMM_WORLD);
                MPI_Recv(MPI_BOTTOM, 1, it, from, k, MPI_COMM_WORLD, &st);
            } else {
                MPI_Recv(MPI_BOTTOM, 1, it, from, k, MPI_COMM_WORLD, &st);
                MPI_Send(MPI_BOTTOM, 1, ot, to, k, MPI_COMM_WORLD);
            }
        } else if (k == 1) {
            MPI_Irecv(MPI_BOTTOM, 1, it, from, k, MPI_COMM_WORLD, &rq);
            MPI_Send(MPI_BOTTOM, 1, ot, to, k, MPI_COMM_WORLD);
            MPI_Wait(&rq, &st);
        } else if (k == 2) {
            MPI_Recv_init(MPI_BOTTOM, 1, it, from, k, MPI_COMM_WORLD, &rq);
            MPI_Start(&rq);
            MPI_Send(MPI_BOTTOM, 1, ot, to, k, MPI_COMM_WORLD);
            MPI_Wait(&rq, &st);
            MPI_Request_free(&rq);
        } else
            MPI_Sendrecv(MPI_BOTTOM, 1, ot, to, k, MPI_BOTTOM, 1, it, from, k, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, it, &count);
        check(how[k], from_rank(&in, from, k) && count == 1 && st.MPI_SOURCE == from && st.MPI_TAG == k);
    }
    MPI_Type_free(&ot);
    MPI_Type_free(&it);
    if (rank == 0 && !fails)
        printf("bottom: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
