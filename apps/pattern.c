/* The verification pattern of apps.h, a word at a time: it costs a few
 * emulated instructions per word rather than per byte. */
#include <string.h>
#include <stdint.h>
#include "apps.h"

static uint32_t seed(unsigned s, unsigned d)
{
    uint32_t x = s * 0x85ebca6bu ^ (d + 1) * 0xc2b2ae35u;
    return x ^ (x >> 13);
}

void pattern_fill(unsigned char *buf, unsigned s, unsigned d, size_t len)
{
    uint32_t x = seed(s, d), w;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        w = x ^ (uint32_t)(i >> 2) * 0x9e3779b1u;
        memcpy(buf + i, &w, 4);
    }
    w = x ^ (uint32_t)(i >> 2) * 0x9e3779b1u;
    for (unsigned b = 0; i < len; i++, b += 8)
        buf[i] = (unsigned char)(w >> b);
}

size_t pattern_check(const unsigned char *buf, unsigned s, unsigned d, size_t len)
{
    uint32_t x = seed(s, d), w, v;
    size_t i = 0, bad = 0;
    for (; i + 4 <= len; i += 4) {
        w = x ^ (uint32_t)(i >> 2) * 0x9e3779b1u;
        memcpy(&v, buf + i, 4);
        if (v != w)
            for (unsigned b = 0; b < 32; b += 8)
                bad += ((v ^ w) >> b & 0xffu) != 0;
    }
    w = x ^ (uint32_t)(i >> 2) * 0x9e3779b1u;
    for (unsigned b = 0; i < len; i++, b += 8)
        bad += buf[i] != (unsigned char)(w >> b);
    return bad;
}
