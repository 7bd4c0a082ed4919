#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/stat.h>
#include "params.h"
#include "show.h"
#include "files.h"
#include "net/net_model.h"
#include "../apps/number.h"

enum kind { K_U32, K_NAMED, K_PORT_MODEL };
/* K_PORT_MODEL's words, indexed by enum topo_port. */
static const char *const port_model_names[] = { [TOPO_ONE_PORT] = "one-port", [TOPO_ALL_PORT] = "all-port", NULL };
/* K_NAMED fields are enums, stored as an int */
_Static_assert(sizeof(enum switching) == sizeof(int) && sizeof(enum alloc) == sizeof(int) &&
               sizeof(enum tie) == sizeof(int) && sizeof(enum routing) == sizeof(int) &&
               sizeof(enum selection) == sizeof(int), "named keys are ints");

/* A figure the key docs below quote from the node side's constants. */
_Static_assert(NIC_MSG_HELD_BYTES == 256, "held_max's doc: payload + 256 a message (netdev/nic_shm.h)");

static const struct key {
    const char *name;
    enum kind kind;
    size_t off;
    uint32_t lo, hi;
    const char *doc;
    const char *const *names;       /* K_NAMED, K_PORT_MODEL: the accepted words, NULL-ended; the value is the index */
} keys[] = {
#define P(f) offsetof(struct params, f)
    { "t_send_ns", K_U32, P(t_send_ns), 0, 1000000000, "software start-up of a send, ns (alpha's sending part)", NULL },
    { "t_recv_ns", K_U32, P(t_recv_ns), 0, 1000000000, "software start-up of a receive, ns", NULL },
    { "cpu_ps", K_U32, P(ps_per_instr), 1, 1000000000, "node CPU time per instruction executed, ps", NULL },
    { "msg_max", K_U32, P(msg_max), 1, 64u << 20, "largest message, bytes", NULL },
    { "nic_mem", K_U32, P(nic_mem), 65536, 256u << 20, "NIC memory per node, bytes (a power of two)", NULL },
    { "ram_mib", K_U32, P(ram_mib), NODE_RAM_MIN_MIB, NODE_RAM_MAX_MIB, "node RAM, MiB: an MPI program's heap is "
      "what its image leaves of it (docs/mpi.md); the project's apps keep their 30 MiB heap", NULL },
    { "eager_max", K_U32, P(eager_max), 0, 64u << 20, "the longest message sent eagerly, bytes; a longer one "
      "(SEND, not MSEND) waits in its sender's NIC until its receiver posts a matching receive (rendezvous: "
      "a request-to-send worm, a clear-to-send worm back, then the data); 0: every message is sent eagerly", NULL },
    { "held_max", K_U32, P(held_max), 65536, 1u << 30, "bytes the router holds for one node (payload + 256 "
      "a message): its unreceived arrivals, and apart from them its NIC queue; past it the run ends", NULL },
    { "flit_bytes", K_U32, P(net.flit_bytes), 1, 4096, "bytes per flit", NULL },
    { "byte_ps", K_U32, P(net.byte_ps), 1, 100000000, "link time per byte, ps; one cycle = flit_bytes x byte_ps", NULL },
    { "hop_cycles", K_U32, P(net.hop_cycles), 1, 1000, "router + link delay of a head per hop, cycles", NULL },
    { "vcs", K_U32, P(net.vcs), 1, 16, "virtual channels per link (a torus needs 2: dateline classes)", NULL },
    { "buf_flits", K_U32, P(net.buf_flits), 1, 1u << 20, "VC buffer depth, flits", NULL },
    { "header_flits", K_U32, P(net.header_flits), 0, 64, "flits added to every message", NULL },
    { "nic_cycles", K_U32, P(net.nic_cycles), 1, 1000, "cycles per flit on a NIC injection/ejection channel", NULL },
    { "nic_vcs", K_U32, P(net.nic_vcs), 1, 16, "virtual channels of each NIC injection and ejection channel "
      "(1: a node sends and takes one worm at a time a channel; up to vcs: worms interleave there as on a link)", NULL },
    { "credit_delay", K_U32, P(net.credit_delay), 0, 1000, "cycles a credit takes to return upstream beyond the "
      "next one (0: a freed slot can be used the cycle after its flit left; a router's credit loop is then "
      "hop_cycles + 1 + credit_delay cycles)", NULL },
    { "ports", K_U32, P(net.ports), 0, 64, "NIC channels (k-port); 0 = as the port model says", NULL },
    { "unidirectional", K_U32, P(net.unidirectional), 0, 1, "1: a torus has links in the + direction only", NULL },
    { "switching", K_NAMED, P(net.switching), 0, 0, "wormhole, cut-through or store-and-forward", switching_names },
    { "alloc", K_NAMED, P(net.alloc), 0, 0, "router arbitration: the VC and switch allocators (docs/network.md \"Arbitration\"; "
      "--list-params lists each)", alloc_names },
    { "tie", K_NAMED, P(net.tie), 0, 0, "torus: the direction of a worm whose offset is exactly half its ring: plus "
      "(always +) or source-parity (+ from an even coordinate, - from an odd one)", tie_names },
    { "routing", K_NAMED, P(net.routing), 0, 0, "unicast routing function (docs/network.md \"Routing\"; "
      "--list-params lists each with its machines)", routing_names },
    { "selection", K_NAMED, P(net.selection), 0, 0, "adaptive routing: which permitted output a head takes: "
      "first (in the routing's order), least_used (most credits) or random", selection_names },
    { "route_seed", K_U32, P(net.route_seed), 0, 0xffffffffu, "seed of valiant's intermediate nodes and "
      "selection=random", NULL },
    { "port_model", K_PORT_MODEL, 0, 0, 0, "one-port or all-port", port_model_names },
    { "barrier_stage_ns", K_U32, P(barrier_stage_ns), 0, 1000000000, "barrier circuits: delay of one stage of "
      "the AND tree and of the fan-out back, ns (a barrier fires 2 ceil(lg N) stages after the last bit is set)", NULL },
    { "ctrl_stage_ns", K_U32, P(ctrl_stage_ns), 0, 1000000000, "control network: delay of one stage of its "
      "binary tree, up (combining) and down, ns (an operation takes 2 ceil(lg N) stages after the last node's)", NULL },
    { "fi_ns", K_U32, P(fi_ns), 0, 1000000000, "fetch-and-increment: the owning NIC's time from the request's "
      "arrival to the reply's injection, ns", NULL },
#undef P
};
#define NKEYS (sizeof keys / sizeof keys[0])

