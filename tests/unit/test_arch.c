/* arch_parse and arch_describe: which ISA each node runs, from --arch. */
#include "check.h"
#include "launch/arch.h"

static char err[512];
static unsigned char map[16];

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
