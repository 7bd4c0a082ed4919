/* MPI groups (MPI-3.1 section 6.3) and the communicators made from them
 * (MPI_Comm_create, MPI_Comm_create_group). A group is a list of nodes;
 * MPI_GROUP_EMPTY is group 0. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

/* The table of groups grows as a program makes them (MPICH's
 * group/groupcreate holds thousands at once); entry 0 is MPI_GROUP_EMPTY. */
struct group { int used, n; int *node; };
static struct group empty_only[1] = { { .used = 1 } };
static struct group *groups = empty_only;
static int ngroups = 1;

static int group_ok(MPI_Group g)
{
    return g >= 0 && g < ngroups && groups[g].used;
}

int mpii_group_ok(MPI_Group g)
{
    return group_ok(g);
}

/* A free entry of the table, which doubles when it is full; 0 if there is
 * no memory for it. */
static int free_entry(void)
{
    for (int g = 1; g < ngroups; g++)
        if (!groups[g].used)
            return g;
    int n = 2 * ngroups < 16 ? 16 : 2 * ngroups;
    struct group *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return 0;
    memcpy(t, groups, (size_t)ngroups * sizeof *t);
    memset(t + ngroups, 0, (size_t)(n - ngroups) * sizeof *t);
    if (groups != empty_only)
        free(groups);
    groups = t;
    int g = ngroups;
    ngroups = n;
    return g;
}
#define GROUP_OR_ERR(g)                                                                        \
    if (!group_ok(g))                                                                          \
    return mpii_err(MPI_COMM_WORLD, MPI_ERR_GROUP, "group %d is not valid", g)

/* A new group of n nodes (node[] copied), in *out; a group of none is
 * MPI_GROUP_EMPTY, as MPICH and Open MPI give it (MPI-3.1 6.3.2 so has
 * MPI_Group_incl of none). */
static int group_new(const int *node, int n, MPI_Group *out)
{
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    int g = free_entry();
    if (!g)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d groups at once", ngroups + 1);
    int *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
    if (!copy)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d bytes for a group", (int)(n * sizeof *copy));
    memcpy(copy, node, (size_t)n * sizeof *copy);
    groups[g] = (struct group){ .used = 1, .n = n, .node = copy };
    *out = g;
    return MPI_SUCCESS;
}

/* The rank of node in g, or MPI_UNDEFINED. */
static int rank_in(MPI_Group g, int node)
{
    for (int r = 0; r < groups[g].n; r++)
        if (groups[g].node[r] == node)
            return r;
    return MPI_UNDEFINED;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    MPII_ENTER("MPI_Comm_group");
    ANY_COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, group);
    if (c->used == MPII_USED_INTER)  /* the local group (MPI-3.1 6.6.1) */
        c = &mpii_comms[mpii_local(c)];
    return group_new(c->world, c->size, group);
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    MPII_ENTER("MPI_Comm_remote_group");
    struct mpii_comm *c = mpii_inter(comm);
    if (!c)
        return mpii_not_inter(comm);
    OUT_OR_ERR(comm, group);
    return group_new(c->world, c->size, group);   /* an intercommunicator's world is its remote group (mpii.h) */
}

int MPI_Group_size(MPI_Group g, int *size)
{
    MPII_ENTER("MPI_Group_size");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, size);
    *size = groups[g].n;
    return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group g, int *rank)
{
    MPII_ENTER("MPI_Group_rank");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, rank);
    *rank = rank_in(g, mpii_comms[MPI_COMM_SELF].world[0]);
    return MPI_SUCCESS;
}

/* ranks[0..n) distinct and in 0..size-1; 0 or an error class. */
static int check_ranks(MPI_Group g, int n, const int *ranks)
{
    if (n < 0 || n > groups[g].n)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "%d ranks of a group of %d", n, groups[g].n);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= groups[g].n)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_RANK, "rank %d; accepted: 0..%d", ranks[i], groups[g].n - 1);
        for (int j = 0; j < i; j++)
            if (ranks[j] == ranks[i])
                return mpii_err(MPI_COMM_WORLD, MPI_ERR_RANK, "rank %d is listed twice", ranks[i]);
    }
    return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group g, int n, const int ranks[], MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_incl");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    int e = check_ranks(g, n, ranks);
    int *node = e ? NULL : malloc((size_t)(n > 0 ? n : 1) * sizeof *node);
    if (e || !node)
        return e ? e : mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d bytes for a group", (int)(n * sizeof *node));
    for (int i = 0; i < n; i++)
        node[i] = groups[g].node[ranks[i]];
    e = group_new(node, n, newgroup);
    free(node);
    return e;
}

