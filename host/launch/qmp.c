#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <jansson.h>
#include "qmp.h"

void qmp_init(struct qmp *q, int fd)
{
    q->fd = fd;
    q->n = 0;
}

int qmp_send(struct qmp *q, const char *name)
{
    char line[128];
    int k = snprintf(line, sizeof line, "{\"execute\": \"%s\"}\n", name);
    if (q->fd < 0 || k < 0 || (size_t)k >= sizeof line)
        return -1;
    return send(q->fd, line, (size_t)k, MSG_NOSIGNAL | MSG_DONTWAIT) == k ? 0 : -1;
}

/* One line, without its newline: which message it is. */
static enum qmp_msg classify(const char *line, size_t len, char *event, size_t elen)
{
    json_t *m = json_loadb(line, len, 0, NULL);
    enum qmp_msg k = QMP_BAD;
    if (json_is_object(m)) {
        json_t *ev = json_object_get(m, "event");
        if (json_object_get(m, "return"))
            k = QMP_RETURN;
        else if (json_object_get(m, "error"))
            k = QMP_ERROR;
        else if (json_object_get(m, "QMP"))
            k = QMP_GREETING;
        else if (json_is_string(ev)) {
            k = QMP_EVENT;
            snprintf(event, elen, "%s", json_string_value(ev));
        }
    }
    json_decref(m);
    return k;
}

enum qmp_msg qmp_next(struct qmp *q, char *event, size_t elen)
{
    if (elen)
        event[0] = 0;
    for (;;) {
        char *nl = memchr(q->buf, '\n', q->n);
        if (nl) {
            size_t len = (size_t)(nl - q->buf);
            enum qmp_msg k = classify(q->buf, len, event, elen);
            q->n -= len + 1;
            memmove(q->buf, nl + 1, q->n);
            return k;
        }
        if (q->n == sizeof q->buf || q->fd < 0)
            return QMP_BAD;
        ssize_t r = recv(q->fd, q->buf + q->n, sizeof q->buf - q->n, MSG_DONTWAIT);
        if (r > 0) {
            q->n += (size_t)r;
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return QMP_NONE;
        return QMP_BAD;                 /* the QEMU closed its end */
    }
}
