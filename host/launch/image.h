/* A node image as the run tool loads it: the bytes of the ELF's PT_LOAD
 * segments at their physical addresses (p_paddr, as QEMU's own ELF loader
 * places them), and the entry point.
 *
 * The tool writes them into a node's RAM (a memfd its QEMU maps as guest
 * RAM, host/launch/pool.c) before QEMU starts, and a pool compares them with the
 * RAM after each run, while the node's processor is stopped: a node whose
 * loaded bytes changed is not reused. QEMU's reset leaves this RAM alone,
 * so a reused node keeps the code QEMU translated for it; QEMU's own
 * checks of self-modifying code keep that translation true to the RAM's
 * bytes, and the host writes the loaded bytes only before QEMU starts (a
 * pool zeros the rest of the RAM at each reset, the processor stopped).
 *
 * Invariant: every segment lies inside the node's RAM; nothing of the file
 * is trusted before it is checked (bounds, counts, sizes). */
#ifndef IMAGE_H
#define IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define IMAGE_SEGS_MAX 8

struct image_seg {
    size_t off;              /* from the RAM's base */
    size_t len;              /* file bytes; the rest of the segment is zeros */
    uint8_t *bytes;
};

struct node_image {
    uint64_t entry;          /* physical address */
    int nseg;
    struct image_seg seg[IMAGE_SEGS_MAX];
    int has_main;            /* defines main (an MPI program): 1, 0, or -1 cannot tell (stripped) */
    uint64_t ram_end;        /* the RAM it spans from the base: its segments' last end, zeros included */
};

/* Read the ELF at path (named `what` in messages): a little-endian
 * executable of class elf_class (ELFCLASS32/64) and machine (EM_*; `isa`
 * names them, "a 32-bit ARM") whose loaded segments (their zeros too)
 * and entry lie in [ram_base, ram_base + ram_size). Returns 0, or -1 with
 * what is wrong in err; an image that passes the RAM's end says how many
 * MiB it needs. */
int  image_read(struct node_image *im, const char *path, const char *what, int elf_class, int machine,
                const char *isa, uint64_t ram_base, size_t ram_size, char *err, size_t errlen);
void image_free(struct node_image *im);

/* Write the segments into ram (the RAM's base at ram[0]). */
void image_write(const struct node_image *im, uint8_t *ram);
/* 1 if ram holds every segment's bytes as loaded. */
int  image_intact(const struct node_image *im, const uint8_t *ram);

#endif
