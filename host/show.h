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

/* s as a message shows it, in buf; quoted: between single quotes. */
const char *show(char buf[SHOW_LEN], const char *s, int quoted);

/* Make stderr show every control byte but newline and tab as '?', for the
 * messages that quote text without show(). Call first thing in main(). */
void show_guard_stderr(void);

#endif
