/* The nodes' output on the console (results_print_output, host/out/results.h):
 * which nodes, how many lines, and a node's bytes shown harmless. */
#include "check.h"
#include "out/results.h"
#include "files.h"

static char dir[64];

/* Write node i's log: n bytes of s. */
static void log_bytes(int i, const char *s, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/node-%03d.log", dir, i);
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fwrite(s, 1, n, f);
    fclose(f);
}

static void log_of(int i, const char *s) { log_bytes(i, s, strlen(s)); }

/* What results_print_output prints, into out. */
static void shown(int nodes, enum output_shown which, char *out, size_t len)
{
    memset(out, 0, len);
    FILE *f = fmemopen(out, len - 1, "w");
    results_print_output(dir, nodes, which, f);
    fclose(f);
}

/* The test's directory and its logs go (node logs 0..2 at most). */
static void gone(void)
{
    for (int i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/node-%03d.log", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

static void fresh(void)
{
    strcpy(dir, "/tmp/wormsim-output.XXXXXX");
    REQUIRE(mkdtemp(dir));
}

TEST(node0_only_by_default_with_crlf_lines_cut)
{
    char out[4096];
    fresh();
    log_of(0, "hello from 0\r\nsecond\r\n");
    log_of(1, "hello from 1\r\n");
    shown(2, OUTPUT_NODE0, out, sizeof out);
    CHECK_STR(out, "  output of node 0:\n    hello from 0\n    second\n");
    gone();
}

TEST(every_node_each_line_after_its_number)
{
    char out[4096];
    fresh();
    log_of(0, "a\n");
    log_of(2, "c\n");                /* node 1 has no log: left out */
    shown(3, OUTPUT_ALL, out, sizeof out);
    CHECK_STR(out, "  output of every node:\n      0| a\n      2| c\n");
    gone();
}

TEST(none_and_empty_print_nothing)
{
    char out[256];
    fresh();
    log_of(0, "a\n");
    shown(1, OUTPUT_NONE, out, sizeof out);
    CHECK_STR(out, "");
    log_of(0, "");
    shown(1, OUTPUT_NODE0, out, sizeof out);
    CHECK_STR(out, "");
    gone();
}

TEST(control_bytes_show_as_question_marks)
{
    char out[256];
    fresh();
    log_of(0, "x\033[2Jy\ttab\x7f\n");
    shown(1, OUTPUT_NODE0, out, sizeof out);
    CHECK_STR(out, "  output of node 0:\n    x?[2Jy\ttab?\n");
    gone();
}

TEST(at_most_the_line_limit_then_where_the_rest_is)
{
    char out[8192], log[4096] = "", want[128];
    fresh();
    for (int i = 0; i < OUTPUT_LINES + 7; i++)
        snprintf(log + strlen(log), sizeof log - strlen(log), "line %d\n", i);
    log_of(0, log);
    shown(1, OUTPUT_NODE0, out, sizeof out);
    snprintf(want, sizeof want, "    line %d\n    ... 7 more lines in %s/node-000.log\n", OUTPUT_LINES - 1, dir);
    CHECK(strstr(out, want) != NULL);
    gone();
}

TEST(a_long_line_is_cut_and_its_rest_skipped)
{
    char out[16384], log[12000];
    fresh();
    memset(log, 'x', 9000);
    strcpy(log + 9000, "\nnext\n");
    log_of(0, log);
    shown(1, OUTPUT_NODE0, out, sizeof out);
    char want[300] = "    ";
    memset(want + 4, 'x', 200);
    strcpy(want + 204, " ...\n    next\n");
    CHECK(strstr(out, want) != NULL);
    CHECK_EQ_INT((int)strlen(out), (int)strlen("  output of node 0:\n") + (int)strlen(want));
    gone();
}

TEST(a_nul_byte_hides_nothing)
{
    char out[256];
    fresh();
    log_bytes(0, "ab\0cd\nef\n", 9);
    shown(1, OUTPUT_NODE0, out, sizeof out);
    CHECK_STR(out, "  output of node 0:\n    ab?cd\n    ef\n");
    gone();
}

TEST(c1_controls_in_utf8_show_as_question_marks)
{
    char out[256];
    fresh();
    log_of(0, "a\xc2\x9b" "2Jb \xc3\xa9\n");   /* CSI as U+009B, then an e acute, kept */
    shown(1, OUTPUT_NODE0, out, sizeof out);
    CHECK_STR(out, "  output of node 0:\n    a?2Jb \xc3\xa9\n");
    gone();
}

/* file_proc_kb: the named "Key: N kB" lines of a /proc-style file, summed
 * in bytes; other keys, a key that only begins like one, lines without kB
 * and a missing file count nothing. */
TEST(proc_kb_lines_by_key)
{
    char path[80];
    snprintf(path, sizeof path, "/tmp/wormsim-proc-kb.%d", (int)getpid());
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL);
    fputs("Name:\tqemu\nRssAnon:\t  1000 kB\nRssAnonX:\t 7 kB\nVmPTE:\t      24 kB\nThreads:\t3\n"
          "MemAvailable:   2048 kB\n", f);
    fclose(f);
    static const char *const two[] = { "RssAnon", "VmPTE", NULL }, *const one[] = { "MemAvailable", NULL },
                             *const none[] = { "Threads", NULL };
    CHECK_EQ_U64(file_proc_kb(path, two), (1000 + 24) * 1024ull);
    CHECK_EQ_U64(file_proc_kb(path, one), 2048 * 1024ull);
    CHECK_EQ_U64(file_proc_kb(path, none), 0);
    unlink(path);
    CHECK_EQ_U64(file_proc_kb(path, one), 0);
}
