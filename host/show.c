#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "show.h"

static char printable(char c)
{
    return (unsigned char)c < 0x20 || c == 0x7f ? '?' : c;
}

const char *show(char buf[SHOW_LEN], const char *s, int quoted)
{
    size_t n = strlen(s), k = n <= SHOW_MAX ? n : SHOW_MAX - 40, o = 0;
    const char *q = quoted ? "'" : "";
    o += (size_t)snprintf(buf, SHOW_LEN, "%s", q);
    for (size_t i = 0; i < k; i++)
        buf[o++] = printable(s[i]);
    if (k < n)
        snprintf(buf + o, SHOW_LEN - o, "...%s (%zu characters)", q, n);
    else
        snprintf(buf + o, SHOW_LEN - o, "%s", q);
    return buf;
}

/* fopencookie's write: the bytes to fd 2, control bytes but \n and \t as '?'. */
static ssize_t guarded_write(void *cookie, const char *b, size_t n)
{
    (void)cookie;
    char out[512];
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < sizeof out ? n - done : sizeof out;
        for (size_t i = 0; i < k; i++) {
            char c = b[done + i];
            out[i] = c == '\n' || c == '\t' ? c : printable(c);
        }
        for (size_t w = 0; w < k;) {
            ssize_t r = write(2, out + w, k - w);
            if (r <= 0)
                return done ? (ssize_t)done : -1;
            w += (size_t)r;
        }
        done += k;
    }
    return (ssize_t)n;
}

void show_guard_stderr(void)
{
    cookie_io_functions_t io = { .write = guarded_write };
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return;
    setvbuf(f, NULL, _IOLBF, 0);
    stderr = f;
}
