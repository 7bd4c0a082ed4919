/* MPI derived datatypes (MPI-3.1 section 4.1) and MPI_Pack/MPI_Unpack
 * (4.2). A type is its type map flattened to byte blocks (offset and
 * length, adjacent ones merged) with its lower bound and extent; the
 * extent of a struct is rounded up to the alignment of its most aligned
 * member, as C lays out structs (4.1.6). Basic types are one block.
 * A message of a type that is not one contiguous block is packed into a
 * contiguous buffer before it is sent and unpacked after it arrives
 * (apps/mpi/p2p.c, coll.c). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

#define MPII_FIRST_DERIVED 64
#define MPII_MAX_DERIVED 256
struct blk { MPI_Aint off; MPI_Aint len; };
struct dtype {
    int used, committed;             /* used 2: freed, kept while requests use it */
    MPI_Aint size, lb, extent;
    int align;
    MPI_Aint nelem;                  /* basic elements in one element of the type */
    int esize;                       /* their common size, 0 if they differ */
    int nblk;
    struct blk *blk;
};
static struct dtype derived[MPII_MAX_DERIVED];
static char derived_named[MPII_MAX_DERIVED][MPI_MAX_OBJECT_NAME];   /* MPI_Type_set_name's; empty: none */
/* How each derived type was made, for MPI_Type_get_envelope and
 * MPI_Type_get_contents (MPI-3.1 4.1.13): the constructor and its
 * arguments, as that section's table lists them. A derived type named in
 * a recipe is kept (kept counts the recipes naming it) after the program
 * frees it, so that get_contents can give it back; urefs counts the
 * program's handles of a type (its constructor's, and get_contents'). */
struct recipe {
    int combiner, ni, na, nd;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
};
static struct recipe recipes[MPII_MAX_DERIVED];
static int kept[MPII_MAX_DERIVED], urefs[MPII_MAX_DERIVED];
struct seg { const int *p; int n; };   /* a run of a recipe's integers */
static void forget_recipe(int slot);
static int record(MPI_Datatype *t, int combiner, int nseg, const struct seg *segs, int na, const MPI_Aint *addrs,
                  int nd, const MPI_Datatype *types);

/* Any type the library still holds (freed ones in use too), for its own
 * packing; the program's handles go through live(). */
static struct dtype *derived_of(MPI_Datatype t)
{
    int i = t - MPII_FIRST_DERIVED;
    return i >= 0 && i < MPII_MAX_DERIVED && derived[i].used ? &derived[i] : NULL;
}

static struct dtype *live(MPI_Datatype t)
{
    struct dtype *d = derived_of(t);
    return d && d->used == 1 ? d : NULL;
}

/* A basic type as a one-block type (in *tmp), or the derived one; NULL if
 * t is neither. */
static const struct dtype *view(MPI_Datatype t, struct dtype *tmp, struct blk *b)
{
    int sz = mpii_basic_size(t);
    if (sz) {
        *b = (struct blk){ 0, sz };
        int pair = t >= MPI_2INT && t <= MPI_LONG_DOUBLE_INT;   /* a value and an int: two elements */
        *tmp = (struct dtype){ .used = 1, .committed = 1, .size = sz, .extent = sz, .align = sz > 8 ? 8 : sz,
                               .nelem = pair ? 2 : 1, .esize = !pair ? sz : t == MPI_2INT || t == MPI_FLOAT_INT ? 4 : 0,
                               .nblk = 1, .blk = b };
        return tmp;
    }
    return live(t);
}

/* The same for the library's own packing, which may hold a type the
 * program freed while a request of it was pending. */
static const struct dtype *held(MPI_Datatype t, struct dtype *tmp, struct blk *b)
{
    const struct dtype *d = view(t, tmp, b);
    return d ? d : derived_of(t);
}

int mpii_type_known(MPI_Datatype t)
{
    return mpii_basic_size(t) || live(t);
}

int mpii_type_size(MPI_Datatype t)
{
    const struct dtype *d = derived_of(t);
    return d ? (int)d->size : mpii_basic_size(t);
}


int mpii_type_usable(MPI_Datatype t)
{
    const struct dtype *d = live(t);
    return d ? d->committed : mpii_basic_size(t) != 0;
}

/* Whether t's elements lie back to back with no gap: its data is then
 * copied in one piece, not an element at a time. */
static int back_to_back(const struct dtype *d)
{
    return d->nblk == 1 && d->blk[0].off == 0 && d->blk[0].len == d->extent;
}

int mpii_type_contig(MPI_Datatype t)
{
    const struct dtype *d = derived_of(t);
    return !d || (back_to_back(d) && d->lb == 0);
}

/* out[0..count x size) = the data of count elements at in. */
void mpii_pack(const void *in, int count, MPI_Datatype t, void *out)
{
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = held(t, &tmp, &b);
    unsigned char *o = out;
    if (back_to_back(d)) {
        memcpy(o, in, (size_t)count * (size_t)d->extent);
        return;
    }
    for (int k = 0; k < count; k++)
        for (int i = 0; i < d->nblk; i++) {
            memcpy(o, (const unsigned char *)in + k * d->extent + d->blk[i].off, (size_t)d->blk[i].len);
            o += d->blk[i].len;
        }
}

/* The reverse: bytes (a whole number of elements' data) into their places. */
void mpii_unpack(const void *in, size_t bytes, MPI_Datatype t, void *out)
{
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = held(t, &tmp, &b);
    const unsigned char *p = in;
    if (back_to_back(d)) {
        memcpy(out, in, bytes);
        return;
    }
    for (int k = 0; bytes; k++)
        for (int i = 0; i < d->nblk && bytes; i++) {
            size_t n = (size_t)d->blk[i].len < bytes ? (size_t)d->blk[i].len : bytes;
            memcpy((unsigned char *)out + k * d->extent + d->blk[i].off, p, n);
            p += n;
            bytes -= n;
        }
}

/* --- construction ------------------------------------------------------ */

/* A new type of the blocks of n copies: copy i of type ti at byte
 * displacement disp[i] (ti = types[i] or types[0] when one_type). */
