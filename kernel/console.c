/* picolibc stdio on the board console. */
#include <stdio.h>
#include "board.h"

static int console_put(char c, FILE *f)
{
    (void)f;
    if (c == '\n')
        board_putc('\r');
    board_putc(c);
    return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;
