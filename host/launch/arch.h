/* Which ISA each node runs. Every ISA has its own node image and QEMU
 * template; the NIC memory layout and the node ABI are the same for all
 * (netdev/nic_shm.h), so nodes of different ISAs share one machine. */
#ifndef ARCH_H
#define ARCH_H

#include <stddef.h>

enum node_arch { ARCH_ARM = 0, ARCH_RISCV = 1, ARCH_COUNT };
extern const char *const arch_names[ARCH_COUNT];      /* "arm", "riscv" */

#define ARCH_ACCEPTED "arm, riscv, mixed (even ranks arm, odd ranks riscv), " \
                      "or a comma-separated list of arm and riscv that node i reads at i mod its length"

/* What one node's QEMU keeps in host memory, in MiB, beyond the app's
 * buffers (which the memory check adds): its proportional set size (PSS:
 * heap, relocated data, its share of the libraries, the guest RAM pages
 * its node touched), with the templates in qemu-scripts/ (QEMU 7.2).
 * Measured on warm pool nodes after a run of hello: ARM 16.7 MiB each at
 * 256 and at 1,024 nodes, 17.6 at 64; RISC-V 12.6 at 256, 13.5 at 64.
 * The figures below are 2 % (ARM) and 4 % (RISC-V) over the largest.
 * The run tool's memory check uses them. */
extern const unsigned arch_node_mib[ARCH_COUNT];

/* Fill map[0..nodes-1] from --arch. Returns 0, or -1 with a message naming
 * the accepted values in err. */
int arch_parse(const char *spec, int nodes, unsigned char *map, char *err, size_t errlen);

/* Where every node's RAM starts on each board (QEMU's hw/arm/virt.c
 * VIRT_MEM, hw/riscv/virt.c VIRT_DRAM). Its size is the run's ram_mib
 * parameter, NODE_RAM_MIN_MIB to NODE_RAM_MAX_MIB (netdev/nic_shm.h): the
 * linker scripts place the images in its first NODE_RAM_MIN_MIB (linker/). */
extern const unsigned long long arch_ram_base[ARCH_COUNT];

struct node_image;
/* Read node image path for ISA a (host/launch/image.h): an executable ELF of the
 * ISA (ARM: 32-bit, EM_ARM; RISC-V: 64-bit, EM_RISCV) that fits ram_bytes of
 * RAM. Returns 0, or -1 with the reason in err (missing, empty, not ELF,
 * another machine, out of RAM), so a bad image is refused before any QEMU
 * starts. */
int arch_read_image(enum node_arch a, const char *path, size_t ram_bytes, struct node_image *im, char *err,
                    size_t errlen);

/* "riscv", "arm" or "mixed: 32 arm, 32 riscv". */
void arch_describe(const unsigned char *map, int nodes, char *buf, size_t len);

#endif
