/* FNV-1a, 64 bits: the host's one checksum of bytes (netsim's digests,
 * wormsim-mpi's sums of what every rank must share). Not a guard against
 * a hostile writer: it tells honest differences apart. */
#ifndef FNV_H
#define FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_START 0xcbf29ce484222325ull

/* h continued over n bytes at p. */
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#endif
