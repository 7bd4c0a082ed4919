/* image_read, image_write and image_intact (host/launch/image.c): the node image
 * the run tool writes into a node's RAM and a pool compares after a run.
 * Every file here is built in memory and written to a temporary file; a
 * bad one is refused with its reason, and nothing of it is trusted. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "elf_fixture.h"
#include "launch/image.h"

#define BASE 0x40000000ull
#define RAM  (1u << 20)

static char err[512], path[64];

/* A 32-bit ARM executable: one PT_LOAD of `len` bytes at paddr, memsz
 * len + 16, entry at paddr (elf_fixture.h). */
static struct elf32 arm_exec(uint32_t paddr, uint32_t len)
{
    return elf32_exec(EM_ARM, paddr, len, len + 16);
}

/* Write n bytes of f to a temporary file and read it as an ARM image. */
static int read_bytes(struct node_image *im, const void *f, size_t n)
{
    elf_write_temp(path, sizeof path, "wormsim-image-test", f, n);
    err[0] = 0;
    int rc = image_read(im, path, "arm node image", ELFCLASS32, EM_ARM, "a 32-bit ARM", BASE, RAM, err, sizeof err);
    unlink(path);
    return rc;
}

TEST(an_image_is_written_at_its_physical_address_and_compared)
{
    struct elf32 e = arm_exec(BASE + 0x1000, 40);
    e.ph[0].p_vaddr = 0x1234;                /* QEMU's loader places by p_paddr too */
    struct node_image im;
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_U64(im.entry, BASE + 0x1000);
    CHECK_EQ_INT(im.nseg, 1);
    uint8_t *ram = calloc(1, RAM);
    image_write(&im, ram);
    CHECK_MEM(ram + 0x1000, e.body, 40);
    CHECK_EQ_INT(ram[0x1000 + 40], 0);       /* the rest of the segment is the RAM's zeros */
    CHECK(image_intact(&im, ram));
    ram[0x1000 + 39] ^= 1;                   /* one bit of the image */
    CHECK(!image_intact(&im, ram));
    ram[0x1000 + 39] ^= 1;
    ram[0x1000 + 40] = 7;                    /* past the file bytes: not the image */
    CHECK(image_intact(&im, ram));
    CHECK_EQ_U64(im.ram_end, 0x1000 + 40 + 16);   /* zeros included */
    free(ram);
    image_free(&im);
}

TEST(segments_of_zeros_count_in_the_ram_an_image_spans)
{
    struct elf32 e = arm_exec(BASE + 0x1000, 40);
    e.eh.e_phnum = 2;                       /* .bss and the stacks: no file bytes, up to the RAM's end */
    e.ph[1] = (Elf32_Phdr){ .p_type = PT_LOAD, .p_paddr = BASE + 0x2000, .p_memsz = RAM - 0x2000 };
    struct node_image im;
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.nseg, 1);               /* nothing to write for it */
    CHECK_EQ_U64(im.ram_end, RAM);
    image_free(&im);
}