/* x after t's blocks, merged with the last if adjacent; the table grows
 * as needed. -1 when memory lacks. */
static int append(struct dtype *t, int *cap, struct blk x)
{
    if (t->nblk && t->blk[t->nblk - 1].off + t->blk[t->nblk - 1].len == x.off) {
        t->blk[t->nblk - 1].len += x.len;
        return 0;
    }
    if (t->nblk == *cap) {
        int n = *cap ? 2 * *cap : 8;
        struct blk *b = n > *cap ? realloc(t->blk, (size_t)n * sizeof *b) : NULL;
        if (!b)
            return -1;
        t->blk = b;
        *cap = n;
    }
    t->blk[t->nblk++] = x;
    return 0;
}

static int build(int n, const MPI_Aint *disp, const int *lens, const MPI_Datatype *types, int one_type,
                 MPI_Datatype *out)
{
    for (int i = 0; i < n; i++) {
        struct dtype tmp;
        struct blk b;
        if (!view(types[one_type ? 0 : i], &tmp, &b))
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", types[one_type ? 0 : i]);
        if (lens[i] < 0)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "block length %d is negative", lens[i]);
    }
    int slot = 0;                    /* a freed one no request uses any more is reused */
    while (slot < MPII_MAX_DERIVED && derived[slot].used &&
           (derived[slot].used == 1 || kept[slot] || mpii_pending_use(-1, MPII_FIRST_DERIVED + slot)))
        slot++;
    if (slot == MPII_MAX_DERIVED)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INTERN, "more than %d derived datatypes at once", MPII_MAX_DERIVED);
    struct dtype *t = &derived[slot];
    if (t->used == 2) {
        free(t->blk);
        forget_recipe(slot);
    }
    *t = (struct dtype){ .used = 1, .align = 1, .esize = -1 };
    derived_named[slot][0] = 0;
    urefs[slot] = 1;
    MPI_Aint lo = 0, hi = 0;
    int any = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        struct dtype tmp;
        struct blk b;
        const struct dtype *d = view(types[one_type ? 0 : i], &tmp, &b);
        int align = mpii_basic_size(types[one_type ? 0 : i]) ? mpii_basic_align(types[one_type ? 0 : i]) : d->align;
        if (align > t->align)        /* a basic type's is its C type's (view's is its size up to 8) */
            t->align = align;
        if (lens[i] && d->nelem) {   /* elements for MPI_Get_elements */
            t->nelem += lens[i] * d->nelem;
            t->esize = t->esize == -1 || t->esize == d->esize ? d->esize : 0;
        }
        /* Elements that tile (one block, as long as their extent) are
         * taken all at once, as one element of lens[i] times the length:
         * the block append would make merging them one by one. */
        int tile = d->nblk == 1 && d->blk[0].len == d->extent;
        int steps = tile && lens[i] ? 1 : lens[i];
        MPI_Aint per = tile ? lens[i] : 1;                /* elements a step takes */
        for (int k = 0; k < steps; k++) {
            MPI_Aint base = disp[i] + k * d->extent;
            if (!any || base + d->lb < lo)
                lo = base + d->lb;
            if (!any || base + d->lb + per * d->extent > hi)
                hi = base + d->lb + per * d->extent;
            any = 1;
            for (int j = 0; j < d->nblk; j++) {
                if (d->blk[j].len && append(t, &cap, (struct blk){ base + d->blk[j].off, per * d->blk[j].len })) {
                    free(t->blk);
                    t->used = 0;
                    return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d blocks of a datatype", cap);
                }
                t->size += per * d->blk[j].len;
            }
        }
    }
    if (t->esize == -1)
        t->esize = 0;
    struct blk *fit = t->nblk ? realloc(t->blk, (size_t)t->nblk * sizeof *fit) : NULL;
    if (fit)
        t->blk = fit;
    t->lb = lo;
    t->extent = hi - lo;
    if (!one_type && t->extent % t->align)           /* a struct's padding */
        t->extent += t->align - t->extent % t->align;
    *out = MPII_FIRST_DERIVED + slot;
    return MPI_SUCCESS;
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    return d ? d->extent : 0;
}

MPI_Aint mpii_type_extent(MPI_Datatype t)
{
    return extent_of(t);
}

/* count copies of old at the byte displacements disp[i], lens[i] each */
static int build_one(int count, const MPI_Aint *disp, const int *lens, MPI_Datatype old, MPI_Datatype *out)
{
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    return build(count, disp, lens, &old, 1, out);
}

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_contiguous");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    MPI_Aint zero = 0;
    int e = build_one(count < 0 ? count : 1, &zero, &count, old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_CONTIGUOUS, 1, (struct seg[]){ { (int[]){ count }, 1 } }, 0, NULL, 1, &old);
}

static int vector(int count, int blocklen, MPI_Aint stride_bytes, MPI_Datatype old, MPI_Datatype *newtype)
{
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    MPI_Aint *disp = malloc((size_t)(count ? count : 1) * sizeof *disp);
    int *lens = malloc((size_t)(count ? count : 1) * sizeof *lens), e;
    if (!disp || !lens)
        e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "a vector of %d blocks", count);
    else {
        for (int i = 0; i < count; i++)
            disp[i] = i * stride_bytes, lens[i] = blocklen;
        e = build_one(count, disp, lens, old, newtype);
    }
    free(disp);
    free(lens);
    return e;
}

int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_vector");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int e = vector(count, blocklen, (MPI_Aint)stride * extent_of(old), old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_VECTOR, 1, (struct seg[]){ { (int[]){ count, blocklen, stride }, 3 } }, 0, NULL, 1,
                          &old);
}

int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_hvector");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int e = vector(count, blocklen, stride, old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_HVECTOR, 1, (struct seg[]){ { (int[]){ count, blocklen }, 2 } }, 1, &stride, 1,
                          &old);
}

static int indexed(int count, const int *lens, const MPI_Aint *disp_bytes, MPI_Datatype old, MPI_Datatype *newtype)
{
    return build_one(count, disp_bytes, lens, old, newtype);
}

