/* The reduction operators (coll.h: coll_combine): x = x op y, element by
 * element. Pure C. Integers are 32- or 64-bit two's complement (a sum
 * wraps); doubles follow IEEE 754 (the apps choose values whose sums are
 * exact in any order, so every node can check its result exactly). */
#include <stdint.h>
#include "coll.h"

#define LOOP(T, EXPR)                                                   \
    do {                                                                \
        T *a = x;                                                       \
        const T *b = y;                                                 \
        for (size_t i = 0; i < n; i++) {                                \
            T u = a[i], v = b[i];                                       \
            a[i] = (EXPR);                                              \
        }                                                               \
    } while (0)

#define INT_OPS(T, UT)                                                  \
    switch (op) {                                                       \
    case COLL_SUM:  LOOP(T, (T)((UT)u + (UT)v)); break;                 \
    case COLL_MAX:  LOOP(T, u > v ? u : v); break;                      \
    case COLL_MIN:  LOOP(T, u < v ? u : v); break;                      \
    case COLL_BAND: LOOP(T, u & v); break;                              \
    case COLL_BOR:  LOOP(T, u | v); break;                              \
    case COLL_BXOR: LOOP(T, u ^ v); break;                              \
    default: break;                                                     \
    }

void coll_combine(void *x, const void *y, size_t n, enum coll_dtype t, enum coll_rop op)
{
    switch (t) {
    case COLL_INT32:
        INT_OPS(int32_t, uint32_t);
        break;
    case COLL_INT64:
        INT_OPS(int64_t, uint64_t);
        break;
    case COLL_DOUBLE:
        switch (op) {
        case COLL_SUM: LOOP(double, u + v); break;
        case COLL_MAX: LOOP(double, u > v ? u : v); break;
        case COLL_MIN: LOOP(double, u < v ? u : v); break;
        default: break;                   /* refused by coll_ctx_from_args */
        }
        break;
    default:
        break;
    }
}
