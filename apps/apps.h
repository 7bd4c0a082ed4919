#ifndef APPS_H
#define APPS_H

#include <stddef.h>
#include "restrict.h"

#define APP(name, restr, desc) int app_##name(void);
#include "apps.def"
#undef APP

struct app {
    const char *name;
    int (*main)(void);
};
extern const struct app app_table[];

/* The verification pattern (apps/pattern.c): the block node s sends to
 * node d is a sequence of 32-bit words, word i = seed(s, d) ^ i * golden,
 * stored little-endian. A block from the wrong source or destination, at
 * the wrong offset, lost or duplicated, changes some byte. */
void pattern_fill(unsigned char *buf, unsigned s, unsigned d, size_t len);
size_t pattern_check(const unsigned char *buf, unsigned s, unsigned d, size_t len); /* wrong bytes */

#endif
