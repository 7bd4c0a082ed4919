#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "files.h"
#include "show.h"

int file_open_regular(const char *path, const char *what, long long max, char *err, size_t errlen)
{
    char q[SHOW_LEN];
    struct stat st;
    /* O_NONBLOCK: opening a FIFO returns at once (it is refused below). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st)) {
        int e = errno;
        snprintf(err, errlen, "%s %s is %s", what, show(q, path, 0), e == ENOENT ? "missing" : strerror(e));
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s is a directory; accepted: a regular file", what, show(q, path, 0));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s %s is not a regular file (a FIFO, a device or a socket); accepted: a regular file",
                 what, show(q, path, 0));
    } else if (st.st_size > max) {
        snprintf(err, errlen, "%s %s is %lld bytes, more than the %lld a %s may have", what, show(q, path, 0),
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
