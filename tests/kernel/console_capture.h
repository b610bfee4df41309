/*
 * console_capture.h - for tests: keep a copy of what the kernel prints
 * (console_capture.c), to check a line it must (or must not) print,
 * such as the line that names a killed task's fault.
 */
#ifndef TESTS_CONSOLE_CAPTURE_H
#define TESTS_CONSOLE_CAPTURE_H

#include <types.h>

#define CAPTURE_SIZE	131072	/* `sites` prints some 100 KiB under trace */

void capture_start(void);		/* forget what was kept; keep from now */
void capture_stop(void);
bool capture_overflowed(void);		/* more was printed than fits */
/* The first kept line (without its end) that starts with prefix, copied
 * into line; false if none. */
bool captured_line(const char *prefix, char *line, size_t size);
/* The same for the nth (from 0) kept line that starts with prefix. */
bool captured_nth_line(const char *prefix, unsigned int nth, char *line, size_t size);
/* How many kept lines start with prefix. */
unsigned int captured_lines(const char *prefix);
/* Whether each kept line that starts with prefix came whole in one
 * console write, its end of line included: no other CPU's text could
 * have landed inside it. */
bool captured_lines_whole(const char *prefix);
/* Whether any kept text contains s. */
bool captured_anywhere(const char *s);

#endif
