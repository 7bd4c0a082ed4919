/* MPI_Type_get_envelope and MPI_Type_get_contents (MPI-3.1 4.1.13): for
 * a type of each constructor, the combiner and the integers, addresses
 * and datatypes of the call that made it, in the order of the
 * standard's table; a predefined type is MPI_COMBINER_NAMED. A type
 * named in another's recipe is given back even after the program freed
 * it, usable, and each derived type given back is freed by the program.
 * Each type is then rebuilt from its contents alone, recursively, and
 * must pack as the original does; on a ring, data sent in the original
 * type is received in the rebuilt one. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static const char *combiner_name(int c)
{
    switch (c) {
    case MPI_COMBINER_NAMED: return "named";
    case MPI_COMBINER_DUP: return "dup";
    case MPI_COMBINER_CONTIGUOUS: return "contiguous";
    case MPI_COMBINER_VECTOR: return "vector";
    case MPI_COMBINER_HVECTOR: return "hvector";
    case MPI_COMBINER_INDEXED: return "indexed";
    case MPI_COMBINER_HINDEXED: return "hindexed";
    case MPI_COMBINER_INDEXED_BLOCK: return "indexed_block";
    case MPI_COMBINER_HINDEXED_BLOCK: return "hindexed_block";
    case MPI_COMBINER_STRUCT: return "struct";
    case MPI_COMBINER_SUBARRAY: return "subarray";
    case MPI_COMBINER_RESIZED: return "resized";
    default: return "other";
    }
}

/* t's contents, asked for with the envelope's counts (Open MPI 4.1 fails
 * on larger arrays than the type needs, which the standard allows) */
static void contents(MPI_Datatype t, int *in, MPI_Aint *ad, MPI_Datatype *ty)
{
    int ni, na, nd, c;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    MPI_Type_get_contents(t, ni, na, nd, in, ad, ty);
}

/* t made again from its contents alone (a predefined type is itself) */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    int ni, na, nd, c;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    if (c == MPI_COMBINER_NAMED)
        return t;
    int *in = malloc((ni + 1) * sizeof *in);
    MPI_Aint *ad = malloc((na + 1) * sizeof *ad);
    MPI_Datatype *ty = malloc((nd + 1) * sizeof *ty), *sub = malloc((nd + 1) * sizeof *sub), out = MPI_DATATYPE_NULL;
    MPI_Type_get_contents(t, ni, na, nd, in, ad, ty);
    for (int i = 0; i < nd; i++)
        sub[i] = rebuild(ty[i]);
    switch (c) {
    case MPI_COMBINER_DUP: MPI_Type_dup(sub[0], &out); break;
    case MPI_COMBINER_CONTIGUOUS: MPI_Type_contiguous(in[0], sub[0], &out); break;
    case MPI_COMBINER_VECTOR: MPI_Type_vector(in[0], in[1], in[2], sub[0], &out); break;
    case MPI_COMBINER_HVECTOR: MPI_Type_create_hvector(in[0], in[1], ad[0], sub[0], &out); break;
    case MPI_COMBINER_INDEXED: MPI_Type_indexed(in[0], in + 1, in + 1 + in[0], sub[0], &out); break;
    case MPI_COMBINER_HINDEXED: MPI_Type_create_hindexed(in[0], in + 1, ad, sub[0], &out); break;
    case MPI_COMBINER_INDEXED_BLOCK: MPI_Type_create_indexed_block(in[0], in[1], in + 2, sub[0], &out); break;
    case MPI_COMBINER_HINDEXED_BLOCK: MPI_Type_create_hindexed_block(in[0], in[1], ad, sub[0], &out); break;
    case MPI_COMBINER_STRUCT: MPI_Type_create_struct(in[0], in + 1, ad, sub, &out); break;
    case MPI_COMBINER_SUBARRAY:
        MPI_Type_create_subarray(in[0], in + 1, in + 1 + in[0], in + 1 + 2 * in[0], in[1 + 3 * in[0]], sub[0], &out);
        break;
    case MPI_COMBINER_RESIZED: MPI_Type_create_resized(sub[0], ad[0], ad[1], &out); break;
    }
    for (int i = 0; i < nd; i++) {   /* the derived ones given back are the program's to free */
        int a, b, d, cc;
        MPI_Type_get_envelope(ty[i], &a, &b, &d, &cc);
        if (cc != MPI_COMBINER_NAMED)
            MPI_Type_free(&ty[i]);
        MPI_Type_get_envelope(sub[i], &a, &b, &d, &cc);
        if (cc != MPI_COMBINER_NAMED)
            MPI_Type_free(&sub[i]);
    }
    free(in);
    free(ad);
    free(ty);
    free(sub);
    return out;
}

