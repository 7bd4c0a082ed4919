#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "files.h"

/* A path as a message shows it: at most 200 characters, control bytes as '?'. */
static const char *shown(char out[240], const char *s)
{
    size_t n = strlen(s), k = n > 200 ? 200 : n, i;
    for (i = 0; i < k; i++)
        out[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    strcpy(out + i, n > k ? "..." : "");
    return out;
}

int file_open_regular(const char *path, const char *what, long long max, char *err, size_t errlen)
{
    char q[240];
    struct stat st;
    /* O_NONBLOCK: opening a FIFO returns at once (it is refused below). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st)) {
        int e = errno;
        snprintf(err, errlen, "%s %s is %s", what, shown(q, path), e == ENOENT ? "missing" : strerror(e));
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s is a directory; accepted: a regular file", what, shown(q, path));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s %s is not a regular file (a FIFO, a device or a socket); accepted: a regular file",
                 what, shown(q, path));
    } else if (st.st_size > max) {
        snprintf(err, errlen, "%s %s is %lld bytes, more than the %lld a %s may have", what, shown(q, path),
                 (long long)st.st_size, max, what);
    } else {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        return fd;
    }
    if (fd >= 0)
        close(fd);
    return -1;
}

FILE *file_fopen_regular(const char *path, const char *what, long long max, char *err, size_t errlen)
{
    int fd = file_open_regular(path, what, max, err, errlen);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", what, strerror(errno));
        close(fd);
    }
    return f;
}
