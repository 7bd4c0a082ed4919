/* What the image tests share (test_image.c, test_arch.c): a node's
 * executable built in memory, one PT_LOAD of `len` file bytes (0x11,
 * 0x22, ...) at paddr and `memsz` bytes of memory, with a second program
 * header a test may fill (e_phnum 2); and a temporary file holding such
 * bytes. */
#ifndef ELF_FIXTURE_H
#define ELF_FIXTURE_H

#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct elf32 {
    Elf32_Ehdr eh;
    Elf32_Phdr ph[2];
    uint8_t body[64];
};

struct elf64 {
    Elf64_Ehdr eh;
    Elf64_Phdr ph[2];
    uint8_t body[64];
};

/* The header fields both classes share, on e (an elf32 or elf64). */
#define ELF_EXEC_HEADER(e, class, machine, entry) do {                  \
        memset(&(e), 0, sizeof(e));                                     \
        memcpy((e).eh.e_ident, ELFMAG, SELFMAG);                        \
        (e).eh.e_ident[EI_CLASS] = (class);                             \
        (e).eh.e_ident[EI_DATA] = ELFDATA2LSB;                          \
        (e).eh.e_type = ET_EXEC;                                        \
        (e).eh.e_machine = (machine);                                   \
        (e).eh.e_entry = (entry);                                       \
        (e).eh.e_phoff = offsetof(__typeof__(e), ph);                   \
        (e).eh.e_phentsize = sizeof((e).ph[0]);                         \
        (e).eh.e_phnum = 1;                                             \
        for (unsigned i_ = 0; i_ < sizeof (e).body; i_++)               \
            (e).body[i_] = (uint8_t)(0x11 * (i_ + 1));                  \
    } while (0)

static inline struct elf32 elf32_exec(uint16_t machine, uint32_t paddr, uint32_t len, uint32_t memsz)
{
    struct elf32 e;
    ELF_EXEC_HEADER(e, ELFCLASS32, machine, paddr);
    e.ph[0] = (Elf32_Phdr){ .p_type = PT_LOAD, .p_offset = offsetof(struct elf32, body), .p_vaddr = paddr,
                            .p_paddr = paddr, .p_filesz = len, .p_memsz = memsz };
    return e;
}

static inline struct elf64 elf64_exec(uint16_t machine, uint64_t paddr, uint64_t len, uint64_t memsz)
{
    struct elf64 e;
    ELF_EXEC_HEADER(e, ELFCLASS64, machine, paddr);
    e.ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = offsetof(struct elf64, body), .p_vaddr = paddr,
                            .p_paddr = paddr, .p_filesz = len, .p_memsz = memsz };
    return e;
}

/* n bytes of f in /tmp/NAME.PID, its path in path (cap bytes); the test
 * unlinks it. */
static inline void elf_write_temp(char *path, size_t cap, const char *name, const void *f, size_t n)
{
    snprintf(path, cap, "/tmp/%s.%d", name, (int)getpid());
    FILE *o = fopen(path, "wb");
    if (!o)
        abort();
    fwrite(f, 1, n, o);
    fclose(o);
}

#endif
