/* The network as its users get it (net_model.h): the cycle model
 * (net.c) with the jump over periodic stretches attached through its
 * hooks (net_jump.c), and the checking reference of NET_JUMP_CHECK: the
 * bare cycle model, no hook attached, stepped every cycle in every router
 * with every shortcut off. */
#include "net_state.h"

struct net *net_new(const struct machine *m, const struct net_params *p, char *err, size_t errlen)
{
    struct net *n = net_core_new(m, p, err, errlen);
    if (n)
        n->hk = &net_jump_hooks;
    return n;
}

int net_set_jump(struct net *n, enum net_jump mode)
{
    net_hk_settle(n);
    if (mode == NET_JUMP_OFF)
        net_unpark_all(n, n->now);               /* counted every cycle again */
    n->jump_on = mode != NET_JUMP_OFF && !n->adaptive;    /* the jump assumes oblivious routes */
    if (mode != NET_JUMP_CHECK || n->ref)
        return 0;
    char err[256];
    n->ref = net_core_new(&n->m, &n->p, err, sizeof err);   /* the bare cycle model: no hooks */
    if (!n->ref)
        return -1;
    n->ref->jump_on = 0;
    n->ref->plain = 1;
    return 0;
}