int MPI_Type_indexed(int count, const int lens[], const int displs[], MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_indexed");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    MPI_Aint *d = malloc((size_t)(count ? count : 1) * sizeof *d);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "an index of %d blocks", count);
    for (int i = 0; i < count; i++)
        d[i] = (MPI_Aint)displs[i] * extent_of(old);
    int e = indexed(count, lens, d, old, newtype);
    free(d);
    return e ? e : record(newtype, MPI_COMBINER_INDEXED, 3,
                          (struct seg[]){ { &count, 1 }, { lens, count }, { displs, count } }, 0, NULL, 1, &old);
}

int MPI_Type_create_hindexed(int count, const int lens[], const MPI_Aint displs[], MPI_Datatype old,
                             MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_hindexed");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int e = indexed(count, lens, displs, old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_HINDEXED, 2, (struct seg[]){ { &count, 1 }, { lens, count } }, count, displs,
                          1, &old);
}

int MPI_Type_create_struct(int count, const int lens[], const MPI_Aint displs[], const MPI_Datatype types[],
                           MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_struct");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    int e = build(count, displs, lens, types, 0, newtype);
    return e ? e : record(newtype, MPI_COMBINER_STRUCT, 2, (struct seg[]){ { &count, 1 }, { lens, count } }, count, displs,
                          count, types);
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_resized");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int one = 1;
    MPI_Aint zero = 0;
    int e = build_one(1, &zero, &one, old, newtype);
    if (!e) {
        struct dtype *d = derived_of(*newtype);
        d->lb = lb;
        d->extent = extent;
    }
    return e ? e : record(newtype, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){ lb, extent }, 1, &old);
}

int MPI_Type_commit(MPI_Datatype *type)
{
    MPII_ENTER("MPI_Type_commit");
    OUT_OR_ERR(MPI_COMM_WORLD, type);
    struct dtype *d = derived_of(*type);
    if (!d && !mpii_basic_size(*type))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", *type);
    if (d)
        d->committed = 1;
    return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
    MPII_ENTER("MPI_Type_free");
    OUT_OR_ERR(MPI_COMM_WORLD, type);
    struct dtype *d = live(*type);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not a derived datatype", *type);
    int slot = *type - MPII_FIRST_DERIVED;
    if (urefs[slot] == 1) {          /* the program's last handle: the type's attributes go (MPI-3.1 6.7.4) */
        int e = mpii_attr_delete_all(MPII_ATTR_TYPE, *type, MPI_COMM_WORLD);
        if (e)
            return e;
    }
    if (--urefs[slot] > 0)
        ;                            /* the program has another handle of it (MPI_Type_get_contents') */
    else if (kept[slot] || mpii_pending_use(-1, *type))
        d->used = 2;                 /* pending operations of the type complete normally (MPI-3.1 4.1.9),
                                      * and a type made of it can still give it back */
    else {
        free(d->blk);
        forget_recipe(slot);
        d->used = 0;
    }
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype t, int *size)
{
    MPII_ENTER("MPI_Type_size");
    OUT_OR_ERR(MPI_COMM_WORLD, size);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    *size = (int)d->size;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype t, MPI_Aint *lb, MPI_Aint *extent)
{
    MPII_ENTER("MPI_Type_get_extent");
    OUT_OR_ERR(MPI_COMM_WORLD, lb);
    OUT_OR_ERR(MPI_COMM_WORLD, extent);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    *lb = d->lb;
    *extent = d->extent;
    return MPI_SUCCESS;
}

/* --- MPI_Pack, MPI_Unpack: the packed form is the data, in order ---------- */

int MPI_Pack_size(int count, MPI_Datatype t, MPI_Comm comm, int *size)
{
    MPII_ENTER("MPI_Pack_size");
    OUT_OR_ERR(comm, size);
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    *size = count * mpii_type_size(t);
    return MPI_SUCCESS;
}

/* count elements of t fit at position of a size-byte packed buffer:
 * their bytes in *need, else an error class. */
static int pack_room(MPI_Comm comm, int count, MPI_Datatype t, int position, int size, long *need)
{
    if (!mpii_type_usable(t))
        return mpii_err(comm, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    *need = (long)count * mpii_type_size(t);
    if (count < 0 || position < 0 || position + *need > size)
        return mpii_err(comm, MPI_ERR_TRUNCATE, "%ld bytes at position %d of a %d-byte buffer", *need, position,
                        size);
    return MPI_SUCCESS;
}

int MPI_Pack(const void *in, int count, MPI_Datatype t, void *out, int outsize, int *position, MPI_Comm comm)
{
    MPII_ENTER("MPI_Pack");
    OUT_OR_ERR(comm, position);
    long need = 0;
    int e = pack_room(comm, count, t, *position, outsize, &need);
    if (e)
        return e;
    mpii_pack(in, count, t, (unsigned char *)out + *position);
    *position += (int)need;
    return MPI_SUCCESS;
}

int MPI_Unpack(const void *in, int insize, int *position, void *out, int count, MPI_Datatype t, MPI_Comm comm)
{
    MPII_ENTER("MPI_Unpack");
    OUT_OR_ERR(comm, position);
    long need = 0;
    int e = pack_room(comm, count, t, *position, insize, &need);
    if (e)
        return e;
    mpii_unpack((const unsigned char *)in + *position, (size_t)need, t, out);
    *position += (int)need;
    return MPI_SUCCESS;
}

/* --- more constructors and queries (MPI-3.1 4.1.2, 4.1.3, 4.1.5, 4.1.7,
 *     4.1.8, 4.1.11) ---------------------------------------------------- */

/* The address of location (MPI-3.1 4.1.5): its byte address, which
 * MPI_BOTTOM (0) displaces. */
int MPI_Get_address(const void *location, MPI_Aint *address)
{
    MPII_ENTER("MPI_Get_address");
    OUT_OR_ERR(MPI_COMM_WORLD, address);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

/* Address arithmetic (MPI-3.1 4.1.12): on a node an address is the
 * location's own, so these are the plain sum and difference. */
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp); }
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) { return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2); }

/* count blocks of blocklen elements of old, at displacement disp[i] in
 * bytes (MPI_Type_create_hindexed_block) or in old's extents. */
