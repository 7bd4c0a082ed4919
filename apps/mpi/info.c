/* Info objects (MPI-3.1 chapter 9): lists of (key, value) strings, in the
 * order their keys were first set, and a communicator's hints (6.4.4).
 * The library acts on no hint: a call that takes an info checks it and
 * goes on, and MPI_Comm_get_info gives back the hints the program set, as
 * 6.4.4 allows. MPI_INFO_ENV (9) is predefined and empty: nothing of
 * mpiexec's (9.6) reaches a node. Handle h is infos[h]; a freed one is
 * used again. As many objects and keys as the node's heap holds. */
#include <stdlib.h>
#include <string.h>
#include "mpii.h"

struct entry { char *key, *value; };
struct info {
    int used;
    int n, cap;                      /* n entries of cap */
    struct entry *e;
};
static struct info env = { .used = 1 };   /* MPI_INFO_ENV */
static struct info *infos;           /* [0] and [1], the predefined handles, are never used */
static int ninfos;
static int first_free = 2;           /* no slot below it is free */
static MPI_Info hints[MPII_MAX_COMMS];   /* each communicator's, by its handle */

MPI_Info *mpii_comm_hints(MPI_Comm comm) { return &hints[comm]; }

static struct info *info_of(MPI_Info h)
{
    if (h == MPI_INFO_ENV)
        return &env;
    return h > MPI_INFO_ENV && h < ninfos && infos[h].used ? &infos[h] : NULL;
}

int mpii_info_check(MPI_Comm comm, MPI_Info info)
{
    if (info == MPI_INFO_NULL || info_of(info))
        return MPI_SUCCESS;
    return mpii_err(comm, MPI_ERR_INFO, "info %d is not valid; accepted: MPI_INFO_NULL, MPI_INFO_ENV or an info "
                    "object of MPI_Info_create or MPI_Info_dup, not freed", info);
}

/* In a call: i, the info object of handle h, or return MPI_ERR_INFO. */
#define INFO_OR_ERR(i, h)                                                                          \
    struct info *i = info_of(h);                                                                   \
    if (!i)                                                                                        \
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO, "info %d is not valid; accepted: MPI_INFO_ENV or an info " \
                        "object of MPI_Info_create or MPI_Info_dup, not freed", h)

/* MPI_INFO_ENV is the environment's: the program reads it, and neither
 * changes nor frees it. */
static int writable(MPI_Info h)
{
    if (h == MPI_INFO_ENV)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV is predefined: it is read, not changed or freed");
    return MPI_SUCCESS;
}

/* A key of 1 to MPI_MAX_INFO_KEY characters (9: "at least 32 and at most
 * 255"; an empty key is refused, as MPICH and Open MPI refuse it). */
static int key_ok(const char *key)
{
    if (!key)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "null pointer in parameter key; accepted: a string");
    size_t n = strlen(key);
    if (n == 0 || n > MPI_MAX_INFO_KEY)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "a key of %u characters; accepted: 1..%d",
                        (unsigned)n, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int find(const struct info *i, const char *key)
{
    for (int k = 0; k < i->n; k++)
        if (!strcmp(i->e[k].key, key))
            return k;
    return -1;
}

/* Slot of a new object, or 0 with the error returned in *e. */
static int new_info(int *e)
{
    int h = first_free;
    while (h < ninfos && infos[h].used)
        h++;
    if (h >= ninfos) {               /* (the table starts empty: 2 > 0) */
        int cap = ninfos ? 2 * ninfos : 8;
        struct info *more = realloc(infos, (size_t)cap * sizeof *more);
        if (!more) {
            *e = mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%u bytes for info objects", (unsigned)(cap * sizeof *more));
            return 0;
        }
        memset(more + ninfos, 0, (size_t)(cap - ninfos) * sizeof *more);
        infos = more;
        ninfos = cap;
    }
    infos[h] = (struct info){ .used = 1 };
    first_free = h + 1;
    return h;
}

/* key = value in i: replaced where key is, else added last. */
static int put(struct info *i, const char *key, const char *value)
{
    char *v = strdup(value);
    int k = find(i, key);
    if (v && k >= 0) {
        free(i->e[k].value);
        i->e[k].value = v;
        return MPI_SUCCESS;
    }
    char *kc = v ? strdup(key) : NULL;
    if (kc && i->n == i->cap) {      /* 16 at first: growing by realloc from 4 left picolibc's heap
                                      * fragmented, and MPICH's infomany2 (4,000 infos of 16 keys)
                                      * 13 times slower */
        int cap = i->cap ? 2 * i->cap : 16;
        struct entry *more = realloc(i->e, (size_t)cap * sizeof *more);
        if (more)
            i->e = more, i->cap = cap;
    }
    if (!kc || i->n == i->cap) {
        free(v);
        free(kc);
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "an info entry of %u bytes",
                        (unsigned)(strlen(key) + strlen(value) + 2));
    }
    i->e[i->n++] = (struct entry){ kc, v };
    return MPI_SUCCESS;
}

/* i, a slot of infos, freed. */
static void clear(struct info *i)
{
    if (i - infos < first_free)
        first_free = (int)(i - infos);
    for (int k = 0; k < i->n; k++) {
        free(i->e[k].key);
        free(i->e[k].value);
    }
    free(i->e);
    *i = (struct info){ 0 };
}

/* A new object of from's entries, in their order, in *to. */
static int dup_info(MPI_Info from, MPI_Info *to)
{
    int e = MPI_SUCCESS, h = new_info(&e);
    if (!h)
        return e;
    const struct info *f = info_of(from);   /* after new_info, which may move the table */
    for (int k = 0; k < f->n && !e; k++)
        e = put(&infos[h], f->e[k].key, f->e[k].value);
    if (e)
        clear(&infos[h]);
    else
        *to = h;
    return e;
}

