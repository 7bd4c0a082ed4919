#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "show.h"

static char printable(char c)
{
    return (unsigned char)c < 0x20 || c == 0x7f ? '?' : c;
}

size_t show_bytes(char *out, const char *s, size_t n, int keep_tab)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i], d = i + 1 < n ? (unsigned char)s[i + 1] : 0;
        if (c == 0xc2 && d >= 0x80 && d <= 0x9f) {      /* U+0080..U+009F: a C1 control */
            out[o++] = '?';
            i++;
        } else {
            out[o++] = keep_tab && c == '\t' ? '\t' : printable((char)c);
        }
    }
    return o;
}

const char *show(char buf[SHOW_LEN], const char *s, int quoted)
{
    size_t n = strlen(s), k = n <= SHOW_MAX ? n : SHOW_MAX - 40, o = 0;
    const char *q = quoted ? "'" : "";
    o += (size_t)snprintf(buf, SHOW_LEN, "%s", q);
    o += show_bytes(buf + o, s, k, 0);
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

/* Levenshtein distance of a and b, stopping above `most` (it returns
 * most + 1 then): two rows of the dynamic programme. */
static int distance(const char *a, const char *b, int most)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > (size_t)most)
        return most + 1;
    int row[65], next[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        next[0] = (int)i;
        int low = next[0];
        for (size_t j = 1; j <= lb; j++) {
            int sub = row[j - 1] + (a[i - 1] != b[j - 1]);
            int del = row[j] + 1, ins = next[j - 1] + 1;
            next[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (next[j] < low)
                low = next[j];
        }
        if (low > most)
            return most + 1;
        memcpy(row, next, (lb + 1) * sizeof *row);
    }
    return row[lb];
}

size_t show_names(char *buf, size_t len, const char *const *names, int n, const char *sep)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; (n < 0 ? names[i] != NULL : i < n) && o + 1 < len; i++) {
        int w = snprintf(buf + o, len - o, "%s%s", i ? sep : "", names[i]);
        o = w < 0 || (size_t)w >= len - o ? len - 1 : o + (size_t)w;
    }
    return o;
}

void show_nearest(char *out, size_t len, const char *s, const char *const *names, int n)
{
    int least = -1, shown = 0;
    size_t o = 0;
    out[0] = 0;
    for (int pass = 0; pass < 2; pass++)         /* the least distance, then the names at it */
        for (int i = 0; i < n; i++) {
            int most = (int)strlen(names[i]) / 3 > 2 ? (int)strlen(names[i]) / 3 : 2;
            int d = distance(s, names[i], most);
            if (d > most)
                continue;
            if (pass == 0 && (least < 0 || d < least))
                least = d;
            if (pass == 1 && d == least && shown < 3 && o < len)
                o += (size_t)snprintf(out + o, len - o, "%s'%s'", shown++ ? " or " : "", names[i]);
        }
}