static int indexed_block(int count, int blocklen, const int *disp_ext, const MPI_Aint *disp_bytes,
                         MPI_Datatype old, MPI_Datatype *newtype)
{
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && !(disp_ext || disp_bytes))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter array_of_displacements");
    MPI_Aint *d = malloc((size_t)(count ? count : 1) * sizeof *d);
    int *lens = malloc((size_t)(count ? count : 1) * sizeof *lens), e;
    if (!d || !lens)
        e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "an index of %d blocks", count);
    else {
        for (int i = 0; i < count; i++)
            d[i] = disp_bytes ? disp_bytes[i] : (MPI_Aint)disp_ext[i] * extent_of(old), lens[i] = blocklen;
        e = build_one(count, d, lens, old, newtype);
    }
    free(d);
    free(lens);
    return e;
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displs[], MPI_Datatype old,
                                  MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_indexed_block");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int e = indexed_block(count, blocklength, displs, NULL, old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_INDEXED_BLOCK, 2,
                          (struct seg[]){ { (int[]){ count, blocklength }, 2 }, { displs, count } }, 0, NULL, 1, &old);
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displs[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_hindexed_block");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    int e = indexed_block(count, blocklength, NULL, displs, old, newtype);
    return e ? e : record(newtype, MPI_COMBINER_HINDEXED_BLOCK, 1, (struct seg[]){ { (int[]){ count, blocklength }, 2 } }, count,
                          displs, 1, &old);
}

/* The same type map, lower bound and extent (MPI-3.1 4.1.10); the copy
 * is committed if old is, and has old's attributes as their copy
 * callbacks say (6.7.4). */
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_dup");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    struct dtype tmp;
    struct blk b;
    const struct dtype *o = view(old, &tmp, &b);
    if (!o)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", old);
    MPI_Aint lb = o->lb, extent = o->extent, zero = 0;
    int one = 1, committed = o->committed;
    int e = build_one(1, &zero, &one, old, newtype);
    if (!e) {
        struct dtype *d = derived_of(*newtype);
        d->lb = lb;
        d->extent = extent;
        d->committed = committed;
    }
    if (!e)
        e = record(newtype, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
    if (!e && (e = mpii_attr_copy(MPII_ATTR_TYPE, old, *newtype, MPI_COMM_WORLD))) {
        MPI_Type_free(newtype);      /* a copy callback failed: the copies made are deleted again (6.7.4) */
        mpii_call = "MPI_Type_dup";
    }
    return e;
}

/* An ndims-dimensional subarray of an array of old (MPI-3.1 4.1.3):
 * each run of subsizes[last] elements along the fastest dimension is a
 * block; the type's lower bound is 0 and its extent the whole array's. */
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                             MPI_Datatype old, MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_subarray");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    if (ndims <= 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "ndims %d; accepted: 1 or more", ndims);
    if (!sizes || !subsizes || !starts)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter %s", !sizes ? "array_of_sizes" :
                        !subsizes ? "array_of_subsizes" : "array_of_starts");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "order %d; accepted: MPI_ORDER_C or MPI_ORDER_FORTRAN", order);
    MPI_Aint ext = extent_of(old), runs = 1, whole = ext;
    if (!ext && !mpii_type_size(old))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", old);
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i])
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "dimension %d: size %d, subsize %d, start %d; accepted: "
                            "0 < subsize <= size, 0 <= start <= size - subsize", i, sizes[i], subsizes[i], starts[i]);
        whole *= sizes[i];
    }
    /* dimension k in C order: the slowest first */
#define DIM(a, k) ((a)[order == MPI_ORDER_C ? (k) : ndims - 1 - (k)])
    for (int k = 0; k < ndims - 1; k++)
        runs *= DIM(subsizes, k);
    MPI_Aint *disp = malloc((size_t)runs * sizeof *disp);
    int *lens = malloc((size_t)runs * sizeof *lens), e;
    if (!disp || !lens)
        e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "a subarray of %ld runs", (long)runs);
    else {
        for (MPI_Aint r = 0; r < runs; r++) {
            MPI_Aint rest = r, off = 0, stride = 1;   /* r's index in each dimension, fastest last */
            for (int k = ndims - 1; k >= 0; k--) {
                MPI_Aint idx = DIM(starts, k);
                if (k < ndims - 1) {
                    idx += rest % DIM(subsizes, k);
                    rest /= DIM(subsizes, k);
                }
                off += idx * stride;
                stride *= DIM(sizes, k);
            }
            disp[r] = off * ext;
            lens[r] = DIM(subsizes, ndims - 1);
        }
        e = build_one((int)runs, disp, lens, old, newtype);
    }
#undef DIM
    free(disp);
    free(lens);
    if (!e) {
        struct dtype *d = derived_of(*newtype);
        d->lb = 0;
        d->extent = whole;
    }
    return e ? e : record(newtype, MPI_COMBINER_SUBARRAY, 5,
                          (struct seg[]){ { &ndims, 1 }, { sizes, ndims }, { subsizes, ndims }, { starts, ndims },
                                          { &order, 1 } }, 0, NULL, 1, &old);
}

/* --- distributed arrays (MPI-3.1 4.1.4) ----------------------------------- */

/* The indices dimension k's process coordinate c owns of g, in order,
 * into own[] (room for g); returns how many, or -1 with the reason in
 * why. BLOCK: blocks of darg (default ceil(g / p)), the c-th one; CYCLIC:
 * blocks of darg (default 1) dealt round the p coordinates; NONE: all
 * (p must be 1). */
static int owned(int g, int distrib, int darg, int p, int c, int *own, const char **why)
{
    int n = 0;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        if (p != 1)
            return *why = "MPI_DISTRIBUTE_NONE needs a process grid size of 1", -1;
        for (int j = 0; j < g; j++)
            own[n++] = j;
        return n;
    }
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
        return *why = "darg must be positive or MPI_DISTRIBUTE_DFLT_DARG", -1;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        if (b * p < g)
            return *why = "a block of darg elements a process does not cover the dimension (darg * psize < gsize)", -1;
        for (long j = b * c; j < b * (c + 1) && j < g; j++)
            own[n++] = (int)j;
        return n;
    }
    if (distrib == MPI_DISTRIBUTE_CYCLIC) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        for (int j = 0; j < g; j++)
            if (j / b % p == c)
                own[n++] = j;
        return n;
    }
    return *why = "distribution not one of MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE", -1;
}

