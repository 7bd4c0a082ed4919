#define _GNU_SOURCE
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "image.h"
#include "files.h"
#include "../../netdev/nic_shm.h"

#define IMAGE_FILE_MAX (64ll << 20)   /* code and data fit a node's RAM; debug sections beside */

/* One program header, whatever the class. */
struct phdr { uint32_t type; uint64_t offset, paddr, filesz, memsz; };

static int phdr_at(const uint8_t *f, size_t size, int cls, uint64_t off, struct phdr *p)
{
    if (cls == ELFCLASS32) {
        Elf32_Phdr h;
        if (off > size || size - off < sizeof h)
            return -1;
        memcpy(&h, f + off, sizeof h);
        *p = (struct phdr){ h.p_type, h.p_offset, h.p_paddr, h.p_filesz, h.p_memsz };
    } else {
        Elf64_Phdr h;
        if (off > size || size - off < sizeof h)
            return -1;
        memcpy(&h, f + off, sizeof h);
        *p = (struct phdr){ h.p_type, h.p_offset, h.p_paddr, h.p_filesz, h.p_memsz };
    }
    return 0;
}

/* One section header and one symbol, whatever the class. */
struct shdr { uint32_t type, link; uint64_t offset, size, entsize; };
struct sym { uint32_t name; uint16_t shndx; };

static int shdr_at(const uint8_t *f, size_t size, int cls, uint64_t off, struct shdr *s)
{
    if (cls == ELFCLASS32) {
        Elf32_Shdr h;
        if (off > size || size - off < sizeof h)
            return -1;
        memcpy(&h, f + off, sizeof h);
        *s = (struct shdr){ h.sh_type, h.sh_link, h.sh_offset, h.sh_size, h.sh_entsize };
    } else {
        Elf64_Shdr h;
        if (off > size || size - off < sizeof h)
            return -1;
        memcpy(&h, f + off, sizeof h);
        *s = (struct shdr){ h.sh_type, h.sh_link, h.sh_offset, h.sh_size, h.sh_entsize };
    }
    return s->offset > size || s->size > size - s->offset ? -1 : 0;
}

static void sym_at(const uint8_t *f, int cls, uint64_t off, struct sym *y)
{
    if (cls == ELFCLASS32) {
        Elf32_Sym h;
        memcpy(&h, f + off, sizeof h);
        *y = (struct sym){ h.st_name, h.st_shndx };
    } else {
        Elf64_Sym h;
        memcpy(&h, f + off, sizeof h);
        *y = (struct sym){ h.st_name, h.st_shndx };
    }
}

/* Whether the ELF in f[0..size) defines symbol `name`: 1 yes, 0 no, -1
 * cannot tell (no symbol table, as in a stripped image, or one cut
 * short). An MPI program's image defines main; the project's own image
 * only refers to it, weakly (apps/mpi_app.c). */
static int defines(const uint8_t *f, size_t size, int cls, const char *name)
{
    uint64_t shoff;
    unsigned shnum, shentsize;
    if (cls == ELFCLASS32) {
        Elf32_Ehdr h;
        memcpy(&h, f, sizeof h);
        shoff = h.e_shoff, shnum = h.e_shnum, shentsize = h.e_shentsize;
    } else {
        Elf64_Ehdr h;
        memcpy(&h, f, sizeof h);
        shoff = h.e_shoff, shnum = h.e_shnum, shentsize = h.e_shentsize;
    }
    size_t symsz = cls == ELFCLASS32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym);
    for (unsigned i = 0; i < shnum; i++) {
        struct shdr t, str;
        if (shdr_at(f, size, cls, shoff + (uint64_t)i * shentsize, &t))
            return -1;
        if (t.type != SHT_SYMTAB)
            continue;
        if (t.entsize != symsz || t.link >= shnum ||
            shdr_at(f, size, cls, shoff + (uint64_t)t.link * shentsize, &str))
            return -1;
        size_t len = strlen(name);
        for (uint64_t k = 0; k < t.size / symsz; k++) {
            struct sym y;
            sym_at(f, cls, t.offset + k * symsz, &y);
            if (y.shndx == SHN_UNDEF || y.name >= str.size || str.size - y.name <= len)
                continue;
            const char *at = (const char *)f + str.offset + y.name;
            if (!memcmp(at, name, len + 1))
                return 1;
        }
        return 0;
    }
    return -1;
}

