#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/eventfd.h>
#include "ivshmem.h"
#include "../../netdev/nic_shm.h"

int nic_mem_create(struct nic_mem *nm, int rank, size_t size)
{
    char name[32];
    snprintf(name, sizeof name, "wormsim-nic-%d", rank);
    nm->map = MAP_FAILED;
    nm->bell_fd = nm->irq_fd = -1;
    nm->size = size;
    nm->memfd = memfd_create(name, MFD_CLOEXEC);
    if (nm->memfd < 0 || ftruncate(nm->memfd, (off_t)size) < 0)
        return -1;
    nm->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, nm->memfd, 0);
    if (nm->map == MAP_FAILED)
        return -1;
    nm->bell_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    nm->irq_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return nm->bell_fd < 0 || nm->irq_fd < 0 ? -1 : 0;
}

uint64_t nic_mem_rings(const struct nic_mem *nm)
{
    uint64_t v;
    return read(nm->bell_fd, &v, sizeof v) == (ssize_t)sizeof v ? v : 0;
}

void nic_mem_destroy(struct nic_mem *nm)
{
    if (nm->map && nm->map != MAP_FAILED)
        munmap(nm->map, nm->size);
    if (nm->memfd >= 0) close(nm->memfd);
    if (nm->bell_fd >= 0) close(nm->bell_fd);
    if (nm->irq_fd >= 0) close(nm->irq_fd);
    nm->map = NULL;
    nm->memfd = nm->bell_fd = nm->irq_fd = -1;
}

/* One protocol message: a little-endian int64, optionally with an fd. */
static int send_msg(int sock, int64_t v, int fd)
{
    struct iovec iov = { .iov_base = &v, .iov_len = sizeof v };
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        memset(&u, 0, sizeof u);
        mh.msg_control = u.buf;
        mh.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof v ? 0 : -1;
}

int ivshmem_handshake(int conn, int peer_id, const struct nic_mem *nm)
{
    if (send_msg(conn, 0, -1) ||                      /* protocol version */
        send_msg(conn, peer_id, -1) ||                /* the client's id */
        send_msg(conn, -1, nm->memfd) ||              /* shared memory */
        send_msg(conn, NIC_HOST_PEER, nm->bell_fd) || /* peer 0 = router, vector 0 */
        send_msg(conn, peer_id, nm->irq_fd))          /* own vector 0 */
        return -1;
    return 0;
}

int ivshmem_listen(const char *abstract_name)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    size_t n = strlen(abstract_name);
    if (n + 1 > sizeof a.sun_path)
        return -1;
    memcpy(a.sun_path + 1, abstract_name, n);     /* sun_path[0] = 0: abstract */
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0)
        return -1;
    if (bind(s, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) ||
        listen(s, 1024)) {
        close(s);
        return -1;
    }
    return s;
}
