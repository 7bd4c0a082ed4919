/* The link over Open MPI (host/relay/link.h). One tag, one communicator: the
 * messages from one rank to another arrive in the order sent. Sends are
 * non-blocking (MPI_Isend of a private copy), so two ranks that send each
 * other large payloads at once cannot deadlock; link_progress completes
 * them. Receives are polled (MPI_Iprobe): the event loops call link_recv
 * after each wait of theirs. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include "link.h"

#define LINK_TAG 7

struct pending {
    MPI_Request req;
    uint8_t *buf;
};

static int me, size = 1;
static char host[MPI_MAX_PROCESSOR_NAME];
static char *hosts;                    /* every rank's, MPI_MAX_PROCESSOR_NAME bytes each */
static struct pending *pend;
static size_t npend, pend_cap;

int link_init(int *argc, char ***argv)
{
    int provided, len = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    hosts = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
    if (!hosts) {
        fprintf(stderr, "wormsim: out of memory for %d host names\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
    return 1;
}

int link_rank(void) { return me; }
int link_size(void) { return size; }
const char *link_host(void) { return host; }
const char *link_host_of(int rank) { return rank >= 0 && rank < size ? hosts + (size_t)rank * MPI_MAX_PROCESSOR_NAME : "?"; }

int link_owner(int node, int nodes)
{
    if (size <= 1)
        return 0;
    return 1 + (int)((long long)node * (size - 1) / nodes);
}

int link_agree(int ok, int *root_ok)
{
    int all = 0, root = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Bcast(&root, 1, MPI_INT, 0, MPI_COMM_WORLD);
    *root_ok = root;
    return all;
}

void link_bcast(void *buf, size_t len)
{
    MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void link_allgather(const void *mine, void *all, size_t len)
{
    MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD);
}

int link_send(int to, uint32_t type, uint32_t node, int32_t value, const void *body, size_t len)
{
    struct link_hdr h = { type, node, value, (uint32_t)len };
    uint8_t *buf = malloc(sizeof h + len);
    if (!buf)
        return -1;
    memcpy(buf, &h, sizeof h);
    if (len)
        memcpy(buf + sizeof h, body, len);
    if (npend == pend_cap) {
        size_t cap = pend_cap ? 2 * pend_cap : 64;
        struct pending *p = realloc(pend, cap * sizeof *p);
        if (!p) {
            free(buf);
            return -1;
        }
        pend = p;
        pend_cap = cap;
    }
    MPI_Isend(buf, (int)(sizeof h + len), MPI_BYTE, to, LINK_TAG, MPI_COMM_WORLD, &pend[npend].req);
    pend[npend++].buf = buf;
    return 0;
}

int link_progress(void)
{
    size_t k = 0;
    for (size_t i = 0; i < npend; i++) {
        int done = 0;
        MPI_Test(&pend[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            free(pend[i].buf);
        else
            pend[k++] = pend[i];
    }
    npend = k;
    return npend > 0;
}

int link_recv(int *from, struct link_hdr *h, uint8_t **body)
{
    int flag = 0, count = 0;
    MPI_Status st;
    link_progress();
    MPI_Iprobe(MPI_ANY_SOURCE, LINK_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    uint8_t *buf = malloc(count > 0 ? (size_t)count : 1);
    if (!buf) {
        fprintf(stderr, "wormsim: out of memory for a message of %d bytes from rank %d\n", count, st.MPI_SOURCE);
        link_abort(1);
    }
    MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, LINK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if ((size_t)count < sizeof *h) {
        fprintf(stderr, "wormsim: a message of %d bytes from rank %d is shorter than its header\n",
                count, st.MPI_SOURCE);
        link_abort(1);
    }
    memcpy(h, buf, sizeof *h);
    if (h->len != (size_t)count - sizeof *h) {
        fprintf(stderr, "wormsim: a message from rank %d says %u bytes and has %zu\n", st.MPI_SOURCE, h->len,
                (size_t)count - sizeof *h);
        link_abort(1);
    }
    memmove(buf, buf + sizeof *h, h->len);
    *from = st.MPI_SOURCE;
    *body = buf;
    return 1;
}

void link_finalize(void)
{
    while (link_progress())
        ;
    MPI_Finalize();
}

void link_drop_shm_files(void)
{
    static const char *const prefix[] = { "/dev/shm/vader_segment.", "/dev/shm/sm_segment." };
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4352];
    while (f && fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = 0;
        for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
            if (!strncmp(path, prefix[i], strlen(prefix[i])) && !strstr(path, " (deleted)"))
                unlink(path);             /* (a file mapped twice: the second unlink fails, harmless) */
    }
    if (f)
        fclose(f);
}

void link_abort(int code)
{
    MPI_Abort(MPI_COMM_WORLD, code);
}
