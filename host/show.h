/* User text in a message. The run tool echoes names, paths and values the
 * user (or a node) gave; a message shows them whole when short, else their
 * start, "..." and their length, so that it keeps room for the accepted
 * values; and never a control byte, which could rewrite the user's
 * terminal: each shows as '?'. */
#ifndef SHOW_H
#define SHOW_H

#include <stdio.h>

#define SHOW_MAX 200
#define SHOW_LEN (SHOW_MAX + 48)

/* s[0..n-1] into out (room for n bytes) as a message shows them: each C0
 * control (tab too unless keep_tab), DEL, and each C1 control written in
 * UTF-8 (0xC2 0x80..0x9F, which a terminal may obey as an escape) as one
 * '?'. Returns the bytes put in out. */
size_t show_bytes(char *out, const char *s, size_t n, int keep_tab);

/* s as a message shows it, in buf; quoted: between single quotes. */
const char *show(char buf[SHOW_LEN], const char *s, int quoted);

/* The names among names[0..n-1] nearest to s by edit distance (insert,
 * delete or change one byte: Levenshtein), if within a third of the name's
 * length (at least 2 edits): those at the least distance, at most 3, in
 * list order, into out as "'a' or 'b'"; out is "" if none is near. For a
 * "did you mean". */
void show_nearest(char *out, size_t len, const char *s, const char *const *names, int n);

/* The accepted values a message lists: names[0..n-1] (n < 0: up to the
 * first NULL) joined by sep, into buf (room for len > 0 bytes, cut there).
 * Returns strlen(buf). */
size_t show_names(char *buf, size_t len, const char *const *names, int n, const char *sep);

/* Make stderr show every control byte but newline and tab as '?', for the
 * messages that quote text without show(). Call first thing in main(). */
void show_guard_stderr(void);

#endif
