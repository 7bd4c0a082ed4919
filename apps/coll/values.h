/* The values the reduction apps contribute and check (apps/coll/apps.c,
 * and the control network's apps, apps/hw_ctrl.c): node v's element i,
 * and a check of a result against the fold of value(0..upto, i) by the
 * library's own operator. Plain static functions, compiled into each app
 * file that includes this. */
#ifndef COLL_VALUES_H
#define COLL_VALUES_H

#include <stdint.h>
#include <string.h>
#include "coll.h"

/* Node v's element i: small integers, and for doubles multiples of 1/4
 * below 2^20, so any order of the sums is exact. */
static int32_t value32(int v, size_t i) { return (int32_t)((uint32_t)(v + 1) * 2654435761u ^ (uint32_t)i * 40503u); }

static void put_value(unsigned char *b, enum coll_dtype t, int v, size_t i)
{
    int32_t x = value32(v, i);
    switch (t) {
    case COLL_INT32: memcpy(b, &x, 4); break;
    case COLL_INT64: { int64_t y = (int64_t)x * 65537; memcpy(b, &y, 8); break; }
    default: { double d = (double)(x & 0xfffff) / 4.0; memcpy(b, &d, 8); break; }
    }
}

static long check_reduced(const unsigned char *got, size_t count, enum coll_dtype t, enum coll_rop op, int upto)
{
    size_t es = (size_t)coll_dtype_size[t];
    unsigned char want[8], y[8];
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        put_value(want, t, 0, i);
        for (int v = 1; v <= upto; v++) {
            put_value(y, t, v, i);
            coll_combine(want, y, 1, t, op);
        }
        bad += memcmp(want, got + i * es, es) != 0;
    }
    return bad;
}

#endif
