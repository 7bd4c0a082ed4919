/* mpi: the entry of an MPI program's image (make run MPI='prog.c ...';
 * docs/mpi.md). The program's main(argc, argv) runs on every node, argv
 * being its name then the words of ARGS, split at spaces, less the
 * library's settings (words MPIR_CVAR_NAME=value, read by apps/mpi/cvar.c).
 * An image without an MPI program (the project's own) has no main: the
 * app stops the node, saying how to build one. */
#include <string.h>
#include "apps.h"
#include "mpi_app.h"
#include "../kernel/kernel.h"
#include "../netdev/net.h"

int main(int argc, char **argv) __attribute__((weak));
/* The program's name (argv[0]), set by the MPI image's build. */
extern const char mpi_program_name[] __attribute__((weak));

#define MPI_ARGV_MAX (APP_ARGS_MAX / 2 + 2)

int app_mpi(void)
{
    static char words[APP_ARGS_MAX + 1];
    static char *argv[MPI_ARGV_MAX + 1];
    if (!main)
        panic("app mpi: this image holds no MPI program; build and run one with make run MPI='prog.c ...'");
    const char *args = net_arg("argv");
    strncpy(words, args ? args : "", sizeof words - 1);
    int argc = 0;
    argv[argc++] = (char *)(mpi_program_name ? mpi_program_name : "mpi");
    for (char *w = strtok(words, " "); w; w = strtok(NULL, " "))
        if (strncmp(w, MPI_CVAR_PREFIX, strlen(MPI_CVAR_PREFIX)))
            argv[argc++] = w;
    argv[argc] = NULL;
    return main(argc, argv);
}
