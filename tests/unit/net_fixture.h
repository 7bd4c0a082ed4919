/* What the network's unit tests (test_net.c, test_jump.c) share: a machine
 * from the words a user types, failing the test if it is refused. */
#ifndef NET_FIXTURE_H
#define NET_FIXTURE_H

#include "check.h"
#include "machine.h"

static inline struct machine mach(const char *topo, const char *nodes, const char *dims, enum nic_port pm)
{
    struct machine m;
    char err[256];
    if (machine_parse(&m, topo, nodes, dims, err, sizeof err))
        check_fail(__FILE__, __LINE__, "machine_parse: %s", err);
    m.port_model = pm;
    return m;
}

#endif