void params_defaults(struct params *p, enum topo_port *pm)
{
    memset(p, 0, sizeof *p);
    p->t_send_ns = 500;
    p->t_recv_ns = 500;
    p->ps_per_instr = 1000;
    p->msg_max = 262144;
    p->nic_mem = 1u << 20;
    p->held_max = 64u << 20;
    p->ram_mib = NODE_RAM_MIN_MIB;
    p->net = (struct net_params){ .flit_bytes = 8, .byte_ps = 1000, .hop_cycles = 1, .vcs = 2,
                                  .buf_flits = 4, .header_flits = 0, .ports = 0, .nic_cycles = 1,
                                  .nic_vcs = 1,
                                  .switching = SW_WORMHOLE, .alloc = ALLOC_ROUND_ROBIN, .tie = TIE_PLUS,
                                  .routing = ROUTING_DETERMINISTIC, .selection = SEL_FIRST, .route_seed = 1 };
    p->barrier_stage_ns = 8;
    p->ctrl_stage_ns = 8;
    p->fi_ns = 8;
    *pm = TOPO_ONE_PORT;
}


static void list_keys(char *err, size_t errlen)
{
    size_t o = strlen(err);
    o += (size_t)snprintf(err + o, errlen - o, "; accepted keys: ");
    if (o < errlen) {
        const char *names[NKEYS];
        for (size_t i = 0; i < NKEYS; i++)
            names[i] = keys[i].name;
        show_names(err + o, errlen - o, names, (int)NKEYS, " ");
    }
}

int params_number(const char *s, uint64_t *out)
{
    long long v;
    int rc = number_parse(s, 0, 0x7fffffffffffffffull, &v);
    if (rc)
        return rc;
    *out = (uint64_t)v;
    return 0;
}