/* Process rank's part of an ndims-dimensional array of old distributed
 * over a size-process grid (psizes, ranks in C order whatever `order`):
 * its elements in the array's own order, each run along the fastest
 * dimension a block; the lower bound is 0 and the extent the whole
 * array's, as MPI-3.1 4.1.4 defines it. */
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                           const int dargs[], const int psizes[], int order, MPI_Datatype old,
                           MPI_Datatype *newtype)
{
    MPII_ENTER("MPI_Type_create_darray");
    OUT_OR_ERR(MPI_COMM_WORLD, newtype);
    if (size <= 0 || rank < 0 || rank >= size || ndims <= 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "size %d, rank %d, ndims %d; accepted: size > 0, "
                        "0 <= rank < size, ndims > 0", size, rank, ndims);
    if (!gsizes || !distribs || !dargs || !psizes)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter %s", !gsizes ? "array_of_gsizes" :
                        !distribs ? "array_of_distribs" : !dargs ? "array_of_dargs" : "array_of_psizes");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "order %d; accepted: MPI_ORDER_C or MPI_ORDER_FORTRAN", order);
    MPI_Aint ext = extent_of(old), whole = ext;
    if (!ext && !mpii_type_size(old))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", old);
    long procs = 1;
    for (int k = 0; k < ndims; k++) {
        if (gsizes[k] <= 0 || psizes[k] <= 0)
            return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "dimension %d: gsize %d, psize %d; accepted: both positive",
                            k, gsizes[k], psizes[k]);
        procs *= psizes[k];
        whole *= gsizes[k];
    }
    if (procs != size)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "the process grid's sizes multiply to %ld, not size %d", procs,
                        size);
    int **own = calloc((size_t)ndims, sizeof *own), *nown = calloc((size_t)ndims, sizeof *nown), e = MPI_SUCCESS;
    MPI_Aint *disp = NULL;
    int *lens = NULL;
    if (!own || !nown)
        e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "a distributed array of %d dimensions", ndims);
    for (int k = ndims - 1, r = rank; k >= 0 && !e; k--) {   /* the grid in C order: the last coordinate fastest */
        const char *why = NULL;
        if (!(own[k] = malloc((size_t)gsizes[k] * sizeof **own)))
            e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%d indices of dimension %d", gsizes[k], k);
        else if ((nown[k] = owned(gsizes[k], distribs[k], dargs[k], psizes[k], r % psizes[k], own[k], &why)) < 0)
            e = mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "dimension %d: %s", k, why);
        r /= psizes[k];
    }
    /* slowest to fastest dimension in memory: s-th is DIM(s) */
#define DIM(s) (order == MPI_ORDER_C ? (s) : ndims - 1 - (s))
    MPI_Aint runs = 0;
    if (!e) {
        int f = DIM(ndims - 1), nf = 0;
        for (int i = 0; i < nown[f]; i++)      /* runs of consecutive indices along the fastest */
            nf += !i || own[f][i] != own[f][i - 1] + 1;
        runs = nf;
        for (int s = 0; s < ndims - 1; s++)
            runs *= nown[DIM(s)];
        disp = malloc((size_t)(runs ? runs : 1) * sizeof *disp);
        lens = malloc((size_t)(runs ? runs : 1) * sizeof *lens);
        if (!disp || !lens || runs > INT_MAX)
            e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "a distributed array of %ld runs", (long)runs);
        MPI_Aint n = 0;
        for (MPI_Aint outer = 0; !e && n < runs; outer++) {
            MPI_Aint rest = outer, off = 0, stride = gsizes[f];   /* outer: an owned index in each slower
                                                                     dimension, the array's order */
            for (int s = ndims - 2; s >= 0; s--) {
                int k = DIM(s);
                off += (MPI_Aint)own[k][rest % nown[k]] * stride;
                rest /= nown[k];
                stride *= gsizes[k];
            }
            for (int i = 0; i < nown[f]; i++) {
                if (i && own[f][i] == own[f][i - 1] + 1) {
                    lens[n - 1]++;
                    continue;
                }
                disp[n] = (off + own[f][i]) * ext;
                lens[n++] = 1;
            }
        }
        if (!e)
            e = build_one((int)runs, disp, lens, old, newtype);
    }
#undef DIM
    for (int k = 0; own && k < ndims; k++)
        free(own[k]);
    free(own);
    free(nown);
    free(disp);
    free(lens);
    if (e)
        return e;
    struct dtype *d = derived_of(*newtype);
    d->lb = 0;
    d->extent = whole;
    return record(newtype, MPI_COMBINER_DARRAY, 8,
                  (struct seg[]){ { &size, 1 }, { &rank, 1 }, { &ndims, 1 }, { gsizes, ndims }, { distribs, ndims },
                                  { dargs, ndims }, { psizes, ndims }, { &order, 1 } }, 0, NULL, 1, &old);
}

/* The bounds of the data itself, whatever lb and extent were set to
 * (MPI-3.1 4.1.8). */
int MPI_Type_get_true_extent(MPI_Datatype t, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    MPII_ENTER("MPI_Type_get_true_extent");
    OUT_OR_ERR(MPI_COMM_WORLD, true_lb);
    OUT_OR_ERR(MPI_COMM_WORLD, true_extent);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    MPI_Aint lo = 0, hi = 0;
    for (int i = 0; i < d->nblk; i++) {
        if (!i || d->blk[i].off < lo)
            lo = d->blk[i].off;
        if (!i || d->blk[i].off + d->blk[i].len > hi)
            hi = d->blk[i].off + d->blk[i].len;
    }
    *true_lb = lo;
    *true_extent = hi - lo;
    return MPI_SUCCESS;
}

/* --- basic elements in part of an element (MPI-3.1 4.1.11, 13.3) ---------
 * A type's data is its basic elements in the order of its type map, which
 * is the order of its constructor's arguments (the recipe): so the basic
 * elements in the first bytes of a partial element of a type whose basic
 * elements differ in size are counted by walking its recipe. */

