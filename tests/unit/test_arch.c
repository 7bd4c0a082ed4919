/* arch_parse, arch_describe and arch_period: which ISA each node runs,
 * from --arch, and what the NICs are told of it;
 * arch_read_image: an image its board's QEMU does not overwrite. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "elf_fixture.h"
#include "launch/arch.h"
#include "launch/image.h"

static char err[512];
static unsigned char map[128];

static int parse(const char *spec, int nodes)
{
    err[0] = 0;
    memset(map, 0xee, sizeof map);
    return arch_parse(spec, nodes, map, err, sizeof err);
}

static const char *describe(int nodes)
{
    static char buf[64];
    arch_describe(map, nodes, buf, sizeof buf);
    return buf;
}

TEST(single_isa_fills_every_node)
{
    REQUIRE(parse("arm", 4) == 0);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(map[i], ARCH_ARM);
    CHECK_STR(describe(4), "arm");
    REQUIRE(parse("riscv", 5) == 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(map[i], ARCH_RISCV);
    CHECK_EQ_INT(map[5], 0xee);          /* nothing written past the nodes */
    CHECK_STR(describe(5), "riscv");
}

TEST(mixed_is_even_arm_odd_riscv)
{
    REQUIRE(parse("mixed", 5) == 0);
    CHECK_EQ_INT(map[0], ARCH_ARM);
    CHECK_EQ_INT(map[1], ARCH_RISCV);
    CHECK_EQ_INT(map[2], ARCH_ARM);
    CHECK_EQ_INT(map[3], ARCH_RISCV);
    CHECK_EQ_INT(map[4], ARCH_ARM);
    CHECK_STR(describe(5), "mixed: 3 arm, 2 riscv");
}

TEST(a_list_is_read_cyclically)
{
    REQUIRE(parse("riscv,arm,arm", 7) == 0);
    static const unsigned char want[] = { 1, 0, 0, 1, 0, 0, 1 };
    CHECK_MEM(map, want, sizeof want);
    CHECK_STR(describe(7), "mixed: 4 arm, 3 riscv");
}

/* What the NIC's configuration says of a machine's ISAs: the shortest
 * period of the map and its ISAs as bits, which give back every node's;
 * none when the period passes NIC_ISA_PERIOD_MAX. */
static int period_gives_back(int nodes, unsigned period, uint32_t bits)
{
    for (int i = 0; i < nodes; i++)
        if (map[i] != ((bits >> (i % period)) & 1))
            return 0;
    return 1;
}

TEST(the_nics_are_told_every_nodes_isa)
{
    uint32_t bits;
    REQUIRE(parse("arm", 6) == 0);
    CHECK_EQ_INT((int)arch_period(map, 6, &bits), 1);
    CHECK_EQ_U64(bits, 0);
    REQUIRE(parse("mixed", 9) == 0);
    CHECK_EQ_INT((int)arch_period(map, 9, &bits), 2);
    CHECK_EQ_U64(bits, 2);
    REQUIRE(parse("riscv,arm,arm,riscv,arm,arm", 13) == 0);   /* a list that repeats itself: period 3 */
    CHECK_EQ_INT((int)arch_period(map, 13, &bits), 3);
    CHECK(period_gives_back(13, 3, bits));
    REQUIRE(parse("riscv,arm,arm", 2) == 0);                  /* fewer nodes than the list */
    CHECK_EQ_INT((int)arch_period(map, 2, &bits), 2);
    CHECK(period_gives_back(2, 2, bits));
    char list[40 * 6] = "riscv";
    for (int i = 1; i < 33; i++)
        strcat(list, ",arm");                                 /* a period of 33 words */
    REQUIRE(parse(list, 40) == 0);
    CHECK_EQ_INT((int)arch_period(map, 40, &bits), 0);
    CHECK_EQ_INT((int)arch_period(map, 33, &bits), 33 <= NIC_ISA_PERIOD_MAX ? 33 : 0);
    CHECK_EQ_INT((int)arch_period(map, 32, &bits), 32);       /* its first 32 nodes: said */
    CHECK(period_gives_back(32, 32, bits));
}

