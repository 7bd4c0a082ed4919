/* launch_node (host/launch/launch.h): a node's process as the run tool
 * starts it, seen from inside by a script standing for QEMU: its words,
 * its own process group, its priority and scheduling policy, its
 * standard descriptors, the node's fixed descriptors; and a program that
 * cannot be run, reported on the node's output with exit status 127. */
#define _GNU_SOURCE
#include "check.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include "launch/launch.h"

static char dir[64];

/* For the helpers, which return a value: a failed precondition ends the
 * test (each test runs in its own process, check.h), said. */
#define NEED(c) do { if (!(c)) { fprintf(stderr, "%s:%d: needed %s\n", __FILE__, __LINE__, #c); abort(); } } while (0)

/* A template file holding `words`, loaded. */
static void template_of(struct template *t, const char *words)
{
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/t.args", dir);
    FILE *f = fopen(path, "w");
    REQUIRE(f != NULL);
    fputs(words, f);
    fclose(f);
    REQUIRE(template_load(t, path, err, sizeof err) == 0);
}

/* Start the template's node with ram_fd as its RAM, wait for it, and
 * return what it wrote (into out) and its exit status. */
static int run_node(const struct template *t, int ram_fd, char *out, size_t cap)
{
    int p[2];
    NEED(pipe(p) == 0);
    struct launch_vars v = { .kernel = "k.elf", .socket = "s", .mem = "32M", .pool_fd = -1, .ram_fd = ram_fd };
    pid_t pid = launch_node(t, &v, p[1]);
    NEED(pid > 0);
    close(p[1]);
    size_t got = 0;
    ssize_t k;
    while (got < cap - 1 && (k = read(p[0], out + got, cap - 1 - got)) > 0)
        got += (size_t)k;
    out[got] = 0;
    close(p[0]);
    int st;
    NEED(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_launch.%d", (int)getpid());
    mkdir(dir, 0700);
}

static void teardown(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/t.args", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/node.sh", dir);
    unlink(path);
    rmdir(dir);
}

TEST(the_node_gets_its_words_its_group_its_priority_and_its_descriptors)
{
    setup();
    char script[128], words[256], out[1024];
    snprintf(script, sizeof script, "%s/node.sh", dir);
    FILE *f = fopen(script, "w");
    REQUIRE(f != NULL);
    /* pid and group (fields 1 and 5 of stat), niceness (field 19),
     * scheduling policy (field 41), the words, stdin's target, and
     * whether the RAM's fd is open */
    fputs("#!/bin/sh\n"
          "set -- $(cut -d' ' -f1,5,19,41 /proc/$$/stat) \"$@\"\n"
          "echo \"pid=$1 group=$2 nice=$3 policy=$4\"\n"
          "shift 4\n"
          "echo \"words=$*\"\n"
          "echo \"stdin=$(readlink /proc/$$/fd/0)\"\n"
          "[ -e /proc/$$/fd/4 ] && echo ram=open\n"
          "echo to-stderr >&2\n",
          f);
    fclose(f);
    chmod(script, 0700);
    snprintf(words, sizeof words, "%s -kernel @KERNEL@ @NO_REBOOT@ -m @MEM@\n", script);
    struct template t;
    template_of(&t, words);
    int ram = open("/dev/null", O_RDONLY);
    CHECK_EQ_INT(run_node(&t, ram, out, sizeof out), 0);
    close(ram);
    int pid = 0, group = -1, nice = -1, policy = -1;
    const char *l = strstr(out, "pid=");
    REQUIRE(l && sscanf(l, "pid=%d group=%d nice=%d policy=%d", &pid, &group, &nice, &policy) == 4);
    CHECK_EQ_INT(group, pid);                    /* its own process group */
    CHECK_EQ_INT(nice, 5);                       /* below the router */
    CHECK_EQ_INT(policy, SCHED_BATCH);           /* its wake-ups do not preempt the router */
    CHECK_CONTAINS(out, "words=-kernel k.elf -no-reboot -m 32M\n");
    CHECK_CONTAINS(out, "stdin=/dev/null\n");
    CHECK_CONTAINS(out, "ram=open\n");
    CHECK_CONTAINS(out, "to-stderr\n");          /* stderr to the node's output too */
    template_free(&t);
    teardown();
}

TEST(a_program_that_cannot_run_is_named_with_status_127)
{
    setup();
    char words[256], out[1024];
    snprintf(words, sizeof words, "%s/no-such-qemu -m @MEM@\n", dir);
    struct template t;
    template_of(&t, words);
    CHECK_EQ_INT(run_node(&t, -1, out, sizeof out), 127);
    char want[256];
    snprintf(want, sizeof want, "cannot start %s/no-such-qemu: not found\n", dir);
    CHECK_EQ_INT(strcmp(out, want) == 0, 1);
    if (strcmp(out, want))
        fprintf(stderr, "got: %s", out);
    template_free(&t);
    /* and the caller's errno and memory are its own again: a second start works */
    snprintf(words, sizeof words, "/bin/true\n");
    template_of(&t, words);
    CHECK_EQ_INT(run_node(&t, -1, out, sizeof out), 0);
    template_free(&t);
    teardown();
}
