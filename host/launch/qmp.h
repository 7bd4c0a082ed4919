/* The QEMU Machine Protocol (QMP; QEMU's docs/interop/qmp-spec.rst) on a
 * connected socket, as a node pool uses it: commands without arguments
 * one way, and returns, errors and events the other, one JSON object a
 * line. QEMU writes this channel, never the node: what a node program does
 * cannot forge a message here.
 *
 * Invariant: a message is read whole or not at all; a line longer than
 * QMP_LINE_MAX, or one that is not a QMP message, is QMP_BAD (the caller
 * gives up on that QEMU). */
#ifndef QMP_H
#define QMP_H

#include <stddef.h>

#define QMP_LINE_MAX 8192

struct qmp {
    int fd;                 /* non-blocking, connected; -1: none */
    size_t n;               /* bytes held in buf */
    char buf[QMP_LINE_MAX];
};

enum qmp_msg {
    QMP_NONE,               /* no whole message yet */
    QMP_GREETING,           /* {"QMP": ...}, once after connecting */
    QMP_RETURN,             /* a command's success */
    QMP_ERROR,              /* a command's failure */
    QMP_EVENT,              /* an event; its name in the caller's buffer */
    QMP_BAD,                /* closed, unreadable, too long or not QMP */
};

void qmp_init(struct qmp *q, int fd);

/* Send {"execute": name}. 0, or -1 if the socket would not take it. */
int qmp_send(struct qmp *q, const char *name);

/* The next message: from what was read before, else from the socket
 * (without blocking). An event's name goes to event[0..len-1]. */
enum qmp_msg qmp_next(struct qmp *q, char *event, size_t len);

#endif
