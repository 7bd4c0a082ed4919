#ifndef APPS_H
#define APPS_H

enum app_restriction { APP_ANY = 0, APP_POW2 = 1, APP_TWO = 2 };

#define APP(name, restr, desc) int app_##name(void);
#include "apps.def"
#undef APP

struct app {
    const char *name;
    int (*main)(void);
};
extern const struct app app_table[];

/* The verification pattern: byte k of the block node s sends to node d.
 * Any misplaced, lost or duplicated block changes some byte. */
static inline unsigned char pattern_byte(unsigned s, unsigned d, unsigned k)
{
    unsigned x = s * 0x9e3779b1u ^ d * 0x85ebca6bu ^ (k + 1) * 0xc2b2ae35u;
    x ^= x >> 15;
    return (unsigned char)(x ^ (x >> 8));
}

#endif
