/* The string functions the node links, one byte at a time.
 *
 * picolibc's compare and scan words at a time when the strings' addresses
 * allow it, so their instruction count depends on where the linker put a
 * string: a string literal moves whenever any other code's strings do
 * (an app added to a registry, a message edited). A node's time counts
 * instructions, so that would move figures with the image's layout
 * (docs/design.md, "How simulated time arises"). These versions retire a
 * number of instructions that depends only on the bytes they read, and
 * take the place of the library's (the linker uses an object's definition
 * before it searches the library). Bulk copies (memcpy, memset) stay the
 * library's: they move buffers on the heap, whose alignment does not follow
 * the image. */
#include <string.h>

int strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *x == *y)
        x++, y++;
    return *x - *y;
}

size_t strlen(const char *s)
{
    const char *e = s;
    while (*e)
        e++;
    return (size_t)(e - s);
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}
