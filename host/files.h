/* The files the run tool reads (QEMU templates, node images): each must be
 * a regular file of bounded size, checked on the opened descriptor, so
 * that no FIFO, device or directory named in their place can hang the
 * tool or feed it without end. Presets have their own wording
 * (params.c). */
#ifndef FILES_H
#define FILES_H

#include <stdio.h>
#include <stddef.h>

/* what names the file in a message ("QEMU template", "arm node image").
 * Returns the open descriptor, or -1 with a message naming the file, what
 * it is instead, and what is accepted. */
int file_open_regular(const char *path, const char *what, long long max, char *err, size_t errlen);

/* The same, as a stdio stream for reading ("r"). */
FILE *file_fopen_regular(const char *path, const char *what, long long max, char *err, size_t errlen);

#endif
