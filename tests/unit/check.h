/* A tiny header-only unit-test framework for the host code.
 *
 *   #include "check.h"
 *   TEST(parses_default) { CHECK_EQ_INT(f(), 3); }
 *
 * Each test file is one binary; this header supplies main(). Tests run in
 * the order they are defined, each in its own child process (so a crash or
 * an abort fails that test only and is reported with its signal), which is
 * stopped after CHECK_TIMEOUT seconds (default 300): a test that hangs
 * fails under its own name and the others still run. Set
 * CHECK_NOFORK=1 in the environment to run them in-process (for gdb), and
 * give test names as arguments to run only those.
 *
 * A failed check prints "file:line: what was expected, and the values" and
 * marks the test failed; the test goes on, so one run shows every broken
 * expectation. REQUIRE(cond) stops the test instead (for preconditions the
 * rest depends on). The last line of output is always
 *   N passed, N failed
 * counting test functions, and the exit status is non-zero if any failed.
 */
#ifndef CHECK_H
#define CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct check_test {
    const char *name;
    void (*fn)(void);
    int line;
};

#define CHECK_MAX_TESTS 256
static struct check_test check_tests[CHECK_MAX_TESTS] __attribute__((unused));
static int check_ntests __attribute__((unused));
static int check_failed_here __attribute__((unused));      /* checks failed in the running test */
static const char *check_current __attribute__((unused));  /* name of the running test */

static __attribute__((unused)) void check_register(const char *name, void (*fn)(void), int line)
{
    if (check_ntests == CHECK_MAX_TESTS) {
        fprintf(stderr, "check.h: more than %d tests\n", CHECK_MAX_TESTS);
        exit(2);
    }
    check_tests[check_ntests++] = (struct check_test){ name, fn, line };
}

#define TEST(name)                                                           \
    static void name(void);                                                  \
    static void __attribute__((constructor)) check_reg_##name(void)          \
    { check_register(#name, name, __LINE__); }                               \
    static void name(void)

static __attribute__((unused, format(printf, 3, 4)))
void check_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("    %s:%d: %s: ", file, line, check_current ? check_current : "?");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    check_failed_here++;
}

/* Every macro evaluates its arguments once; each returns nothing. */
#define CHECK(cond) do {                                                     \
        if (!(cond))                                                         \
            check_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond);       \
    } while (0)

#define REQUIRE(cond) do {                                                   \
        if (!(cond)) {                                                       \
            check_fail(__FILE__, __LINE__, "REQUIRE(%s) failed; test stopped", #cond); \
            return;                                                          \
        }                                                                    \
    } while (0)

#define CHECK_EQ_U64(a, b) do {                                              \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                     \
        if (a_ != b_)                                                        \
            check_fail(__FILE__, __LINE__, "%s == %s failed: %" PRIu64 " != %" PRIu64, \
                       #a, #b, a_, b_);                                      \
    } while (0)

#define CHECK_EQ_INT(a, b) do {                                              \
        long long a_ = (long long)(a), b_ = (long long)(b);                  \
        if (a_ != b_)                                                        \
            check_fail(__FILE__, __LINE__, "%s == %s failed: %lld != %lld",  \
                       #a, #b, a_, b_);                                      \
    } while (0)

#define CHECK_STR(a, b) do {                                                 \
        const char *a_ = (a), *b_ = (b);                                     \
        if (!a_ || !b_ || strcmp(a_, b_))                                    \
            check_fail(__FILE__, __LINE__, "%s == %s failed: \"%s\" != \"%s\"", \
                       #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");      \
    } while (0)

/* hay contains needle */
#define CHECK_CONTAINS(hay, needle) do {                                     \
        const char *h_ = (hay), *n_ = (needle);                              \
        if (!h_ || !n_ || !strstr(h_, n_))                                   \
            check_fail(__FILE__, __LINE__, "%s should contain \"%s\": \"%s\"", \
                       #hay, n_ ? n_ : "(null)", h_ ? h_ : "(null)");        \
    } while (0)

/* s starts with prefix */
#define CHECK_PREFIX(s, prefix) do {                                         \
        const char *s_ = (s), *p_ = (prefix);                                \
        if (!s_ || !p_ || strncmp(s_, p_, strlen(p_)))                       \
            check_fail(__FILE__, __LINE__, "%s should start with \"%s\": \"%s\"", \
                       #s, p_ ? p_ : "(null)", s_ ? s_ : "(null)");          \
    } while (0)

#define CHECK_MEM(a, b, len) do {                                            \
        size_t l_ = (len);                                                   \
        if (memcmp((a), (b), l_))                                            \
            check_fail(__FILE__, __LINE__, "%s and %s differ in their first %zu bytes", \
                       #a, #b, l_);                                          \
    } while (0)

#ifndef CHECK_NO_MAIN
/* fn() in a child process whose address space is limited to bytes
 * (RLIMIT_AS), so an allocation past the limit fails there: fn's return
 * value as the child's exit status, or -1 if the child did not exit. */
static __attribute__((unused)) int check_under_memory_limit(size_t bytes, int (*fn)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);    /* ends with the test, if that is stopped */
        struct rlimit rl = { bytes, bytes };
        setrlimit(RLIMIT_AS, &rl);
        _exit(fn());
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

static int check_by_line(const void *a, const void *b)
{
    return ((const struct check_test *)a)->line - ((const struct check_test *)b)->line;
}

/* CHECK_TIMEOUT: seconds a test may run (check_run_one). */
static unsigned check_timeout(void)
{
    const char *e = getenv("CHECK_TIMEOUT");
    char *end;
    unsigned long s = e && *e ? strtoul(e, &end, 10) : 300;
    if (e && *e && (*e < '0' || *e > '9' || *end || !s || s > 99999999)) {   /* (strtoul takes "-1") */
        fprintf(stderr, "check.h: CHECK_TIMEOUT=%s: expected a whole number of seconds from 1 to 99999999\n", e);
        exit(2);
    }
    return (unsigned)s;
}

/* 1 if the test passed. */
static int check_run_one(const struct check_test *t, int nofork)
{
    check_current = t->name;
    check_failed_here = 0;
    fflush(stdout);
    fflush(stderr);
    if (nofork) {
        t->fn();
        return check_failed_here == 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("check.h: fork");
        return 0;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);    /* a runner's timeout ends the test too */
        alarm(check_timeout());              /* and a hang ends it here (SIGALRM) */
        t->fn();
        fflush(stdout);
        _exit(check_failed_here ? 1 : 0);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
        printf("    %s: still running after %u s (CHECK_TIMEOUT): stopped as a hang\n", t->name, check_timeout());
        return 0;
    }
    if (WIFSIGNALED(st)) {
        printf("    %s: crashed with signal %d (%s)\n", t->name, WTERMSIG(st), strsignal(WTERMSIG(st)));
        return 0;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    const char *nf = getenv("CHECK_NOFORK");
    int nofork = nf && *nf && strcmp(nf, "0");
    setvbuf(stdout, NULL, _IOLBF, 0);
    check_timeout();                         /* a bad CHECK_TIMEOUT fails before any test */
    qsort(check_tests, (size_t)check_ntests, sizeof check_tests[0], check_by_line);
    for (int i = 0; i < check_ntests; i++) {
        const struct check_test *t = &check_tests[i];
        int wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted |= !strcmp(argv[a], t->name);
        if (!wanted)
            continue;
        int ok = check_run_one(t, nofork);
        printf("  %s %s\n", ok ? "ok  " : "FAIL", t->name);
        if (ok)
            passed++;
        else
            failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif

#endif
