#include <stdio.h>
#include <string.h>
#include <elf.h>
#include "arch.h"
#include "image.h"
#include "../../netdev/nic_shm.h"

const char *const arch_names[ARCH_COUNT] = { "arm", "riscv" };
const unsigned long long arch_ram_base[ARCH_COUNT] = { 0x40000000, 0x80000000 };

static const struct { unsigned char cls; unsigned short machine; const char *name; } arch_elf[ARCH_COUNT] = {
    [ARCH_ARM] = { ELFCLASS32, EM_ARM, "a 32-bit ARM" },
    [ARCH_RISCV] = { ELFCLASS64, EM_RISCV, "a 64-bit RISC-V" },
};

/* Where, from the RAM's base, QEMU writes the device tree on a node of
 * ram bytes, after the run tool wrote the image. ARM: at the base, below
 * the image (hw/arm/boot.c; linker/arm-virt.ld starts above it), so
 * never on it: ram. RISC-V (QEMU 7.2 hw/riscv/boot.c, riscv_load_fdt):
 * the tree's unpacked size, at most 1 MiB (FDT_MAX_SIZE), below the RAM's
 * end, aligned down to 2 MiB; on an image's zeros it does no harm (start.S
 * clears them), on its code or data it would. */
static uint64_t device_tree_at(enum node_arch a, uint64_t ram)
{
    return a == ARCH_RISCV ? (ram - (1u << 20)) & ~(uint64_t)((2u << 20) - 1) : ram;
}

/* The bytes the image's file gives (code and data), from the RAM's base. */
static uint64_t file_end(const struct node_image *im)
{
    uint64_t end = 0;
    for (int i = 0; i < im->nseg; i++)
        if (im->seg[i].off + im->seg[i].len > end)
            end = im->seg[i].off + im->seg[i].len;
    return end;
}

/* An image whose code or data the device tree would overwrite is refused,
 * naming the least ram_mib that keeps them apart. Returns 0 or -1. */
static int clear_of_device_tree(enum node_arch a, const struct node_image *im, const char *what, const char *path,
                                uint64_t ram, char *err, size_t errlen)
{
    uint64_t end = file_end(im), at = device_tree_at(a, ram);
    if (end <= at)
        return 0;
    unsigned mib = (unsigned)(ram >> 20);
    while (mib < NODE_RAM_MAX_MIB && device_tree_at(a, (uint64_t)mib << 20) < end)
        mib++;
    snprintf(err, errlen, "%s %s is an image whose code and data end %.2f MiB into node RAM, past %llu MiB, where "
             "QEMU writes the device tree on a node of ram_mib=%llu: give its nodes more, NET='ram_mib=N' "
             "(--set ram_mib=N) with N from %u to %u", what, path, end / 1048576.0,
             (unsigned long long)(at >> 20), (unsigned long long)(ram >> 20), mib, NODE_RAM_MAX_MIB);
    return -1;
}

int arch_read_image(enum node_arch a, const char *path, size_t ram_bytes, struct node_image *im, char *err,
                    size_t errlen)
{
    char what[40];
    snprintf(what, sizeof what, "%s node image", arch_names[a]);
    if (image_read(im, path, what, arch_elf[a].cls, arch_elf[a].machine, arch_elf[a].name, arch_ram_base[a],
                   ram_bytes, err, errlen))
        return -1;
    if (clear_of_device_tree(a, im, what, path, ram_bytes, err, errlen)) {
        image_free(im);
        return -1;
    }
    return 0;
}

const unsigned arch_node_kib[ARCH_COUNT] = { 17152, 12685 };   /* 16.75 and 12.39 MiB */
const unsigned arch_shared_mib[ARCH_COUNT] = { 33, 49 };
const unsigned arch_merged_kib[ARCH_COUNT] = { 3072, 2160 };     /* 3 and 2.1 MiB */

static int word_arch(const char *w, size_t n)
{
    for (int a = 0; a < ARCH_COUNT; a++)
        if (strlen(arch_names[a]) == n && !strncmp(w, arch_names[a], n))
            return a;
    return -1;
}

int arch_parse(const char *spec, int nodes, unsigned char *map, char *err, size_t errlen)
{
    unsigned char cycle[ARCH_LIST_MAX];
    int len = 0;
    if (!strcmp(spec, "mixed"))
        spec = "arm,riscv";
    for (const char *p = spec;; p++) {
        size_t n = strcspn(p, ",");
        int a = word_arch(p, n);
        if (a < 0 || len == (int)sizeof cycle) {
            if (a < 0)
                snprintf(err, errlen, "unknown arch '%s'; accepted: " ARCH_ACCEPTED, spec);
            else
                snprintf(err, errlen, "arch list '%s' is longer than %d words; accepted: " ARCH_ACCEPTED, spec,
                         ARCH_LIST_MAX);
            return -1;
        }
        cycle[len++] = (unsigned char)a;
        p += n;
        if (!*p)
            break;
    }
    for (int i = 0; i < nodes; i++)
        map[i] = cycle[i % len];
    return 0;
}

unsigned arch_period(const unsigned char *map, int nodes, uint32_t *bits)
{
    *bits = 0;
    for (unsigned period = 1; period <= NIC_ISA_PERIOD_MAX; period++) {
        int i = (int)period;
        while (i < nodes && map[i] == map[i % period])
            i++;
        if (i < nodes)
            continue;
        for (unsigned k = 0; k < period && (int)k < nodes; k++)
            *bits |= (uint32_t)(map[k] == ARCH_RISCV) << k;
        return period;
    }
    return 0;
}

void arch_describe(const unsigned char *map, int nodes, char *buf, size_t len)
{
    int count[ARCH_COUNT] = { 0 };
    for (int i = 0; i < nodes; i++)
        count[map[i]]++;
    for (int a = 0; a < ARCH_COUNT; a++)
        if (count[a] == nodes) {
            snprintf(buf, len, "%s", arch_names[a]);
            return;
        }
    size_t o = (size_t)snprintf(buf, len, "mixed:");
    for (int a = 0; a < ARCH_COUNT && o < len; a++)
        if (count[a])
            o += (size_t)snprintf(buf + o, len - o, "%s %d %s", o > 6 ? "," : "", count[a], arch_names[a]);
}