/* Part i of one element of derived type slot, in its type map's order:
 * *count elements of type *sub; 0 past the last part. */
static int recipe_part(int slot, int i, MPI_Datatype *sub, MPI_Aint *count)
{
    const struct recipe *r = &recipes[slot];
    const int *n = r->ints;
    *sub = r->types[0];
    switch (r->combiner) {
    case MPI_COMBINER_INDEXED: case MPI_COMBINER_HINDEXED: case MPI_COMBINER_STRUCT:
        if (i >= n[0])
            return 0;
        *count = n[1 + i];           /* ints: count, blocklengths[count], ... */
        if (r->combiner == MPI_COMBINER_STRUCT)
            *sub = r->types[i];
        return 1;
    case MPI_COMBINER_VECTOR: case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK: case MPI_COMBINER_HINDEXED_BLOCK:
        *count = (MPI_Aint)n[0] * n[1];   /* count, blocklength */
        return i == 0;
    case MPI_COMBINER_CONTIGUOUS:
        *count = n[0];
        return i == 0;
    case MPI_COMBINER_SUBARRAY:      /* ndims, sizes[], subsizes[], starts[], order */
        *count = 1;
        for (int k = 0; k < n[0]; k++)
            *count *= n[1 + n[0] + k];
        return i == 0;
    case MPI_COMBINER_DARRAY:        /* the elements of old the process owns */
        *count = mpii_type_size(*sub) ? derived[slot].size / mpii_type_size(*sub) : 0;
        return i == 0;
    default:                         /* resized, dup: one element of the old type */
        *count = 1;
        return i == 0;
    }
}

/* What is left to count: bytes of data, basic elements; split when the
 * bytes end inside a basic element. */
struct budget { MPI_Aint bytes, elems; int split; };

/* Takes up to n elements of t, whole basic elements at a time, while the
 * budget lasts; 1 if it took all n. */
static int take(MPI_Datatype t, MPI_Aint n, struct budget *b)
{
    struct dtype tmp;
    struct blk bk;
    const struct dtype *d = held(t, &tmp, &bk);
    if (!d->size || n == 0)
        return 1;
    MPI_Aint whole = b->bytes / d->size < n ? b->bytes / d->size : n;
    if (d->nelem && b->elems / d->nelem < whole)
        whole = b->elems / d->nelem;
    b->bytes -= whole * d->size;
    b->elems -= whole * d->nelem;
    if (whole == n)
        return 1;
    if (!b->bytes || !b->elems)
        return 0;
    int slot = t - MPII_FIRST_DERIVED;
    if (slot < 0) {                  /* a basic type, or a pair's value then its int */
        MPI_Aint value = d->nelem == 2 ? (t == MPI_DOUBLE_INT ? (MPI_Aint)sizeof(double) : t == MPI_SHORT_INT
                                          ? (MPI_Aint)sizeof(short) : t == MPI_LONG_INT ? (MPI_Aint)sizeof(long)
                                          : t == MPI_LONG_DOUBLE_INT ? (MPI_Aint)sizeof(long double) : 4)
                                      : d->size;
        if (d->nelem == 2 && b->bytes >= value) {
            b->bytes -= value;
            b->elems -= 1;
        } else
            b->split = 1;
        return 0;
    }
    MPI_Datatype sub;
    MPI_Aint count;
    for (int i = 0; recipe_part(slot, i, &sub, &count); i++)
        if (!take(sub, count, b))
            return 0;
    return 0;
}

/* The basic elements a status's message holds in elements of t (MPI-3.1
 * 4.1.11): the whole elements' ones, and those of a last partial element;
 * MPI_UNDEFINED if the message ends inside a basic element. */
int MPI_Get_elements(const MPI_Status *st, MPI_Datatype t, int *count)
{
    MPII_ENTER("MPI_Get_elements");
    if (!st)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter status (MPI_STATUS_IGNORE); "
                        "accepted: the status of a receive");
    OUT_OR_ERR(MPI_COMM_WORLD, count);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    long bytes = st->count_bytes_;
    if (!d->size) {
        *count = 0;
        return MPI_SUCCESS;
    }
    long whole = bytes / d->size, rest = bytes % d->size;
    struct budget left = { rest, LONG_MAX, 0 };
    if (d->esize) {                  /* basic elements of one size */
        left.elems -= rest / d->esize;
        left.bytes = rest % d->esize;
    } else if (rest)
        take(t, 1, &left);
    *count = left.split || left.bytes ? MPI_UNDEFINED : (int)(whole * d->nelem + (LONG_MAX - left.elems));
    return MPI_SUCCESS;
}

/* --- the MPI_Count forms (MPI-3.1 4.1.5, 4.1.8, 4.1.11) and setting a
 * status's elements (13.3) ------------------------------------------------ */

int MPI_Type_size_x(MPI_Datatype t, MPI_Count *size)
{
    MPII_ENTER("MPI_Type_size_x");
    OUT_OR_ERR(MPI_COMM_WORLD, size);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    *size = d->size;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype t, MPI_Count *lb, MPI_Count *extent)
{
    MPII_ENTER("MPI_Type_get_extent_x");
    OUT_OR_ERR(MPI_COMM_WORLD, lb);
    OUT_OR_ERR(MPI_COMM_WORLD, extent);
    MPI_Aint l = 0, x = 0;
    int e = MPI_Type_get_extent(t, &l, &x);
    mpii_call = "MPI_Type_get_extent_x";
    if (!e) {
        *lb = l;
        *extent = x;
    }
    return e;
}

int MPI_Type_get_true_extent_x(MPI_Datatype t, MPI_Count *true_lb, MPI_Count *true_extent)
{
    MPII_ENTER("MPI_Type_get_true_extent_x");
    OUT_OR_ERR(MPI_COMM_WORLD, true_lb);
    OUT_OR_ERR(MPI_COMM_WORLD, true_extent);
    MPI_Aint l = 0, x = 0;
    int e = MPI_Type_get_true_extent(t, &l, &x);
    mpii_call = "MPI_Type_get_true_extent_x";
    if (!e) {
        *true_lb = l;
        *true_extent = x;
    }
    return e;
}