/* 1 if a and b pack the same bytes from one buffer and have one size */
static int same_map(MPI_Datatype a, MPI_Datatype b, const void *buf)
{
    int sa, sb, pa = 0, pb = 0;
    MPI_Type_size(a, &sa);
    MPI_Type_size(b, &sb);
    MPI_Aint la, ea, lb, eb;
    MPI_Type_get_extent(a, &la, &ea);
    MPI_Type_get_extent(b, &lb, &eb);
    if (sa != sb || la != lb || ea != eb)
        return 0;
    char *x = malloc(sa + 1), *y = malloc(sb + 1);
    MPI_Pack(buf, 1, a, x, sa, &pa, MPI_COMM_WORLD);
    MPI_Pack(buf, 1, b, y, sb, &pb, MPI_COMM_WORLD);
    int ok = pa == pb && !memcmp(x, y, sa);
    free(x);
    free(y);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    double *buf = malloc(4096 * sizeof *buf);   /* ints and doubles: every type below lies in it */
    for (int i = 0; i < 4096; i++)
        buf[i] = i + 0.25;
    char *base = (char *)(buf + 16);             /* room for a negative lower bound */

    int ni, na, nd, c, in[16];
    MPI_Aint ad[4];
    MPI_Datatype ty[4];
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &c);
    check("MPI_INT is named", c == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);

    MPI_Datatype contig, vec, hvec, idx, hidx, iblk, hblk, st, sub, rsz, dup;
    MPI_Type_contiguous(5, MPI_INT, &contig);
    MPI_Type_vector(3, 2, 4, contig, &vec);
    MPI_Type_free(&contig);          /* the vector's recipe keeps it */
    MPI_Type_create_hvector(2, 1, 100, MPI_DOUBLE, &hvec);
    MPI_Type_indexed(3, (int[]){ 1, 2, 3 }, (int[]){ 0, 5, 10 }, MPI_INT, &idx);
    MPI_Type_create_hindexed(2, (int[]){ 2, 1 }, (MPI_Aint[]){ 0, 64 }, MPI_INT, &hidx);
    MPI_Type_create_indexed_block(3, 2, (int[]){ 0, 4, 8 }, MPI_INT, &iblk);
    MPI_Type_create_hindexed_block(2, 3, (MPI_Aint[]){ 0, 40 }, MPI_INT, &hblk);
    MPI_Type_create_struct(2, (int[]){ 1, 3 }, (MPI_Aint[]){ 0, 8 }, (MPI_Datatype[]){ MPI_DOUBLE, idx }, &st);
    MPI_Type_create_subarray(2, (int[]){ 4, 6 }, (int[]){ 2, 3 }, (int[]){ 1, 2 }, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_create_resized(hidx, -8, 80, &rsz);
    MPI_Type_dup(st, &dup);

    /* the envelope of each, as the standard's table counts it */
    struct { MPI_Datatype t; int c, ni, na, nd; } want[] = {
        { vec, MPI_COMBINER_VECTOR, 3, 0, 1 }, { hvec, MPI_COMBINER_HVECTOR, 2, 1, 1 },
        { idx, MPI_COMBINER_INDEXED, 7, 0, 1 }, { hidx, MPI_COMBINER_HINDEXED, 3, 2, 1 },
        { iblk, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1 }, { hblk, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1 },
        { st, MPI_COMBINER_STRUCT, 3, 2, 2 }, { sub, MPI_COMBINER_SUBARRAY, 8, 0, 1 },
        { rsz, MPI_COMBINER_RESIZED, 0, 2, 1 }, { dup, MPI_COMBINER_DUP, 0, 0, 1 },
    };
    int ok = 1, n = sizeof want / sizeof want[0];
    for (int k = 0; k < n; k++) {
        MPI_Type_get_envelope(want[k].t, &ni, &na, &nd, &c);
        ok &= c == want[k].c && ni == want[k].ni && na == want[k].na && nd == want[k].nd;
        if (rank == 0)
            printf("%-15s %d integers, %d addresses, %d datatypes\n", combiner_name(c), ni, na, nd);
    }
    check("envelopes", ok);

    /* contents, in the table's order */
    contents(idx, in, ad, ty);
    ok = in[0] == 3 && in[1] == 1 && in[2] == 2 && in[3] == 3 && in[4] == 0 && in[5] == 5 && in[6] == 10 &&
         ty[0] == MPI_INT;
    contents(hidx, in, ad, ty);
    ok &= in[0] == 2 && in[1] == 2 && in[2] == 1 && ad[0] == 0 && ad[1] == 64 && ty[0] == MPI_INT;
    contents(iblk, in, ad, ty);
    ok &= in[0] == 3 && in[1] == 2 && in[2] == 0 && in[3] == 4 && in[4] == 8;
    contents(hblk, in, ad, ty);
    ok &= in[0] == 2 && in[1] == 3 && ad[0] == 0 && ad[1] == 40;
    contents(hvec, in, ad, ty);
    ok &= in[0] == 2 && in[1] == 1 && ad[0] == 100 && ty[0] == MPI_DOUBLE;
    contents(sub, in, ad, ty);
    ok &= in[0] == 2 && in[1] == 4 && in[2] == 6 && in[3] == 2 && in[4] == 3 && in[5] == 1 && in[6] == 2 &&
          in[7] == MPI_ORDER_C && ty[0] == MPI_INT;
    contents(rsz, in, ad, ty);
    ok &= ad[0] == -8 && ad[1] == 80;
    MPI_Type_free(&ty[0]);           /* hidx, given back */
    contents(st, in, ad, ty);
    ok &= in[0] == 2 && in[1] == 1 && in[2] == 3 && ad[0] == 0 && ad[1] == 8 && ty[0] == MPI_DOUBLE;
    MPI_Type_get_envelope(ty[1], &ni, &na, &nd, &c);
    ok &= c == MPI_COMBINER_INDEXED && ni == 7;
    MPI_Type_free(&ty[1]);
    check("contents", ok);

    /* the contiguous type the program freed, given back by the vector */
    contents(vec, in, ad, ty);
    int sz = -1;
    MPI_Type_get_envelope(ty[0], &ni, &na, &nd, &c);
    MPI_Type_size(ty[0], &sz);
    ok = in[0] == 3 && in[1] == 2 && in[2] == 4 && c == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1 &&
         sz == 5 * (int)sizeof(int);
    contents(ty[0], in, ad, ty + 1);
    ok &= in[0] == 5 && ty[1] == MPI_INT;
    MPI_Type_free(&ty[0]);
    check("a freed type given back", ok);

    /* rebuilt from contents alone: the same type map; sent in the one,
     * received in the other */
    ok = 1;
    for (int k = 0; k < n; k++) {
        MPI_Datatype r = rebuild(want[k].t), orig = want[k].t;
        MPI_Type_commit(&r);
        MPI_Type_commit(&orig);
        ok &= same_map(orig, r, base);
        int s;
        MPI_Type_size(r, &s);
        char *got = malloc(s + 1), *exp = malloc(s + 1);
        double *rb = calloc(4096, sizeof *rb);
        int p = 0;
        MPI_Sendrecv(base, 1, orig, to, k, (char *)(rb + 16), 1, r, from, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Pack((char *)(rb + 16), 1, r, got, s, &p, MPI_COMM_WORLD);
        p = 0;
        MPI_Pack(base, 1, orig, exp, s, &p, MPI_COMM_WORLD);
        ok &= !memcmp(got, exp, s);   /* every rank's buffer holds the same values */
        free(got);
        free(exp);
        free(rb);
        MPI_Type_free(&r);
    }
    check("rebuilt from contents", ok);

    /* types made of freed ones, given back and freed again, 300 times:
     * more than the library's 256 derived types at once, so each must
     * go when the last thing naming it does */
    ok = 1;
    for (int k = 0; k < 300 && ok; k++) {
        MPI_Datatype a, b, back;
        ok &= MPI_Type_contiguous(2, MPI_INT, &a) == MPI_SUCCESS;
        ok &= MPI_Type_vector(2, 1, 3, a, &b) == MPI_SUCCESS;
        MPI_Type_free(&a);
        contents(b, in, ad, &back);
        MPI_Type_free(&b);
        MPI_Type_size(back, &sz);
        ok &= sz == 2 * (int)sizeof(int);
        MPI_Type_free(&back);
    }
    check("300 made and freed", ok);

    for (int k = 0; k < n; k++)
        MPI_Type_free(&want[k].t);
    free(buf);
    if (rank == 0)
        printf(fails ? "type_contents: FAILED\n" : "type_contents: all ok\n");
    MPI_Finalize();
    return fails != 0;
}