int mpii_info_copy(MPI_Comm comm, MPI_Info from, MPI_Info *to)
{
    *to = MPI_INFO_NULL;
    int e = mpii_info_check(comm, from);
    return e || from == MPI_INFO_NULL ? e : dup_info(from, to);
}

void mpii_info_release(MPI_Info *info)
{
    struct info *i = info_of(*info);
    if (i && i != &env)
        clear(i);
    *info = MPI_INFO_NULL;
}

int MPI_Info_create(MPI_Info *info)
{
    MPII_ENTER("MPI_Info_create");
    OUT_OR_ERR(MPI_COMM_WORLD, info);
    int e = MPI_SUCCESS, h = new_info(&e);
    if (h)
        *info = h;
    return e;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    MPII_ENTER("MPI_Info_set");
    INFO_OR_ERR(i, info);
    int e = writable(info);
    if (!e)
        e = key_ok(key);
    if (e)
        return e;
    size_t n = value ? strlen(value) : 0;
    if (n == 0 || n > MPI_MAX_INFO_VAL)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "a value of %u characters for key '%s'; accepted: 1..%d",
                        (unsigned)n, key, MPI_MAX_INFO_VAL);
    return put(i, key, value);
}

/* The value of key, its first valuelen characters and a null (value holds
 * valuelen + 1 characters, MPI-3.1 9); flag 0 and value unchanged if
 * key is not there. */
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    MPII_ENTER("MPI_Info_get");
    INFO_OR_ERR(i, info);
    int e = key_ok(key);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    if (valuelen < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, "valuelen %d is negative", valuelen);
    int k = find(i, key);
    *flag = k >= 0;
    if (k >= 0) {
        OUT_OR_ERR(MPI_COMM_WORLD, value);
        size_t n = strlen(i->e[k].value);
        n = n < (size_t)valuelen ? n : (size_t)valuelen;
        memcpy(value, i->e[k].value, n);
        value[n] = 0;
    }
    return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    MPII_ENTER("MPI_Info_get_valuelen");
    INFO_OR_ERR(i, info);
    int e = key_ok(key);
    if (e)
        return e;
    OUT_OR_ERR(MPI_COMM_WORLD, valuelen);
    OUT_OR_ERR(MPI_COMM_WORLD, flag);
    int k = find(i, key);
    *flag = k >= 0;
    if (k >= 0)
        *valuelen = (int)strlen(i->e[k].value);
    return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    MPII_ENTER("MPI_Info_get_nkeys");
    INFO_OR_ERR(i, info);
    OUT_OR_ERR(MPI_COMM_WORLD, nkeys);
    *nkeys = i->n;
    return MPI_SUCCESS;
}

/* The n-th key, counted from 0 in the order the keys were first set (key
 * holds MPI_MAX_INFO_KEY + 1 characters). */
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    MPII_ENTER("MPI_Info_get_nthkey");
    INFO_OR_ERR(i, info);
    OUT_OR_ERR(MPI_COMM_WORLD, key);
    if (n < 0 || n >= i->n)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_ARG, i->n ? "n %d; accepted: 0..%d (the info has %d keys)"
                                                          : "n %d; the info has no keys", n, i->n - 1, i->n);
    strcpy(key, i->e[n].key);
    return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
    MPII_ENTER("MPI_Info_delete");
    INFO_OR_ERR(i, info);
    int e = writable(info);
    if (!e)
        e = key_ok(key);
    if (e)
        return e;
    int k = find(i, key);
    if (k < 0)
        return mpii_err(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "no key '%s' in info %d", key, info);
    free(i->e[k].key);
    free(i->e[k].value);
    memmove(&i->e[k], &i->e[k + 1], (size_t)(i->n - k - 1) * sizeof *i->e);
    i->n--;
    return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    MPII_ENTER("MPI_Info_dup");
    INFO_OR_ERR(i, info);
    OUT_OR_ERR(MPI_COMM_WORLD, newinfo);
    (void)i;
    return dup_info(info, newinfo);
}

int MPI_Info_free(MPI_Info *info)
{
    MPII_ENTER("MPI_Info_free");
    OUT_OR_ERR(MPI_COMM_WORLD, info);
    INFO_OR_ERR(i, *info);
    int e = writable(*info);
    if (e)
        return e;
    clear(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* --- a communicator's hints (MPI-3.1 6.4.4) --------------------------------- */

/* info's hints set on comm, each replacing the one of its key; the
 * others stay. */
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    MPII_ENTER("MPI_Comm_set_info");
    ANY_COMM_OR_ERR(c, comm);
    if (info == MPI_INFO_NULL)
        return mpii_err(comm, MPI_ERR_INFO, "info MPI_INFO_NULL; accepted: an info object");
    (void)c;
    int e = mpii_info_check(comm, info);
    if (!e && hints[comm] == MPI_INFO_NULL)
        return mpii_info_copy(comm, info, &hints[comm]);
    for (int k = 0; !e && k < info_of(info)->n; k++)
        e = put(info_of(hints[comm]), info_of(info)->e[k].key, info_of(info)->e[k].value);
    return e;
}

/* A new info of comm's hints, for the program to free: those it set, the
 * library using none (6.4.4: "all hints actually used"). */
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    MPII_ENTER("MPI_Comm_get_info");
    ANY_COMM_OR_ERR(c, comm);
    OUT_OR_ERR(comm, info_used);
    (void)c;
    if (hints[comm] != MPI_INFO_NULL)
        return dup_info(hints[comm], info_used);
    int e = MPI_SUCCESS, h = new_info(&e);
    if (h)
        *info_used = h;
    return e;
}
