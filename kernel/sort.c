/*
 * sort.c - sorting small arrays of numbers (sort.h).
 *
 * Insertion sort: quadratic, which is nothing for the few dozen values
 * the kernel ever sorts, and short enough to read at a glance.
 */
#include <sort.h>

/* v[0..n) in increasing order. */
void sort_u64(u64 *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		u64 x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The middle value of v[0..n) (n > 0), leaving v sorted: a figure that a
 * minority of wild measurements does not move. */
u64 median_u64(u64 *v, unsigned int n)
{
	sort_u64(v, n);
	return v[n / 2];
}
