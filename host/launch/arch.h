/* Which ISA each node runs. Every ISA has its own node image and QEMU
 * template; the NIC memory layout and the node ABI are the same for all
 * (netdev/nic_shm.h), so nodes of different ISAs share one machine. */
#ifndef ARCH_H
#define ARCH_H

#include <stddef.h>
#include <stdint.h>
#include "../../netdev/nic_shm.h"

enum node_arch { ARCH_ARM = 0, ARCH_RISCV = 1, ARCH_COUNT };
extern const char *const arch_names[ARCH_COUNT];      /* "arm", "riscv" */

#define ARCH_LIST_MAX 64   /* words of an --arch list at most */
_Static_assert(ARCH_ARM == NIC_ISA_ARM && ARCH_RISCV == NIC_ISA_RISCV, "the NIC's ISA numbers are the run tool's");
#define ARCH_ACCEPTED "arm, riscv, mixed (even ranks arm, odd ranks riscv), " \
                      "or a comma-separated list of arm and riscv that node i reads at i mod its length"

/* What the QEMUs of one ISA keep in host memory beyond the app's buffers
 * and their NIC memory (which the memory check adds), with the templates
 * in qemu-scripts/ (QEMU 7.2): each node's own pages (heap, relocated
 * data, the guest RAM pages its node touched), arch_node_kib, and the
 * pages all of them share (the QEMU binary's and the libraries' text),
 * arch_shared_mib once. Fitted on what a pool and its nodes hold
 * (tests/pool-memory.sh), all alive, during and after a run of bcast_rd
 * len=1024: ARM 1,128 MiB at 64 nodes, 4,394 at 256 (17.0 MiB more a node,
 * 39 MiB beside), 17,513 at 1,024; RISC-V 878 at 64, 3,349 at 256 (12.9 a
 * node, 54 beside); the two figures are set so that with the NIC memory
 * and the run tool's (memory_need, host/run/checks.c) the estimate is 5 %
 * over those peaks (docs/scale.md; make bench; tests/qemu/suite-pool.sh
 * memory_estimate_is_close checks 1.00 to 1.10). */
extern const unsigned arch_node_kib[ARCH_COUNT];
extern const unsigned arch_shared_mib[ARCH_COUNT];
/* A node's own pages once the kernel has merged what its QEMU shares with
 * the others (wormsim --merge-pages, launch/merge.h), running: an idle pool
 * after bcast_rd len=1024, merging settled, holds ARM 260 to 267 MiB at 64
 * nodes and 890 at 256, RISC-V 228 to 236 and 751; a run on those nodes
 * writes some merged pages again, a peak of 296 (ARM, 64) and 248 (RISC-V):
 * 0.45 and 0.28 MiB a node more. The estimate (wormsim --check
 * --merge-pages) is 306 and 265 at 64 nodes, 1,101 and 889 at 256. */
extern const unsigned arch_merged_kib[ARCH_COUNT];

/* Fill map[0..nodes-1] from --arch. Returns 0, or -1 with a message naming
 * the accepted values in err. */
int arch_parse(const char *spec, int nodes, unsigned char *map, char *err, size_t errlen);
/* The shortest period of map (the nodes' ISAs) and its ISAs as bits
 * (bit k: node k's, 1 for RISC-V), for the NIC's configuration; 0 if it
 * passes NIC_ISA_PERIOD_MAX (an --arch list of up to ARCH_LIST_MAX
 * words can). */
unsigned arch_period(const unsigned char *map, int nodes, uint32_t *bits);

/* Where every node's RAM starts on each board (QEMU's hw/arm/virt.c
 * VIRT_MEM, hw/riscv/virt.c VIRT_DRAM). Its size is the run's ram_mib
 * parameter, NODE_RAM_MIN_MIB to NODE_RAM_MAX_MIB (netdev/nic_shm.h): the
 * linker scripts place the project's images in its first NODE_RAM_MIN_MIB,
 * an MPI program's in up to NODE_RAM_MAX_MIB (linker/, __image_ram_mib);
 * image_read() records where an image ends (ram_end) and refuses
 * one that ends past its ram_mib. */
extern const unsigned long long arch_ram_base[ARCH_COUNT];

struct node_image;
/* Read node image path for ISA a (host/launch/image.h): an executable ELF of the
 * ISA (ARM: 32-bit, EM_ARM; RISC-V: 64-bit, EM_RISCV) that fits ram_bytes of
 * RAM. Returns 0, or -1 with the reason in err (missing, empty, not ELF,
 * another machine, out of RAM, code or data where QEMU writes the device
 * tree), so a bad image is refused before any QEMU starts. */
int arch_read_image(enum node_arch a, const char *path, size_t ram_bytes, struct node_image *im, char *err,
                    size_t errlen);

/* "riscv", "arm" or "mixed: 32 arm, 32 riscv". */
void arch_describe(const unsigned char *map, int nodes, char *buf, size_t len);

#endif
