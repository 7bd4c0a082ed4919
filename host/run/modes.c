/* The run tool's modes beside a run: --serve NAME (a node pool that
 * outlives runs, which wormsim --pool NAME hands them), --replay DIR, and
 * how the command line chooses one (split_modes). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include "run.h"
#include "../show.h"
#include "../launch/serve.h"
#include "../out/replay.h"

/* One request of a client: its run, with its directory and its output.
 * Returns 0 if there was none to take (serve_recv). */
static int serve_one(struct host *h, int conn, const int home[3])
{
    int argc, fds[3];
    char **argv;
    if (serve_recv(conn, &argc, &argv, fds))
        return 0;
    fflush(stdout);
    fflush(stderr);
    int rc = 2;
    if (dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0 || fchdir(fds[0]))
        fprintf(stderr, "wormsim: the node pool cannot take the client's directory or output: %m\n");
    else {
        /* the client's environment where the run reads it */
        static const char *const vars[] = { "PATH", "WORMSIM_DESC_LOG" };
        char *mine[2];
        for (int i = 0; i < 2; i++) {
            mine[i] = getenv(vars[i]) ? strdup(getenv(vars[i])) : NULL;
            char *theirs = serve_peer_getenv(conn, vars[i]);
            theirs ? setenv(vars[i], theirs, 1) : unsetenv(vars[i]);
            free(theirs);
        }
        h->client = conn;
        ep_add(h->epfd, conn, EV_CLIENT, 0);
        rc = run_main(h, argc, argv);
        epoll_ctl(h->epfd, EPOLL_CTL_DEL, conn, NULL);
        h->client = -1;
        for (int i = 0; i < 2; i++) {
            mine[i] ? setenv(vars[i], mine[i], 1) : unsetenv(vars[i]);
            free(mine[i]);
        }
    }
    fflush(stdout);
    fflush(stderr);
    dup2(home[1], 1);
    dup2(home[2], 2);
    if (fchdir(home[0]))
        perror("wormsim: back to the pool's directory");
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    free(argv);
    serve_reply(conn, rc);
    pool_after_run(&h->pool, h->run_nodes);
    return 1;
}

/* wormsim --serve NAME: the pool and its socket, until a signal. */
int serve_pool(struct host *h, const char *name)
{
    int ls = serve_listen(name);
    if (ls < 0) {
        fprintf(stderr, "wormsim: cannot serve a node pool named '%s': %m (is one served under that name?)\n", name);
        return 2;
    }
    int home[3] = { open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fcntl(1, F_DUPFD_CLOEXEC, 3),
                    fcntl(2, F_DUPFD_CLOEXEC, 3) };
    /* A run writes to its client's output, which may be a pipe whose
     * reader is gone (wormsim --pool ... | head): that write fails with
     * EPIPE, and the SIGPIPE, blocked, never ends the pool and its nodes.
     * (A node's QEMU starts with no signal blocked and none pending.) */
    sigset_t pipe_sig;
    sigemptyset(&pipe_sig);
    sigaddset(&pipe_sig, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_sig, NULL);
    ep_add(h->epfd, ls, EV_SERVE, 0);
    printf("wormsim: serving node pool '%s'; run on it with: wormsim --pool %s [options]\n", name, name);
    fflush(stdout);
    unsigned long long runs = 0;
    while (!h->stop) {
        struct epoll_event ev[64];
        int k = epoll_wait(h->epfd, ev, 64, -1);
        for (int i = 0; i < k && !h->stop; i++) {
            uint32_t kind = (uint32_t)(ev[i].data.u64 >> 32), id = (uint32_t)ev[i].data.u64;
            if (kind == EV_SIG) {
                h->stop = on_signals(h, NULL);
            } else if (kind == EV_TIMER) {
                uint64_t v;
                if (read(h->timerfd, &v, sizeof v) < 0)
                    continue;
            } else if (kind == EV_SERVE) {
                int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
                if (c >= 0) {
                    /* the next clients wait, unwatched, till this run ends */
                    epoll_ctl(h->epfd, EPOLL_CTL_DEL, ls, NULL);
                    runs += (unsigned long long)serve_one(h, c, home);
                    ep_add(h->epfd, ls, EV_SERVE, 0);
                    close(c);
                }
            } else if (kind != EV_CLIENT) {
                on_pool_event(h, kind, id);
            }
        }
    }
    printf("wormsim: node pool '%s' stopped by signal %d: %llu runs served, %llu nodes started, "
           "%llu handed over warm\n", name, h->stop, runs, h->pool.started, h->pool.reused);
    close(ls);
    for (int i = 0; i < 3; i++)
        close(home[i]);
    return 0;
}

/* wormsim --replay DIR: DIR's command again, from the directory it ran
 * in, then its figures against DIR's (host/out/replay.h). */
