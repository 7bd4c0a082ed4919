/* The files the run tool reads (presets, QEMU templates, node images):
 * each must be a regular file of bounded size, checked on the opened
 * descriptor, so that no FIFO, device or directory named in their place
 * can hang the tool or feed it without end. And the files it writes:
 * closed whole or reported. */
#ifndef FILES_H
#define FILES_H

#include <stdio.h>
#include <stddef.h>

/* What file_check_open found. */
enum file_kind { FILE_OK, FILE_UNREADABLE, FILE_DIRECTORY, FILE_NOT_REGULAR, FILE_TOO_BIG };

/* Open path for reading, then check what it is. FILE_OK: *fd is open
 * (blocking). Otherwise nothing stays open; FILE_UNREADABLE leaves errno
 * set, FILE_TOO_BIG the size in *size. For callers with their own words
 * (params.c); the others use the two below. */
enum file_kind file_check_open(const char *path, long long max, int *fd, long long *size);

/* what names the file in a message ("QEMU template", "arm node image").
 * Returns the open descriptor, or -1 with a message naming the file, what
 * it is instead, and what is accepted. */
int file_open_regular(const char *path, const char *what, long long max, char *err, size_t errlen);

/* The same, as a stdio stream for reading ("r"). */
FILE *file_fopen_regular(const char *path, const char *what, long long max, char *err, size_t errlen);

/* fclose a file written with stdio: 0, or -1 if any write failed, the
 * last buffer's included (a full disk shows only there). */
int file_close_written(FILE *f);

/* The sum, in bytes, of the "Key: N kB" lines of a /proc file (meminfo,
 * a process's status) whose key is one of keys (NULL-ended); 0 for a file
 * that cannot be read or has none of them. */
unsigned long long file_proc_kb(const char *path, const char *const *keys);

/* A file of the project's tree the tools read by default (a node image,
 * a QEMU template, a preset): path itself if it exists from the current
 * directory (or is absolute), else the same path under the tree the
 * running tool was built in (ROOT for ROOT/build/host/wormsim), written
 * into buf, if it exists there; else path, whose error then names it. A
 * path the user gives is read as given. */
const char *file_in_tree(const char *path, char *buf, size_t len);

#endif
