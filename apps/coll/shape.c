/* Machine-shape helpers shared by the schedules (pure C, host and node). */
#include "coll.h"

void shape_coords(const struct app_shape *sh, int rank, int c[SHAPE_MAX_DIMS])
{
    for (int i = 0; i < SHAPE_MAX_DIMS; i++) {
        int k = i < sh->ndims ? sh->dims[i] : 1;
        c[i] = rank % k;
        rank /= k;
    }
}

int shape_rank(const struct app_shape *sh, const int c[SHAPE_MAX_DIMS])
{
    int r = 0;
    for (int i = sh->ndims - 1; i >= 0; i--)
        r = r * sh->dims[i] + c[i];
    return r;
}

int is_pow2(long x)
{
    return x >= 1 && (x & (x - 1)) == 0;
}

int ilog2(long x)
{
    int k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

long next_pow2(long x)
{
    long q = 1;
    while (q < x)
        q <<= 1;
    return q;
}

int shape_along(const struct app_shape *sh, int node, int i, int by)
{
    int c[SHAPE_MAX_DIMS];
    shape_coords(sh, node, c);
    c[i] = ((c[i] + by) % sh->dims[i] + sh->dims[i]) % sh->dims[i];
    return shape_rank(sh, c);
}