int MPI_Group_excl(MPI_Group g, int n, const int ranks[], MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_excl");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    int e = check_ranks(g, n, ranks), k = 0;
    int *node = e ? NULL : malloc((size_t)(groups[g].n > 0 ? groups[g].n : 1) * sizeof *node);
    if (e || !node)
        return e ? e : mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d bytes for a group", (int)(groups[g].n * sizeof *node));
    for (int r = 0; r < groups[g].n; r++) {
        int out = 0;
        for (int i = 0; i < n; i++)
            out |= ranks[i] == r;
        if (!out)
            node[k++] = groups[g].node[r];
    }
    e = group_new(node, k, newgroup);
    free(node);
    return e;
}

int MPI_Group_translate_ranks(MPI_Group g1, int n, const int ranks1[], MPI_Group g2, int ranks2[])
{
    MPII_ENTER("MPI_Group_translate_ranks");
    GROUP_OR_ERR(g1);
    GROUP_OR_ERR(g2);
    if (n > 0)
        OUT_OR_ERR(MPI_COMM_WORLD, ranks2);
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks1[i] < 0 || ranks1[i] >= groups[g1].n)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_RANK, "rank %d; accepted: 0..%d", ranks1[i], groups[g1].n - 1);
        ranks2[i] = rank_in(g2, groups[g1].node[ranks1[i]]);
    }
    return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result)
{
    MPII_ENTER("MPI_Group_compare");
    GROUP_OR_ERR(g1);
    GROUP_OR_ERR(g2);
    OUT_OR_ERR(MPI_COMM_WORLD, result);
    int same = groups[g1].n == groups[g2].n, order = same;
    for (int r = 0; r < groups[g1].n && same; r++) {
        order &= groups[g1].node[r] == groups[g2].node[r];
        same &= rank_in(g2, groups[g1].node[r]) != MPI_UNDEFINED;
    }
    *result = order ? MPI_IDENT : same ? MPI_SIMILAR : MPI_UNEQUAL;
    return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group *group)
{
    MPII_ENTER("MPI_Group_free");
    OUT_OR_ERR(MPI_COMM_WORLD, group);
    GROUP_OR_ERR(*group);
    if (*group == MPI_GROUP_EMPTY) {  /* as a constructor gives it: nothing to free, as in MPICH and Open MPI */
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    }
    free(groups[*group].node);
    groups[*group].used = 0;
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* Every rank of comm calls it, each with a group that is the same as
 * every other member's of it or disjoint from theirs (MPI-3.1 6.4.2): one
 * communicator a group. A split whose color names the group by its first
 * member's node, which no other group holds, and whose key is the rank in
 * the group. */
int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_create");
    GROUP_OR_ERR(g);
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    int r = rank_in(g, c->world[c->rank]);
    int e = MPI_Comm_split(comm, r == MPI_UNDEFINED ? MPI_UNDEFINED : groups[g].node[0], r, newcomm);
    mpii_call = "MPI_Comm_create";
    return e;
}

/* The group's members agree on a context through the group's first
 * member, on comm's collective context with the caller's tag; a rank not
 * in the group (MPI_GROUP_EMPTY, say) gets MPI_COMM_NULL without sending. */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag, MPI_Comm *newcomm)
{
    MPII_ENTER("MPI_Comm_create_group");
    GROUP_OR_ERR(g);
    COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, newcomm);
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return mpii_err(comm, MPI_ERR_TAG, "tag %d; accepted: 0..%d", tag, MPI_TAG_UB_VALUE);
    int n = groups[g].n, me = rank_in(g, c->world[c->rank]), e = MPI_SUCCESS;
    int *list = malloc((size_t)(n > 0 ? n : 1) * sizeof *list);
    if (!list)
        return mpii_err(comm, MPI_ERR_NO_MEM, "%d bytes for a communicator", (int)(n * sizeof *list));
    for (int i = 0; i < n && !e; i++) {              /* the members' ranks in comm */
        int r = 0;
        while (r < c->size && c->world[r] != groups[g].node[i])
            r++;
        if (r == c->size)
            e = mpii_err(comm, MPI_ERR_GROUP, "the group's rank %d is not in the communicator", i);
        list[i] = r;
    }
    if (!e && me == MPI_UNDEFINED) {   /* MPI-3.1 6.4.2: a local call, giving MPI_COMM_NULL */
        free(list);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    uint32_t ctx = 0;
    tag = MPII_TAG_CREATE + tag % (MPI_TAG_UB_VALUE - MPII_TAG_CREATE);   /* below TAG_COMM, apart from the others */
    if (!e)
        e = mpii_ctx_agree(c, list, n, me, tag, &ctx);
    if (!e)
        e = mpii_comm_make(comm, list, n, me, ctx, newcomm);
    free(list);
    return e;
}

