#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "files.h"

static const char *const dir_name[2] = { "+", "-" };

/* Time split of one message (ns): the send start-up, waiting to enter the
 * network at the source, blocked inside it, and the uncontended transfer. */
struct split { uint64_t startup, queue, blocked, transfer; };

static struct split split_of(const struct engine *r, const struct msg_record *m)
{
    struct split s;
    uint64_t ready = m->t_ready;         /* t_post + t_send_ns for a node's send or its own
                                            flood worm; t_post for a flood relay, which
                                            the NIC makes with no start-up */
    /* the uncontended arrival, rounded to ns as a real arrival is (each
     * cycle to ns rounded down): a worm that met nothing shows no blocked
     * time, where rounding the length alone left up to 1 ns */
    uint64_t c_unc = m->c_inject + net_uncontended_cycles(r->net, m->hops, m->flits);
    uint64_t unc = net_cycle_to_ns(r->net, c_unc) - m->t_inject;
    s.startup = ready > m->t_post ? ready - m->t_post : 0;
    s.queue = m->t_inject > ready ? m->t_inject - ready : 0;
    uint64_t in_net = m->t_arrive - m->t_inject;
    s.transfer = unc < in_net ? unc : in_net;
    s.blocked = in_net - s.transfer;
    return s;
}

/* Per step: messages, and the largest number of that step's messages
 * whose dimension-ordered routes use one directed link. (A message's step
 * is its sender's last step mark, 0 before any.) A step mark is a label a
 * node wrote, any 32-bit value: the messages are sorted by it, so nothing
 * is sized or looped over by a mark's value, only by the message count.
 * Only the links a step used are cleared after it.
 *
 * And when the step's messages ran, from messages.csv's own figures: the
 * first post and the last arrival of its messages (steps can overlap:
 * nodes pass no barrier between them), the longest any of them spent in the
 * network (t_arrive - t_inject), and the largest and total blocked time
 * (the time-split's `blocked`, split_of). */
struct step_stat {
    uint32_t step;
    uint64_t messages;
    uint32_t max_share;
    uint64_t first_post, last_arrive, max_network, max_blocked, blocked;
};

/* Adds message m's times to step st (its first message if st->messages
 * counts it alone). */
static void step_add_times(const struct engine *r, struct step_stat *st, const struct msg_record *m, int first)
{
    struct split s = split_of(r, m);
    uint64_t in_net = m->t_arrive - m->t_inject;
    if (first || m->t_post < st->first_post)
        st->first_post = m->t_post;
    if (first || m->t_arrive > st->last_arrive)
        st->last_arrive = m->t_arrive;
    if (first || in_net > st->max_network)
        st->max_network = in_net;
    if (first || s.blocked > st->max_blocked)
        st->max_blocked = s.blocked;
    st->blocked += s.blocked;
}

