/* Which machines an app runs on. The run tool (host/run/checks.c) checks an
 * app's restriction, and for the collective apps its len= argument, before
 * any node starts; the node checks them again with the same function, so
 * the two can never disagree. Pure C: no node or host headers.
 */
#ifndef APPS_RESTRICT_H
#define APPS_RESTRICT_H

#include <stddef.h>
#include "../netdev/topo.h"
#include "../netdev/nic_shm.h"

enum app_restriction {
    APP_ANY = 0,
    APP_POW2 = 1,                    /* node count a power of two */
    APP_TWO = 2,                     /* at least two nodes */
    APP_HYPERCUBE,                   /* a hypercube */
    APP_HYPERCUBE_OR_MESH2D_POW2,    /* a hypercube, or a 2D mesh of 2^k nodes */
    APP_MESH2D_SQUARE_POW2,          /* a 2D mesh of 2^d x 2^d nodes, d >= 1 */
    APP_TORUS2D_SQUARE_POW2_MIN4,    /* a 2D N x N torus, N = 2^n >= 4 */
    APP_TORUS2D_SQUARE_POW2_MIN8,    /* a 2D N x N torus, N = 2^n >= 8 */
    APP_ALLPORT_SQUARE2D_FLOOD,      /* all-port; n x n mesh, or n x n torus with n odd */
    APP_TORUS2D,                     /* a 2D torus */
    APP_MESH_OR_TORUS,               /* a mesh or a torus, any number of dimensions */
    APP_MESH,                        /* a mesh, any number of dimensions */
    APP_TORUS,                       /* a torus, any number of dimensions */
    APP_MESH2D,                      /* a 2D mesh */
    APP_ALLPORT_HYPERCUBE,           /* all-port; a hypercube */
    APP_ALLPORT_MESH2D_SQUARE_POW2,  /* all-port; a 2D mesh of 2^k x 2^k nodes, k >= 1 */
    APP_ALLPORT_TORUS2D_SQUARE,      /* all-port; a 2D n x n torus, n >= 2 */
    APP_ALLPORT_TORUS3D_CUBE,        /* all-port; a 3D n x n x n torus, n >= 2 */
    APP_ALLPORT_TORUS_CUBE,          /* all-port; a k-D torus n x ... x n, k >= 1, n >= 2 */
    APP_BANYAN,                      /* a banyan (any size it comes in: 2^m) */
};

/* The machine, as both the host and the node see it: netdev/topo.h's
 * shape (its fields topo, ndims, dims, nodes and all_port are this
 * struct's: an unnamed member, -fms-extensions), and the call a schedule
 * is planned for. */
#define SHAPE_MAX_DIMS TOPO_MAX_DIMS

struct coll_ctx;                     /* apps/coll/coll.h */

struct app_shape {
    struct topo_shape;
    /* The collective call a schedule is planned for: root, multicast set,
     * segments (apps/coll/coll.h). NULL outside the rooted collectives;
     * the complete exchanges and all-to-all broadcasts never read it. */
    const struct coll_ctx *cx;
};

/* Node memory an app may use for its buffers (the first 32 MiB of RAM,
 * whatever ram_mib; the image, stacks and page table take under 2 MiB). */
#define APP_NODE_HEAP_BYTES (30ul << 20)

/* 0 if app (with restriction restr) may run on sh with block length len
 * (len is used by the collective apps only) and messages of at most
 * msg_max bytes; else -1 and a message naming the accepted values in err. */
int app_check(const char *app, int restr, const struct app_shape *sh, long len,
              unsigned long msg_max, char *err, size_t errlen);

/* The same from the run tool's words: args is ARGS ("len=4096 ..."). */
int app_check_args(const char *app, int restr, const struct app_shape *sh, const char *args,
                   unsigned long msg_max, char *err, size_t errlen);

/* "mesh 4x5", "hypercube 16" ... */
void app_shape_str(const struct app_shape *sh, char *buf, size_t len);

/* --- ARGS: the keys each app accepts ----------------------------------------
 *
 * ARGS is a line of key=value words separated by spaces. Each app declares
 * its keys once, in the registry: apps/apps.def (APP_ARGS, right after the
 * app's APP line) and, for the collective apps, one list per operation in
 * apps/coll/algos.def (COLL_ARGS). From that one list the run tool refuses
 * bad ARGS before any node starts (app_check_args), every node parses them
 * at boot with the same function (app_args_parse, netdev/nic.c), and
 * --list-apps prints them (app_keys_str).
 *
 * Numbers are whole numbers that fit 32 bits (a node's long on ARM), in
 * decimal or in hexadecimal after 0x, with an optional '-'; a leading 0
 * before another digit is refused (strtol read it as octal). */
