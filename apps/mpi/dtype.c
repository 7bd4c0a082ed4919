/* MPI's basic datatypes and the reduction operators (MPI-3.1 sections
 * 3.2.2 and 5.9): the basic C types' sizes (the node's own C types'), and
 * the predefined and user operators. Derived types: apps/mpi/typemap.c. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include "mpii.h"

static const unsigned char sizes[] = {
    [MPI_CHAR] = sizeof(char), [MPI_SIGNED_CHAR] = sizeof(signed char),
    [MPI_UNSIGNED_CHAR] = sizeof(unsigned char), [MPI_BYTE] = 1, [MPI_SHORT] = sizeof(short),
    [MPI_UNSIGNED_SHORT] = sizeof(unsigned short), [MPI_INT] = sizeof(int), [MPI_UNSIGNED] = sizeof(unsigned),
    [MPI_LONG] = sizeof(long), [MPI_UNSIGNED_LONG] = sizeof(unsigned long), [MPI_LONG_LONG] = sizeof(long long),
    [MPI_UNSIGNED_LONG_LONG] = sizeof(unsigned long long), [MPI_FLOAT] = sizeof(float),
    [MPI_DOUBLE] = sizeof(double), [MPI_INT8_T] = 1, [MPI_UINT8_T] = 1, [MPI_INT16_T] = 2, [MPI_UINT16_T] = 2,
    [MPI_INT32_T] = 4, [MPI_UINT32_T] = 4, [MPI_INT64_T] = 8, [MPI_UINT64_T] = 8, [MPI_PACKED] = 1,
    [MPI_C_BOOL] = sizeof(bool), [MPI_WCHAR] = sizeof(wchar_t), [MPI_AINT] = sizeof(MPI_Aint),
    [MPI_COUNT] = sizeof(MPI_Count),
    [MPI_2INT] = sizeof(struct { int v, i; }), [MPI_FLOAT_INT] = sizeof(struct { float v; int i; }),
    [MPI_DOUBLE_INT] = sizeof(struct { double v; int i; }), [MPI_LONG_INT] = sizeof(struct { long v; int i; }),
    [MPI_SHORT_INT] = sizeof(struct { short v; int i; }),
    [MPI_LONG_DOUBLE_INT] = sizeof(struct { long double v; int i; }), [MPI_LONG_DOUBLE] = sizeof(long double),
    [MPI_OFFSET] = sizeof(MPI_Offset), [MPI_C_FLOAT_COMPLEX] = sizeof(float _Complex),
    [MPI_C_DOUBLE_COMPLEX] = sizeof(double _Complex), [MPI_C_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
};

int mpii_basic_size(MPI_Datatype t)
{
    return t > 0 && t < (int)sizeof sizes ? sizes[t] : 0;
}

/* A basic type's alignment, as a struct member (a derived struct's
 * extent is padded to its most aligned member's, as C pads): the C type's
 * for long double and the complex types, else its size up to 8. */
int mpii_basic_align(MPI_Datatype t)
{
    switch (t) {
    case MPI_C_FLOAT_COMPLEX: return _Alignof(float _Complex);
    case MPI_C_DOUBLE_COMPLEX: return _Alignof(double _Complex);
    case MPI_LONG_DOUBLE: case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_LONG_DOUBLE_INT: return _Alignof(long double);
    default: return mpii_basic_size(t) > 8 ? 8 : mpii_basic_size(t);
    }
}

/* The basic type of a kind and size (MPI-3.1 17.1.9): the library has
 * no Fortran types, so the node's C ones, signed for integers; the
 * handle is the predefined type's own. */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    MPII_ENTER("MPI_Type_match_size");
    OUT_OR_ERR(MPI_COMM_WORLD, datatype);
    static const MPI_Datatype integer[] = { MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG_LONG },
                              real[] = { MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE },
                              complex[] = { MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX };
    const MPI_Datatype *list = typeclass == MPI_TYPECLASS_INTEGER ? integer : typeclass == MPI_TYPECLASS_REAL ? real
                             : typeclass == MPI_TYPECLASS_COMPLEX ? complex : NULL;
    int n = typeclass == MPI_TYPECLASS_INTEGER ? 4 : 3;
    if (!list)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "typeclass %d; accepted: MPI_TYPECLASS_REAL, "
                        "MPI_TYPECLASS_INTEGER or MPI_TYPECLASS_COMPLEX", typeclass);
    char sizes_of[40] = "";          /* the sizes this class takes, "1, 2, 4, 8" */
    for (int i = 0; i < n; i++) {
        if (mpii_basic_size(list[i]) == size) {
            *datatype = list[i];
            return MPI_SUCCESS;
        }
        if (i == 0 || mpii_basic_size(list[i]) != mpii_basic_size(list[i - 1]))   /* once each: on ARM
                                                                                      * long double is double */
            snprintf(sizes_of + strlen(sizes_of), sizeof sizes_of - strlen(sizes_of), i ? ", %d" : "%d",
                     mpii_basic_size(list[i]));
    }
    return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "size %d of typeclass %d; accepted: %s", size, typeclass, sizes_of);
}

