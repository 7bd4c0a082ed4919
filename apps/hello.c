/* hello: every node prints its rank, its coordinates and the machine. */
#include <stdio.h>
#include "apps.h"
#include "../netdev/net.h"

int app_hello(void)
{
    static const char *const kind[] = { TOPO_NAMES };
    const struct topo_shape *t = net_topology();
    int c[NET_MAX_DIMS];
    net_coords(net_rank(), c);
    printf("hello from node %d of %d, %s, coordinates (", net_rank(), net_nodes(),
           (unsigned)t->topo < TOPO_COUNT ? kind[t->topo] : "machine");
    for (int i = 0; i < t->ndims; i++)
        printf(i ? ",%d" : "%d", c[i]);
    printf(")\n");
    return 0;
}
