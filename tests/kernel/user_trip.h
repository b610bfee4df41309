/*
 * user_trip.h - a round trip to ring 3 and back, for the tests of the
 * iret and irq_enable_sysexit ops (see user_trip.S, test_usermode.c).
 */
#ifndef TESTS_USER_TRIP_H
#define TESTS_USER_TRIP_H

#define TRIP_BY_IRET		0
#define TRIP_BY_SYSEXIT		1
#define USER_TRIP_VECTOR	0x81	/* the user code's way back: int $0x81 */
#define USER_TRIP_MAGIC		0x600dc0de

#ifndef __ASSEMBLER__
int user_trip(int method);
void user_trip_resume(int result) __attribute__((noreturn));
extern char user_trip_stack_top[];
#endif

#endif
