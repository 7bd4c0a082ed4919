/* Small calls: MPI_Alloc_mem and MPI_Free_mem (MPI-3.1 8.2), MPI_Pcontrol
 * (14.2.4), the MPI_Count forms MPI_Type_size_x, MPI_Type_get_extent_x,
 * MPI_Type_get_true_extent_x and MPI_Get_elements_x (4.1.5, 4.1.8,
 * 4.1.11), MPI_Status_set_elements(_x) and MPI_Status_set_cancelled
 * (13.3), MPI_Irsend (3.7.2), MPI_Comm_test_inter (6.6.1), MPI_Aint_add
 * and MPI_Aint_diff (4.1.12), MPI_Comm_get_parent (10.3.2),
 * MPI_Type_set_name and MPI_Type_get_name (6.8; a type made
 * from a named one is left out: Open MPI 4.1 names it "Dup ..." where the
 * standard gives an unnamed type the empty name). Each result is
 * checked against the standard's values for a vector of 3 blocks of 2
 * ints, stride 4, and its resized form; a ring passes 5 ints of it. Needs
 * 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size, ok;

    /* memory: written end to end, freed; size 0 too */
    int *mem = NULL;
    char *none = NULL;
    ok = MPI_Alloc_mem(1000 * sizeof(int), MPI_INFO_NULL, &mem) == MPI_SUCCESS && mem;
    for (int i = 0; ok && i < 1000; i++)
        mem[i] = i;
    for (int i = 0; ok && i < 1000; i++)
        ok &= mem[i] == i;
    ok &= MPI_Free_mem(mem) == MPI_SUCCESS;
    ok &= MPI_Alloc_mem(0, MPI_INFO_NULL, &none) == MPI_SUCCESS && MPI_Free_mem(none) == MPI_SUCCESS;
    check("alloc_mem, free_mem", ok);
    check("pcontrol", MPI_Pcontrol(0) == MPI_SUCCESS && MPI_Pcontrol(1, "x", 2) == MPI_SUCCESS);
    /* address arithmetic (4.1.12) and a parent (10.3.2): none, not spawned */
    MPI_Aint a0, a5;
    MPI_Comm parent = MPI_COMM_WORLD;
    MPI_Get_address(&mem, &a0);
    MPI_Get_address((char *)&mem + 5, &a5);
    check("aint_add, aint_diff", MPI_Aint_add(a0, 5) == a5 && MPI_Aint_diff(a5, a0) == 5);
    check("comm_get_parent", MPI_Comm_get_parent(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL);

    /* 3 blocks of 2 ints, stride 4: 6 ints of data, extent 10 ints */
    MPI_Datatype vec, wide;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_create_resized(vec, -2 * (MPI_Aint)sizeof(int), 16 * sizeof(int), &wide);
    MPI_Type_commit(&vec);
    MPI_Type_commit(&wide);
    MPI_Count sz = -1, lb = -1, ext = -1, tlb = -1, text = -1;
    int isz;
    MPI_Type_size(vec, &isz);
    MPI_Type_size_x(vec, &sz);
    ok = sz == 6 * (MPI_Count)sizeof(int) && sz == isz;
    MPI_Type_get_extent_x(vec, &lb, &ext);
    ok &= lb == 0 && ext == 10 * (MPI_Count)sizeof(int);
    MPI_Type_get_extent_x(wide, &lb, &ext);
    MPI_Type_get_true_extent_x(wide, &tlb, &text);
    ok &= lb == -2 * (MPI_Count)sizeof(int) && ext == 16 * (MPI_Count)sizeof(int) && tlb == 0 &&
          text == 10 * (MPI_Count)sizeof(int);
    check("size_x, extent_x, true_extent_x", ok);
    if (rank == 0)
        printf("vector: size %lld, extent %lld; resized: lb %lld, extent %lld, true lb %lld, true extent %lld ints\n",
               sz / (MPI_Count)sizeof(int), (MPI_Count)10, lb / (MPI_Count)sizeof(int),
               ext / (MPI_Count)sizeof(int), tlb / (MPI_Count)sizeof(int), text / (MPI_Count)sizeof(int));

    /* 5 ints received in a vector: 5 elements, no whole vector */
    int five[5] = { rank, rank + 1, rank + 2, rank + 3, rank + 4 }, into[10];
    MPI_Status st;
    MPI_Count el = -1;
    int iel = -1, cnt = -1;
    MPI_Sendrecv(five, 5, MPI_INT, to, 1, into, 1, vec, from, 1, MPI_COMM_WORLD, &st);
    MPI_Get_elements_x(&st, vec, &el);
    MPI_Get_elements(&st, vec, &iel);
    MPI_Get_count(&st, vec, &cnt);
    check("get_elements_x", el == 5 && iel == 5 && cnt == MPI_UNDEFINED && into[0] == from && into[5] == from + 3);

    /* a status set by the program reads back as set */
    MPI_Status s;
    memset(&s, 0, sizeof s);
    MPI_Status_set_elements(&s, MPI_INT, 7);
    MPI_Get_count(&s, MPI_INT, &cnt);
    MPI_Get_elements(&s, MPI_INT, &iel);
    ok = cnt == 7 && iel == 7;
    MPI_Status_set_elements(&s, vec, 12);
    MPI_Get_count(&s, vec, &cnt);
    MPI_Get_elements_x(&s, vec, &el);
    ok &= cnt == 2 && el == 12;
    MPI_Status_set_elements_x(&s, vec, 13);
    MPI_Get_count(&s, vec, &cnt);
    MPI_Get_elements(&s, vec, &iel);
    ok &= cnt == MPI_UNDEFINED && iel == 13;
    MPI_Get_count(&s, MPI_INT, &cnt);
    ok &= cnt == 13;
    int fl = -1;
    MPI_Status_set_cancelled(&s, 1);
    MPI_Test_cancelled(&s, &fl);
    ok &= fl == 1;
    MPI_Status_set_cancelled(&s, 0);
    MPI_Test_cancelled(&s, &fl);
    ok &= fl == 0;
    check("status_set_elements", ok);
    if (rank == 0)
        printf("13 elements set of the vector: count %d, elements %d\n", cnt, iel);

    /* names: the standard's for basic types, empty for a new type, then
     * the program's */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    const MPI_Datatype basic[] = { MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_BYTE, MPI_2INT, MPI_UINT64_T };
    for (int i = 0; i < 6; i++) {
        MPI_Type_get_name(basic[i], name, &len);
        if (rank == 0)
            printf("name %d: %s (%d)\n", i, name, len);
    }
    MPI_Type_get_name(vec, name, &len);
    ok = len == 0 && name[0] == 0;
    MPI_Type_set_name(vec, "every other pair");
    MPI_Type_get_name(vec, name, &len);
    ok &= len == 16 && !strcmp(name, "every other pair");
    MPI_Type_set_name(vec, "column");
    MPI_Type_get_name(vec, name, &len);
    ok &= len == 6 && !strcmp(name, "column");
    check("type names", ok);
    if (rank == 0)
        printf("named: %s\n", "column");

    MPI_Type_free(&vec);
    MPI_Type_free(&wide);
    MPI_Datatype pair;               /* a new type has no name, whatever type was named before */
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_get_name(pair, name, &len);
    check("a new type is unnamed", len == 0 && name[0] == 0);
    MPI_Type_free(&pair);
    /* MPI_Irsend (3.7.2): the receive posted before the barrier, the
     * ready-mode send after it; MPI_Comm_test_inter (6.6.1) of
     * intracommunicators is false */
    int rs = rank * 7, rr = -1, inter = -1, inter2 = -1;
    MPI_Request rq[2];
    MPI_Comm dupw;
    MPI_Irecv(&rr, 1, MPI_INT, from, 11, MPI_COMM_WORLD, &rq[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irsend(&rs, 1, MPI_INT, to, 11, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Comm_dup(MPI_COMM_WORLD, &dupw);
    MPI_Comm_test_inter(MPI_COMM_WORLD, &inter);
    MPI_Comm_test_inter(dupw, &inter2);
    MPI_Comm_free(&dupw);
    check("irsend, comm_test_inter", rr == from * 7 && inter == 0 && inter2 == 0);
    if (rank == 0)
        printf(fails ? "misc_calls: FAILED\n" : "misc_calls: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