/* A message's place in step order: by mark, then by its place in the log. */
struct by_step { uint32_t step; size_t i; };
static int by_step_cmp(const void *a, const void *b)
{
    const struct by_step *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The links message m crossed (net_taken: those its head took under an
 * adaptive routing, else its route). */
static int record_links(const struct engine *r, const struct msg_record *m, int *path, int max)
{
    struct net_msg x = { .src = m->src, .dst = m->dst, .route_at = m->route_at, .route_len = m->route_len };
    return net_taken(r->net, &x, path, max);
}

/* The links message order[k] of a step (order[first..end)) counts in its
 * link sharing: its route; for a copy of a multidestination worm, the
 * links the worm took (net_mc_links of every copy of it in the step, in
 * the order its source listed them: their seq), at its first copy in the
 * step only, so that one worm counts once on a link however many of its
 * copies pass it, and none for the other copies. */
static int step_links(const struct engine *r, const struct by_step *order, size_t first, size_t end, size_t k,
                      int *path, int max)
{
    const struct msg_record *m = &r->log[order[k].i];
    if (m->kind != REC_MDW)
        return record_links(r, m, path, max);
    for (size_t j = first; j < k; j++)
        if (r->log[order[j].i].kind == REC_MDW && r->log[order[j].i].worm == m->worm &&
            r->log[order[j].i].src == m->src)
            return 0;
    size_t nd = 0;
    for (size_t j = k; j < end; j++)
        nd += r->log[order[j].i].kind == REC_MDW && r->log[order[j].i].worm == m->worm &&
              r->log[order[j].i].src == m->src;
    const struct msg_record **cp = malloc(nd * sizeof *cp);
    int *dst = malloc(nd * sizeof *dst), n = 0;
    if (cp && dst) {
        size_t c = 0;
        for (size_t j = k; j < end; j++) {
            const struct msg_record *x = &r->log[order[j].i];
            if (x->kind == REC_MDW && x->worm == m->worm && x->src == m->src) {
                size_t at = c++;                     /* insertion by seq: the source's list order */
                for (; at > 0 && cp[at - 1]->seq > x->seq; at--)
                    cp[at] = cp[at - 1];
                cp[at] = x;
            }
        }
        for (size_t i = 0; i < nd; i++)
            dst[i] = cp[i]->dst;
        char err[160];
        n = net_mc_links(r->net, m->mdw_kind, m->src, dst, (int)nd, path, max, err, sizeof err);
    }
    free(cp);
    free(dst);
    return n < 0 ? 0 : n;
}

/* Returns the steps that have messages, in increasing order, or NULL
 * (with *nsteps 0) if there are none or memory ran out. */
static struct step_stat *step_stats(const struct engine *r, size_t *nsteps)
{
    *nsteps = 0;
    int nl;
    net_link_stats(r->net, &nl);
    struct by_step *order = malloc((r->nlog + 1) * sizeof *order);
    uint32_t *use = calloc(nl > 0 ? (size_t)nl : 1, sizeof *use);
    struct step_stat *st = NULL;
    if (order && use) {
        for (size_t i = 0; i < r->nlog; i++)
            order[i] = (struct by_step){ r->log[i].step, i };
        qsort(order, r->nlog, sizeof *order, by_step_cmp);
        size_t marks = 0;                  /* one entry per step, not per message */
        for (size_t i = 0; i < r->nlog; i++)
            marks += !i || order[i].step != order[i - 1].step;
        st = malloc((marks + 1) * sizeof *st);
    }
    if (!order || !st || !use) {
        free(order);
        free(st);
        free(use);
        return NULL;
    }
    int path[4096];
    for (size_t first = 0, end; first < r->nlog; first = end) {
        uint32_t s = order[first].step;
        for (end = first; end < r->nlog && order[end].step == s; end++)
            ;
        struct step_stat *cur = &st[(*nsteps)++];
        *cur = (struct step_stat){ .step = s, .messages = end - first };
        for (size_t k = first; k < end; k++) {
            const struct msg_record *m = &r->log[order[k].i];
            step_add_times(r, cur, m, k == first);
            int n = step_links(r, order, first, end, k, path, 4096);
            for (int j = 0; j < n; j++)
                if (++use[path[j]] > cur->max_share)
                    cur->max_share = use[path[j]];
        }
        for (size_t k = first; k < end; k++) {     /* clear what this step used */
            int n = step_links(r, order, first, end, k, path, 4096);
            for (int j = 0; j < n; j++)
                use[path[j]] = 0;
        }
    }
    free(use);
    free(order);
    return st;
}

/* A link's ends as JSON: node, dim and dir on a direct network (the link
 * leaves node in that dimension and direction), from, port and to on an
 * indirect one (router names, net_router_name). */
static json_t *link_json(const struct engine *r, int link)
{
    int from, port, to;
    net_link_ends(r->net, link, &from, &port, &to);
    if (!machine_indirect(&r->m))
        return json_pack("{s:i, s:i, s:s}", "node", from, "dim", port / 2, "dir", dir_name[port % 2]);
    char a[32], b[32];
    net_router_name(r->net, from, a, sizeof a);
    net_router_name(r->net, to, b, sizeof b);
    return json_pack("{s:s, s:i, s:s}", "from", a, "port", port, "to", b);
}

void report_links_csv(FILE *f, const struct net *n, const struct topo_shape *m)
{
    /* by header name: a direct network's links leave `node` in dimension
     * `dim`, direction `dir`; an indirect network's leave router `from`
     * by `port` (net_router_name) */
    int direct = !machine_indirect(m);
    fprintf(f, direct ? "node,dim,dir,to_node,flits,worms,busy_cycles,blocked_cycles\n"
                      : "from,port,to,flits,worms,busy_cycles,blocked_cycles\n");
    int nl;
    const struct link_stats *ls = net_link_stats(n, &nl);
    for (int i = 0; i < nl; i++) {
        int from, port, to;
        if (!net_link_ends(n, i, &from, &port, &to))
            continue;
        if (direct) {
            fprintf(f, "%d,%d,%s,%d,", from, port / 2, dir_name[port % 2], to);
        } else {
            char a[32], b[32];
            net_router_name(n, from, a, sizeof a);
            net_router_name(n, to, b, sizeof b);
            fprintf(f, "%s,%d,%s,", a, port, b);
        }
        fprintf(f, "%llu,%llu,%llu,%llu\n", (unsigned long long)ls[i].flits, (unsigned long long)ls[i].worms,
                (unsigned long long)ls[i].flits, (unsigned long long)ls[i].blocked);
    }
}

int report_write_csv(const struct engine *r, const struct report *rep, const char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/messages.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "src,dst,tag,len,hops,flits,step,t_post_ns,t_inject_ns,t_head_ns,t_arrive_ns,"
               "startup_ns,queue_ns,blocked_ns,transfer_ns,seq,t_ready_ns,kind\n");
    for (size_t i = 0; i < r->nlog; i++) {
        const struct msg_record *m = &r->log[i];
        struct split s = split_of(r, m);
        fprintf(f, "%d,%d,%u,%u,%d,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s\n", m->src, m->dst,
                m->tag, m->len, m->hops, m->flits, m->step, (unsigned long long)m->t_post,
                (unsigned long long)m->t_inject, (unsigned long long)m->t_head,
                (unsigned long long)m->t_arrive, (unsigned long long)s.startup,
                (unsigned long long)s.queue, (unsigned long long)s.blocked, (unsigned long long)s.transfer,
                (unsigned long long)m->seq, (unsigned long long)m->t_ready, rec_kind_names[m->kind]);
    }
    if (file_close_written(f))
        return -1;

    snprintf(path, sizeof path, "%s/links.csv", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    report_links_csv(f, r->net, &r->m);
    if (file_close_written(f))
        return -1;

    snprintf(path, sizeof path, "%s/steps.csv", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    static const char *const step_times[] = { "first_post_ns", "last_arrive_ns", "max_network_ns",
                                              "max_blocked_ns", "blocked_ns" };
    fprintf(f, "step,messages,max_link_sharing,contention_free");
    for (size_t k = 0; k < sizeof step_times / sizeof *step_times; k++)
        fprintf(f, ",%s", step_times[k]);
    fprintf(f, "\n");
    for (size_t i = 0; i < json_array_size(rep->steps); i++) {
        const json_t *e = json_array_get(rep->steps, i);
        fprintf(f, "%lld,%lld,%lld,%s", (long long)json_integer_value(json_object_get(e, "step")),
                (long long)json_integer_value(json_object_get(e, "messages")),
                (long long)json_integer_value(json_object_get(e, "max_link_sharing")),
                json_is_true(json_object_get(e, "contention_free")) ? "yes" : "no");
        for (size_t k = 0; k < sizeof step_times / sizeof *step_times; k++)
            fprintf(f, ",%lld", (long long)json_integer_value(json_object_get(e, step_times[k])));
        fprintf(f, "\n");
    }
    if (file_close_written(f))
        return -1;

    /* the figures the nodes reported (NIC_OP_RECORD), by node then key */
    snprintf(path, sizeof path, "%s/records.csv", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "node,key,value\n");
    for (int i = 0; i < r->n; i++)
        for (unsigned k = 0; k < NIC_REC_COUNT; k++)
            if (r->nodes[i].rec_set >> k & 1)
                fprintf(f, "%d,%s,%llu\n", i, engine_record_name(k), (unsigned long long)r->nodes[i].rec[k]);
    return file_close_written(f);
}

json_t *report_records_json(const struct engine *r)
{
    json_t *o = json_object();
    for (unsigned k = 0; k < NIC_REC_COUNT; k++) {
        int count = 0;
        uint64_t mx = 0, mn = 0;
        for (int i = 0; i < r->n; i++) {
            const struct node *n = &r->nodes[i];
            if (!(n->rec_set >> k & 1))
                continue;
            if (!count || n->rec[k] > mx)
                mx = n->rec[k];
            if (!count || n->rec[k] < mn)
                mn = n->rec[k];
            count++;
        }
        if (!count)
            continue;
        const struct node *n0 = &r->nodes[0];
        json_t *e = json_pack("{s:i, s:I, s:I}", "nodes", count, "max", (json_int_t)mx, "min", (json_int_t)mn);
        json_object_set_new(e, "node0", n0->rec_set >> k & 1 ? json_integer((json_int_t)n0->rec[k]) : json_null());
        json_object_set_new(o, engine_record_name(k), e);
    }
    return o;
}

static json_t *links_json(const struct engine *r)
{
    int nl, count = 0, carrying = 0, hot = -1, busiest = -1;
    const struct link_stats *ls = net_link_stats(r->net, &nl);
    uint64_t sum_f = 0, sum_b = 0;
    for (int i = 0; i < nl; i++) {
        int from, port, to;
        if (!net_link_ends(r->net, i, &from, &port, &to))
            continue;
        count++;
        carrying += ls[i].flits > 0;
        sum_f += ls[i].flits;
        sum_b += ls[i].blocked;
        if (hot < 0 || ls[i].blocked > ls[hot].blocked)
            hot = i;
        if (busiest < 0 || ls[i].flits > ls[busiest].flits)
            busiest = i;
    }
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer(count));          /* every link, used or not */
    json_object_set_new(o, "carrying", json_integer(carrying));    /* the links that carried a flit */
    if (count) {
        json_object_set_new(o, "mean_flits", json_real((double)sum_f / count));
        json_object_set_new(o, "max_flits", json_integer((json_int_t)ls[busiest].flits));
        json_object_set_new(o, "mean_blocked_cycles", json_real((double)sum_b / count));
        json_object_set_new(o, "max_blocked_cycles", json_integer((json_int_t)ls[hot].blocked));
        json_t *hot_j = link_json(r, hot), *busy_j = link_json(r, busiest);
        json_object_set_new(hot_j, "blocked_cycles", json_integer((json_int_t)ls[hot].blocked));
        json_object_set_new(hot_j, "flits", json_integer((json_int_t)ls[hot].flits));
        json_object_set_new(hot_j, "worms", json_integer((json_int_t)ls[hot].worms));
        json_object_set_new(o, "most_contended", hot_j);
        json_object_set_new(busy_j, "flits", json_integer((json_int_t)ls[busiest].flits));
        json_object_set_new(busy_j, "worms", json_integer((json_int_t)ls[busiest].worms));
        json_object_set_new(o, "busiest", busy_j);
    }
    json_object_set_new(o, "cycles_simulated", json_integer((json_int_t)net_cycles_simulated(r->net)));
    json_object_set_new(o, "flit_hops", json_integer((json_int_t)net_flit_hops(r->net)));
    return o;
}

static json_t *steps_json(const struct engine *r)
{
    size_t ns;
    struct step_stat *st = step_stats(r, &ns);
    json_t *a = json_array();
    for (size_t i = 0; i < ns; i++)
        json_array_append_new(a, json_pack("{s:I, s:I, s:i, s:b, s:I, s:I, s:I, s:I, s:I}",
            "step", (json_int_t)st[i].step, "messages", (json_int_t)st[i].messages,
            "max_link_sharing", (int)st[i].max_share, "contention_free", st[i].max_share <= 1,
            "first_post_ns", (json_int_t)st[i].first_post, "last_arrive_ns", (json_int_t)st[i].last_arrive,
            "max_network_ns", (json_int_t)st[i].max_network, "max_blocked_ns", (json_int_t)st[i].max_blocked,
            "blocked_ns", (json_int_t)st[i].blocked));
    free(st);
    return a;
}

static json_t *time_split_json(const struct engine *r)
{
    uint64_t t[4] = { 0, 0, 0, 0 };
    for (size_t i = 0; i < r->nlog; i++) {
        struct split s = split_of(r, &r->log[i]);
        t[0] += s.startup;
        t[1] += s.queue;
        t[2] += s.blocked;
        t[3] += s.transfer;
    }
    return json_pack("{s:I, s:I, s:I, s:I}", "startup_ns", (json_int_t)t[0], "queue_ns", (json_int_t)t[1],
                     "blocked_ns", (json_int_t)t[2], "transfer_ns", (json_int_t)t[3]);
}

void report_build(struct report *rep, const struct engine *r)
{
    rep->links = links_json(r);
    rep->steps = steps_json(r);
    rep->message_time = time_split_json(r);
}

void report_free(struct report *rep)
{
    json_decref(rep->links);
    json_decref(rep->steps);
    json_decref(rep->message_time);
}

void report_print(const struct report *rep, int has_messages, FILE *f)
{
    const json_t *l = rep->links, *mc = json_object_get(l, "most_contended");
    if (mc && json_integer_value(json_object_get(l, "max_flits")) > 0) {
        char where[96];
        if (json_object_get(mc, "from"))            /* an indirect network's link (link_json) */
            snprintf(where, sizeof where, "%s port %lld to %s", json_string_value(json_object_get(mc, "from")),
                     (long long)json_integer_value(json_object_get(mc, "port")),
                     json_string_value(json_object_get(mc, "to")));
        else
            snprintf(where, sizeof where, "node %lld dim %lld%s",
                     (long long)json_integer_value(json_object_get(mc, "node")),
                     (long long)json_integer_value(json_object_get(mc, "dim")),
                     json_string_value(json_object_get(mc, "dir")));
        long long blocked = (long long)json_integer_value(json_object_get(mc, "blocked_cycles"));
        fprintf(f, "  links           %lld of %lld carried flits; max %lld, mean %.1f over all; ",
                (long long)json_integer_value(json_object_get(l, "carrying")),
                (long long)json_integer_value(json_object_get(l, "count")),
                (long long)json_integer_value(json_object_get(l, "max_flits")),
                json_real_value(json_object_get(l, "mean_flits")));
        if (blocked > 0)
            fprintf(f, "most blocked: %s (%lld cycles)\n", where, blocked);
        else
            fprintf(f, "no worm was blocked\n");
    }
    const json_t *ts = rep->message_time;
    if (has_messages)
        fprintf(f, "  message time    start-up %lld, queueing %lld, blocked %lld, transfer %lld ns (sums)\n",
                (long long)json_integer_value(json_object_get(ts, "startup_ns")),
                (long long)json_integer_value(json_object_get(ts, "queue_ns")),
                (long long)json_integer_value(json_object_get(ts, "blocked_ns")),
                (long long)json_integer_value(json_object_get(ts, "transfer_ns")));
    /* step 0 holds the messages sent before the app's first mark */
    size_t n = json_array_size(rep->steps), marked = 0, free_ = 0;
    const json_t *slow = NULL;        /* the marked step whose message stayed longest in the network
                                         (not the step that lasted longest: steps can overlap) */
    for (size_t i = 0; i < n; i++) {
        const json_t *st = json_array_get(rep->steps, i);
        if (json_integer_value(json_object_get(st, "step")) == 0)
            continue;
        marked++;
        free_ += json_is_true(json_object_get(st, "contention_free"));
        if (!slow || json_integer_value(json_object_get(st, "max_network_ns")) >
                         json_integer_value(json_object_get(slow, "max_network_ns")))
            slow = st;
    }
    if (marked)
        fprintf(f, "  steps           %zu marked, %zu contention-free (steps.csv; step 0, before the first "
                "mark, left out)\n  longest message step %lld: %lld ns in the network (its step's messages: at most "
                "%lld ns blocked, %lld on one link)\n", marked, free_,
                (long long)json_integer_value(json_object_get(slow, "step")),
                (long long)json_integer_value(json_object_get(slow, "max_network_ns")),
                (long long)json_integer_value(json_object_get(slow, "max_blocked_ns")),
                (long long)json_integer_value(json_object_get(slow, "max_link_sharing")));
}