/* --- operators -------------------------------------------------------- */

#define MPII_USER_OPS 16
#define USER_OP_BASE 32
static struct { MPI_User_function *fn; int commute; } user_ops[MPII_USER_OPS];

/* commute is kept for MPI_Op_commutative: a user operator always runs
 * the library's own reductions, which combine in rank order, right
 * whether it commutes or not (apps/mpi/coll.c, icoll.c). */
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    MPII_ENTER("MPI_Op_create");
    OUT_OR_ERR(MPI_COMM_WORLD, op);
    for (int i = 0; i < MPII_USER_OPS; i++)
        if (!user_ops[i].fn) {
            user_ops[i].fn = fn;
            user_ops[i].commute = commute != 0;
            *op = USER_OP_BASE + i;
            return MPI_SUCCESS;
        }
    return mpii_err(MPI_COMM_WORLD, MPI_ERR_OP, "more than %d user operators", MPII_USER_OPS);
}

int MPI_Op_free(MPI_Op *op)
{
    MPII_ENTER("MPI_Op_free");
    OUT_OR_ERR(MPI_COMM_WORLD, op);
    int i = *op - USER_OP_BASE;
    if (i < 0 || i >= MPII_USER_OPS || !user_ops[i].fn)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_OP, "operator %d is not a user operator", *op);
    user_ops[i].fn = NULL;
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

static bool user_op(MPI_Op op);

/* Whether op commutes (MPI-3.1 5.9.7): every predefined operator does; a
 * user operator as MPI_Op_create was told. */
int MPI_Op_commutative(MPI_Op op, int *commute)
{
    MPII_ENTER("MPI_Op_commutative");
    OUT_OR_ERR(MPI_COMM_WORLD, commute);
    if (user_op(op))
        *commute = user_ops[op - USER_OP_BASE].commute;
    else if (op > MPI_OP_NULL && op <= MPI_MINLOC)
        *commute = 1;
    else
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_OP, "operator %d is not valid", op);
    return MPI_SUCCESS;
}

/* inoutbuf = inbuf op inoutbuf, count elements, on this process alone
 * (MPI-3.1 5.9.7); op and type as a reduction takes them. */
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype t, MPI_Op op)
{
    MPII_ENTER("MPI_Reduce_local");
    if (count < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "count %d is negative", count);
    if (!mpii_type_usable(t))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "datatype %d is not valid or not committed", t);
    int e = mpii_op_check(MPI_COMM_WORLD, op, t);
    if (e)
        return e;
    if (count > 0 && (!inbuf || !inoutbuf || inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE))
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "a null or MPI_IN_PLACE buffer for %d elements", count);
    mpii_reduce(inbuf, inoutbuf, count, t, op);
    return MPI_SUCCESS;
}

/* y[i] = x[i] op y[i] for one C type, the operator chosen before the
 * loop, so that a call of n = 0 still says whether op applies. The groups
 * of MPI-3.1 5.9.2: MPI_SUM, MPI_PROD, MPI_MAX and MPI_MIN apply to
 * integers and floating point; the logical operators to integers and
 * MPI_C_BOOL; the bitwise ones to integers and MPI_BYTE. (MPI_CHAR and
 * MPI_BYTE take every integer operator, as Open MPI takes them.) */
#define EACH(expr)                                                                    \
    {                                                                                 \
        for (int i = 0; i < n; i++)                                                   \
            b[i] = (expr);                                                            \
        return 0;                                                                     \
    }
#define ARITH_OPS                                                                     \
    case MPI_SUM: EACH(a[i] + b[i])                                                   \
    case MPI_PROD: EACH(a[i] * b[i])                                                  \
    case MPI_MAX: EACH(a[i] > b[i] ? a[i] : b[i])                                     \
    case MPI_MIN: EACH(a[i] < b[i] ? a[i] : b[i])
#define LOGICAL_OPS                                                                   \
    case MPI_LAND: EACH(a[i] && b[i])                                                 \
    case MPI_LOR: EACH(a[i] || b[i])                                                  \
    case MPI_LXOR: EACH(!a[i] != !b[i])
#define BITWISE_OPS                                                                   \
    case MPI_BAND: EACH(a[i] & b[i])                                                  \
    case MPI_BOR: EACH(a[i] | b[i])                                                   \
    case MPI_BXOR: EACH(a[i] ^ b[i])
#define OPS(T, cases)                                                                 \
    {                                                                                 \
        const T *a = x;                                                               \
        T *b = y;                                                                     \
        switch (op) {                                                                 \
            cases                                                                     \
        default: return -1;                                                           \
        }                                                                             \
    }
#define INTEGER(T) OPS(T, ARITH_OPS LOGICAL_OPS BITWISE_OPS)
#define FLOATING(T) OPS(T, ARITH_OPS)
/* MPI-3.1 5.9.2: complex numbers take SUM and PROD. The product is the
 * plain formula, as MPICH computes it, not C's (libgcc's __muldc3, which
 * treats infinities and NaNs as Annex G has it). */
