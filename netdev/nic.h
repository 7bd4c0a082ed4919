/* NIC driver entry points used by the kernel (not by apps: see net.h). */
#ifndef NIC_H
#define NIC_H

#include <stdint.h>
#include "nic_shm.h"

/* Find the ivshmem-doorbell NIC, route its interrupt, do the link-up
 * handshake with the router. Returns the router's configuration. */
const struct nic_config *nic_init(void);

/* Tell the router the node is ending with this status (last descriptor).
 * Returns -1 if the link never came up, so nothing could be told. */
int nic_exit(int status);

/* 1 when the router asked this node to wait after its EXIT for its pool
 * to reset it (nic_config.after_exit). */
int nic_waits_after_exit(void);

/* Record a fault in the status block, if the NIC is up. */
void nic_fault(uint32_t kind, uint32_t pc, uint32_t addr, uint32_t status);

/* Test hooks for the fault-injection apps: write a raw descriptor (stamped
 * now, or with any time), move the producer index, ring the doorbell with
 * nothing new, or say hello, the way a buggy or hostile driver would. */
void nic_test_post_raw(uint32_t op, uint32_t peer, uint32_t tag, uint32_t len, uint32_t off);
void nic_test_post_at(uint64_t t, uint32_t op, uint32_t peer, uint32_t tag, uint32_t len, uint32_t off);
void nic_test_set_prod(uint32_t prod);
void nic_test_doorbell(void);
void nic_test_hello(uint32_t v);
#endif