int MPI_Get_elements_x(const MPI_Status *st, MPI_Datatype t, MPI_Count *count)
{
    MPII_ENTER("MPI_Get_elements_x");
    OUT_OR_ERR(MPI_COMM_WORLD, count);
    int n;
    int e = MPI_Get_elements(st, t, &n);
    mpii_call = "MPI_Get_elements_x";
    if (!e)
        *count = n;
    return e;
}

/* A status as of a receive of count basic elements of t, for
 * MPI_Get_elements and MPI_Get_count to read (as a program's own
 * nonblocking layer sets one): whole elements of t, then the basic
 * elements of a last partial one, in its type map's order. */
static int set_elements(MPI_Status *st, MPI_Datatype t, MPI_Count count)
{
    OUT_OR_ERR(MPI_COMM_WORLD, st);
    struct dtype tmp;
    struct blk b;
    const struct dtype *d = view(t, &tmp, &b);
    if (!d)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    MPI_Count whole = d->nelem ? count / d->nelem : 0, rest = d->nelem ? count % d->nelem : count;
    struct budget left = { LONG_MAX, (MPI_Aint)rest, 0 };
    if (rest)
        take(t, 1, &left);
    MPI_Count bytes = whole * d->size + (LONG_MAX - left.bytes);
    if (bytes > INT_MAX)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "%lld elements are %lld bytes; a status holds at most %d",
                        (long long)count, (long long)bytes, INT_MAX);
    st->count_bytes_ = (int)bytes;
    return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *st, MPI_Datatype t, int count)
{
    MPII_ENTER("MPI_Status_set_elements");
    return set_elements(st, t, count);
}

int MPI_Status_set_elements_x(MPI_Status *st, MPI_Datatype t, MPI_Count count)
{
    MPII_ENTER("MPI_Status_set_elements_x");
    return set_elements(st, t, count);
}

int MPI_Status_set_cancelled(MPI_Status *st, int flag)
{
    MPII_ENTER("MPI_Status_set_cancelled");
    OUT_OR_ERR(MPI_COMM_WORLD, st);
    st->cancelled_ = flag != 0;
    return MPI_SUCCESS;
}

/* --- names (MPI-3.1 6.8) --------------------------------------------------
 * A basic type is named as the standard names it until the program names
 * it; a derived one has the empty name until then. */
static const char *const basic_names[] = {
    [MPI_CHAR] = "MPI_CHAR", [MPI_SIGNED_CHAR] = "MPI_SIGNED_CHAR", [MPI_UNSIGNED_CHAR] = "MPI_UNSIGNED_CHAR",
    [MPI_BYTE] = "MPI_BYTE", [MPI_SHORT] = "MPI_SHORT", [MPI_UNSIGNED_SHORT] = "MPI_UNSIGNED_SHORT",
    [MPI_INT] = "MPI_INT", [MPI_UNSIGNED] = "MPI_UNSIGNED", [MPI_LONG] = "MPI_LONG",
    [MPI_UNSIGNED_LONG] = "MPI_UNSIGNED_LONG", [MPI_LONG_LONG] = "MPI_LONG_LONG",
    [MPI_UNSIGNED_LONG_LONG] = "MPI_UNSIGNED_LONG_LONG", [MPI_FLOAT] = "MPI_FLOAT", [MPI_DOUBLE] = "MPI_DOUBLE",
    [MPI_INT8_T] = "MPI_INT8_T", [MPI_UINT8_T] = "MPI_UINT8_T", [MPI_INT16_T] = "MPI_INT16_T",
    [MPI_UINT16_T] = "MPI_UINT16_T", [MPI_INT32_T] = "MPI_INT32_T", [MPI_UINT32_T] = "MPI_UINT32_T",
    [MPI_INT64_T] = "MPI_INT64_T", [MPI_UINT64_T] = "MPI_UINT64_T", [MPI_PACKED] = "MPI_PACKED",
    [MPI_C_BOOL] = "MPI_C_BOOL", [MPI_WCHAR] = "MPI_WCHAR", [MPI_AINT] = "MPI_AINT", [MPI_COUNT] = "MPI_COUNT",
    [MPI_2INT] = "MPI_2INT", [MPI_FLOAT_INT] = "MPI_FLOAT_INT", [MPI_DOUBLE_INT] = "MPI_DOUBLE_INT",
    [MPI_LONG_INT] = "MPI_LONG_INT", [MPI_SHORT_INT] = "MPI_SHORT_INT", [MPI_LONG_DOUBLE_INT] = "MPI_LONG_DOUBLE_INT",
    [MPI_LONG_DOUBLE] = "MPI_LONG_DOUBLE", [MPI_OFFSET] = "MPI_OFFSET", [MPI_C_FLOAT_COMPLEX] = "MPI_C_FLOAT_COMPLEX",
    [MPI_C_DOUBLE_COMPLEX] = "MPI_C_DOUBLE_COMPLEX", [MPI_C_LONG_DOUBLE_COMPLEX] = "MPI_C_LONG_DOUBLE_COMPLEX",
};
static char basic_named[sizeof basic_names / sizeof basic_names[0]][MPI_MAX_OBJECT_NAME];

/* The basic types whose size is the node's own C type's, which differs
 * between the ISAs (long: 4 bytes on ARM, 8 on RISC-V; long double 8 and
 * 16; MPI_Aint a long); every other has one size on both. */
static int size_varies(MPI_Datatype t)
{
    switch (t) {
    case MPI_LONG: case MPI_UNSIGNED_LONG: case MPI_AINT: case MPI_LONG_INT:
    case MPI_LONG_DOUBLE: case MPI_LONG_DOUBLE_INT: case MPI_C_LONG_DOUBLE_COMPLEX:
        return 1;
    default:
        return 0;
    }
}