/* --- set operations and ranges (MPI-3.1 6.3.2) --------------------------- */

/* The nodes of g1 that are (in_g2 1) or are not (0) in g2, in g1's order,
 * or (add_rest) every node of g1 then those of g2 not in g1, in g2's
 * order: a new group. */
static int group_combine(MPI_Group g1, MPI_Group g2, int in_g2, int add_rest, MPI_Group *out)
{
    int n = groups[g1].n + (add_rest ? groups[g2].n : 0), k = 0;
    int *node = malloc((size_t)(n > 0 ? n : 1) * sizeof *node);
    if (!node)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d bytes for a group", (int)(n * sizeof *node));
    for (int r = 0; r < groups[g1].n; r++)
        if (add_rest || (rank_in(g2, groups[g1].node[r]) != MPI_UNDEFINED) == in_g2)
            node[k++] = groups[g1].node[r];
    for (int r = 0; add_rest && r < groups[g2].n; r++)
        if (rank_in(g1, groups[g2].node[r]) == MPI_UNDEFINED)
            node[k++] = groups[g2].node[r];
    int e = group_new(node, k, out);
    free(node);
    return e;
}

/* Every node of g1, then those of g2 not in g1. */
int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_union");
    GROUP_OR_ERR(g1);
    GROUP_OR_ERR(g2);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    return group_combine(g1, g2, 1, 1, newgroup);
}

/* The nodes of g1 that are in g2, in g1's order. */
int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_intersection");
    GROUP_OR_ERR(g1);
    GROUP_OR_ERR(g2);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    return group_combine(g1, g2, 1, 0, newgroup);
}

/* The nodes of g1 that are not in g2, in g1's order. */
int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_difference");
    GROUP_OR_ERR(g1);
    GROUP_OR_ERR(g2);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    return group_combine(g1, g2, 0, 0, newgroup);
}

/* The ranks of n triplets (first, last, stride) of g, in order, in a
 * malloc'ed *list of *count; every rank in g, the stride not 0, and no
 * rank twice (MPI-3.1 6.3.2, MPI_GROUP_RANGE_INCL). */
static int expand_ranges(MPI_Group g, int n, const int ranges[][3], int **list, int *count)
{
    *list = NULL;
    *count = 0;
    if (n < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "%d ranges; accepted: 0 or more", n);
    if (n > 0 && !ranges)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter ranges for %d ranges", n);
    long total = 0;
    for (int i = 0; i < n; i++) {
        int f = ranges[i][0], l = ranges[i][1], s = ranges[i][2];
        if (s == 0)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "range %d (%d, %d, %d) has stride 0", i, f, l, s);
        if (f < 0 || f >= groups[g].n || l < 0 || l >= groups[g].n)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_RANK, "range %d (%d, %d, %d); accepted ranks: 0..%d", i, f, l,
                            s, groups[g].n - 1);
        if ((s > 0 && l >= f) || (s < 0 && l <= f))
            total += (l - f) / s + 1;
    }
    if (total > groups[g].n)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_RANK, "the ranges name %ld ranks of a group of %d", total,
                        groups[g].n);
    int *r = malloc((size_t)(total > 0 ? total : 1) * sizeof *r), k = 0;
    if (!r)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%ld ranks of ranges", total);
    for (int i = 0; i < n; i++)
        for (int x = ranges[i][0]; ranges[i][2] > 0 ? x <= ranges[i][1] : x >= ranges[i][1]; x += ranges[i][2])
            r[k++] = x;
    int e = check_ranks(g, k, r);
    if (e) {
        free(r);
        return e;
    }
    *list = r;
    *count = k;
    return MPI_SUCCESS;
}

int MPI_Group_range_incl(MPI_Group g, int n, int ranges[][3], MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_range_incl");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    int *list, k, e = expand_ranges(g, n, (const int (*)[3])ranges, &list, &k);
    if (e)
        return e;
    e = MPI_Group_incl(g, k, list, newgroup);
    mpii_call = "MPI_Group_range_incl";
    free(list);
    return e;
}

int MPI_Group_range_excl(MPI_Group g, int n, int ranges[][3], MPI_Group *newgroup)
{
    MPII_ENTER("MPI_Group_range_excl");
    GROUP_OR_ERR(g);
    OUT_OR_ERR(MPI_COMM_WORLD, newgroup);
    int *list, k, e = expand_ranges(g, n, (const int (*)[3])ranges, &list, &k);
    if (e)
        return e;
    e = MPI_Group_excl(g, k, list, newgroup);
    mpii_call = "MPI_Group_range_excl";
    free(list);
    return e;
}
