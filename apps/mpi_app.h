/* What the MPI entry (apps/mpi_app.c), the MPI library (apps/mpi/) and
 * the run tool share: the words of ARGS that are the library's settings,
 * not the program's arguments (MPICH's control variables:
 * MPIR_CVAR_<OP>_INTRA_ALGORITHM=name; apps/mpi_settings.c). */
#ifndef MPI_APP_H
#define MPI_APP_H

#include <stddef.h>

#define MPI_CVAR_PREFIX "MPIR_CVAR_"
#define MPI_SETTING_MAX 32           /* bytes of a setting's value, with its NUL */

/* The settings among ARGS' words: values[op] the algorithm named for
 * operation op ("auto" where none is), op the index mpi_setting_op gives
 * ("ALLTOALL" .. "BARRIER"; n of them at most). 0, or -1 with the bad word
 * and the accepted ones in err. */
int mpi_settings(const char *args, char values[][MPI_SETTING_MAX], int n, char *err, size_t errlen);
/* The index of operation op ("ALLTOALL"), or -1. */
int mpi_setting_op(const char *op);

#endif
