#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "launch.h"
#include "merge.h"
#include "files.h"

#define TEMPLATE_MAX (64 << 10)   /* a QEMU template: a few hundred bytes of options */

int template_load(struct template *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = file_fopen_regular(path, "QEMU template", TEMPLATE_MAX, err, errlen);
    if (!f)
        return -1;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        for (char *w = strtok(line, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
            char **a = realloc(t->argv, (size_t)(t->argc + 2) * sizeof *t->argv);
            char *word = strdup(w);
            if (a)
                t->argv = a;
            if (!a || !word) {
                free(word);
                fclose(f);
                template_free(t);
                snprintf(err, errlen, "out of memory reading QEMU template %s", path);
                return -1;
            }
            t->argv[t->argc++] = word;
            t->argv[t->argc] = NULL;
        }
    }
    fclose(f);
    if (t->argc == 0) {
        snprintf(err, errlen, "QEMU template %s names no program", path);
        return -1;
    }
    return 0;
}

void template_free(struct template *t)
{
    for (int i = 0; i < t->argc; i++)
        free(t->argv[i]);
    free(t->argv);
    memset(t, 0, sizeof *t);
}

int template_check_program(const struct template *t, char *err, size_t errlen)
{
    const char *prog = t->argv[0];
    if (strchr(prog, '/'))
        return access(prog, X_OK) ? (snprintf(err, errlen, "its first word, the program %s, is not executable", prog), -1) : 0;
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
        if (!access(buf, X_OK))
            return 0;
        p += n + (p[n] == ':');
    }
    snprintf(err, errlen, "%s not found on PATH; install it with: sudo apt-get install %s",
             prog, !strcmp(prog, "qemu-system-riscv64") ? "qemu-system-misc" : prog);
    return -1;
}

/* Replace @NAME@ in one word; returns a new string. */
static char *expand(const char *w, const struct launch_vars *v)
{
    char entry[32];
    snprintf(entry, sizeof entry, "0x%llx", v->entry);
    const char *keys[] = { "@KERNEL@", "@SOCKET@", "@MEM@", "@ENTRY@" };
    const char *vals[] = { v->kernel, v->socket, v->mem, entry };
    char out[2048];
    size_t o = 0;
    while (*w && o < sizeof out - 1) {
        int hit = 0;
        for (int k = 0; k < 4; k++) {
            size_t kl = strlen(keys[k]);
            if (!strncmp(w, keys[k], kl)) {
                o += (size_t)snprintf(out + o, sizeof out - o, "%s", vals[k]);
                w += kl;
                hit = 1;
                break;
            }
        }
        if (!hit)
            out[o++] = *w++;
    }
    out[o < sizeof out ? o : sizeof out - 1] = 0;
    return strdup(out);
}

int template_has(const struct template *t, const char *word)
{
    for (int i = 0; i < t->argc; i++)
        if (!strcmp(t->argv[i], word))
            return 1;
    return 0;
}

/* The child of launch_node's vfork, until its exec: it shares the
 * router's memory while the router waits, so it writes none of it (only
 * its own frame and the kernel's per-process state: signal mask, file
 * descriptors, priority, group) and reports a failure with write(2)
 * alone. `fail` is the start of that report. */
