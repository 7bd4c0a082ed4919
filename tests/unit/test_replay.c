/* A run's messages on the network alone (net/msg_replay.h): messages
 * handed to a network one by one as a closed loop makes them (each
 * source posts its next message when its last one's tail has left), as
 * the engine hands a run's, cross a fresh network with the same times
 * when replay_run hands them from the file; a changed time is named; a file that is not
 * a run's messages is refused with the line and the reason. */
#define _GNU_SOURCE
#include "net_fixture.h"
#include "net/msg_replay.h"

#define T_SEND 50                     /* ns from a post to the message's readiness */

/* REQUIRE for helpers that return a value: the test stops here, failed. */
#define MUST(cond) do { if (!(cond)) { check_fail(__FILE__, __LINE__, "%s", #cond); abort(); } } while (0)
#define PER_NODE 5

/* A closed loop on a 4x4 mesh: node s posts PER_NODE messages, the first
 * at 3 s ns, each next one 37 ns after the last one's tail left it, to
 * s ^ k (k = 1, 2, ...; pairwise exchange's partners). The messages.csv
 * of it, its columns in another order than a run's and with one more
 * (tag), its lines latest post first, goes to *csv. */
static size_t closed_loop(char **csv)
{
    struct net *n = small_net("mesh", "16", "4x4");
    struct net_msg msg[16 * PER_NODE];
    uint64_t post[16 * PER_NODE];
    int sent[16] = { 0 };
    size_t k = 0;
    for (int s = 0; s < 16; s++, k++) {
        msg[k] = (struct net_msg){ .src = s, .dst = s ^ 1, .len = 200 + 8 * (uint32_t)s, .seq = 0 };
        post[k] = 3 * (uint64_t)s;
        msg[k].t_ready_ns = post[k] + T_SEND;
        net_inject(n, &msg[k]);
        sent[s] = 1;
    }
    struct net_msg *arr, *left;
    while (net_busy(n)) {
        MUST(net_run(n, UINT64_MAX, &arr, &left) >= 0);
        for (; left; left = left->next_left) {
            int s = left->src;
            if (sent[s] == PER_NODE)
                continue;
            msg[k] = (struct net_msg){ .src = s, .dst = s ^ (sent[s] + 1), .len = 64 * (uint32_t)(sent[s] + 1),
                                       .seq = (uint64_t)sent[s] };
            post[k] = net_cycle_to_ns(n, net_now(n)) + 37;
            msg[k].t_ready_ns = post[k] + T_SEND;
            net_inject(n, &msg[k++]);
            sent[s]++;
        }
    }
    size_t len;
    FILE *f = open_memstream(csv, &len);
    fprintf(f, "t_arrive_ns,dst,tag,src,len,t_head_ns,t_post_ns,t_inject_ns\n");
    for (size_t j = 0; j < k; j++) {              /* latest first: the file's order is not the posts' */
        size_t i = k - 1 - j;
        fprintf(f, "%llu,%d,7,%d,%u,%llu,%llu,%llu\n", (unsigned long long)net_cycle_to_ns(n, msg[i].c_arrive),
                msg[i].dst, msg[i].src, msg[i].len, (unsigned long long)net_cycle_to_ns(n, msg[i].c_head),
                (unsigned long long)post[i], (unsigned long long)net_cycle_to_ns(n, msg[i].c_inject));
    }
    fclose(f);
    net_free(n);
    return k;
}

/* Replay text on a fresh network of the same machine: how many messages
 * kept their times, *first the first that did not. */
static size_t replay_text(const char *text, size_t *nmsg, size_t *first)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay r;
    char err[512];
    int bad = replay_read(f, "messages.csv", 16, T_SEND, &r, err, sizeof err);
    fclose(f);
    if (bad)
        check_fail(__FILE__, __LINE__, "replay_read: %s", err);
    struct net *n = small_net("mesh", "16", "4x4");
    if (replay_run(n, &r, err, sizeof err))
        check_fail(__FILE__, __LINE__, "replay_run: %s", err);
    size_t same = replay_matched(n, &r, first);
    *nmsg = r.n;
    replay_free(&r);
    net_free(n);
    return same;
}

TEST(a_closed_loop_replays_with_its_times)
{
    char *csv;
    size_t k = closed_loop(&csv), n, first;
    CHECK_EQ_INT((int)k, 16 * PER_NODE);
    CHECK_EQ_INT((int)replay_text(csv, &n, &first), 16 * PER_NODE);
    CHECK_EQ_INT((int)n, 16 * PER_NODE);
    CHECK_EQ_INT((int)first, 16 * PER_NODE);
    free(csv);
}

/* One recorded arrival a nanosecond later: that message, and only it
 * (the network does the same), is the first that differs. */
TEST(a_changed_time_is_the_first_named)
{
    char *csv;
    closed_loop(&csv);
    char *line = csv;
    for (int i = 0; i < 1 + 20; i++)                 /* the header, then 20 messages */
        line = strchr(line, '\n') + 1;
    size_t len = strcspn(line, ",");
    unsigned long long t = strtoull(line, NULL, 10) + 1;
    char *edited;
    REQUIRE(asprintf(&edited, "%.*s%llu%s", (int)(line - csv), csv, t, line + len) > 0);
    size_t n, first;
    CHECK_EQ_INT((int)replay_text(edited, &n, &first), 16 * PER_NODE - 1);
    CHECK_EQ_INT((int)first, 20);
    free(edited);
    free(csv);
}

/* replay_read on text: 0, or -1 with the reason in err. */
static int read_text(const char *text, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay r;
    int bad = replay_read(f, "m.csv", 16, T_SEND, &r, err, errlen);
    fclose(f);
    if (!bad)
        replay_free(&r);
    return bad;
}

#define HEAD "src,dst,len,t_post_ns,t_inject_ns,t_head_ns,t_arrive_ns\n"

TEST(what_is_not_a_run_s_messages_is_refused_with_the_reason)
{
    static const struct { const char *text, *says; } bad[] = {
        { "", "m.csv: empty" },
        { "src,dst,len,t_post_ns,t_inject_ns,t_arrive_ns\n1,2,8,0,1,2\n", "no column 't_head_ns'" },
        { HEAD "1,16,8,0,1,2,3\n", "m.csv line 2: dst 16 is not a node of this machine (0 to 15)" },
        { HEAD "1,2,8,0,1,2,3\n1,2,x,0,1,2,3\n", "m.csv line 3: len 'x' is not a whole number" },
        { HEAD "1,2,8,0,1,2\n", "m.csv line 2: 6 fields where the header has 7" },
        { HEAD "-1,2,8,0,1,2,3\n", "src '-1' is not a whole number" },
        { HEAD "3,3,8,0,1,2,3\n", "line 2: not a message of a run" },
        { HEAD "1,2,8,5,4,6,7\n", "line 2: not a message of a run" },
        { HEAD "1,2,4294967296,0,1,2,3\n", "line 2: not a message of a run" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        CHECK(read_text(bad[i].text, err, sizeof err) == -1);
        if (!strstr(err, bad[i].says))
            check_fail(__FILE__, __LINE__, "case %zu: '%s' does not say '%s'", i, err, bad[i].says);
    }
    char err[512];
    CHECK(read_text(HEAD "1,2,8,0,1,2,3\r\n0,15,0,4,60,70,80\n", err, sizeof err) == 0);
}