#define COMPLEX_OPS(R)                                                                \
    case MPI_SUM: EACH(a[i] + b[i])                                                   \
    case MPI_PROD:                                                                    \
        EACH(__builtin_complex((R)(__real__ a[i] * __real__ b[i] - __imag__ a[i] * __imag__ b[i]), \
                               (R)(__real__ a[i] * __imag__ b[i] + __imag__ a[i] * __real__ b[i])))
#define COMPLEX(T, R) OPS(T, COMPLEX_OPS(R))

/* MAXLOC, MINLOC on value-index pairs: the greater (lesser) value, and on
 * a tie the lesser index (MPI-3.1 5.9.4). */
#define LOC(T)                                                                        \
    {                                                                                 \
        const struct { T v; int i; } *a = x;                                          \
        struct { T v; int i; } *b = y;                                                \
        for (int k = 0; k < n; k++) {                                                 \
            int better = op == MPI_MAXLOC ? a[k].v > b[k].v : a[k].v < b[k].v;        \
            if (better || (a[k].v == b[k].v && a[k].i < b[k].i))                      \
                b[k] = *(const typeof(b[k]) *)&a[k];                                  \
        }                                                                             \
        return 0;                                                                     \
    }

static int reduce_loc(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op)
{
    switch (t) {
    case MPI_2INT: LOC(int)
    case MPI_FLOAT_INT: LOC(float)
    case MPI_DOUBLE_INT: LOC(double)
    case MPI_LONG_INT: LOC(long)
    case MPI_SHORT_INT: LOC(short)
    default: return -1;
    }
}

static bool user_op(MPI_Op op)
{
    int u = op - USER_OP_BASE;
    return u >= 0 && u < MPII_USER_OPS && user_ops[u].fn;
}

/* A user operator applies to any type; a predefined one as
 * mpii_reduce_local takes it (none to a derived type: docs/mpi.md). Every
 * rank of a reduction checks this before it sends or receives anything,
 * all ranks passing the same op and type (MPI-3.1 5.9.1), so all of them
 * return the error and none waits for a peer that has returned. */
int mpii_op_check(MPI_Comm comm, MPI_Op op, MPI_Datatype t)
{
    if (user_op(op) || mpii_reduce(NULL, NULL, 0, t, op) == 0)
        return MPI_SUCCESS;
    if (op <= MPI_OP_NULL || op > MPI_MINLOC)
        return mpii_err(comm, MPI_ERR_OP, "operator %d is not valid", op);
    return mpii_err(comm, MPI_ERR_OP, "operator %d does not apply to datatype %d", op, t);
}

/* The types mpii_reduce_local leaves (mpii_reduce, mpii.h, tries them
 * next): long double, MPI_OFFSET and the complex types. Apart, so that the
 * other types' reductions, and the check of every reduction's operator,
 * run the instructions they ran before these types were added. */
int mpii_reduce_more(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op)
{
    if (op == MPI_MAXLOC || op == MPI_MINLOC) {
        if (t == MPI_LONG_DOUBLE_INT)
            LOC(long double)
        return -1;
    }
    switch (t) {
    case MPI_LONG_DOUBLE: FLOATING(long double)
    case MPI_OFFSET: INTEGER(MPI_Offset)
    case MPI_C_FLOAT_COMPLEX: COMPLEX(float _Complex, float)
    case MPI_C_DOUBLE_COMPLEX: COMPLEX(double _Complex, double)
    case MPI_C_LONG_DOUBLE_COMPLEX: COMPLEX(long double _Complex, long double)
    default:
        return -1;
    }
}

int mpii_reduce_local(const void *x, void *y, int n, MPI_Datatype t, MPI_Op op)
{
    if (op == MPI_MAXLOC || op == MPI_MINLOC)
        return reduce_loc(x, y, n, t, op);
    int u = op - USER_OP_BASE;
    if (u >= 0 && u < MPII_USER_OPS) {
        if (!user_ops[u].fn)
            return -1;
        user_ops[u].fn((void *)x, y, &n, &t);
        return 0;
    }
    switch (t) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_INT8_T: INTEGER(int8_t)
    case MPI_UNSIGNED_CHAR: case MPI_BYTE: case MPI_UINT8_T: INTEGER(uint8_t)
    case MPI_C_BOOL: OPS(bool, LOGICAL_OPS)
    case MPI_SHORT: case MPI_INT16_T: INTEGER(int16_t)
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: INTEGER(uint16_t)
    case MPI_INT: case MPI_INT32_T: INTEGER(int32_t)
    case MPI_UNSIGNED: case MPI_UINT32_T: INTEGER(uint32_t)
    case MPI_LONG: INTEGER(long)
    case MPI_UNSIGNED_LONG: INTEGER(unsigned long)
    case MPI_LONG_LONG: case MPI_INT64_T: case MPI_COUNT: INTEGER(int64_t)
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: INTEGER(uint64_t)
    case MPI_AINT: INTEGER(MPI_Aint)
    case MPI_FLOAT: FLOATING(float)
    case MPI_DOUBLE: FLOATING(double)
    default:
        return -1;
    }
}
