/* The one syntax of a whole number, wherever a person types one: app ARGS
 * (apps/app_check.c, on the run tool and on every node), options and
 * network parameters (host/params.c). Decimal, or hexadecimal after 0x; a
 * '-' only where the caller takes a sign; no '+', space, or leading 0
 * before another digit (strtol would read 010 as octal). Pure C, no libc,
 * so the node images take it as it is. */
#ifndef APPS_NUMBER_H
#define APPS_NUMBER_H

enum { NUMBER_OK = 0, NUMBER_BAD = -1, NUMBER_OCTAL = -2, NUMBER_BIG = -3 };

/* What a refusal for NUMBER_OCTAL adds, after "is not a whole number". */
#define NUMBER_FORM " (decimal without a leading 0, or hexadecimal after 0x)"

/* s as a number of at most max in magnitude: NUMBER_OK and *out, or why
 * not. */
static inline int number_parse(const char *s, int signed_, unsigned long long max, long long *out)
{
    int neg = signed_ && *s == '-', base = 10, big = 0;
    const char *p = s + neg;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && p[1] >= '0' && p[1] <= '9') {
        return NUMBER_OCTAL;
    }
    if (!*p)
        return NUMBER_BAD;
    unsigned long long v = 0;
    for (; *p; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
              : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 99;
        if (d >= base)
            return NUMBER_BAD;
        if (!big && v > (max - (unsigned)d) / (unsigned)base)
            big = 1;
        v = big ? v : v * (unsigned)base + (unsigned)d;
    }
    if (big)
        return NUMBER_BIG;
    *out = neg ? -(long long)v : (long long)v;
    return NUMBER_OK;
}

#endif