enum app_key_kind {
    APP_KIND_INT,                    /* a whole number in lo..hi */
    APP_KIND_RANK,                   /* a node, 0..p-1 */
    APP_KIND_BYTES,                  /* a length in bytes, bounded by the machine (app_check_args) */
    APP_KIND_WORD,                   /* one of words[0..nwords) */
    APP_KIND_RANKS,                  /* "all" or ranks a,b,c (coll_ctx_from_args checks them) */
    APP_KIND_ARGV,                   /* the whole of ARGS, any words: a program's argv (the
                                        app's only key; apps/mpi_app.c) */
};

/* In hi or dflt: the last node, p - 1. In dflt: no value (the key is off
 * unless given). */
#define APP_KEY_LAST (-2147483647L - 1)
#define APP_KEY_NONE (-2147483647L)

struct app_key {
    const char *name;
    enum app_key_kind kind;
    const char *what;                /* INT: what a value is ("a segment count"), for the refusal */
    long lo, hi;                     /* INT: the accepted values */
    long dflt;                       /* INT, RANK, BYTES: the value when absent; WORD: words[0] */
    const char *const *words;        /* WORD */
    int nwords;
};

/* The entries of a key list (apps.def, algos.def), each ending in a comma. */
#define APP_KEY_INT(name, what, lo, hi, dflt) { #name, APP_KIND_INT, what, lo, hi, dflt, 0, 0 },
#define APP_KEY_RANK(name, dflt)              { #name, APP_KIND_RANK, "a node", 0, APP_KEY_LAST, dflt, 0, 0 },
#define APP_KEY_BYTES(name, dflt)             { #name, APP_KIND_BYTES, "a length in bytes", 0, 0, dflt, 0, 0 },
#define APP_KEY_RANKS(name)                   { #name, APP_KIND_RANKS, "ranks", 0, 0, APP_KEY_NONE, 0, 0 },
#define APP_KEY_WORDS(name, ...)                                                              \
    { #name, APP_KIND_WORD, "a word", 0, 0, 0, (const char *const[]){ __VA_ARGS__ },          \
      (int)(sizeof (const char *const[]){ __VA_ARGS__ } / sizeof (const char *)) },
#define APP_KEY_NAMED(name, words, n)         { #name, APP_KIND_WORD, "a word", 0, 0, 0, words, n },
#define APP_KEY_ARGV(name)                    { #name, APP_KIND_ARGV, "a program's arguments", 0, 0, APP_KEY_NONE, 0, 0 },
#define APP_NO_KEYS

/* The declared keys of an app, ended by an entry with name NULL; NULL if
 * the app is unknown. */
const struct app_key *app_keys(const char *app);

/* ARGS parsed against an app's keys. */
#define APP_MAX_KEYS 16
#define APP_ARGS_MAX (NIC_ARGS_BYTES - 1) /* characters of ARGS (struct nic_config) */
struct app_args {
    const struct app_key *keys;
    int nkeys;
    long val[APP_MAX_KEYS];              /* numbers: the value given, else the default (p - 1
                                            for APP_KEY_LAST); WORD: the index of the word */
    const char *word[APP_MAX_KEYS];      /* the value as given, NUL-ended; NULL if absent */
    char buf[APP_ARGS_MAX + 1];
};

/* Parse args for app on p nodes with messages of at most msg_max bytes:
 * every word key=value, every key declared and given once, every value of
 * its kind and range, and the app's rules across keys (pingpong: a != b and
 * len 1..msg_max; a multicast: set= or m= seed=, not both). 0, or -1 and
 * the reason with the accepted values in err. The machine's shape is not
 * looked at (app_check_args adds it). */
int app_args_parse(const char *app, const char *args, int p, unsigned long msg_max, struct app_args *a,
                   char *err, size_t errlen);

/* The index of key in a->keys, or -1 if the app does not declare it. */
int app_arg_index(const struct app_args *a, const char *key);

/* The value of a declared key (app_args.val) and whether it was given
 * (app_args.word); 0 and NULL for a key the app does not declare. */
long app_arg(const struct app_args *a, const char *key);
const char *app_arg_word(const struct app_args *a, const char *key);

/* "a=<node> (0), b=<node> (p-1), len=<bytes> (256), ...", or "" for an
 * app without keys. */
void app_keys_str(const char *app, char *buf, size_t len);

#endif