int params_set(struct params *p, enum topo_port *pm, const char *key, const char *value,
               char *err, size_t errlen)
{
    char q[SHOW_LEN];
    for (size_t i = 0; i < NKEYS; i++) {
        const struct key *k = &keys[i];
        if (strcmp(k->name, key))
            continue;
        if (k->names) {
            for (int v = 0; k->names[v]; v++)
                if (!strcmp(value, k->names[v])) {
                    if (k->kind == K_PORT_MODEL)
                        *pm = (enum topo_port)v;
                    else
                        memcpy((char *)p + k->off, &v, sizeof v);
                    return 0;
                }
            size_t o = (size_t)snprintf(err, errlen, "%s %s is unknown; accepted: ", key, show(q, value, 1));
            if (o < errlen)
                o += show_names(err + o, errlen - o, k->names, -1, ", ");
            if (k->kind == K_PORT_MODEL && o < errlen)
                snprintf(err + o, errlen - o, " (a k-port node: ports = k)");
            return -1;
        }
        uint64_t v;
        int rc = params_number(value, &v);
        if (rc || v < k->lo || v > k->hi) {
            snprintf(err, errlen, "%s %s is not a whole number from %u to %u%s (%s)",
                     key, show(q, value, 1), k->lo, k->hi, rc == NUMBER_OCTAL ? NUMBER_FORM : "", k->doc);
            return -1;
        }
        *(uint32_t *)((char *)p + k->off) = (uint32_t)v;
        return 0;
    }
    snprintf(err, errlen, "unknown parameter %s", show(q, key, 1));
    list_keys(err, errlen);
    return -1;
}

void params_accepted(const char *key, char *buf, size_t len, const char *sep)
{
    buf[0] = 0;
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].name, key) && keys[i].names)
            show_names(buf, len, keys[i].names, -1, sep);
}

