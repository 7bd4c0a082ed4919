/* Types on a mixed machine (docs/mpi.md): a message carries a type's
 * bytes as the sending node holds them, and nothing converts them. A few
 * basic types have the node's own C type's size, which differs between
 * the ISAs (long is 4 bytes on an ARM node and 8 on a RISC-V one: a
 * receiver of the other ISA would read other bytes than were sent, with
 * no error). So a call that would move one between nodes of the two ISAs
 * is refused where it is made, naming the type and the fixed-size ones to
 * use; between nodes of one ISA it is a type like any other. The NIC says
 * every node's ISA (netdev/net.h, net_node_isa). */
#include <stdio.h>
#include "mpii.h"
#include "../../netdev/net.h"

int mpii_isa_mixed;

void mpii_isa_init(void)
{
    int first = net_node_isa(0);
    mpii_isa_mixed = 0;
    for (int i = 1; first >= 0 && i < net_nodes() && i < NIC_ISA_PERIOD_MAX; i++)
        if (net_node_isa(i) != first)    /* the ISAs repeat with a period of at most NIC_ISA_PERIOD_MAX */
            mpii_isa_mixed = 1;
}

static const char *isa_name(int isa)
{
    return isa == NIC_ISA_RISCV ? "RISC-V" : "ARM";
}

static int refuse(MPI_Comm comm, MPI_Datatype t, MPI_Datatype basic, const char *name, int node)
{
    int self = net_node_isa(net_rank());
    char held[48] = "";
    if (t != basic)
        snprintf(held, sizeof held, "datatype %d holds ", t);
    return mpii_err(comm, MPI_ERR_TYPE, "%s%s differs in size between this %s node and node %d (%s) and is not "
                    "converted: use a fixed-size type, MPI_INT32_T, MPI_INT64_T, ... (docs/mpi.md)", held, name,
                    isa_name(self), node, isa_name(net_node_isa(node)));
}

int mpii_isa_peer(MPI_Comm comm, const struct mpii_comm *c, MPI_Datatype t, int peer)
{
    const char *name;
    if (peer < 0 || peer >= c->size)
        return MPI_SUCCESS;          /* MPI_PROC_NULL, MPI_ANY_SOURCE: no node to tell */
    int node = c->world[peer];
    if (net_node_isa(node) == net_node_isa(net_rank()))
        return MPI_SUCCESS;
    MPI_Datatype v = mpii_type_varying(t, &name);
    return v == MPI_DATATYPE_NULL ? MPI_SUCCESS : refuse(comm, t, v, name, node);
}

/* The first node of c of the other ISA than this one's, or -1. */
static int other_isa_node(const struct mpii_comm *c)
{
    int self = net_node_isa(net_rank());
    for (int r = 0; r < c->size; r++)
        if (net_node_isa(c->world[r]) != self)
            return c->world[r];
    return -1;
}

/* The type is looked at first: most calls move none of these types, and
 * then the communicator's members are not walked. An intercommunicator's
 * two groups are both walked by every rank, so that all refuse or none. */
int mpii_isa_coll(MPI_Comm comm, MPI_Datatype t)
{
    const char *name;
    MPI_Datatype v = mpii_type_varying(t, &name);
    if (v == MPI_DATATYPE_NULL)
        return MPI_SUCCESS;
    const struct mpii_comm *c = mpii_comm(comm), *ic = c ? NULL : mpii_inter(comm);
    int node = c ? other_isa_node(c) : ic ? other_isa_node(ic) : -1;
    if (node < 0 && ic)
        node = other_isa_node(&mpii_comms[mpii_local(ic)]);
    return node < 0 ? MPI_SUCCESS : refuse(comm, t, v, name, node);
}
