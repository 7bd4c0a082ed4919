/* wormsim without MPI: one host serves every node and nothing crosses a
 * link (host/relay/link.h). */
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include "link.h"

int link_init(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
int link_rank(void) { return 0; }
int link_size(void) { return 1; }
int link_owner(int node, int nodes) { (void)node; (void)nodes; return 0; }
const char *link_host(void) { return "localhost"; }
const char *link_host_of(int rank) { (void)rank; return "localhost"; }
int link_agree(int ok, int *root_ok) { *root_ok = ok; return ok; }
void link_bcast(void *buf, size_t len) { (void)buf; (void)len; }
void link_allgather(const void *mine, void *all, size_t len) { memcpy(all, mine, len); }
int link_send(int to, uint32_t type, uint32_t node, int32_t value, const void *body, size_t len)
{
    (void)to; (void)type; (void)node; (void)value; (void)body; (void)len;
    return -1;
}
int link_recv(int *from, struct link_hdr *h, uint8_t **body) { (void)from; (void)h; (void)body; return 0; }
int link_progress(void) { return 0; }
void link_finalize(void) {}
void link_drop_shm_files(void) {}
void link_abort(int code) { _exit(code); }
