/* A run's messages on the network alone (out/msg_replay.h): messages
 * handed to a network one by one as a closed loop makes them (each
 * source posts its next message when its last one's tail has left), as
 * the engine hands a run's, cross a fresh network with the same times
 * when msg_replay_run hands them from the file; ties between one
 * source's messages go by its numbers, not by the file's order; a changed
 * time is named; what is not a run's messages is refused with the line
 * and the reason. */
#define _GNU_SOURCE
#include "net_fixture.h"
#include "out/msg_replay.h"
#include "engine/engine.h"

#define T_SEND 50                     /* ns from a post to the message's readiness */
#define PER_NODE 5
#define TOTAL (16 * PER_NODE)

/* REQUIRE for helpers that return a value: the test stops here, failed. */
#define MUST(cond) do { if (!(cond)) { check_fail(__FILE__, __LINE__, "%s", #cond); abort(); } } while (0)

struct sent { struct net_msg m; uint64_t post; };

/* Source s's message number k (k = 0..PER_NODE-1), posted at t, to s ^ (k + 1)
 * (pairwise exchange's partners); with TIES, every source's first two
 * go at once (an msend's copies: one post, several worms); with SELF,
 * every source's third goes to itself (a SEND to its own rank, which the
 * router takes through the node's NIC). */
enum { TIES = 1, SELF = 2 };
static void post(struct net *n, struct sent *x, int s, int k, uint64_t t, int ties)
{
    int d = (ties & TIES) && k == 1 ? s ^ 2 : (ties & SELF) && k == 2 ? s : s ^ (k + 1);
    x->m = (struct net_msg){ .src = s, .dst = d, .len = 64 * (uint32_t)(k + 1) + 8 * (uint32_t)s, .seq = (uint64_t)k,
                             .t_ready_ns = t + T_SEND };
    x->post = t;
    net_inject(n, &x->m);
}

/* A closed loop on a 4x4 mesh: node s posts its first message at 3 s ns
 * (with ties, its first two), each next one 37 ns after its last one's
 * tail left it. The messages.csv of it, its columns in another order than
 * a run's and with one more (tag), its lines latest post first, goes to
 * *csv. */
static void closed_loop(char **csv, int ties)
{
    struct net *n = small_net("mesh", "16", "4x4");
    struct sent x[TOTAL];
    int sent[16] = { 0 };
    size_t k = 0;
    for (int s = 0; s < 16; s++)
        for (int j = 0; j < (ties & TIES ? 2 : 1); j++)
            post(n, &x[k++], s, sent[s]++, 3 * (uint64_t)s, ties);
    struct net_msg *arr, *left;
    while (net_busy(n)) {
        MUST(net_run(n, UINT64_MAX, &arr, &left) >= 0);
        for (; left; left = left->next_left)
            if (sent[left->src] < PER_NODE) {
                post(n, &x[k++], left->src, sent[left->src], net_cycle_to_ns(n, net_now(n)) + 37, ties);
                sent[left->src]++;
            }
    }
    MUST(k == TOTAL);
    size_t len;
    FILE *f = open_memstream(csv, &len);
    fprintf(f, "t_arrive_ns,dst,tag,src,seq,len,t_head_ns,t_ready_ns,t_post_ns,t_inject_ns\n");
    for (size_t j = 0; j < k; j++) {
        const struct sent *e = &x[k - 1 - j];
        fprintf(f, "%llu,%d,7,%d,%llu,%u,%llu,%llu,%llu,%llu\n", (unsigned long long)net_cycle_to_ns(n, e->m.c_arrive),
                e->m.dst, e->m.src, (unsigned long long)e->m.seq, e->m.len,
                (unsigned long long)net_cycle_to_ns(n, e->m.c_head), (unsigned long long)e->m.t_ready_ns,
                (unsigned long long)e->post, (unsigned long long)net_cycle_to_ns(n, e->m.c_inject));
    }
    fclose(f);
    net_free(n);
}

