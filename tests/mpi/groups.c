/* Group set operations and ranges (MPI-3.1 6.3.2), MPI_Comm_split_type
 * (6.4.2) and the predefined attributes (8.1.2). Rank 0 prints each
 * group's members as world ranks, which the standard fixes (union: the
 * first group's in order, then the second's not in it; intersection and
 * difference in the first group's order; a range (first, last, stride)
 * in its order); tests/mpi/run.sh compares them with Open MPI's. A
 * communicator of each of two disjoint groups, made at once, and one of a
 * group made by every rank, members or not. Groups of none; many groups.
 * Needs
 * 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

static MPI_Group world;

/* "NAME: n members: w0 w1 ..." with the world ranks of g's members */
static void show(const char *name, MPI_Group g)
{
    int n, *in, *out;
    MPI_Group_size(g, &n);
    in = malloc((n + 1) * sizeof *in);
    out = malloc((n + 1) * sizeof *out);
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(g, n, in, world, out);
    if (rank == 0) {
        printf("%s: %d members:", name, n);
        for (int i = 0; i < n; i++)
            printf(" %d", out[i]);
        printf("\n");
    }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    int n_even = (size + 1) / 2, *ev = malloc(size * sizeof *ev);
    for (int i = 0; i < n_even; i++)
        ev[i] = 2 * i;
    MPI_Group evens, odds, un, un2, inter, diff, none, rng, rngx, rev;
    MPI_Group_incl(world, n_even, ev, &evens);
    MPI_Group_excl(world, n_even, ev, &odds);
    MPI_Group_union(odds, evens, &un);
    MPI_Group_union(evens, world, &un2);
    MPI_Group_intersection(world, odds, &inter);
    MPI_Group_difference(world, evens, &diff);
    MPI_Group_difference(evens, world, &none);
    int r1[1][3] = { { size - 1, 0, -2 } }, r2[2][3] = { { 0, 0, 1 }, { size - 1, 1, -1 } };
    MPI_Group_range_incl(world, 1, r1, &rng);
    MPI_Group_range_excl(world, 1, r1, &rngx);
    MPI_Group_range_incl(world, 2, r2, &rev);
    show("union(odds, evens)", un);
    show("union(evens, world)", un2);
    show("intersection(world, odds)", inter);
    show("difference(world, evens)", diff);
    show("difference(evens, world)", none);
    show("range_incl(last..0 by -2)", rng);
    show("range_excl(last..0 by -2)", rngx);
    show("range_incl(0; last..1)", rev);

    int ru, c1, c2, c3, n;
    MPI_Group_rank(un, &ru);
    MPI_Group_compare(inter, diff, &c1);
    MPI_Group_compare(un, world, &c2);
    MPI_Group_compare(un2, world, &c3);
    MPI_Group_size(none, &n);
    int want_ru = rank % 2 ? rank / 2 : size / 2 + rank / 2;
    check("union rank", ru == want_ru);
    check("compare", c1 == MPI_IDENT && c2 == MPI_SIMILAR && c3 == (size <= 2 ? MPI_IDENT : MPI_SIMILAR) && n == 0);

    /* a communicator of a range's group */
    MPI_Comm rc;
    MPI_Comm_create(MPI_COMM_WORLD, rng, &rc);
    int sum = -1, want = 0;
    for (int r = size - 1; r >= 0; r -= 2)
        want += r;
    if (rc != MPI_COMM_NULL) {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, rc);
        MPI_Comm_free(&rc);
    }
    check("comm of a range", (size - 1 - rank) % 2 ? sum == -1 : sum == want);

    /* MPI_Comm_create of disjoint groups, the evens giving theirs and the
     * odds theirs: a communicator each (MPI-3.1 6.4.2) */
    MPI_Comm half;
    int hsize = -1, hrank = -1, hsum = -1, hwant = 0;
    MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odds : evens, &half);
    if (half != MPI_COMM_NULL) {
        MPI_Comm_size(half, &hsize);
        MPI_Comm_rank(half, &hrank);
        MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, half);
        MPI_Comm_free(&half);
    }
    for (int r = rank % 2; r < size; r += 2)
        hwant += r;
    check("create of disjoint groups", hsize == (rank % 2 ? size / 2 : n_even) && hrank == rank / 2 && hsum == hwant);

    /* MPI_Comm_create_group called by every rank: one not in the group,
     * and every rank with MPI_GROUP_EMPTY, gets MPI_COMM_NULL (MPI-3.1 6.4.2) */
    MPI_Comm gc, ec;
    int gsum = -1;
    MPI_Comm_create_group(MPI_COMM_WORLD, rng, 5, &gc);
    if (gc != MPI_COMM_NULL) {
        MPI_Allreduce(&rank, &gsum, 1, MPI_INT, MPI_SUM, gc);
        MPI_Comm_free(&gc);
    }
    MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 6, &ec);
    check("create_group, non-members", ((size - 1 - rank) % 2 ? gsum == -1 : gsum == want) && ec == MPI_COMM_NULL);

    /* a node is one process with its own memory */
    MPI_Comm sh, un_c;
    int shs = 0, shr = -1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &sh);
    MPI_Comm_size(sh, &shs);
    MPI_Comm_rank(sh, &shr);
    int one = 1, got = 0;
    MPI_Allreduce(&one, &got, 1, MPI_INT, MPI_SUM, sh);
    check("split_type shared", shs >= 1 && shr >= 0 && got == shs);
    MPI_Comm_free(&sh);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &un_c);
    check("split_type undefined", un_c == MPI_COMM_NULL);

    int *tag_ub, *wtime_global, flag1 = 0, flag2 = -1;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag1);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &wtime_global, &flag2);
    check("attr tag_ub", flag1 && *tag_ub >= 32767);
    check("attr wtime_is_global", flag2 == 0 || (flag2 == 1 && (*wtime_global == 0 || *wtime_global == 1)));

    /* a group of none is MPI_GROUP_EMPTY (MPI_Group_incl of none, MPI-3.1
     * 6.3.2; an exclusion of all, as MPICH and Open MPI give it), which the
     * program may free as it frees what it made */
    MPI_Group ginc, gexc;
    int *everyone = malloc(size * sizeof *everyone);
    for (int i = 0; i < size; i++)
        everyone[i] = i;
    MPI_Group_incl(world, 0, everyone, &ginc);
    MPI_Group_excl(world, size, everyone, &gexc);
    int empty_ok = ginc == MPI_GROUP_EMPTY && gexc == MPI_GROUP_EMPTY;
    empty_ok &= MPI_Group_free(&gexc) == MPI_SUCCESS && gexc == MPI_GROUP_NULL;
    check("empty groups", empty_ok);
    free(everyone);

    /* 300 groups at once, each of the first i % size + 1 ranks (MPICH's
     * group/groupcreate holds thousands) */
    MPI_Group many[300];
    int many_ok = 1;
    for (int i = 0; i < 300; i++) {
        int r[1][3] = { { 0, i % size, 1 } }, n_in = 0;
        many_ok &= MPI_Group_range_incl(world, 1, r, &many[i]) == MPI_SUCCESS;
        MPI_Group_size(many[i], &n_in);
        many_ok &= n_in == i % size + 1;
    }
    for (int i = 0; i < 300; i++)
        many_ok &= MPI_Group_free(&many[i]) == MPI_SUCCESS;
    check("300 groups at once", many_ok);

    MPI_Group *all[] = { &evens, &odds, &un, &un2, &inter, &diff, &rng, &rngx, &rev, &world };
    for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
        MPI_Group_free(all[i]);
    if (none != MPI_GROUP_EMPTY)
        MPI_Group_free(&none);
    free(ev);
    if (rank == 0 && !fails)
        printf("groups: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
