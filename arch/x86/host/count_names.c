/*
 * count_names.c - the names of the counts a host keeps for its guest in
 * the shared page (asm/hypercall.h, enum host_count): `guest stats`
 * prints them, and so does the guest's own bench (kernel/bench.c), whose
 * programs read the counts themselves (SYS_counts).
 */
#include <kernel.h>
#include <asm/host.h>
#include <asm/hypercall.h>
#include "host.h"

#define KIND_NAME(name)	[HOST_COUNT_##name] = #name,
static const char *const kind_names[HOST_COUNTS] = {
	GUEST_EXIT_KINDS(KIND_NAME)
	[HOST_COUNT_injected] = "injected",
};

const char *host_count_name(unsigned int i)
{
	if (i < HCALL_NR)
		return hypercall_name(i);
	return i < HOST_COUNTS ? kind_names[i] : "?";
}
