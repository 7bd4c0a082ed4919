/* The network as its users get it (net_model.h): the cycle model
 * (net_core.c, run by net.c) with the run's router allocator (net_alloc.c, alloc=) and the
 * jump over periodic stretches attached through its hooks (net_jump.c),
 * and the checking reference of NET_JUMP_CHECK: the
 * bare cycle model, no hook attached, stepped every cycle in every router
 * with every shortcut off. */
#include <stdio.h>
#include "net_state.h"

/* The allocator alloc= names (params.c accepts only allocs.def's names). */
static const struct net_allocator *allocator(const struct net_params *p, char *err, size_t errlen)
{
    if ((unsigned)p->alloc < ALLOC_COUNT)
        return &net_allocators[p->alloc];
    snprintf(err, errlen, "no router allocator %d (accepted: 0 to %d, host/net/allocs.def)", (int)p->alloc,
             ALLOC_COUNT - 1);
    return NULL;
}

struct net *net_new(const struct topo_shape *m, const struct net_params *p, char *err, size_t errlen)
{
    const struct net_allocator *al = allocator(p, err, errlen);
    struct net *n = al ? net_core_new(m, p, al, err, errlen) : NULL;
    if (n)
        n->hk = &net_jump_hooks;
    return n;
}

int net_set_jump(struct net *n, enum net_jump mode)
{
    net_hk_settle(n);
    if (mode == NET_JUMP_OFF)
        net_unpark_all(n, n->now);               /* counted every cycle again */
    n->ac.jump_on = mode != NET_JUMP_OFF && !n->ac.no_accel;   /* the jump's assumptions (net_state.h) */
    if (mode != NET_JUMP_CHECK || n->ref)
        return 0;
    char err[256];
    n->ref = net_core_new(&n->m, &n->p, n->al, err, sizeof err);   /* the bare cycle model: no hooks */
    if (!n->ref)
        return -1;
    n->ref->ac.jump_on = 0;
    n->ref->ac.plain = 1;
    return 0;
}
