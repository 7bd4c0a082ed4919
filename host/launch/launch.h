/* Starting node emulators from the qemu-scripts/ templates. */
#ifndef LAUNCH_H
#define LAUNCH_H

#include <sys/types.h>

struct template {
    char **argv;     /* words, with @NAME@ placeholders */
    int argc;
};

/* Read a template file. Returns -1 with a message in err. */
int template_load(struct template *t, const char *path, char *err, size_t errlen);
void template_free(struct template *t);

/* 0 if the template's program is found on PATH; else the message. */
int template_check_program(const struct template *t, char *err, size_t errlen);

struct launch_vars {
    const char *kernel, *socket, *mem;
    int gdb_port;    /* 0: no gdbstub */
    int pool_fd;     /* -1: a node of one run, @NO_REBOOT@ is -no-reboot; else a
                        kept node's control socket, QEMU's fd LAUNCH_POOL_FD (@QMP@) */
    int ram_fd;      /* the node's RAM, a memfd holding its image: QEMU's fd
                        LAUNCH_RAM_FD, its guest RAM (@RAM@); -1: none */
    unsigned long long entry;   /* the image's entry point (@ENTRY@) */
    int merge_pages; /* 1: its pages may be merged with other nodes' (merge.h) */
};

/* In the node's QEMU: the kept node's control socket, a QMP monitor
 * (host/launch/qmp.h), and the node's RAM. */
#define LAUNCH_POOL_FD 3
#define LAUNCH_RAM_FD  4

/* 1 if the template has the placeholder `word` (@QMP@, @GDB@ ...). */
int template_has(const struct template *t, const char *word);

/* Fork and exec one node's QEMU, its console and stderr into out_fd. The
 * child dies with the router (PR_SET_PDEATHSIG) and has its own process
 * group, so a terminal's Ctrl-C reaches only the router, which then ends
 * every node itself. Returns the pid, or -1. */
pid_t launch_node(const struct template *t, const struct launch_vars *v, int out_fd);

#endif
