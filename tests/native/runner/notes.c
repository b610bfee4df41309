/*
 * notes.c - the note checks the native parser tests share (notes.h):
 * one formatter of a note's line, and one comparison of the notes kept
 * with the lines a test expects, so the two parsers' tests report a
 * wrong, missing, extra or dropped note the same way.
 */
#include <stdio.h>
#include <string.h>
#include "notes.h"
#include "runner.h"

const char *note_line(const char *format, const char *subject,
		      unsigned long long a, unsigned long long b,
		      unsigned long long c)
{
	static char text[256];

	snprintf(text, sizeof(text), format, subject, a, b, c);
	return text;
}

void check_note_lines_at(const char *file, int line, const char *const *want,
			 unsigned int n, unsigned int nr, unsigned int dropped,
			 const char *(*text)(unsigned int i))
{
	unsigned int i;

	for (i = 0; i < n && i < nr; i++)
		if (strcmp(text(i), want[i]) != 0)
			check_failed(file, line, "note %u: got '%s', want '%s'",
				     i, text(i), want[i]);
	if (nr != n)
		check_failed(file, line, "%u notes, want %u (first extra: '%s')",
			     nr, n, nr > n ? text(n) : "-");
	if (dropped)
		check_failed(file, line, "%u notes dropped", dropped);
}