static __attribute__((noinline, noreturn)) void node_child(char **argv, const struct launch_vars *v, int out_fd,
                                                             pid_t parent, const char *fail)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    /* No transparent huge pages for the node (inherited across exec):
     * QEMU asks for them on guest RAM, and zeroing 2 MiB pages a node
     * barely touches was the largest cost of starting many nodes. */
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    /* Nodes run below the router: every node waits on it, so when it
     * has work it should get a core at once. */
    setpriority(PRIO_PROCESS, 0, 5);
    /* ... and its wake-ups do not preempt the router (SCHED_BATCH,
     * sched(7)): an answer's interrupt wakes the node's QEMU, which would
     * otherwise take the router's core in the middle of its turn. */
    struct sched_param batch = { .sched_priority = 0 };
    sched_setscheduler(0, SCHED_BATCH, &batch);
    setpgid(0, 0);
    if (v->merge_pages && merge_child()) {
        static const char m[] = "cannot make the node's pages mergeable\n";
        if (write(out_fd, m, sizeof m - 1) < 0) { /* nothing more to tell */ }
        _exit(127);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open("/dev/null", O_RDONLY);
    if (in < 0)
        _exit(127);
    dup2(in, 0);
    dup2(out_fd, 1);
    dup2(out_fd, 2);
    /* Above every fixed number first, so neither dup2 below closes the other's source. */
    int pool = v->pool_fd >= 0 ? fcntl(v->pool_fd, F_DUPFD, 10) : -1;
    int ram = v->ram_fd >= 0 ? fcntl(v->ram_fd, F_DUPFD, 10) : -1;
    if ((v->pool_fd >= 0 && (pool < 0 || dup2(pool, LAUNCH_POOL_FD) < 0)) ||
        (v->ram_fd >= 0 && (ram < 0 || dup2(ram, LAUNCH_RAM_FD) < 0)))
        _exit(127);
    if (pool >= 0) close(pool);
    if (ram >= 0) close(ram);
    execvp(argv[0], argv);
    /* (strerror may translate, and so allocate: the error's name is a constant) */
    const char *why = errno == ENOENT ? "not found" : errno == EACCES ? "permission denied" : strerrorname_np(errno);
    if (write(2, fail, strlen(fail)) < 0 || write(2, why ? why : "?", strlen(why ? why : "?")) < 0 ||
        write(2, "\n", 1) < 0) { /* nothing more to tell */ }
    _exit(127);
}

pid_t launch_node(const struct template *t, const struct launch_vars *v, int out_fd)
{
    char **argv = calloc((size_t)t->argc + 12, sizeof *argv);
    int n = 0;
    if (!argv) {
        errno = ENOMEM;
        return -1;
    }
    char gdb_arg[64];
    snprintf(gdb_arg, sizeof gdb_arg, "tcp:127.0.0.1:%d", v->gdb_port);
    char qmp_arg[64], ram_arg[160];
    snprintf(qmp_arg, sizeof qmp_arg, "socket,id=wormsim-pool,fd=%d", LAUNCH_POOL_FD);
    snprintf(ram_arg, sizeof ram_arg, "memory-backend-file,id=wormsim-ram,size=%s,mem-path=/proc/self/fd/%d,share=on",
             v->mem, LAUNCH_RAM_FD);
    /* The placeholders that stand for whole words, and what each becomes. */
    const struct { const char *name; int on; const char *w[4]; } words[] = {
        { "@GDB@", v->gdb_port != 0, { "-S", "-gdb", gdb_arg } },
        { "@NO_REBOOT@", v->pool_fd < 0, { "-no-reboot" } },
        { "@RAM@", v->ram_fd >= 0, { "-object", ram_arg, "-machine", "memory-backend=wormsim-ram" } },
        { "@QMP@", v->pool_fd >= 0, { "-chardev", qmp_arg, "-mon", "chardev=wormsim-pool,mode=control" } },
    };
    for (int i = 0; i < t->argc; i++) {
        size_t g = 0;
        while (g < sizeof words / sizeof words[0] && strcmp(t->argv[i], words[g].name))
            g++;
        if (g < sizeof words / sizeof words[0]) {
            for (int k = 0; words[g].on && k < 4 && words[g].w[k]; k++)
                argv[n++] = strdup(words[g].w[k]);
            continue;
        }
        argv[n++] = expand(t->argv[i], v);
    }
    argv[n] = NULL;
    for (int i = 0; i < n; i++)
        if (!argv[i]) {                         /* a strdup failed: no truncated command line */
            for (int k = 0; k < n; k++)
                free(argv[k]);
            free(argv);
            errno = ENOMEM;
            return -1;
        }
    /* vfork, not fork: a fork copied the router's page tables and made
     * every page of its heap copy-on-write, once per node (on a cold
     * 256-node hello, 40 % of the router's CPU was the forks and the
     * faults after them). The message of a failed exec is made here. */
    char fail[320];
    snprintf(fail, sizeof fail, "cannot start %s: ", argv[0]);
    pid_t parent = getpid();
    pid_t pid = vfork();
    if (pid == 0)
        node_child(argv, v, out_fd, parent, fail);
    for (int i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
    return pid;
}