void params_default(const char *key, char *buf, size_t len)
{
    struct params d;
    enum topo_port pm;
    int numeric;
    params_defaults(&d, &pm);
    buf[0] = 0;
    for (int i = 0; i < (int)NKEYS; i++)
        if (!strcmp(keys[i].name, key))
            params_value(&d, pm, i, buf, len, &numeric);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

/* A parameter file is a regular file of at most this many MiB. */
#define PARAMS_FILE_MAX_MIB 1
#define PARAMS_FILE_MAX (PARAMS_FILE_MAX_MIB << 20)
#define PRESET_EXAMPLES "default, delta, t3d"      /* files of presets/ */
#define PRESET_ACCEPTED "; accepted: a name in presets/ (for example " PRESET_EXAMPLES ") " \
                        "or the path of a regular file of at most %d MiB"

/* The file at path, opened once and checked on the opened descriptor. */
static FILE *open_params(const char *path, char *err, size_t errlen)
{
    char q[SHOW_LEN];
    int fd = -1;
    long long size = 0;
    switch (file_check_open(path, PARAMS_FILE_MAX, &fd, &size)) {
    case FILE_OK: {
        FILE *f = fdopen(fd, "r");
        if (f)
            return f;
        const char *why = strerror(errno);
        close(fd);
        snprintf(err, errlen, "cannot read parameter file %s: %s", show(q, path, 0), why);
        break;
    }
    case FILE_UNREADABLE:
        snprintf(err, errlen, "cannot read parameter file %s: %s (presets are named by the files "
                 "in presets/, for example " PRESET_EXAMPLES ")", show(q, path, 0), strerror(errno));
        break;
    case FILE_DIRECTORY:
        snprintf(err, errlen, "preset %s is a directory" PRESET_ACCEPTED, show(q, path, 1), PARAMS_FILE_MAX_MIB);
        break;
    case FILE_NOT_REGULAR:
        snprintf(err, errlen, "preset %s is not a regular file" PRESET_ACCEPTED, show(q, path, 1),
                 PARAMS_FILE_MAX_MIB);
        break;
    case FILE_TOO_BIG:
        snprintf(err, errlen, "preset %s is %lld bytes, more than the %d MiB a parameter file may have",
                 show(q, path, 1), size, PARAMS_FILE_MAX_MIB);
        break;
    }
    return NULL;
}

int params_load(struct params *p, enum topo_port *pm, const char *name, char *err, size_t errlen)
{
    char *path = malloc(strlen(name) + sizeof "presets/.conf");
    if (!path) {
        snprintf(err, errlen, "out of memory reading a preset");
        return -1;
    }
    size_t len = strlen(name);
    struct stat st;
    if (strchr(name, '/'))
        strcpy(path, name);
    else {
        if (len > 5 && !strcmp(name + len - 5, ".conf"))
            sprintf(path, "presets/%s", name);       /* delta.conf names presets/delta.conf too */
        else
            sprintf(path, "presets/%s.conf", name);
        if (stat(path, &st) && !stat(name, &st))
            strcpy(path, name);                      /* no such preset: a file here, e.g. a run's params.conf */
        else if (stat(path, &st)) {                  /* run from outside the tree: the tool's own presets */
            char tree[4096];
            const char *t = file_in_tree(path, tree, sizeof tree);
            char *p2 = t != path ? strdup(t) : NULL;
            if (p2) {
                free(path);
                path = p2;
            }
        }
    }
    FILE *f = open_params(path, err, errlen);
    if (!f) {
        free(path);
        return -1;
    }
    char fp[SHOW_LEN], q[SHOW_LEN], *line = NULL;
    const char *file = show(fp, path, 0);
    size_t cap = 0, total = 0;
    ssize_t n;
    int ln = 0, rc = 0, line_of[NKEYS] = { 0 };      /* the line that gave each key, 0 none yet */
    while (!rc && (n = getline(&line, &cap, f)) != -1) {
        ln++;
        total += (size_t)n;
        if (total > PARAMS_FILE_MAX) {
            snprintf(err, errlen, "preset %s is more than the %d MiB a parameter file may have",
                     show(q, path, 1), PARAMS_FILE_MAX_MIB);
            rc = -1;
            break;
        }
        if (memchr(line, 0, (size_t)n)) {
            snprintf(err, errlen, "%s:%d: holds a NUL byte; a parameter file is text", file, ln);
            rc = -1;
            break;
        }
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *s = trim(line);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got %s", file, ln, show(q, s, 1));
            rc = -1;
            break;
        }
        *eq = 0;
        size_t o = (size_t)snprintf(err, errlen, "%s:%d: ", file, ln);
        if (o >= errlen)
            o = errlen ? errlen - 1 : 0;
        const char *key = trim(s);
        if (params_set(p, pm, key, trim(eq + 1), err + o, errlen - o)) {
            rc = -1;
            break;
        }
        size_t i = 0;
        while (strcmp(keys[i].name, key))   /* (params_set found it) */
            i++;
        if (line_of[i]) {
            snprintf(err, errlen, "%s:%d: %s is given twice (line %d too); give it once", file, ln, key, line_of[i]);
            rc = -1;
        }
        line_of[i] = ln;
    }
    if (!rc && ferror(f)) {
        snprintf(err, errlen, "cannot read parameter file %s: %s", file, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    free(path);
    return rc;
}

int params_set_list(struct params *p, enum topo_port *pm, const char *list, char *err, size_t errlen)
{
    char q[SHOW_LEN], *buf = strdup(list);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading --set");
        return -1;
    }
    int rc = 0;
    for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w && !rc; w = strtok_r(NULL, " \t,", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) {
            snprintf(err, errlen, "--set %s is not key=value", show(q, w, 1));
            rc = -1;
            break;
        }
        *eq = 0;
        rc = params_set(p, pm, w, eq + 1, err, errlen);
    }
    free(buf);
    return rc;
}

int params_count(void) { return (int)NKEYS; }
const char *params_key(int i) { return keys[i].name; }

int params_is_network(int i)
{
    size_t net = offsetof(struct params, net);
    return keys[i].kind == K_PORT_MODEL || (keys[i].off >= net && keys[i].off < net + sizeof(struct net_params));
}