/* A list of as many words as the refusal of a longer one names is read;
 * one word more is refused. */
TEST(a_list_is_as_long_as_its_refusal_says)
{
    char spec[8 * 200] = "", *end;
    size_t o = 0;
    for (int i = 0; i < 200 && !err[0]; i++) {
        o += (size_t)snprintf(spec + o, sizeof spec - o, "%sriscv", i ? "," : "");
        if (parse(spec, 8))
            break;
    }
    REQUIRE(err[0]);
    const char *said = strstr(err, "is longer than ");
    REQUIRE(said != NULL);
    long most = strtol(said + strlen("is longer than "), &end, 10);
    CHECK_PREFIX(end, " words; accepted: arm, riscv, mixed");
    /* the list refused has most + 1 words, and most of them are read */
    int words = 1;
    for (const char *c = spec; *c; c++)
        words += *c == ',';
    CHECK_EQ_INT(words, (int)most + 1);
    *strrchr(spec, ',') = 0;
    CHECK_EQ_INT(parse(spec, 8), 0);
}

TEST(unknown_words_are_refused_with_the_accepted_values)
{
    const char *bad[] = { "sparc", "", "ARM", "arm,", ",arm", "arm,,riscv", "arm riscv", "mixed,arm" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(parse(bad[i], 4), -1);
        CHECK_PREFIX(err, "unknown arch '");
        CHECK_CONTAINS(err, "accepted: arm, riscv, mixed");
    }
}

/* An image of ISA a with one PT_LOAD of 64 file bytes `off` bytes into
 * the RAM, written to a temporary file and read for a node of ram_mib. */
static int read_image_at(enum node_arch a, unsigned long long off, unsigned ram_mib)
{
    unsigned long long at = arch_ram_base[a] + off;
    struct elf64 e64 = elf64_exec(EM_RISCV, at, 64, 64);
    struct elf32 e32 = elf32_exec(EM_ARM, (uint32_t)at, 64, 64);
    char path[64];
    if (a == ARCH_RISCV)
        elf_write_temp(path, sizeof path, "wormsim-arch-test", &e64, sizeof e64);
    else
        elf_write_temp(path, sizeof path, "wormsim-arch-test", &e32, sizeof e32);
    struct node_image im;
    err[0] = 0;
    int rc = arch_read_image(a, path, (size_t)ram_mib << 20, &im, err, sizeof err);
    unlink(path);
    if (!rc)
        image_free(&im);
    return rc;
}

/* QEMU writes a RISC-V node's device tree at the RAM's end less 1 MiB,
 * aligned down to 2 MiB (30 MiB of 32, 32 of 33 and of 34), after the
 * image: code or data there is refused, naming the least ram_mib that
 * keeps them apart. An ARM node's tree lies below its image. */
TEST(code_and_data_keep_clear_of_the_device_tree)
{
    CHECK_EQ_INT(read_image_at(ARCH_RISCV, (30u << 20) - 64, 32), 0);
    REQUIRE(read_image_at(ARCH_RISCV, (30u << 20) - 63, 32) == -1);
    CHECK_CONTAINS(err, "riscv node image /tmp/wormsim-arch-test.");
    CHECK_CONTAINS(err, "code and data end 30.00 MiB into node RAM, past 30 MiB, where QEMU writes the device tree on "
                        "a node of ram_mib=32: give its nodes more, NET='ram_mib=N' (--set ram_mib=N) with N from 33 to "
                        "1024");
    CHECK_EQ_INT(read_image_at(ARCH_RISCV, (30u << 20) - 63, 33), 0);
    REQUIRE(read_image_at(ARCH_RISCV, 32u << 20, 34) == -1);
    CHECK_CONTAINS(err, "past 32 MiB, where QEMU writes the device tree on a node of ram_mib=34");
    CHECK_CONTAINS(err, "with N from 35 to 1024");
    CHECK_EQ_INT(read_image_at(ARCH_ARM, (31u << 20) - 64, 32), 0);
}