/* The segments of the ELF in f[0..size); why it is refused, or NULL. */
static const char *parse(struct node_image *im, const uint8_t *f, size_t size, int cls, int machine,
                         const char *isa, uint64_t base, size_t ram, char *buf, size_t buflen)
{
    uint64_t phoff, entry;
    unsigned phnum, phentsize, type, mach;
    if (!size)
        return "empty";
    if (size < EI_NIDENT || memcmp(f, ELFMAG, SELFMAG))
        return "not an ELF file";
    snprintf(buf, buflen, "not %s executable", isa);
    if (f[EI_CLASS] != cls || f[EI_DATA] != ELFDATA2LSB)
        return buf;
    if (size < (cls == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr)))
        return "an ELF file cut short";
    if (cls == ELFCLASS32) {
        Elf32_Ehdr h;
        memcpy(&h, f, sizeof h);
        phoff = h.e_phoff, entry = h.e_entry, phnum = h.e_phnum, phentsize = h.e_phentsize;
        type = h.e_type, mach = h.e_machine;
    } else {
        Elf64_Ehdr h;
        memcpy(&h, f, sizeof h);
        phoff = h.e_phoff, entry = h.e_entry, phnum = h.e_phnum, phentsize = h.e_phentsize;
        type = h.e_type, mach = h.e_machine;
    }
    if (type != ET_EXEC || mach != (unsigned)machine)
        return buf;
    if (entry < base || entry - base >= ram)
        return "an image whose entry point is outside the node's RAM";
    im->entry = entry;
    for (unsigned i = 0; i < phnum; i++) {
        struct phdr p;
        if (phdr_at(f, size, cls, phoff + (uint64_t)i * phentsize, &p))
            return "an ELF file whose program headers are cut short";
        if (p.type != PT_LOAD || !p.memsz)
            continue;
        if (p.offset > size || p.filesz > size - p.offset || p.filesz > p.memsz)
            return "an ELF file whose segments lie outside it";
        if (p.paddr < base || p.paddr - base > (uint64_t)1 << 40 || p.memsz > (uint64_t)1 << 40)
            return "an image with a segment outside the node's RAM";
        uint64_t end = p.paddr - base + p.memsz;   /* < 2^41: no wrap */
        if (end > im->ram_end)
            im->ram_end = end;
        if (!p.filesz)
            continue;                              /* zeros only (.bss, stacks): start.S clears them */
        if (im->nseg == IMAGE_SEGS_MAX)
            return "an image with too many loaded segments";
        struct image_seg *s = &im->seg[im->nseg];
        if (!(s->bytes = malloc(p.filesz)))
            return "too big to hold in memory";
        memcpy(s->bytes, f + p.offset, p.filesz);
        s->off = p.paddr - base;
        s->len = p.filesz;
        im->nseg++;
    }
    if (!im->nseg)
        return "an image with nothing to load";
    if (im->ram_end > ram) {
        unsigned long long mib = (im->ram_end + (1u << 20) - 1) >> 20;
        snprintf(buf, buflen, "an image that spans %llu MiB of node RAM (its segments, zeros included, end "
                 "there), more than the run's ram_mib=%zu: give its nodes more, NET='ram_mib=N' (--set "
                 "ram_mib=N) with N from %llu to %u (an MPI program's heap is what lies above %llu MiB)",
                 mib, ram >> 20, mib + 1, NODE_RAM_MAX_MIB, mib);
        return buf;
    }
    im->has_main = defines(f, size, cls, "main");
    return NULL;
}

int image_read(struct node_image *im, const char *path, const char *what, int cls, int machine, const char *isa,
               uint64_t base, size_t ram, char *err, size_t errlen)
{
    memset(im, 0, sizeof *im);
    FILE *f = file_fopen_regular(path, what, IMAGE_FILE_MAX, err, errlen);
    if (!f)
        return -1;
    off_t size = fseeko(f, 0, SEEK_END) ? -1 : ftello(f);
    uint8_t *buf = size >= 0 && !fseeko(f, 0, SEEK_SET) ? malloc((size_t)size + 1) : NULL;
    size_t n = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    char why_buf[320];
    const char *why = buf ? parse(im, buf, n, cls, machine, isa, base, ram, why_buf, sizeof why_buf)
                          : "too big to hold in memory";
    if (why) {
        snprintf(err, errlen, "%s %s is %s", what, path, why);
        free(buf);
        image_free(im);
        return -1;
    }
    free(buf);
    return 0;
}

void image_free(struct node_image *im)
{
    for (int i = 0; i < im->nseg; i++)
        free(im->seg[i].bytes);
    memset(im, 0, sizeof *im);
}

void image_write(const struct node_image *im, uint8_t *ram)
{
    for (int i = 0; i < im->nseg; i++)
        memcpy(ram + im->seg[i].off, im->seg[i].bytes, im->seg[i].len);
}

int image_intact(const struct node_image *im, const uint8_t *ram)
{
    for (int i = 0; i < im->nseg; i++)
        if (memcmp(ram + im->seg[i].off, im->seg[i].bytes, im->seg[i].len))
            return 0;
    return 1;
}
