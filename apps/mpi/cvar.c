/* The library's settings: MPICH's control variables, given as words of
 * ARGS (MPIR_CVAR_<OP>_INTRA_ALGORITHM=name, apps/mpi_app.h), one per
 * collective operation. A name is an algorithm of apps/coll/algos.def for
 * that operation ("pex", "gen", "rd" ...), "p2p" for the library's own
 * over point to point (apps/mpi/coll.c), or "auto" (the default). Checked
 * at MPI_Init: an unknown setting or name ends the node naming the
 * accepted ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpii.h"
#include "../mpi_app.h"
#include "../coll/coll.h"
#include "../untimed.h"
#include "../../netdev/net.h"

static const char *const ops[] = { "ALLTOALL", "ALLGATHER", "BCAST", "SCATTER", "GATHER", "REDUCE",
                                   "ALLREDUCE", "SCAN", "BARRIER" };
static const enum coll_op coll_of[] = { COLL_ALLTOALL, COLL_ALLGATHER, COLL_BCAST, COLL_SCATTER, COLL_GATHER,
                                        COLL_REDUCE, COLL_ALLREDUCE, COLL_SCAN, COLL_BARRIER };
#define NOPS (sizeof ops / sizeof ops[0])
#define SUFFIX "_INTRA_ALGORITHM"

static char chosen[NOPS][32];

static int op_index(const char *name, size_t len)
{
    for (unsigned i = 0; i < NOPS; i++)
        if (strlen(ops[i]) == len && !strncmp(ops[i], name, len))
            return (int)i;
    return -1;
}

static void refuse(const char *word, const char *why)
{
    char list[200];
    int o = 0;
    for (unsigned i = 0; i < NOPS; i++)
        o += snprintf(list + o, sizeof list - (size_t)o, "%s%s", i ? ", " : "", ops[i]);
    printf("MPI error: rank %d: MPI_Init: MPI_ERR_ARG: setting '%s': %s; accepted: %s<OP>%s=name, OP one of %s\n",
           net_rank(), word, why, MPI_CVAR_PREFIX, SUFFIX, list);
    exit(16 + MPI_ERR_ARG);
}

void mpii_cvar_read(void)
{
    char words[APP_ARGS_MAX + 1];
    const char *args = net_arg("argv");
    strncpy(words, args ? args : "", sizeof words - 1);
    words[sizeof words - 1] = 0;
    for (unsigned i = 0; i < NOPS; i++)
        strcpy(chosen[i], "auto");
    for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
        size_t pl = strlen(MPI_CVAR_PREFIX);
        if (strncmp(w, MPI_CVAR_PREFIX, pl))
            continue;
        char *eq = strchr(w, '='), *suf = strstr(w, SUFFIX "=");
        if (!eq || !suf || suf + strlen(SUFFIX) != eq)
            refuse(w, "not a setting the library has");
        int k = op_index(w + pl, (size_t)(suf - (w + pl)));
        if (k < 0)
            refuse(w, "unknown operation");
        const char *v = eq + 1;
        UNTIMED_BEGIN();
        int known = !strcmp(v, "auto") || !strcmp(v, "p2p") || coll_find(coll_of[k], v);
        UNTIMED_END();
        if (!known || strlen(v) >= sizeof chosen[k]) {
            printf("MPI error: rank %d: MPI_Init: MPI_ERR_ARG: setting '%s': no algorithm '%s' for %s; accepted: "
                   "auto, p2p or a name of apps/coll/algos.def for that operation (wormsim --list-apps)\n",
                   net_rank(), w, v, ops[k]);
            exit(16 + MPI_ERR_ARG);
        }
        strcpy(chosen[k], v);
    }
}

const char *mpii_cvar_algorithm(const char *op)
{
    int k = op_index(op, strlen(op));
    return k < 0 ? "auto" : chosen[k];
}
