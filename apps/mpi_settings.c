/* The MPI library's settings in ARGS (apps/mpi_app.h): words
 * MPIR_CVAR_<OP>_INTRA_ALGORITHM=name, one per collective operation, name
 * an algorithm of apps/coll/algos.def for that operation, "p2p" (the
 * library's own, over point to point) or "auto". Pure C: the run tool
 * refuses a bad setting before any node starts (app_check.c), and the
 * node's library reads them (apps/mpi/cvar.c) with the same functions. */
#include <stdio.h>
#include <string.h>
#include "mpi_app.h"
#include "coll/coll.h"
#include "untimed.h"

static const char *const ops[] = { "ALLTOALL", "ALLGATHER", "BCAST", "SCATTER", "GATHER", "REDUCE",
                                   "ALLREDUCE", "SCAN", "BARRIER" };
static const enum coll_op coll_of[] = { COLL_ALLTOALL, COLL_ALLGATHER, COLL_BCAST, COLL_SCATTER, COLL_GATHER,
                                        COLL_REDUCE, COLL_ALLREDUCE, COLL_SCAN, COLL_BARRIER };
#define NOPS (int)(sizeof ops / sizeof ops[0])
#define SUFFIX "_INTRA_ALGORITHM"

int mpi_setting_op(const char *op)
{
    for (int i = 0; i < NOPS; i++)
        if (!strcmp(ops[i], op))
            return i;
    return -1;
}

/* word = PREFIX OP SUFFIX = value: the operation's index and the value in
 * *value; -1 and why in err if it is not a setting the library has, or
 * names no algorithm of the operation. */
static int parse(const char *word, int *op, const char **value, char *err, size_t errlen)
{
    size_t pl = strlen(MPI_CVAR_PREFIX);
    const char *eq = strchr(word, '='), *suf = strstr(word, SUFFIX "=");
    char name[32];
    *op = -1;
    if (eq && suf && suf + strlen(SUFFIX) == eq && (size_t)(suf - word - pl) < sizeof name) {
        memcpy(name, word + pl, (size_t)(suf - word - pl));
        name[suf - word - pl] = 0;
        *op = mpi_setting_op(name);
    }
    if (*op < 0) {
        int o = snprintf(err, errlen, "setting '%.60s': not one the MPI library has; accepted: %s<OP>%s=name, OP one of",
                         word, MPI_CVAR_PREFIX, SUFFIX);
        for (int i = 0; i < NOPS && o >= 0 && (size_t)o < errlen; i++)
            o += snprintf(err + o, errlen - (size_t)o, " %s", ops[i]);
        return -1;
    }
    *value = eq + 1;
    UNTIMED_BEGIN();
    int known = !strcmp(*value, "auto") || !strcmp(*value, "p2p") || coll_find(coll_of[*op], *value);
    UNTIMED_END();
    if (!known || strlen(*value) >= MPI_SETTING_MAX) {
        snprintf(err, errlen, "setting '%.60s': no algorithm '%.40s' for %s; accepted: auto, p2p or an algorithm of "
                 "that operation (wormsim --list-apps: the %s_* apps)", word, *value, ops[*op], coll_ops[coll_of[*op]].name);
        return -1;
    }
    return 0;
}

int mpi_settings(const char *args, char values[][MPI_SETTING_MAX], int n, char *err, size_t errlen)
{
    for (int i = 0; i < n && i < NOPS; i++)
        strcpy(values[i], "auto");
    size_t pl = strlen(MPI_CVAR_PREFIX);
    for (const char *w = args; *w;) {
        size_t len = strcspn(w, " ");
        char word[256];
        if (len && len < sizeof word && !strncmp(w, MPI_CVAR_PREFIX, pl)) {
            int op;
            const char *value;
            memcpy(word, w, len);
            word[len] = 0;
            if (parse(word, &op, &value, err, errlen))
                return -1;
            if (op < n)
                strcpy(values[op], value);
        }
        w += len;
        while (*w == ' ')
            w++;
    }
    return 0;
}
