/* Machine-shape helpers shared by the schedules (pure C, host and node). */
#include "coll.h"

void shape_coords(const struct app_shape *sh, int rank, int c[SHAPE_MAX_DIMS])
{
    topo_coords((const struct topo_shape *)sh, rank, c);       /* its first member */
}

int shape_rank(const struct app_shape *sh, const int c[SHAPE_MAX_DIMS])
{
    return topo_rank((const struct topo_shape *)sh, c);
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