TEST(bad_images_are_refused_with_the_reason)
{
    struct node_image im;
    struct elf32 e = arm_exec(BASE + 0x1000, 40);
    CHECK(read_bytes(&im, "", 0) == -1);
    CHECK_CONTAINS(err, "empty");
    CHECK(read_bytes(&im, "#!/bin/sh\necho not an image, but long enough to be read as a header...\n", 72) == -1);
    CHECK_CONTAINS(err, "not an ELF file");
    struct elf32 b = e;
    b.eh.e_machine = EM_RISCV;
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "is not a 32-bit ARM executable");
    CHECK(!strstr(err, "make"));            /* the caller knows whether make builds it (wormsim.c) */
    b = e;
    b.eh.e_entry = BASE - 4;
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "entry point is outside the node's RAM");
    b = e;
    b.ph[0].p_paddr = BASE + RAM - 8;       /* its bytes run past the RAM's end */
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "an image that spans 2 MiB of node RAM");
    CHECK_CONTAINS(err, "more than the run's ram_mib=1: give its nodes more, NET='ram_mib=N' (--set ram_mib=N) "
                        "with N from 3 to 1024");
    b = e;
    b.ph[0].p_memsz = 0xfffffff0u;          /* a size that wraps a 32-bit addition */
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "spans 4097 MiB of node RAM");
    b = e;
    b.ph[0].p_paddr = 0xffffff00u;          /* far past the RAM */
    b.eh.e_entry = BASE + 0x1000;
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "an image that spans 3072 MiB");
    b = e;                                  /* a second segment of zeros only (.bss) past the RAM's end */
    b.eh.e_phnum = 2;
    b.ph[1] = (Elf32_Phdr){ .p_type = PT_LOAD, .p_paddr = BASE + 0x2000, .p_memsz = RAM };
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "an image that spans 2 MiB of node RAM");
    b = e;
    b.ph[0].p_filesz = 4096;                /* more bytes than the file has */
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "segments lie outside it");
    b = e;
    b.eh.e_phnum = 3;                       /* headers past the end of the file */
    b.eh.e_phoff = sizeof b - sizeof(Elf32_Phdr);
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "program headers are cut short");
    b = e;
    b.ph[0].p_filesz = 0;
    CHECK(read_bytes(&im, &b, sizeof b) == -1);
    CHECK_CONTAINS(err, "nothing to load");
}

/* The same executable with a symbol table: null, symtab, strtab sections,
 * and one symbol `main` defined in section `shndx` (0: only referred to). */
struct elf32_syms {
    struct elf32 x;
    Elf32_Sym sym[2];
    char str[16];
    Elf32_Shdr sh[3];
};

static struct elf32_syms with_main(uint16_t shndx)
{
    struct elf32_syms e;
    memset(&e, 0, sizeof e);
    e.x = arm_exec(BASE + 0x1000, 40);
    memcpy(e.str, "\0main\0", 6);
    e.sym[1] = (Elf32_Sym){ .st_name = 1, .st_value = BASE + 0x1000, .st_shndx = shndx };
    e.sh[1] = (Elf32_Shdr){ .sh_type = SHT_SYMTAB, .sh_offset = offsetof(struct elf32_syms, sym),
                            .sh_size = sizeof e.sym, .sh_link = 2, .sh_entsize = sizeof(Elf32_Sym) };
    e.sh[2] = (Elf32_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = offsetof(struct elf32_syms, str),
                            .sh_size = sizeof e.str };
    e.x.eh.e_shoff = offsetof(struct elf32_syms, sh);
    e.x.eh.e_shentsize = sizeof(Elf32_Shdr);
    e.x.eh.e_shnum = 3;
    return e;
}

TEST(an_image_says_whether_it_defines_main)
{
    struct node_image im;
    struct elf32_syms e = with_main(1);
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, 1);                  /* an MPI program's image */
    image_free(&im);
    e = with_main(SHN_UNDEF);                      /* the project's image: a weak reference */
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, 0);
    image_free(&im);
    struct elf32 s = arm_exec(BASE + 0x1000, 40);  /* stripped: cannot tell */
    REQUIRE(read_bytes(&im, &s, sizeof s) == 0);
    CHECK_EQ_INT(im.has_main, -1);
    image_free(&im);
    /* a table that lies is not trusted, and the image still loads */
    e = with_main(1);
    e.sh[1].sh_link = 7;                           /* no such string table */
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, -1);
    image_free(&im);
    e = with_main(1);
    e.sh[2].sh_size = 0x7ffffff0;                  /* past the file's end */
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, -1);
    image_free(&im);
    e = with_main(1);
    e.sym[1].st_name = 3;                          /* "in": not main */
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, 0);
    image_free(&im);
    e = with_main(1);
    e.str[5] = 'x';                                /* "mainx": the name's end is checked */
    REQUIRE(read_bytes(&im, &e, sizeof e) == 0);
    CHECK_EQ_INT(im.has_main, 0);
    image_free(&im);
}
