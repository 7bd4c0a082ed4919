/* wormsim-mpi's ranks (host/relay/link.h): a node host's refusals held
 * until rank 0 has checked the run, every rank's agreement that its run
 * is rank 0's, and a node host's part of the run. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run.h"
#include "../relay/link.h"
#include "../relay/same_run.h"

/* Every rank of an MPI job reaches link_agree once (run_main's options
 * checked, or main's if run_main returned before). */
int run_agreed;

/* Under MPI, a node host's checks of the options and of its own host go
 * to a buffer (run_main's messages are the router's, and rank 0 prints
 * them), and are printed only if rank 0 found nothing wrong. Every rank
 * calls run_agree() once: from run_main when all is checked, or from main. */
static char *held_err;
static size_t held_len;
static FILE *held_stream, *real_stderr;

void hold_errors(void)
{
    if (link_rank() == 0)
        return;
    if (!freopen("/dev/null", "w", stdout))     /* --help and the like: rank 0 prints them */
        perror("wormsim");
    if (!(held_stream = open_memstream(&held_err, &held_len)))
        return;
    real_stderr = stderr;
    stderr = held_stream;
}

int run_agree(int ok)
{
    int root_ok;
    run_agreed = 1;
    int all = link_agree(ok, &root_ok);
    if (held_stream) {
        fclose(held_stream);
        stderr = real_stderr;
        held_stream = NULL;
        if (!ok && root_ok && held_len)
            fprintf(stderr, "wormsim: on host %s (rank %d):\n%s", link_host(), link_rank(), held_err);
        free(held_err);
    }
    return all;
}

/* This rank's run, summed up (relay/same_run.h): options, parameters,
 * and each wanted ISA's node image and QEMU template. */
static void same_note(const struct run *rn, int argc, char **argv, struct same_run *s)
{
    memset(s, 0, sizeof *s);
    same_words(s, SAME_OPTIONS, argv + 1, argc - 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        params_write(f, &rn->p, rn->m.all_port);
        fclose(f);
    }
    s->sum[SAME_PARAMS] = fnv1a(FNV_START, text ? text : "", len);
    free(text);
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (!rn->image[a])
            continue;
        const struct node_image *im = &rn->image[a]->im;
        uint64_t h = fnv1a(FNV_START, &im->entry, sizeof im->entry);
        for (int k = 0; k < im->nseg; k++) {
            h = fnv1a(h, &im->seg[k].off, sizeof im->seg[k].off);
            h = fnv1a(h, im->seg[k].bytes, im->seg[k].len);
        }
        s->sum[SAME_IMAGE_ARM + a] = h;
        same_words(s, SAME_TEMPLATE_ARM + a, rn->tpl[a].argv, rn->tpl[a].argc);
    }
}

/* Under MPI, after every rank accepted its options: 1 if every rank's
 * run is rank 0's; else each rank that differs says what, and 0 (on every
 * rank), before any node starts. */
int same_as_rank0(const struct run *rn, int argc, char **argv)
{
    struct same_run mine, root;
    same_note(rn, argc, argv, &mine);
    root = mine;
    link_bcast(&root, sizeof root);
    int d = same_first_diff(&mine, &root), root_ok;
    if (d == SAME_OPTIONS)
        fprintf(stderr, "wormsim: on host %s (rank %d): its options (%s) differ from rank 0's (%s); every rank "
                "takes the same: mpirun -np K wormsim-mpi OPTIONS\n", link_host(), link_rank(), mine.options,
                root.options);
    else if (d >= 0)
        fprintf(stderr, "wormsim: on host %s (rank %d): its %s differs from rank 0's on host %s; every host "
                "needs the same checkout and build at the same path\n", link_host(), link_rank(),
                same_item_name(d), link_host_of(0));
    return link_agree(d < 0, &root_ok);
}

/* A node host's part of the run (rank > 0 of wormsim-mpi, host/relay/link.h). */
int node_host_main(struct run *rn)
{
    struct host *h = rn->h;
    struct pool_spec specs[ARCH_COUNT];
    char err[512];
    int rc = 1, port = 0;
    for (int a = 0; a < ARCH_COUNT; a++)
        specs[a] = run_spec_of(rn, a);
    for (int a = 0; a < ARCH_COUNT; a++)
        if (memchr(rn->arch, a, (size_t)rn->m.nodes) && pool_spec_key(&specs[a], err, sizeof err)) {
            node_host_error("%s", err);
            goto out;
        }
    if (rn->gdb_node >= 0 && link_owner(rn->gdb_node, rn->m.nodes) == link_rank()) {
        if ((port = free_tcp_port()) <= 0) {
            node_host_error("no free TCP port for the gdbstub of node %d", rn->gdb_node);
            goto out;
        }
        link_send(0, LINK_GDB, (uint32_t)rn->gdb_node, port, NULL, 0);
    }
    struct node_host_job j = { &h->pool, h->epfd, h->sigfd, h->timerfd, EV_SIG, EV_TIMER, specs, rn->arch,
                               rn->m.nodes, rn->gdb_node, port, rn->dir,
                               rn->merge_pages ? node_host_pace : NULL, rn };
    run_timer(h, RUN_TICK_NS);
    rc = node_host_run(&j);
    run_timer(h, 0);
out:
    for (int a = 0; a < ARCH_COUNT; a++)
        pool_spec_free(&specs[a]);
    run_free_inputs(rn);
    return rc;
}