/* Replay text on a fresh network of the same machine: how many messages
 * kept their times; *nmsg how many were read, *first the first that did
 * not keep them. */
static size_t replay_text(const char *text, size_t *nmsg, size_t *first)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct msg_replay r;
    char err[512];
    int bad = msg_replay_read(f, "messages.csv", 16, &r, err, sizeof err);
    fclose(f);
    if (bad)
        check_fail(__FILE__, __LINE__, "msg_replay_read: %s", err);
    MUST(!bad);
    struct net *n = small_net("mesh", "16", "4x4");
    if (msg_replay_run(n, &r, err, sizeof err))
        check_fail(__FILE__, __LINE__, "msg_replay_run: %s", err);
    size_t same = msg_replay_matched(n, &r, first);
    *nmsg = r.n;
    msg_replay_free(&r);
    net_free(n);
    return same;
}

/* The closed loop (with ties or not) replays whole: every message read,
 * every one at its recorded times. */
static void check_replays_whole(int ties)
{
    char *csv;
    closed_loop(&csv, ties);
    size_t n, first;
    CHECK_EQ_INT((int)replay_text(csv, &n, &first), TOTAL);
    CHECK_EQ_INT((int)n, TOTAL);
    CHECK_EQ_INT((int)first, TOTAL);
    free(csv);
}

TEST(a_closed_loop_replays_with_its_times) { check_replays_whole(0); }

/* Each source's first two messages posted at once: the file lists the
 * later-numbered first, and the replay still hands them in number order. */
TEST(one_source_s_ties_go_by_its_numbers) { check_replays_whole(TIES); }

/* messages.csv holds what a node sent itself (the router takes any
 * destination 0..N-1, its own rank too): such a run replays whole. Its
 * replay was refused ("src and dst are both 1"). */
TEST(a_message_a_node_sends_itself_replays) { check_replays_whole(SELF); }

/* One recorded arrival a nanosecond later: that message, and only it
 * (the network does the same), is the first that differs. */
TEST(a_changed_time_is_the_first_named)
{
    char *csv;
    closed_loop(&csv, 0);
    char *line = csv;
    for (int i = 0; i < 1 + 20; i++)                 /* the header, then 20 messages */
        line = strchr(line, '\n') + 1;
    size_t len = strcspn(line, ",");
    unsigned long long t = strtoull(line, NULL, 10) + 1;
    char *edited;
    MUST(asprintf(&edited, "%.*s%llu%s", (int)(line - csv), csv, t, line + len) > 0);
    size_t n, first;
    CHECK_EQ_INT((int)replay_text(edited, &n, &first), TOTAL - 1);
    CHECK_EQ_INT((int)first, 20);
    free(edited);
    free(csv);
}

#define HEAD "src,dst,len,seq,t_post_ns,t_ready_ns,t_inject_ns,t_head_ns,t_arrive_ns\n"
#define KHEAD "src,dst,len,seq,t_post_ns,t_ready_ns,t_inject_ns,t_head_ns,t_arrive_ns,kind\n"   /* with the kind column */

/* What a file parses to: the second line's message, read whole. */
TEST(a_line_is_read_whole)
{
    static const char text[] = HEAD "1,2,8,0,0,5,6,7,8\r\n15,0,0,4611686018427387905,9,9,60,70,80\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct msg_replay r;
    char err[512];
    REQUIRE(msg_replay_read(f, "m.csv", 16, &r, err, sizeof err) == 0);
    fclose(f);
    CHECK_EQ_INT((int)r.n, 2);
    const struct msg_replay_msg *m = &r.m[1];
    CHECK_EQ_INT(m->nm.src, 15);
    CHECK_EQ_INT(m->nm.dst, 0);
    CHECK_EQ_INT((int)m->nm.len, 0);
    CHECK(m->nm.seq == (NIC_SEQ_BASE | 1));
    CHECK_EQ_INT(m->nm.nic_made, 1);
    CHECK_EQ_INT(r.m[0].nm.nic_made, 0);
    CHECK(m->nm.t_ready_ns == 9 && m->t_post_ns == 9 && m->t_inject_ns == 60 && m->t_head_ns == 70);
    CHECK(m->t_arrive_ns == 80 && m->line == 3 && r.m[0].nm.t_ready_ns == 5);
    msg_replay_free(&r);
}