MPI_Datatype mpii_type_varying(MPI_Datatype t, const char **name)
{
    const struct dtype *d = derived_of(t);
    if (!d) {
        *name = size_varies(t) ? basic_names[t] : NULL;
        return size_varies(t) ? t : MPI_DATATYPE_NULL;
    }
    const struct recipe *r = &recipes[t - MPII_FIRST_DERIVED];
    for (int i = 0; i < r->nd; i++) {     /* what it was made of (a DAG: each of its types came first) */
        MPI_Datatype v = mpii_type_varying(r->types[i], name);
        if (v != MPI_DATATYPE_NULL)
            return v;
    }
    return MPI_DATATYPE_NULL;
}

/* Where t's name is kept, NULL if t is not a valid type. */
static char *name_of(MPI_Datatype t)
{
    if (mpii_basic_size(t))
        return basic_named[t];
    return live(t) ? derived_named[t - MPII_FIRST_DERIVED] : NULL;
}

int MPI_Type_set_name(MPI_Datatype t, const char *name)
{
    MPII_ENTER("MPI_Type_set_name");
    char *n = name_of(t);
    if (!n)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    return mpii_name_set(MPI_COMM_WORLD, n, name, "type_name");
}

int MPI_Type_get_name(MPI_Datatype t, char *name, int *resultlen)
{
    MPII_ENTER("MPI_Type_get_name");
    char *n = name_of(t);
    if (!n)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    return mpii_name_get(MPI_COMM_WORLD, n[0] || !mpii_basic_size(t) ? n : basic_names[t], name, resultlen);
}

/* --- how a type was made (MPI-3.1 4.1.13) ---------------------------------- */

/* New type *t's recipe: its combiner, its integers (the runs of segs),
 * addresses and types; the derived ones among them kept. On no memory
 * the type is freed again and *t is MPI_DATATYPE_NULL. */
static int record(MPI_Datatype *t, int combiner, int nseg, const struct seg *segs, int na, const MPI_Aint *addrs,
                  int nd, const MPI_Datatype *types)
{
    struct recipe *r = &recipes[*t - MPII_FIRST_DERIVED];
    int ni = 0;
    for (int i = 0; i < nseg; i++)
        ni += segs[i].n;
    *r = (struct recipe){ .combiner = combiner, .ni = ni, .na = na, .nd = nd,
                          .ints = malloc((size_t)(ni ? ni : 1) * sizeof(int)),
                          .addrs = malloc((size_t)(na ? na : 1) * sizeof(MPI_Aint)),
                          .types = malloc((size_t)(nd ? nd : 1) * sizeof(MPI_Datatype)) };
    if (!r->ints || !r->addrs || !r->types) {
        free(r->ints);
        free(r->addrs);
        free(r->types);
        *r = (struct recipe){ 0 };
        const char *call = mpii_call;
        MPI_Type_free(t);
        mpii_call = call;
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "no memory to keep how a datatype was made");
    }
    for (int i = 0, k = 0; i < nseg; k += segs[i].n, i++)
        if (segs[i].n)
            memcpy(r->ints + k, segs[i].p, (size_t)segs[i].n * sizeof(int));
    if (na)
        memcpy(r->addrs, addrs, (size_t)na * sizeof(MPI_Aint));
    for (int i = 0; i < nd; i++) {
        r->types[i] = types[i];
        if (derived_of(types[i]))
            kept[types[i] - MPII_FIRST_DERIVED]++;
    }
    return MPI_SUCCESS;
}

static void forget_recipe(int slot)
{
    struct recipe *r = &recipes[slot];
    for (int i = 0; i < r->nd; i++)
        if (derived_of(r->types[i]))
            kept[r->types[i] - MPII_FIRST_DERIVED]--;
    free(r->ints);
    free(r->addrs);
    free(r->types);
    *r = (struct recipe){ 0 };
}

int MPI_Type_get_envelope(MPI_Datatype t, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner)
{
    MPII_ENTER("MPI_Type_get_envelope");
    OUT_OR_ERR(MPI_COMM_WORLD, num_integers);
    OUT_OR_ERR(MPI_COMM_WORLD, num_addresses);
    OUT_OR_ERR(MPI_COMM_WORLD, num_datatypes);
    OUT_OR_ERR(MPI_COMM_WORLD, combiner);
    if (mpii_basic_size(t)) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    if (!live(t))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    const struct recipe *r = &recipes[t - MPII_FIRST_DERIVED];
    *num_integers = r->ni;
    *num_addresses = r->na;
    *num_datatypes = r->nd;
    *combiner = r->combiner;
    return MPI_SUCCESS;
}

/* The arguments that made t. A derived type among them is given back as
 * a handle the program frees (MPI-3.1 4.1.13), the same type (one handle
 * more of it), even if the program freed it since. */
int MPI_Type_get_contents(MPI_Datatype t, int max_integers, int max_addresses, int max_datatypes, int integers[],
                          MPI_Aint addresses[], MPI_Datatype datatypes[])
{
    MPII_ENTER("MPI_Type_get_contents");
    if (mpii_basic_size(t))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is predefined (MPI_COMBINER_NAMED): it has no "
                        "contents", t);
    if (!live(t))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid", t);
    const struct recipe *r = &recipes[t - MPII_FIRST_DERIVED];
    if (max_integers < r->ni || max_addresses < r->na || max_datatypes < r->nd)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "room for %d integers, %d addresses, %d datatypes; the type "
                        "has %d, %d, %d", max_integers, max_addresses, max_datatypes, r->ni, r->na, r->nd);
    if ((r->ni && !integers) || (r->na && !addresses) || (r->nd && !datatypes))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer in parameter %s", r->ni && !integers ?
                        "array_of_integers" : r->na && !addresses ? "array_of_addresses" : "array_of_datatypes");
    if (r->ni)
        memcpy(integers, r->ints, (size_t)r->ni * sizeof(int));
    if (r->na)
        memcpy(addresses, r->addrs, (size_t)r->na * sizeof(MPI_Aint));
    for (int i = 0; i < r->nd; i++) {
        MPI_Datatype d = r->types[i];
        struct dtype *o = derived_of(d);
        if (o) {                     /* one handle more; a freed one lives again */
            int slot = d - MPII_FIRST_DERIVED;
            urefs[slot] = o->used == 1 ? urefs[slot] + 1 : 1;
            o->used = 1;
        }
        datatypes[i] = d;
    }
    return MPI_SUCCESS;
}
