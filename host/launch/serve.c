#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "serve.h"

_Static_assert(1 + (sizeof "wormsim-pool-" - 1) + SERVE_NAME_MAX < sizeof ((struct sockaddr_un *)0)->sun_path,
               "SERVE_NAME_MAX fits an abstract socket's name");

static socklen_t addr_of(const char *name, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    int k = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "wormsim-pool-%s", name);
    if (k < 0 || (size_t)k >= sizeof a->sun_path - 1)
        return 0;
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)k);
}

int serve_listen(const char *name)
{
    struct sockaddr_un a;
    socklen_t l = addr_of(name, &a);
    if (!l) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    if (bind(s, (struct sockaddr *)&a, l) || listen(s, 64)) {
        int e = errno;
        close(s);
        errno = e;
        return -1;
    }
    return s;
}

int serve_recv(int conn, int *argc, char ***argv, int fds[3])
{
    fds[0] = fds[1] = fds[2] = -1;
    struct ucred cr;
    socklen_t cl = sizeof cr;
    struct pollfd p = { conn, POLLIN, 0 };
    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cr, &cl) || poll(&p, 1, SERVE_REQUEST_S * 1000) != 1)
        return -1;
    if (cr.uid != getuid()) {
        /* Its request read and dropped, then told: a UNIX socket closed
         * with unread data resets its peer, which would lose the answer. */
        char drop[512];
        while (recv(conn, drop, sizeof drop, MSG_DONTWAIT) > 0)
            ;
        serve_reply(conn, SERVE_OTHER_USER);
        return -1;
    }
    char *buf = malloc(SERVE_MAX_REQUEST + 1);
    union { char b[CMSG_SPACE(3 * sizeof(int))]; struct cmsghdr align; } u;
    struct iovec iov = { buf, SERVE_MAX_REQUEST };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof u.b };
    ssize_t k = buf ? recvmsg(conn, &mh, MSG_CMSG_CLOEXEC) : -1;
    struct cmsghdr *c = k > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
    if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(3 * sizeof(int)))
        memcpy(fds, CMSG_DATA(c), 3 * sizeof(int));
    /* A client that is gone left its request behind: nobody waits for it. */
    struct pollfd gone = { conn, POLLRDHUP, 0 };
    int32_t taken = SERVE_TAKEN;
    if (k <= 0 || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || fds[2] < 0 || buf[k - 1] ||
        poll(&gone, 1, 0) != 0 || send(conn, &taken, sizeof taken, MSG_NOSIGNAL) != sizeof taken) {
        for (int i = 0; i < 3; i++)
            if (fds[i] >= 0)
                close(fds[i]);
        free(buf);
        return -1;
    }
    int n = 1;
    for (ssize_t i = 0; i < k; i++)
        n += !buf[i];
    /* one allocation: the pointers, then the strings */
    char **v = malloc((size_t)(n + 1) * sizeof *v + sizeof "wormsim" + (size_t)k);
    char *s = (char *)(v + n + 1);
    memcpy(s, "wormsim", sizeof "wormsim");
    memcpy(s + sizeof "wormsim", buf, (size_t)k);
    v[0] = s;
    s += sizeof "wormsim";
    for (int i = 1; i < n; i++) {
        v[i] = s;
        s += strlen(s) + 1;
    }
    v[n] = NULL;
    free(buf);
    *argc = n;
    *argv = v;
    return 0;
}

char *serve_peer_getenv(int conn, const char *name)
{
    struct ucred cr;
    socklen_t cl = sizeof cr;
    char path[64], *val = NULL;
    if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cr, &cl))
        return NULL;
    snprintf(path, sizeof path, "/proc/%d/environ", (int)cr.pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *entry = NULL;
    size_t cap = 0, n = strlen(name);
    while (!val && getdelim(&entry, &cap, 0, f) > 0)
        if (!strncmp(entry, name, n) && entry[n] == '=')
            val = strdup(entry + n + 1);
    free(entry);
    fclose(f);
    return val;
}

void serve_reply(int conn, int status)
{
    int32_t v = status;
    if (send(conn, &v, sizeof v, MSG_NOSIGNAL) < 0 && errno != EPIPE)
        perror("wormsim: answer to a run's client");
}

int serve_client(const char *name, int argc, char **argv)
{
    struct sockaddr_un a;
    socklen_t l = addr_of(name, &a);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (!l || s < 0 || connect(s, (struct sockaddr *)&a, l)) {
        fprintf(stderr, "wormsim: no node pool named '%s' is served (%s); start one with: wormsim --serve %s\n",
                name, !l ? "name too long" : strerror(errno), name);
        if (s >= 0)
            close(s);
        return 2;
    }
    size_t len = 0;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *buf = malloc(len ? len : 1);
    if (!buf || len > SERVE_MAX_REQUEST) {
        fprintf(stderr, "wormsim: the run's options are longer than %d bytes\n", SERVE_MAX_REQUEST);
        return 2;
    }
    size_t o = 0;
    for (int i = 0; i < argc; i++) {
        size_t m = strlen(argv[i]) + 1;
        memcpy(buf + o, argv[i], m);
        o += m;
    }
    int fds[3] = { open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), 1, 2 };
    union { char b[CMSG_SPACE(sizeof fds)]; struct cmsghdr align; } u;
    memset(&u, 0, sizeof u);
    struct iovec iov = { buf, len };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof u.b };
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    if (fds[0] < 0 || !len || sendmsg(s, &mh, MSG_NOSIGNAL) != (ssize_t)len) {
        fprintf(stderr, "wormsim: cannot hand the run to the node pool '%s': %s\n", name, strerror(errno));
        return 2;
    }
    free(buf);
    close(fds[0]);
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    sigaddset(&ss, SIGHUP);
    int sfd = signalfd(-1, &ss, SFD_CLOEXEC), taken = 0;
    for (;;) {
        struct pollfd p[2] = { { s, POLLIN, 0 }, { sfd, POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[0].revents) {          /* first: a run taken hears of a signal that came with the news */
            int32_t v;
            ssize_t k = recv(s, &v, sizeof v, 0);
            if (k == sizeof v && v == SERVE_OTHER_USER) {
                fprintf(stderr, "wormsim: the node pool '%s' is another user's; start your own with: "
                        "wormsim --serve NAME\n", name);
                return 2;
            }
            if (k == sizeof v && v == SERVE_TAKEN) {
                taken = 1;
                continue;
            }
            if (k == sizeof v)
                return v;
            break;
        }
        if (p[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof si) != sizeof si)
                continue;
            if (!taken) {            /* still behind another run: this one never starts */
                fprintf(stderr, "wormsim: interrupted by signal %d (%s) while waiting for the node pool '%s', "
                        "which serves one run at a time; the run did not start\n", (int)si.ssi_signo,
                        strsignal((int)si.ssi_signo), name);
                close(s);
                return 128 + (int)si.ssi_signo;
            }
            unsigned char sig = (unsigned char)si.ssi_signo;
            send(s, &sig, 1, MSG_NOSIGNAL);
        }
    }
    fprintf(stderr, "wormsim: the node pool '%s' stopped before %s\n", name,
            taken ? "the run ended" : "it took the run; the run did not start");
    return 1;
}
