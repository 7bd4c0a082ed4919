/* The broadcast pattern of the slides' controlled flooding (seed 004),
 * shared by allgather_flood (apps/coll/allgather_flood.c: the nodes relay
 * in software, phase by phase) and allgather_flood_nic (apps/hw_flood.c:
 * the NICs relay by rules installed once). allgather_flood.c states the
 * pattern's cases. Plain static functions, compiled into each file that
 * includes this. */
#ifndef COLL_FLOOD_PATTERN_H
#define COLL_FLOOD_PATTERN_H

#include <stdlib.h>
#include "coll.h"

static int U(int x) { return x > 0; }
static int I(int x) { return x > 0 ? 1 : -1; }
static int mod2(int x) { return ((x % 2) + 2) % 2; }

/* The pattern's neighbours of a node at offset (dx, dy) from the origin,
 * as offsets from the node; returns how many. */
static int pattern(int dx, int dy, int ox[4], int oy[4])
{
    if (dx == 0 && dy == 0) {                                    /* Case 1 */
        ox[0] = 0, oy[0] = 1;
        ox[1] = 0, oy[1] = -1;
        ox[2] = 1, oy[2] = 0;
        ox[3] = -1, oy[3] = 0;
        return 4;
    }
    if (dx == 0) {                                               /* Case 2.1 */
        ox[0] = mod2(dy + U(I(dy)));
        oy[0] = I(dy) * mod2(dy + 1 - U(I(dy)));
        ox[1] = -mod2(dy + U(-I(dy)));
        oy[1] = I(dy) * mod2(dy + 1 - U(-I(dy)));
        return 2;
    }
    if (dy == 0) {                                               /* Case 2.2 */
        ox[0] = I(dx) * mod2(dx + U(I(dx)));
        oy[0] = mod2(dx + 1 - U(I(dx)));
        ox[1] = I(dx) * mod2(dx + U(-I(dx)));
        oy[1] = -mod2(dx + 1 - U(-I(dx)));
        return 2;
    }
    int u = U(I(dx) * I(dy));                                    /* Case 3 */
    ox[0] = I(dx) * mod2(dx + dy + u);
    oy[0] = I(dy) * mod2(dx + dy + 1 - u);
    return 1;
}

/* Offset of b from a along a dimension of size n: the short way round on
 * a torus (|off| <= (n-1)/2 for odd n), plain on a mesh. */
static int offset(const struct app_shape *sh, int a, int b, int n)
{
    int d = b - a;
    if (sh->topo == TOPO_TORUS) {
        d = ((d % n) + n) % n;
        if (2 * d > n)
            d -= n;
    }
    return d;
}

static int dist(const struct app_shape *sh, int a, int b)
{
    int n = sh->dims[0];
    return abs(offset(sh, a % n, b % n, n)) + abs(offset(sh, a / n, b / n, n));
}

/* The neighbours node v relays origin o's message to, after trimming (mesh)
 * or the distance check (torus). */
static int children(const struct app_shape *sh, int o, int v, int out[4])
{
    int n = sh->dims[0], x = v % n, y = v / n, ox[4], oy[4], k = 0;
    int cnt = pattern(offset(sh, o % n, x, n), offset(sh, o / n, y, n), ox, oy);
    for (int i = 0; i < cnt; i++) {
        int cx = x + ox[i], cy = y + oy[i];
        if (sh->topo == TOPO_TORUS) {
            cx = (cx + n) % n;
            cy = (cy + n) % n;
            if (dist(sh, o, v) >= dist(sh, o, cx + n * cy))
                continue;
        } else if (cx < 0 || cx >= n || cy < 0 || cy >= n) {
            continue;
        }
        out[k++] = cx + n * cy;
    }
    return k;
}

#endif
