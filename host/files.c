#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "files.h"
#include "show.h"

enum file_kind file_check_open(const char *path, long long max, int *fd, long long *size)
{
    struct stat st;
    /* O_NONBLOCK: opening a FIFO returns at once (it is refused below). */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    enum file_kind k = f < 0 || fstat(f, &st) ? FILE_UNREADABLE
                       : S_ISDIR(st.st_mode)  ? FILE_DIRECTORY
                       : !S_ISREG(st.st_mode) ? FILE_NOT_REGULAR
                       : st.st_size > max     ? FILE_TOO_BIG
                                              : FILE_OK;
    if (k == FILE_OK) {
        int fl = fcntl(f, F_GETFL);
        if (fl >= 0)
            fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
        *fd = f;
        return k;
    }
    if (k == FILE_TOO_BIG)
        *size = (long long)st.st_size;
    if (f >= 0) {
        int e = errno;
        close(f);
        errno = e;
    }
    return k;
}

int file_open_regular(const char *path, const char *what, long long max, char *err, size_t errlen)
{
    char q[SHOW_LEN];
    int fd = -1;
    long long size = 0;
    switch (file_check_open(path, max, &fd, &size)) {
    case FILE_OK:
        return fd;
    case FILE_UNREADABLE:
        snprintf(err, errlen, "%s %s is %s", what, show(q, path, 0), errno == ENOENT ? "missing" : strerror(errno));
        break;
    case FILE_DIRECTORY:
        snprintf(err, errlen, "%s %s is a directory; accepted: a regular file", what, show(q, path, 0));
        break;
    case FILE_NOT_REGULAR:
        snprintf(err, errlen, "%s %s is not a regular file (a FIFO, a device or a socket); accepted: a regular file",
                 what, show(q, path, 0));
        break;
    case FILE_TOO_BIG:
        snprintf(err, errlen, "%s %s is %lld bytes, more than the %lld a %s may have", what, show(q, path, 0), size,
                 max, what);
        break;
    }
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

int file_close_written(FILE *f)
{
    int bad = ferror(f);
    return fclose(f) || bad ? -1 : 0;
}

unsigned long long file_proc_kb(const char *path, const char *const *keys)
{
    FILE *f = fopen(path, "r");
    char line[256];
    unsigned long long bytes = 0;
    while (f && fgets(line, sizeof line, f)) {
        char key[64];
        unsigned long long kb;
        int end = 0;                             /* set only if " kB" matched too */
        if (sscanf(line, "%63[^:]: %llu kB%n", key, &kb, &end) != 2 || !end)
            continue;
        for (const char *const *k = keys; *k; k++)
            if (!strcmp(key, *k))
                bytes += kb << 10;
    }
    if (f)
        fclose(f);
    return bytes;
}

const char *file_in_tree(const char *path, char *buf, size_t len)
{
    struct stat st;
    if (!stat(path, &st) || path[0] == '/')
        return path;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return path;
    exe[n] = 0;
    for (int up = 0; up < 3; up++) {             /* ROOT/BUILD/host/tool -> ROOT */
        char *slash = strrchr(exe, '/');
        if (!slash)
            return path;
        *slash = 0;
    }
    if ((size_t)snprintf(buf, len, "%s/%s", *exe ? exe : "", path) >= len || stat(buf, &st))
        return path;
    return buf;
}