/* msg_replay_read on text: 0, or -1 with the reason in err. */
static int read_text(const char *text, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct msg_replay r;
    int bad = msg_replay_read(f, "m.csv", 16, &r, err, errlen);
    fclose(f);
    if (!bad)
        msg_replay_free(&r);
    return bad;
}

TEST(what_is_not_a_run_s_messages_is_refused_with_the_reason)
{
    static const struct { const char *text, *says; } bad[] = {
        { "", "m.csv: empty" },
        { "src,dst,len,seq,t_post_ns,t_ready_ns,t_inject_ns,t_arrive_ns\n1,2,8,0,0,1,2,3\n",
          "no column 't_head_ns' in its header; a replay needs src, dst, len, seq, t_post_ns, t_ready_ns" },
        { HEAD "1,16,8,0,0,1,2,3,4\n", "m.csv line 2: dst 16 is not a node of this machine (0 to 15)" },
        { HEAD "1,2,8,0,0,1,2,3,4\n1,2,x,1,0,1,2,3,4\n", "m.csv line 3: len 'x' is not a whole number of 0 or more" },
        { HEAD "1,2,8,0,0,1,2,3\n", "m.csv line 2: 8 fields where the header has 9" },
        { HEAD "-1,2,8,0,0,1,2,3,4\n", "src '-1' is not a whole number" },
        { HEAD "1,2,4294967296,0,0,1,2,3,4\n", "line 2: len 4294967296 is longer than any message" },
        { HEAD "1,2,8,0,5,4,6,7,8\n", "line 2: t_ready_ns 4 is before t_post_ns 5" },
        { HEAD "1,2,8,0,0,1,0,7,8\n", "line 2: t_inject_ns 0 is before t_ready_ns 1" },
        { HEAD "1,2,8,0,0,1,2,1,8\n", "line 2: t_head_ns 1 is before t_inject_ns 2" },
        { HEAD "1,2,8,0,0,1,2,3,2\n", "line 2: t_arrive_ns 2 is before t_head_ns 3" },
        { HEAD "1,2,8,0,0,1,2,3,2251799813685249\n", "line 2: t_arrive_ns 2251799813685249 is past any run's time" },
        { "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a1,b1,c1,d1,e1,f1,g1,h1,i1,j1,k1,l1,m1,n1,o1,p1,q1,"
          "r1,s1,t1,u1,v1,w1,x1,y1,z1,a2,b2,c2,d2,e2,f2,g2,h2,i2,j2,k2,l2,m2\n", "header has more than 64 columns" },
        { HEAD "1,2,\0338,0,0,1,2,3,4\n", "len '?8' is not a whole number" },
        { KHEAD "1,2,8,0,0,1,2,3,4,data\n1,3,8,1,0,1,2,3,4,mdw\n",
          "m.csv line 3: a copy of a multidestination worm (kind mdw): the replay sends unicast worms" },
        { KHEAD "1,2,8,0,0,1,2,3,4,fi\n", "line 2: kind 'fi' is not known; accepted: data, flood, mdw" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        CHECK(read_text(bad[i].text, err, sizeof err) == -1);
        if (!strstr(err, bad[i].says))
            check_fail(__FILE__, __LINE__, "case %zu: '%s' does not say '%s'", i, err, bad[i].says);
    }
    char err[512];
    CHECK(read_text(HEAD, err, sizeof err) == 0);     /* a run that sent nothing */
    CHECK(read_text(KHEAD "1,2,8,0,0,1,2,3,4,data\n15,0,0,4611686018427387905,9,9,60,70,80,flood\n", err,
                    sizeof err) == 0);                 /* the kinds that replay */
}
