/*
 * ram_map.c - the RAM of a loader's memory map, sorted and disjoint.
 *
 * Every entry's start and end is a boundary; between two neighbouring
 * boundaries each entry either covers the whole piece or none of it.  A
 * piece is RAM when a RAM entry covers it and no other kind does: where
 * RAM and reserved overlap, reserved wins, because handing out a frame
 * the firmware still uses corrupts it silently, while losing a frame of
 * RAM costs 4 KiB.  Neighbouring RAM pieces are merged into one region.
 *
 * Quadratic in the entries, which is nothing for the few dozen a PC has
 * (the caller stops at RAM_MAP_MAX_ENTRIES).
 */
#include <ram_map.h>
#include <sort.h>

/* The entries' starts and ends, sorted, each once; returns how many. */
static unsigned int boundaries(const struct ram_map_entry *e, unsigned int n,
			       u64 *b)
{
	unsigned int i, nr = 0, unique = 0;

	for (i = 0; i < n; i++) {
		b[nr++] = e[i].start;
		b[nr++] = e[i].end;
	}
	sort_u64(b, nr);
	for (i = 0; i < nr; i++)
		if (unique == 0 || b[i] != b[unique - 1])
			b[unique++] = b[i];
	return unique;
}

/* Where the regions go, and what is being counted. */
struct builder {
	struct mem_region *out;
	unsigned int max;
	u64 limit;
	u64 lost_end;		/* end of the last region that did not fit */
	struct ram_map_result *res;
};

/* Append [start, end) to the regions, merging with the last one when
 * they touch; a region that does not fit is counted once. */
static void add_region(struct builder *b, u64 start, u64 end)
{
	struct ram_map_result *res = b->res;
	struct mem_region *last = res->nr ? &b->out[res->nr - 1] : NULL;

	if (last && last->end == start && !res->lost) {
		last->end = end;
	} else if (res->nr < b->max) {
		b->out[res->nr].start = start;
		b->out[res->nr].end = end;
		res->nr++;
	} else {
		if (!res->lost || start != b->lost_end)
			res->lost++;
		b->lost_end = end;
	}
}

/* Count the piece [lo, hi) as RAM; what lies past the limit is only
 * counted. */
static void add_ram(struct builder *b, u64 lo, u64 hi)
{
	b->res->ram_bytes += hi - lo;
	if (hi > b->limit) {
		b->res->above_limit_bytes += hi - (lo > b->limit ? lo : b->limit);
		hi = b->limit;
	}
	if (lo < hi)
		add_region(b, lo, hi);
}

/* Is the piece [lo, hi) RAM?  Counts overlapping entries on the way. */
static bool piece_is_ram(const struct ram_map_entry *e, unsigned int n,
			 u64 lo, u64 hi, struct ram_map_result *res)
{
	unsigned int j, ram = 0, other = 0;

	for (j = 0; j < n; j++) {
		if (e[j].start <= lo && hi <= e[j].end) {
			if (e[j].ram)
				ram++;
			else
				other++;
		}
	}
	if (ram + other > 1)
		res->overlap_bytes += hi - lo;
	return ram && !other;
}

void ram_map_build(const struct ram_map_entry *entries, unsigned int n,
		   u64 limit, struct mem_region *out, unsigned int max,
		   struct ram_map_result *res)
{
	struct builder b = { out, max, limit, 0, res };
	u64 bounds[2 * RAM_MAP_MAX_ENTRIES];
	unsigned int nr_bounds, i;

	*res = (struct ram_map_result){ 0 };
	if (n > RAM_MAP_MAX_ENTRIES)
		n = RAM_MAP_MAX_ENTRIES;
	for (i = 1; i < n; i++)
		if (entries[i].start < entries[i - 1].start)
			res->unsorted = true;
	nr_bounds = boundaries(entries, n, bounds);
	for (i = 0; i + 1 < nr_bounds; i++)
		if (piece_is_ram(entries, n, bounds[i], bounds[i + 1], res))
			add_ram(&b, bounds[i], bounds[i + 1]);
}