int run_replay(struct host *h, const char *dir)
{
    char err[1024], cwd[4096], b[SHOW_LEN];
    int argc = 0;
    char **argv = NULL, *from = realpath(dir, NULL);
    if (!from || replay_load(from, &argc, &argv, cwd, sizeof cwd, err, sizeof err)) {
        if (from)
            fprintf(stderr, "wormsim: --replay: %s\n", err);
        else
            fprintf(stderr, "wormsim: --replay: no run directory %s: %m\n", show(b, dir, 1));
        free(from);
        return 2;
    }
    int rc = 2;
    if (chdir(cwd)) {
        fprintf(stderr, "wormsim: --replay: the run's directory %s is gone: %m\n", show(b, cwd, 1));
        goto out;
    }
    /* the run's path, resolved before the run: runs/latest will name the new one */
    size_t k = strlen(cwd);
    const char *name = !strncmp(from, cwd, k) && from[k] == '/' ? from + k + 1 : from;
    char b2[SHOW_LEN];
    printf("wormsim: replaying %s: in %s, wormsim", show(b, name, 0), show(b2, cwd, 1));
    for (int i = 1; i < argc; i++)              /* what will run, before it runs */
        printf(" %s", show(b, argv[i], 1));
    printf("\n");
    replay_note_build(from, stdout);
    fflush(stdout);
    h->unattended = 1;
    rc = run_main(h, argc, argv);
    h->unattended = 0;
    if (rc >= 128)                               /* ended by a signal: nothing to compare */
        goto out;
    if (!h->last_dir[0]) {
        fprintf(stderr, "wormsim: --replay: the command made no run, so there is nothing to compare\n");
        rc = rc ? rc : 2;
        goto out;
    }
    printf("replay: comparing with %s\n", show(b, name, 0));
    int differ = replay_compare(from, h->last_dir, stdout);
    if (differ < 0)
        rc = 2;
    else {
        printf("replay: %s\n", differ ? "the figures differ (above)" : "every figure matches: summary.json, the CSVs "
               "and the node logs");
        rc = differ;
    }
out:
    replay_free_argv(argc, argv);
    free(from);
    return rc;
}

/* --serve NAME, --pool NAME and --replay DIR choose the mode; the rest
 * (argv[0] first) is the run's, in rest. Returns 0, or 2 said: a mode
 * given wrong, or two that do not go together. */
int split_modes(int argc, char **argv, int mpi, const char **serve_name_, const char **pool_name_,
                       const char **replay_dir_, char **rest, int *nrest_)
{
    const char *serve_name = NULL, *pool_name = NULL, *replay_dir = NULL;
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char **to = !strcmp(argv[i], "--serve") ? &serve_name : !strcmp(argv[i], "--pool") ? &pool_name :
                          !strcmp(argv[i], "--replay") ? &replay_dir : NULL;
        if (to && i + 1 < argc && i > 0) {
            *to = argv[++i];
        } else if (i > 0 && (!strncmp(argv[i], "--serve=", 8) || !strncmp(argv[i], "--pool=", 7) ||
                             !strncmp(argv[i], "--replay=", 9))) {
            *(argv[i][2] == 's' ? &serve_name : argv[i][2] == 'p' ? &pool_name : &replay_dir) = strchr(argv[i], '=') + 1;
        } else if (to) {
            fprintf(stderr, "wormsim: %s needs %s\n", argv[i], to == &replay_dir ? "a run directory" : "a pool name");
            return 2;
        } else {
            rest[nrest++] = argv[i];
        }
        if (i > 0 && !strcmp(argv[i], "--")) {
            while (++i < argc)
                rest[nrest++] = argv[i];
        }
    }
    for (const char *nm = serve_name ? serve_name : pool_name; nm; nm = NULL)
        if (!*nm || strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(nm)) {
            fprintf(stderr, "wormsim: pool name '%s' is not letters, digits, '_', '.' or '-'\n", nm);
            return 2;
        } else if (strlen(nm) > SERVE_NAME_MAX) {
            fprintf(stderr, "wormsim: pool name '%.20s...' is %zu characters; accepted: at most %d\n", nm,
                    strlen(nm), SERVE_NAME_MAX);
            return 2;
        }
    if (serve_name && pool_name) {
        fprintf(stderr, "wormsim: --serve and --pool do not go together\n");
        return 2;
    }
    if (serve_name && nrest > 1) {
        fprintf(stderr, "wormsim: --serve takes no run options (each run brings its own): '%s'\n", rest[1]);
        return 2;
    }
    if (replay_dir && (serve_name || pool_name || nrest > 1)) {
        char b[SHOW_LEN];
        fprintf(stderr, "wormsim: --replay takes no other option (the run's own come from its summary.json): %s\n",
                show(b, serve_name ? "--serve" : pool_name ? "--pool" : rest[1], 1));
        return 2;
    }
    if (mpi && (serve_name || pool_name || replay_dir)) {
        fprintf(stderr, "wormsim: --serve, --pool and --replay are not for a run under mpirun\n");
        return 2;
    }
    *serve_name_ = serve_name;
    *pool_name_ = pool_name;
    *replay_dir_ = replay_dir;
    *nrest_ = nrest;
    return 0;
}
