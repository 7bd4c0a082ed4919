#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "pool.h"
#include "files.h"
#include "arch.h"
#include "host_clock.h"
#include "../../netdev/nic_shm.h"

/* Console bytes kept for a node between runs; more are dropped (a node
 * prints nothing between its EXIT and its next run). */
#define PENDING_MAX 65536

static int ep_add(struct pool *p, int fd, unsigned kind, int id, int edge)
{
    struct epoll_event e = { .events = EPOLLIN | (edge ? EPOLLET : 0u), .data.u64 = POOL_EV(kind, id) };
    return epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &e);
}

int pool_init(struct pool *p, int keep, int epfd, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->keep = keep;
    p->epfd = epfd;
    snprintf(p->sock, sizeof p->sock, "wormsim-%d-%lx", (int)getpid(), (unsigned long)time(NULL));
    p->listen_fd = ivshmem_listen(p->sock);
    if (p->listen_fd < 0 || ep_add(p, p->listen_fd, POOL_EV_LISTEN, 0, 0)) {
        snprintf(err, errlen, "cannot open the nodes' socket: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The key of a node: ISA, image path and file identity, NIC memory, RAM,
 * whether its pages merge (--merge-pages: a node without address
 * randomisation serves only runs that asked for it), the PATH its QEMU was
 * found on, template. A rebuilt image has another inode
 * or time, so another key. */
int pool_spec_key(struct pool_spec *s, char *err, size_t errlen)
{
    struct stat st;
    char *path = realpath(s->kernel, NULL);
    s->key = NULL;
    if (!path || stat(path, &st)) {
        snprintf(err, errlen, "cannot read the node image %s: %s", s->kernel, strerror(errno));
        free(path);
        return -1;
    }
    /* where the template's program is found: PATH, as the node starts */
    const char *qemu = getenv("PATH") ? getenv("PATH") : "";
    size_t cap = 512 + strlen(path) + strlen(qemu);
    for (int i = 0; i < s->tpl->argc; i++)
        cap += strlen(s->tpl->argv[i]) + 1;
    char *k = malloc(cap);
    if (k) {
        size_t o = (size_t)snprintf(k, cap, "%d|%s|%lu:%lu:%lld:%lld.%09ld|%zu|%u|%d|%s|", s->arch, path,
                                    (unsigned long)st.st_dev, (unsigned long)st.st_ino, (long long)st.st_size,
                                    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, s->nic_mem, s->ram_mib,
                                    s->merge_pages, qemu);
        for (int i = 0; i < s->tpl->argc; i++)
            o += (size_t)snprintf(k + o, cap - o, "%s\x1f", s->tpl->argv[i]);
    }
    free(path);
    s->key = k;
    if (!k)
        snprintf(err, errlen, "out of memory");
    return k ? 0 : -1;
}

void pool_spec_free(struct pool_spec *s)
{
    free(s->key);
    s->key = NULL;
}

struct pool_image *pool_image_read(int arch, const char *path, size_t ram_bytes, char *err, size_t errlen)
{
    struct pool_image *im = calloc(1, sizeof *im);
    if (!im) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (arch_read_image((enum node_arch)arch, path, ram_bytes, &im->im, err, errlen)) {
        free(im);
        return NULL;
    }
    im->refs = 1;
    return im;
}

void pool_image_unref(struct pool_image *im)
{
    if (im && !--im->refs) {
        image_free(&im->im);
        free(im);
    }
}

/* The node's RAM, ram_mib MiB: a memfd holding its image (nothing else
 * written), mapped read-only here from then on. Returns the memfd, or -1. */
static int ram_create(struct pool_node *nd, const struct pool_image *im, unsigned ram_mib)
{
    const size_t RAM_BYTES = (size_t)ram_mib << 20;
    char name[32];
    snprintf(name, sizeof name, "wormsim-ram-%d", nd->id);
    int fd = memfd_create(name, MFD_CLOEXEC);
    uint8_t *m = fd < 0 || ftruncate(fd, (off_t)RAM_BYTES) ? MAP_FAILED
                 : mmap(NULL, RAM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    image_write(&im->im, m);
    mprotect(m, RAM_BYTES, PROT_READ);
    nd->ram = m;
    nd->ram_bytes = RAM_BYTES;
    return fd;
}

static int free_slot(struct pool *p)
{
    for (int i = 0; i < p->n; i++)
        if (!p->node[i])
            return i;
    struct pool_node **g = realloc(p->node, (size_t)(p->n + 1) * sizeof *g);
    if (!g)
        return -1;
    p->node = g;
    p->node[p->n] = NULL;
    return p->n++;
}

/* k console bytes into nd's log, as far as its cap (log_max) allows; the
 * rest is counted in dropped. -1 if the log could not be written. */
static int to_log(struct pool_node *nd, const char *buf, size_t k)
{
    unsigned long long room = nd->log_max - nd->logged;
    size_t m = k < room ? k : (size_t)room;
    nd->dropped += k - m;
    nd->logged += m;
    return m && write(nd->log, buf, m) < 0 ? -1 : 0;
}

/* Read what node nd's QEMU wrote to its console. At the end of the file
 * (the QEMU has ended: it held the pipe's only write end) the console is
 * closed: watched level-triggered, a pipe at its end would wake every
 * epoll_wait until the node is freed. */
static void drain(struct pool *p, struct pool_node *nd)
{
    char buf[8192];
    for (;;) {
        ssize_t k = nd->console >= 0 ? read(nd->console, buf, sizeof buf) : -1;
        if (k == 0) {
            epoll_ctl(p->epfd, EPOLL_CTL_DEL, nd->console, NULL);
            close(nd->console);
            nd->console = -1;
        }
        if (k <= 0)
            return;
        if (nd->log >= 0) {
            if (to_log(nd, buf, (size_t)k))
                return;
        } else {
            if (!nd->pending)
                nd->pending = malloc(PENDING_MAX);
            size_t room = nd->pending ? PENDING_MAX - nd->npending : 0;
            size_t m = (size_t)k < room ? (size_t)k : room;
            if (m)
                memcpy(nd->pending + nd->npending, buf, m);
            nd->npending += m;
        }
    }
}

static void node_free(struct pool *p, struct pool_node *nd)
{
    if (nd->pid > 0) {
        kill(nd->pid, SIGKILL);
        waitpid(nd->pid, NULL, 0);
        nd->pid = -1;
        drain(p, nd);                 /* all it wrote before it died */
    }
    nic_mem_destroy(&nd->mem);
    if (nd->ram)
        munmap(nd->ram, nd->ram_bytes);
    pool_image_unref(nd->image);
    if (nd->qmp.fd >= 0) close(nd->qmp.fd);
    if (nd->conn >= 0) close(nd->conn);
    if (nd->console >= 0) close(nd->console);
    if (nd->log >= 0) close(nd->log);
    p->node[nd->id] = NULL;
    free(nd->pending);
    free(nd->key);
    free(nd);
}

static struct pool_node *start_node(struct pool *p, const struct pool_spec *s,
                                    const char *log_path, char *err, size_t errlen)
{
    int id = free_slot(p);
    struct pool_node *nd = id < 0 ? NULL : calloc(1, sizeof *nd);
    char *key = nd ? strdup(s->key) : NULL;
    if (!key) {
        snprintf(err, errlen, "out of memory");
        free(nd);
        return NULL;
    }
    int has_ram = template_has(s->tpl, "@RAM@");
    *nd = (struct pool_node){ .id = id, .state = PN_BUSY, .pid = -1, .conn = -1, .console = -1, .log = -1,
                              .key = key, .rank = -1, .log_max = s->log_max,
                              .reusable = p->keep && !s->gdb_port && has_ram && template_has(s->tpl, "@QMP@"),
                              .image = s->image };
    nd->image->refs++;
    nd->mem.memfd = nd->mem.bell_fd = nd->mem.irq_fd = -1;
    qmp_init(&nd->qmp, -1);
    p->node[id] = nd;
    int out[2] = { -1, -1 }, ctl[2] = { -1, -1 }, ram = -1;
    nd->log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (nd->log < 0 || nic_mem_create(&nd->mem, id, s->nic_mem) || pipe2(out, O_CLOEXEC) ||
        (nd->reusable && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl)) ||
        (has_ram && (ram = ram_create(nd, s->image, s->ram_mib)) < 0)) {
        snprintf(err, errlen, "cannot set up a node (%s): %s", nd->log < 0 ? log_path : "NIC memory or console",
                 strerror(errno));
        goto fail;
    }
    nd->console = out[0];
    fcntl(nd->console, F_SETFL, O_NONBLOCK);
    qmp_init(&nd->qmp, ctl[0]);
    char mem[16];
    snprintf(mem, sizeof mem, "%uM", s->ram_mib);
    struct launch_vars v = { s->kernel, p->sock, mem, s->gdb_port, ctl[1], ram, s->image->im.entry, s->merge_pages };
    nd->pid = launch_node(s->tpl, &v, out[1]);
    close(out[1]);
    out[1] = -1;
    if (ram >= 0)
        close(ram);
    ram = -1;
    if (ctl[1] >= 0)
        close(ctl[1]);
    ctl[1] = -1;
    if (nd->pid < 0) {
        snprintf(err, errlen, "cannot start QEMU: %s", strerror(errno));
        goto fail;
    }
    if (ep_add(p, nd->mem.bell_fd, POOL_EV_BELL, id, 1) || ep_add(p, nd->console, POOL_EV_CONSOLE, id, 0)) {
        snprintf(err, errlen, "cannot watch a node: %s", strerror(errno));
        goto fail;
    }
    p->started++;
    return nd;
fail:
    if (ram >= 0)
        close(ram);
    if (out[1] >= 0)
        close(out[1]);
    if (ctl[1] >= 0)
        close(ctl[1]);
    if (nd->qmp.fd < 0 && ctl[0] >= 0)
        close(ctl[0]);
    node_free(p, nd);
    return NULL;
}

struct pool_node *pool_take(struct pool *p, const struct pool_spec *s, const char *log_path,
                            char *err, size_t errlen)
{
    struct pool_node *nd = NULL;
    for (int i = 0; !s->gdb_port && !nd && i < p->n; i++)
        if (p->node[i] && p->node[i]->state == PN_IDLE && !strcmp(p->node[i]->key, s->key))
            nd = p->node[i];
    if (nd) {
        nd->log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (nd->log < 0) {
            snprintf(err, errlen, "cannot create %s: %s", log_path, strerror(errno));
            return NULL;
        }
        nd->log_max = s->log_max;
        nd->logged = nd->dropped = 0;
        if (to_log(nd, nd->pending, nd->npending))
            perror("wormsim: node log");
        nd->npending = 0;
        nd->state = PN_BUSY;
        p->reused++;
    } else if (!(nd = start_node(p, s, log_path, err, errlen))) {
        return NULL;
    }
    nd->used = ++p->takes;
    return nd;
}

/* Kill up to `count` idle nodes, those a run took longest ago first.
 * Returns how many it killed. */
static int trim(struct pool *p, int count)
{
    int k = 0;
    for (; k < count; k++) {
        struct pool_node *old = NULL;
        for (int i = 0; i < p->n; i++)
            if (p->node[i] && p->node[i]->state == PN_IDLE && (!old || p->node[i]->used < old->used))
                old = p->node[i];
        if (!old)
            break;
        node_free(p, old);
    }
    return k;
}

int pool_idle_like(const struct pool *p, const struct pool_spec *spec)
{
    int k = 0;
    for (int i = 0; i < p->n; i++)
        k += p->node[i] && p->node[i]->state == PN_IDLE && !strcmp(p->node[i]->key, spec->key);
    return k;
}

int pool_trim_unlike(struct pool *p, const struct pool_spec *specs, int n)
{
    int k = 0;
    for (int i = 0; i < p->n; i++) {
        struct pool_node *nd = p->node[i];
        int like = 0;
        for (int j = 0; nd && j < n; j++)
            like |= !strcmp(nd->key, specs[j].key);
        if (nd && nd->state == PN_IDLE && !like) {
            node_free(p, nd);
            k++;
        }
    }
    return k;
}

/* Send each node being reset its next commands (cmds, NULL-ended; QMP's
 * qmp_capabilities first on a new monitor), and count the returns it
 * owes. Returns how many nodes are being reset; one that cannot be sent
 * to is killed. */
static int reset_send(struct pool *p, const char *const *cmds)
{
    int k = 0;
    for (int i = 0; i < p->n; i++) {
        struct pool_node *nd = p->node[i];
        if (!nd || nd->state != PN_RESET)
            continue;
        int bad = !nd->qmp_ready && qmp_send(&nd->qmp, "qmp_capabilities");
        nd->qmp_returns += !nd->qmp_ready;
        nd->qmp_ready = 1;
        for (int c = 0; cmds[c] && !bad; c++, nd->qmp_returns++)
            bad = qmp_send(&nd->qmp, cmds[c]);
        if (bad)
            node_free(p, nd);
        else
            k++;
    }
    return k;
}

/* Read the monitors of the nodes being reset until each has returned all
 * it owes (and, with want_reset, sent its RESET event), or until the
 * deadline; a node that errs, or is not done by then, is killed. */
static void reset_wait(struct pool *p, int want_reset, double deadline)
{
    struct pollfd *fds = calloc((size_t)p->n + 1, sizeof *fds);
    int *who = calloc((size_t)p->n + 1, sizeof *who);
    for (;;) {
        int k = 0;
        for (int i = 0; fds && who && i < p->n; i++) {
            struct pool_node *nd = p->node[i];
            if (!nd || nd->state != PN_RESET)
                continue;
            char ev[32];
            enum qmp_msg m;
            while ((m = qmp_next(&nd->qmp, ev, sizeof ev)) != QMP_NONE && m != QMP_BAD && m != QMP_ERROR) {
                nd->qmp_returns -= m == QMP_RETURN;
                nd->qmp_reset |= m == QMP_EVENT && !strcmp(ev, "RESET");
            }
            if (m == QMP_BAD || m == QMP_ERROR) {
                node_free(p, nd);
                continue;
            }
            if (nd->qmp_returns > 0 || (want_reset && !nd->qmp_reset)) {
                fds[k] = (struct pollfd){ .fd = nd->qmp.fd, .events = POLLIN };
                who[k++] = i;
            }
        }
        double left = deadline - now_s();
        if (!k || !fds || !who || left <= 0) {
            for (int j = 0; j < k; j++)
                node_free(p, p->node[who[j]]);
            break;
        }
        poll(fds, (nfds_t)k, (int)(left * 1000) + 1);
    }
    free(fds);
    free(who);
}

/* Zeros in [a, b) of the node's RAM (mapped writable): whole pages go
 * back to the kernel (zeros on both sides, as the NIC memory's), the
 * rest of a page is written. */
static void ram_zero(uint8_t *ram, size_t a, size_t b, size_t page)
{
    size_t pa = (a + page - 1) / page * page, pb = b / page * page;
    if (pa >= pb) {
        memset(ram + a, 0, b - a);
        return;
    }
    memset(ram + a, 0, pa - a);
    if (madvise(ram + pa, pb - pa, MADV_REMOVE))
        memset(ram + pa, 0, pb - pa);
    memset(ram + pb, 0, b - pb);
}

/* The stopped node's RAM as a fresh node's: zeros everywhere but its
 * image's loaded bytes (image.h), so what the last run left in .bss, the
 * stacks and the heap reaches no later run (a program reading memory it
 * never wrote sees what a cold node would). The image's bytes are left
 * as they are, so QEMU's translated code stays true to them. */
static void ram_clear(struct pool_node *nd)
{
    const struct node_image *im = &nd->image->im;
    size_t at[IMAGE_SEGS_MAX][2], n = 0, page = (size_t)sysconf(_SC_PAGESIZE);
    for (int s = 0; s < im->nseg; s++) {            /* the loaded bytes, in address order */
        size_t k = n++;
        for (; k > 0 && at[k - 1][0] > im->seg[s].off; k--) {
            at[k][0] = at[k - 1][0];
            at[k][1] = at[k - 1][1];
        }
        at[k][0] = im->seg[s].off;
        at[k][1] = im->seg[s].off + im->seg[s].len;
    }
    if (mprotect(nd->ram, nd->ram_bytes, PROT_READ | PROT_WRITE))
        return;
    size_t from = 0;
    for (size_t k = 0; k < n; k++) {
        if (at[k][0] > from)
            ram_zero(nd->ram, from, at[k][0], page);
        if (at[k][1] > from)
            from = at[k][1];
    }
    if (nd->ram_bytes > from)
        ram_zero(nd->ram, from, nd->ram_bytes, page);
    mprotect(nd->ram, nd->ram_bytes, PROT_READ);
}

/* The reset of every node given back from a run that went well (see the
 * top of pool.h). The processor is stopped before the image is compared
 * and resumed after the RAM outside the image is cleared, QEMU has reset
 * the machine and the NIC memory is cleared, so no instruction of the last
 * run's program runs after the comparison. */
static void reset_nodes(struct pool *p)
{
    static const char *const stop[] = { "stop", NULL };
    static const char *const reset[] = { "system_reset", NULL };
    static const char *const resume[] = { "cont", NULL };
    for (int i = 0; i < p->n; i++)
        if (p->node[i] && p->node[i]->state == PN_RESET)
            p->node[i]->qmp_returns = 0;
    if (!reset_send(p, stop))
        return;
    double deadline = now_s() + POOL_RESET_S;
    reset_wait(p, 0, deadline);
    for (int i = 0; i < p->n; i++) {             /* stopped: compare what it runs */
        struct pool_node *nd = p->node[i];
        if (nd && nd->state == PN_RESET && !image_intact(&nd->image->im, nd->ram))
            node_free(p, nd);
        else if (nd && nd->state == PN_RESET) {
            nd->qmp_reset = 0;                   /* a reset the node asked for itself counts for nothing */
            ram_clear(nd);                       /* before the reset, which writes QEMU's own blobs (a
                                                    RISC-V board's device tree) as at its start */
        }
    }
    reset_send(p, reset);
    reset_wait(p, 1, deadline);
    for (int i = 0; i < p->n; i++) {
        struct nic_mem *m = p->node[i] && p->node[i]->state == PN_RESET ? &p->node[i]->mem : NULL;
        if (m && madvise(m->map, m->size, MADV_REMOVE))     /* the pages go: zeros on both sides */
            memset(m->map, 0, m->size);
    }
    reset_send(p, resume);
    reset_wait(p, 0, deadline);
    for (int i = 0; i < p->n; i++)
        if (p->node[i] && p->node[i]->state == PN_RESET)
            p->node[i]->state = PN_IDLE;
}

void pool_after_run(struct pool *p, int run_nodes)
{
    reset_nodes(p);
    int keep = run_nodes > POOL_IDLE_MIN ? run_nodes : POOL_IDLE_MIN;
    int extra = pool_idle(p) - keep;
    if (extra > 0)
        trim(p, extra);
}

void pool_on_console(struct pool *p, struct pool_node *nd)
{
    drain(p, nd);
}

unsigned long long pool_give_back(struct pool *p, struct pool_node *nd, int ok)
{
    drain(p, nd);
    unsigned long long dropped = nd->dropped;
    if (nd->log >= 0) {
        if (dropped)
            dprintf(nd->log, "\n[wormsim: this log keeps the node's first %llu console bytes (--log-max); "
                    "%llu more were left out]\n", nd->log_max, dropped);
        close(nd->log);
        nd->log = -1;
    }
    nd->dropped = 0;
    nd->run = NULL;
    nd->rank = -1;
    if (ok && nd->reusable && nd->pid > 0 && nd->state == PN_BUSY) {
        nd->state = PN_RESET;
        return dropped;
    }
    node_free(p, nd);
    return dropped;
}

/* The node's status page (netdev/nic_shm.h), which the node writes. */
static const volatile struct nic_status *status_of(const struct pool_node *nd)
{
    return (const volatile struct nic_status *)(nd->mem.map + NIC_STATUS_OFF);
}

int pool_node_booted(const struct pool_node *nd)
{
    return nd->conn >= 0 && status_of(nd)->hello != 0;
}

void pool_on_idle_bell(struct pool *p, struct pool_node *nd)
{
    if (status_of(nd)->state == NIC_STATE_FAULT)
        node_free(p, nd);
}

void pool_on_accept(struct pool *p)
{
    for (;;) {
        int c = accept4(p->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0)
            return;
        struct ucred cr;
        socklen_t l = sizeof cr;
        struct pool_node *nd = NULL;
        if (!getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &l))
            for (int i = 0; i < p->n && !nd; i++)
                if (p->node[i] && p->node[i]->pid == cr.pid && p->node[i]->conn < 0)
                    nd = p->node[i];
        if (!nd) {
            close(c);                 /* not one of ours */
            continue;
        }
        nd->conn = c;
        /* A node that gets no NIC fails its own boot (kernel/pci.c) and
         * its run says so; the memfd is QEMU's now, the mapping stays. */
        if (ivshmem_handshake(c, nd->id + 1, &nd->mem))
            fprintf(stderr, "wormsim: NIC handshake with a node's QEMU failed: %s\n", strerror(errno));
        close(nd->mem.memfd);
        nd->mem.memfd = -1;
    }
}

struct pool_node *pool_on_child(struct pool *p, pid_t pid)
{
    for (int i = 0; i < p->n; i++) {
        struct pool_node *nd = p->node[i];
        if (!nd || nd->pid != pid)
            continue;
        nd->pid = -1;
        drain(p, nd);
        if (!nd->run) {               /* idle, or between runs */
            node_free(p, nd);
            return NULL;
        }
        return nd;
    }
    return NULL;
}

int pool_idle(const struct pool *p)
{
    int k = 0;
    for (int i = 0; i < p->n; i++)
        k += p->node[i] && p->node[i]->state == PN_IDLE;
    return k;
}

/* The bytes of a shared mapping that are in memory (written to). */
static unsigned long long resident(void *map, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = (size + (size_t)page - 1) / (size_t)page;
    unsigned char *vec = malloc(pages);
    unsigned long long k = 0;
    if (vec && map && map != MAP_FAILED && mincore(map, size, vec) == 0)
        for (size_t i = 0; i < pages; i++)
            k += vec[i] & 1;
    free(vec);
    return k * (unsigned long long)page;
}

/* Pages of process pid that the kernel's samepage merging shares with
 * others (a merged node, --merge-pages): ending it frees none of them.
 * 0 if unknown. */
static unsigned long long merged_bytes(pid_t pid)
{
    char path[64];
    unsigned long long pages = 0;
    snprintf(path, sizeof path, "/proc/%d/ksm_merging_pages", (int)pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

unsigned long long pool_idle_bytes(const struct pool *p)
{
    unsigned long long bytes = 0;
    for (int i = 0; i < p->n; i++) {
        const struct pool_node *nd = p->node[i];
        if (!nd || nd->state != PN_IDLE || nd->pid <= 0)
            continue;
        static const char *const keys[] = { "RssAnon", "VmPTE", NULL };
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/status", (int)nd->pid);
        unsigned long long own = file_proc_kb(path, keys), merged = merged_bytes(nd->pid);
        bytes += (own > merged ? own - merged : 0) + resident(nd->mem.map, nd->mem.size) +
                 resident(nd->ram, nd->ram_bytes);
    }
    return bytes;
}

void pool_free(struct pool *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->node[i] && p->node[i]->pid > 0)
            kill(p->node[i]->pid, SIGKILL);
    for (int i = 0; i < p->n; i++)
        if (p->node[i])
            node_free(p, p->node[i]);
    free(p->node);
    if (p->listen_fd > 0)
        close(p->listen_fd);
    memset(p, 0, sizeof *p);
}
