/*
 * notes.h - the note checks the native tests of the boot-time parsers
 * share (multiboot/, cpu_tables/).  Each parser records what was wrong
 * with its input as notes: a kind, whose printf format the parser gives,
 * a subject and three numbers.  A test names the lines it expects, as
 * the kernel would print them, and these check the notes against them.
 */
#ifndef NATIVE_NOTES_H
#define NATIVE_NOTES_H

/* A note's line: format filled in with the subject and a, b, c, as the
 * kernel prints it.  The text lives in a static buffer until the next
 * call. */
const char *note_line(const char *format, const char *subject,
		      unsigned long long a, unsigned long long b,
		      unsigned long long c);

/* Check that the nr notes kept, of which text(i) is line i, are exactly
 * the n lines of want, in order, and that none (dropped) was lost. */
void check_note_lines_at(const char *file, int line, const char *const *want,
			 unsigned int n, unsigned int nr, unsigned int dropped,
			 const char *(*text)(unsigned int i));

#endif
