#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stddef.h>
#include "params.h"

enum kind { K_U32, K_SWITCHING, K_PORT_MODEL };

static const struct key {
    const char *name;
    enum kind kind;
    size_t off;
    uint32_t lo, hi;
    const char *doc;
} keys[] = {
#define P(f) offsetof(struct params, f)
    { "t_send_ns", K_U32, P(t_send_ns), 0, 1000000000, "software start-up of a send, ns (alpha's sending part)" },
    { "t_recv_ns", K_U32, P(t_recv_ns), 0, 1000000000, "software start-up of a receive, ns" },
    { "cpu_ps", K_U32, P(ps_per_instr), 1, 1000000000, "node CPU time per instruction executed, ps" },
    { "msg_max", K_U32, P(msg_max), 1, 64u << 20, "largest message, bytes" },
    { "nic_mem", K_U32, P(nic_mem), 65536, 256u << 20, "NIC memory per node, bytes (a power of two)" },
    { "flit_bytes", K_U32, P(net.flit_bytes), 1, 4096, "bytes per flit" },
    { "byte_ps", K_U32, P(net.byte_ps), 1, 100000000, "link time per byte, ps; one cycle = flit_bytes x byte_ps" },
    { "hop_cycles", K_U32, P(net.hop_cycles), 1, 1000, "router + link delay of a head per hop, cycles" },
    { "vcs", K_U32, P(net.vcs), 1, 16, "virtual channels per link (a torus needs 2: dateline classes)" },
    { "buf_flits", K_U32, P(net.buf_flits), 1, 1u << 20, "VC buffer depth, flits" },
    { "header_flits", K_U32, P(net.header_flits), 0, 64, "flits added to every message" },
    { "nic_cycles", K_U32, P(net.nic_cycles), 1, 1000, "cycles per flit on a NIC injection/ejection channel" },
    { "ports", K_U32, P(net.ports), 0, 64, "NIC channels (k-port); 0 = as the port model says" },
    { "unidirectional", K_U32, P(net.unidirectional), 0, 1, "1: a torus has links in the + direction only" },
    { "switching", K_SWITCHING, P(net.switching), 0, 0, "wormhole, cut-through or store-and-forward" },
    { "port_model", K_PORT_MODEL, 0, 0, 0, "one-port or all-port" },
#undef P
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *const switching_names[] = { "wormhole", "cut-through", "store-and-forward" };

void params_defaults(struct params *p, enum nic_port *pm)
{
    memset(p, 0, sizeof *p);
    p->t_send_ns = 500;
    p->t_recv_ns = 500;
    p->ps_per_instr = 1000;
    p->msg_max = 262144;
    p->nic_mem = 1u << 20;
    p->net = (struct net_params){ .flit_bytes = 8, .byte_ps = 1000, .hop_cycles = 1, .vcs = 2,
                                  .buf_flits = 4, .header_flits = 0, .ports = 0, .nic_cycles = 1,
                                  .switching = SW_WORMHOLE };
    *pm = NIC_PORT_ONE;
}

static void list_keys(char *err, size_t errlen)
{
    size_t o = strlen(err);
    o += (size_t)snprintf(err + o, errlen - o, "; accepted keys:");
    for (size_t i = 0; i < NKEYS && o < errlen; i++)
        o += (size_t)snprintf(err + o, errlen - o, " %s", keys[i].name);
}

int params_set(struct params *p, enum nic_port *pm, const char *key, const char *value,
               char *err, size_t errlen)
{
    for (size_t i = 0; i < NKEYS; i++) {
        const struct key *k = &keys[i];
        if (strcmp(k->name, key))
            continue;
        if (k->kind == K_SWITCHING) {
            for (int s = 0; s < 3; s++)
                if (!strcmp(value, switching_names[s])) {
                    p->net.switching = (enum switching)s;
                    return 0;
                }
            snprintf(err, errlen, "switching '%s' is unknown; accepted: wormhole, cut-through, store-and-forward", value);
            return -1;
        }
        if (k->kind == K_PORT_MODEL) {
            if (!strcmp(value, "one-port"))
                *pm = NIC_PORT_ONE;
            else if (!strcmp(value, "all-port"))
                *pm = NIC_PORT_ALL;
            else {
                snprintf(err, errlen, "port_model '%s' is unknown; accepted: one-port, all-port "
                         "(a k-port node: ports = k)", value);
                return -1;
            }
            return 0;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 0);
        if (errno || end == value || *end || *value == '-' || v < k->lo || v > k->hi) {
            snprintf(err, errlen, "%s '%s' is not a whole number from %u to %u (%s)",
                     key, value, k->lo, k->hi, k->doc);
            return -1;
        }
        *(uint32_t *)((char *)p + k->off) = (uint32_t)v;
        return 0;
    }
    snprintf(err, errlen, "unknown parameter '%s'", key);
    list_keys(err, errlen);
    return -1;
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

int params_load(struct params *p, enum nic_port *pm, const char *name, char *err, size_t errlen)
{
    char path[1024];
    if (strchr(name, '/'))
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "presets/%s.conf", name);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read parameter file %s: %s (presets are named by the files "
                 "in presets/, for example default, delta, t3d)", path, strerror(errno));
        return -1;
    }
    char line[1024], e2[768];
    int ln = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        ln++;
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *s = trim(line);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got '%s'", path, ln, s);
            rc = -1;
            break;
        }
        *eq = 0;
        if (params_set(p, pm, trim(s), trim(eq + 1), e2, sizeof e2)) {
            snprintf(err, errlen, "%s:%d: %s", path, ln, e2);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

int params_set_list(struct params *p, enum nic_port *pm, const char *list, char *err, size_t errlen)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) {
            snprintf(err, errlen, "--set '%s' is not key=value", w);
            return -1;
        }
        *eq = 0;
        if (params_set(p, pm, w, eq + 1, err, errlen))
            return -1;
    }
    return 0;
}

int params_count(void) { return (int)NKEYS; }
const char *params_key(int i) { return keys[i].name; }

void params_value(const struct params *p, enum nic_port pm, int i, char *buf, size_t len, int *numeric)
{
    const struct key *k = &keys[i];
    *numeric = k->kind == K_U32;
    if (k->kind == K_SWITCHING)
        snprintf(buf, len, "%s", switching_names[p->net.switching]);
    else if (k->kind == K_PORT_MODEL)
        snprintf(buf, len, "%s", pm == NIC_PORT_ALL ? "all-port" : "one-port");
    else
        snprintf(buf, len, "%u", *(const uint32_t *)((const char *)p + k->off));
}

void params_write(FILE *f, const struct params *p, enum nic_port pm)
{
    char v[64];
    int num;
    for (int i = 0; i < (int)NKEYS; i++) {
        params_value(p, pm, i, v, sizeof v, &num);
        fprintf(f, "%-13s = %-18s # %s\n", keys[i].name, v, keys[i].doc);
    }
}

int params_check(const struct params *p, char *err, size_t errlen)
{
    if (p->nic_mem & (p->nic_mem - 1)) {
        snprintf(err, errlen, "nic_mem %u is not a power of two", p->nic_mem);
        return -1;
    }
    if ((uint64_t)p->msg_max * 2 + 0x4000 > p->nic_mem) {
        snprintf(err, errlen, "msg_max %u needs nic_mem of at least twice that plus 16 KiB (now %u)",
                 p->msg_max, p->nic_mem);
        return -1;
    }
    return 0;
}