const char *params_off_network_change(const struct params *a, const struct params *b)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!params_is_network((int)i) &&
            memcmp((const char *)a + keys[i].off, (const char *)b + keys[i].off, sizeof(uint32_t)))
            return keys[i].name;
    return NULL;
}

void params_value(const struct params *p, enum topo_port pm, int i, char *buf, size_t len, int *numeric)
{
    const struct key *k = &keys[i];
    *numeric = k->kind == K_U32;
    int v;
    if (k->kind == K_NAMED) {
        memcpy(&v, (const char *)p + k->off, sizeof v);
        snprintf(buf, len, "%s", k->names[v]);
    } else if (k->kind == K_PORT_MODEL)
        snprintf(buf, len, "%s", k->names[pm]);
    else
        snprintf(buf, len, "%u", *(const uint32_t *)((const char *)p + k->off));
}

/* One line a key, "key = value  # meaning", with the '=' and the '#' of
 * every line in one column: the keys padded to the longest. */
void params_write(FILE *f, const struct params *p, enum topo_port pm)
{
    char v[64];
    int num, w = 0;
    for (int i = 0; i < (int)NKEYS; i++)
        if ((int)strlen(keys[i].name) > w)
            w = (int)strlen(keys[i].name);
    for (int i = 0; i < (int)NKEYS; i++) {
        params_value(p, pm, i, v, sizeof v, &num);
        fprintf(f, "%-*s = %-18s # %s\n", w, keys[i].name, v, keys[i].doc);
    }
}

/* NIC memory holds two messages of msg_max (its tx and rx areas) and this
 * much beside them (its config, status and descriptor ring, with room to
 * spare: the router's layout, host/engine/engine_int.h layout_of). */
#define NIC_MEM_SPARE_KIB 16

void params_list(FILE *f)
{
    struct params d;
    enum topo_port pm;
    params_defaults(&d, &pm);
    fprintf(f, "%-17s %-38s %-13s %s\n", "key", "accepted", "default", "meaning");
    for (int i = 0; i < (int)NKEYS; i++) {
        const struct key *k = &keys[i];
        char acc[160] = "", def[64];
        int num;
        if (k->kind == K_U32)
            snprintf(acc, sizeof acc, "%u..%u", k->lo, k->hi);
        else
            show_names(acc, sizeof acc, k->names, -1, "|");
        params_value(&d, pm, i, def, sizeof def, &num);
        fprintf(f, "%-17s %-38s %-13s %s\n", k->name, acc, def, k->doc);
    }
    fprintf(f, "(across keys: nic_mem a power of two, 2 msg_max + %d KiB <= nic_mem, msg_max <= held_max; "
               "a torus needs vcs >= 2; unidirectional on a torus only)\n", NIC_MEM_SPARE_KIB);
    net_alloc_list(f);
    net_route_list(f);
}

int params_check(const struct params *p, char *err, size_t errlen)
{
    if (p->held_max < p->msg_max) {
        snprintf(err, errlen, "held_max %u is less than msg_max %u: one message must fit", p->held_max, p->msg_max);
        return -1;
    }
    if (p->nic_mem & (p->nic_mem - 1)) {
        snprintf(err, errlen, "nic_mem %u is not a power of two", p->nic_mem);
        return -1;
    }
    if ((uint64_t)p->msg_max * 2 + (NIC_MEM_SPARE_KIB << 10) > p->nic_mem) {
        snprintf(err, errlen, "msg_max %u needs nic_mem of at least twice that plus %d KiB (now %u)",
                 p->msg_max, NIC_MEM_SPARE_KIB, p->nic_mem);
        return -1;
    }
    return 0;
}

int params_check_net(const struct params *p, const struct topo_shape *m, const char *preset, int nsets,
                     char *err, size_t errlen)
{
    char why[512];
    struct net *probe = net_new(m, &p->net, why, sizeof why);
    if (probe) {
        net_free(probe);
        return 0;
    }
    snprintf(err, errlen, "%s (a %s with the %s%s%s%s)", why, topo_names[m->topo],
             preset ? "parameters of preset " : "built-in parameters", preset ? preset : "",
             nsets ? " and --set" : "", preset ? "; the preset's file says which machine it is made for" : "");
    return -1;
}
