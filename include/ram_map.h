/*
 * ram_map.h - turns a loader's memory map into the RAM the kernel may use
 * (kernel/ram_map.c).
 *
 * A firmware map may list its entries in any order, and entries may
 * overlap, even RAM with reserved.  The kernel wants the opposite: sorted,
 * disjoint RAM regions, with anything a reserved entry also claims left
 * out.  Pure computation, so the native tests and the fuzzer run it too.
 */
#ifndef PV386_RAM_MAP_H
#define PV386_RAM_MAP_H

#include <bootinfo.h>

/* One entry of a loader's map: [start, end), RAM or anything else. */
struct ram_map_entry {
	u64 start, end;
	bool ram;
};

/* What ram_map_build found besides the regions themselves. */
struct ram_map_result {
	unsigned int nr;	/* regions stored */
	unsigned int lost;	/* RAM regions below limit that did not fit */
	u64 ram_bytes;		/* all RAM, stored, lost and above limit */
	u64 above_limit_bytes;	/* RAM at or above limit: never stored */
	u64 overlap_bytes;	/* bytes claimed by more than one entry */
	bool unsorted;		/* entries were not in address order */
};

/* At most this many entries: the boundaries take 2 * n words of stack. */
#define RAM_MAP_MAX_ENTRIES	64

/* Fill out[0..max) with the sorted, disjoint, merged RAM below limit. */
void ram_map_build(const struct ram_map_entry *entries, unsigned int n,
		   u64 limit, struct mem_region *out, unsigned int max,
		   struct ram_map_result *res);

#endif
