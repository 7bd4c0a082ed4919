/* The ivshmem-doorbell server side (QEMU docs/specs/ivshmem-spec.rst):
 * one memfd and two eventfds per node, handed to the node's QEMU over a
 * UNIX socket. */
#ifndef IVSHMEM_H
#define IVSHMEM_H

#include <stddef.h>
#include <stdint.h>

struct nic_mem {
    int memfd;          /* the node's NIC memory; closed once handed over */
    uint8_t *map;       /* the router's mapping of it */
    size_t size;
    int bell_fd;        /* node -> router: rung by the node's doorbell */
    int irq_fd;         /* router -> node: raises the node's MSI-X vector 0 */
};

int  nic_mem_create(struct nic_mem *nm, int rank, size_t size);
void nic_mem_destroy(struct nic_mem *nm);

/* The rings of the node's doorbell since the last call: its eventfd's
 * count, read and so reset (0 if none). A wake-up on the eventfd stands
 * for one ring or many: the node's QEMU writes 1 a ring, and epoll
 * reports the writes since the last wait as one event. */
uint64_t nic_mem_rings(const struct nic_mem *nm);

/* Send the connect-time messages to a node's QEMU: version, its peer id,
 * the memory, the router as peer 0 (the node's doorbell eventfd), and the
 * node's own vector (the interrupt eventfd). */
int ivshmem_handshake(int conn, int peer_id, const struct nic_mem *nm);

/* A listening abstract UNIX socket (no file is ever created). */
int ivshmem_listen(const char *abstract_name);

#endif
