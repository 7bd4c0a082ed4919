/* The library's settings (MPIR_CVAR_<OP>_INTRA_ALGORITHM=name in ARGS),
 * read at MPI_Init by apps/mpi_settings.c's parser, which the run tool
 * ran before any node started: a bad setting never gets here, and would
 * end the node naming it if it did. */
#include <stdio.h>
#include <stdlib.h>
#include "mpii.h"
#include "../mpi_app.h"
#include "../../netdev/net.h"

#define NOPS 16
static char chosen[NOPS][MPI_SETTING_MAX];

void mpii_cvar_read(void)
{
    char err[300];
    const char *args = net_arg("argv");
    if (mpi_settings(args ? args : "", chosen, NOPS, err, sizeof err)) {
        printf("MPI error: rank %d: MPI_Init: MPI_ERR_ARG: %s\n", net_rank(), err);
        exit(16 + MPI_ERR_ARG);
    }
}

const char *mpii_cvar_algorithm(const char *op)
{
    int k = mpi_setting_op(op);
    return k < 0 || k >= NOPS ? "auto" : chosen[k];
}
