/* What the MPI entry (apps/mpi_app.c) and the MPI library (apps/mpi/)
 * share: the words of ARGS that are the library's settings, not the
 * program's arguments (MPICH's control variables: MPIR_CVAR_NAME=value). */
#ifndef MPI_APP_H
#define MPI_APP_H

#define MPI_CVAR_PREFIX "MPIR_CVAR_"

#endif
