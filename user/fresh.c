/*
 * fresh.c - what a new task starts with: nothing of any task before it.
 *
 * The argument says what to do:
 *
 *   plant   fill every piece of per-task CPU state this program can
 *           reach with values of its own (below), leave an unmasked x87
 *           error pending, and exit: the next task starts after a dead
 *           one.
 *   hold    plant the same (without the pending error), then start
 *           `fresh check` and wait for it: the child starts while this
 *           task is alive and still owns the FPU.  Afterwards its own
 *           values must all be back.  Exit status: the child's, or
 *           HOLD_LOST when its own state was not given back.
 *   check   check the state this task was started with:
 *             1   general registers: all 0, but EAX (sysenter or not)
 *                 and ESP (the top of the stack, 0xc0000000)
 *             2   segment registers: user CS, DS = ES = SS, FS = GS = 0
 *             4   EFLAGS: IF and the reserved bit 1, nothing else
 *             8   x87 control: FCW 0x37f, FSW 0, every register empty,
 *                 no last-instruction or operand pointer
 *            16   x87/MMX registers: all eight zero
 *            32   SSE: MXCSR 0x1f80, XMM0-XMM7 zero
 *            64   1.0 / 0.0 is +infinity on the x87 and in SSE (a
 *                 leaked unmasked control word kills the task instead)
 *           128   descriptors: no GDT entry but the user's code and data
 *                 open to ring 3, no LDT entry at all
 *           256   the four watchpoint slots are free (and the writes
 *                 to what plant watched raise nothing: the test reads
 *                 the kernel's log for that)
 * Each with "-nofpu" appended (check-nofpu, ...) leaves the FPU alone:
 * where there is none (a 386 without a 387, `nofpu`) it would be killed.
 *
 * What plant fills: all 8 x87 registers (which are the MMX registers),
 * an x87 control word with every exception unmasked and rounding toward
 * zero, XMM0-XMM7 and MXCSR likewise (where the kernel runs SSE), the
 * three TLS slots of the GDT, every LDT slot, all four watchpoints, and
 * %fs and %gs loaded with its own selectors.
 *
 * The first floating-point instruction of check is the save of the
 * whole FPU (fxsave, or fnsave before FXSR), so the state it reads is
 * the one the kernel handed over, untouched.
 */
#include "lib/pv386.h"

#define HOLD_LOST	512
#define USER_END	0xc0000000u
#define FLAGS_IF	0x200
#define FLAGS_FIXED	0x2
#define FCW_DEFAULT	0x037f		/* fninit's: all masked, nearest, 64-bit */
#define FCW_PLANTED	0x0f40		/* nothing masked, toward zero, 64-bit
				   (bit 6 is reserved and reads as 1) */
#define MXCSR_DEFAULT	0x1f80		/* all masked, nearest */
#define MXCSR_PLANTED	0x6000		/* nothing masked, toward zero */
#define FLOAT_INF	0x7f800000u	/* +infinity, as a float's bits */
#define CPUID_MMX	(1u << 23)
#define CPUID_FXSR	(1u << 24)
#define CPUID_SSE	(1u << 25)
#define GDT_INDEXES	8192
#define LDT_SLOTS	8
#define SELECTOR_LDT	4
#define WATCHPOINTS	4

static int status;
static uint32_t features;
static int with_fpu;		/* 0: the argument ended in -nofpu */

/* The FPU's image, as fxsave (512 bytes) or fnsave (108) writes it. */
static uint8_t fpu_image[512] __attribute__((aligned(16)));
static uint8_t segment_memory[4096];
static volatile uint32_t watched[WATCHPOINTS];

static void wrong(int bit, const char *what, uint32_t got, uint32_t want)
{
	printf("fresh: %s is %x, a fresh task must have %x\n", what, got, want);
	status |= bit;
}

static void expect(int bit, const char *what, uint32_t got, uint32_t want)
{
	if (got != want)
		wrong(bit, what, got, want);
}

static int has(uint32_t feature)
{
	return (features & feature) != 0;
}

static uint32_t load32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t load16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

/* ---- plant ---- */

/* Eight x87 registers (st0 = 8 ... st7 = 1), the control word, and
 * with `pending`, 8 / 0 with the error unmasked: nothing raises it until
 * this task's next waiting FPU instruction, which never comes. */
static void plant_x87(int pending)
{
	static const int32_t values[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int32_t zero;
	uint16_t fcw = FCW_PLANTED;

	asm volatile("fninit\n\t"
		     "fildl 0(%0); fildl 4(%0); fildl 8(%0); fildl 12(%0)\n\t"
		     "fildl 16(%0); fildl 20(%0); fildl 24(%0); fildl 28(%0)\n\t"
		     "fldcw %1"
		     : : "r" (values), "m" (fcw) : "memory");
	if (pending)
		asm volatile("fidivl %0" : : "m" (zero));	/* st0 / 0: pending #MF */
}

/* XMMn = n + 1 in every lane; MXCSR unmasked, toward zero. */
static void plant_sse(void)
{
	static const uint32_t lanes[8][4] = {
		{ 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 }, { 4, 4, 4, 4 },
		{ 5, 5, 5, 5 }, { 6, 6, 6, 6 }, { 7, 7, 7, 7 }, { 8, 8, 8, 8 },
	};
	uint32_t mxcsr = MXCSR_PLANTED;

	asm volatile("movups 0(%0), %%xmm0; movups 16(%0), %%xmm1\n\t"
		     "movups 32(%0), %%xmm2; movups 48(%0), %%xmm3\n\t"
		     "movups 64(%0), %%xmm4; movups 80(%0), %%xmm5\n\t"
		     "movups 96(%0), %%xmm6; movups 112(%0), %%xmm7\n\t"
		     "ldmxcsr %1"
		     : : "r" (lanes), "m" (mxcsr) : "memory");
}

static void plant_segments(void)
{
	int slot, tls[3];

	for (slot = 0; slot < 3; slot++)
		tls[slot] = set_tls(slot, segment_memory, sizeof(segment_memory));
	for (slot = 0; slot < LDT_SLOTS; slot++)
		set_ldt(slot, segment_memory, sizeof(segment_memory));
	asm volatile("movl %0, %%fs; movl %1, %%gs" : : "r" (tls[0]), "r" (tls[1]));
}

static void plant(int pending)
{
	int i;

	plant_segments();
	for (i = 0; i < WATCHPOINTS; i++)
		watch((void *)&watched[i], 4);
	if (!with_fpu)
		return;
	if (has(CPUID_SSE))
		plant_sse();
	plant_x87(pending);	/* last: nothing may meet its pending error */
}

/* After the child: the control words, the eight x87 registers (8 down
 * to 1 from st0) and XMM7 are still this task's. */
static int held(void)
{
	uint32_t mxcsr = 0, xmm7[4] = { 0 };
	int32_t st[8];
	uint16_t fcw = 0;
	int i;

	if (!with_fpu)
		return 1;
	asm volatile("fnstcw %0" : "=m" (fcw));
	asm volatile("fistpl 0(%0); fistpl 4(%0); fistpl 8(%0); fistpl 12(%0)\n\t"
		     "fistpl 16(%0); fistpl 20(%0); fistpl 24(%0); fistpl 28(%0)"
		     : : "r" (st) : "memory");
	for (i = 0; i < 8; i++)
		if (st[i] != 8 - i)
			return 0;
	if (fcw != FCW_PLANTED)
		return 0;
	if (!has(CPUID_SSE))
		return 1;
	asm volatile("stmxcsr %0; movups %%xmm7, %1" : "=m" (mxcsr), "=m" (xmm7));
	return mxcsr == MXCSR_PLANTED && xmm7[0] == 8 && xmm7[3] == 8;
}

static int hold(void)
{
	int pid, child_status = -1;

	plant(0);
	pid = spawn("fresh", with_fpu ? "check" : "check-nofpu");
	if (pid < 0 || wait(pid, &child_status) != pid)
		return HOLD_LOST;
	return child_status | (held() ? 0 : HOLD_LOST);
}

/* ---- check ---- */

static void check_registers(void)
{
	const struct entry_state *e = &entry_state;

	expect(1, "EAX (sysenter flag)", e->eax, have_sysenter());
	expect(1, "EBX", e->ebx, 0);
	expect(1, "ECX", e->ecx, 0);
	expect(1, "EDX", e->edx, 0);
	expect(1, "ESI", e->esi, 0);
	expect(1, "EDI", e->edi, 0);
	expect(1, "EBP", e->ebp, 0);
	expect(1, "ESP", e->esp, USER_END);
	if ((e->cs & 3) != 3)
		wrong(2, "CS", e->cs, e->cs | 3);
	if ((e->ds & 3) != 3)
		wrong(2, "DS", e->ds, e->ds | 3);
	expect(2, "ES", e->es, e->ds);
	expect(2, "SS", e->ss, e->ds);
	expect(2, "FS", e->fs, 0);
	expect(2, "GS", e->gs, 0);
	expect(4, "EFLAGS", e->eflags, FLAGS_IF | FLAGS_FIXED);
}

/* 10-byte registers at offset, stride apart: all must be zero. */
static void check_fpu_registers(unsigned int offset, unsigned int stride)
{
	int i, b;

	for (i = 0; i < 8; i++)
		for (b = 0; b < 10; b++)
			if (fpu_image[offset + i * stride + b]) {
				printf("fresh: x87 register %d is not zero\n", i);
				status |= 16;
				break;
			}
}

/* fxsave's layout: FCW, FSW, abridged tag (0: all empty), FOP, FIP,
 * FDP; MXCSR at 24; the registers at 32, 16 bytes apart; XMM at 160. */
static void check_fxsave_image(void)
{
	int i;

	asm volatile("fxsave %0" : "=m" (fpu_image));
	expect(8, "FCW", load16(fpu_image), FCW_DEFAULT);
	expect(8, "FSW", load16(fpu_image + 2), 0);
	expect(8, "tag word (abridged)", fpu_image[4], 0);
	expect(8, "last opcode", load16(fpu_image + 6), 0);
	expect(8, "last instruction pointer", load32(fpu_image + 8), 0);
	expect(8, "last operand pointer", load32(fpu_image + 16), 0);
	check_fpu_registers(32, 16);
	if (!has(CPUID_SSE))
		return;
	expect(32, "MXCSR", load32(fpu_image + 24), MXCSR_DEFAULT);
	for (i = 0; i < 8; i++)
		if (load32(fpu_image + 160 + 16 * i) || load32(fpu_image + 164 + 16 * i) ||
		    load32(fpu_image + 168 + 16 * i) || load32(fpu_image + 172 + 16 * i)) {
			printf("fresh: XMM%d is not zero\n", i);
			status |= 32;
		}
}

/* fnsave's (32-bit protected mode): FCW, FSW, tag word (0xffff: all
 * empty), FIP, FOP, FDP in 32-bit fields whose upper halves are
 * reserved; the registers at 28, 10 bytes apart. */
static void check_fnsave_image(void)
{
	asm volatile("fnsave %0" : "=m" (fpu_image));
	expect(8, "FCW", load16(fpu_image), FCW_DEFAULT);
	expect(8, "FSW", load16(fpu_image + 4), 0);
	expect(8, "tag word", load16(fpu_image + 8), 0xffff);
	expect(8, "last instruction pointer", load32(fpu_image + 12), 0);
	expect(8, "last opcode", load16(fpu_image + 18) & 0x7ff, 0);
	expect(8, "last operand pointer", load32(fpu_image + 20), 0);
	check_fpu_registers(28, 10);
	asm volatile("frstor %0" : : "m" (fpu_image));	/* fnsave reset it */
}

static void check_mmx(void)
{
	uint32_t mm[8][2];
	int i;

	asm volatile("movq %%mm0, 0(%0); movq %%mm1, 8(%0); movq %%mm2, 16(%0)\n\t"
		     "movq %%mm3, 24(%0); movq %%mm4, 32(%0); movq %%mm5, 40(%0)\n\t"
		     "movq %%mm6, 48(%0); movq %%mm7, 56(%0); emms"
		     : : "r" (mm) : "memory");
	for (i = 0; i < 8; i++)
		if (mm[i][0] || mm[i][1]) {
			printf("fresh: MM%d is %x%08x, not zero\n", i, mm[i][1], mm[i][0]);
			status |= 16;
		}
}

/* 1 / 0 with the control words as given: +infinity, masked. */
static void check_divide_by_zero(void)
{
	static const float one = 1.0f, zero = 0.0f;
	uint32_t x87 = 0, sse = 0;

	asm volatile("flds %1; fdivs %2; fstps %0" : "=m" (x87) : "m" (one), "m" (zero));
	expect(64, "x87 1.0 / 0.0", x87, FLOAT_INF);
	if (!has(CPUID_SSE))
		return;
	asm volatile("movss %1, %%xmm0; divss %2, %%xmm0; movss %%xmm0, %0"
		     : "=m" (sse) : "m" (one), "m" (zero));
	expect(64, "SSE 1.0 / 0.0", sse, FLOAT_INF);
}

static void check_fpu(void)
{
	if (has(CPUID_FXSR))
		check_fxsave_image();
	else
		check_fnsave_image();
	if (has(CPUID_MMX))
		check_mmx();
	check_divide_by_zero();
}

/* lar from ring 3 succeeds only for a descriptor ring 3 may use. */
static int usable_by_ring3(uint32_t selector)
{
	uint32_t rights;
	uint8_t ok;

	asm volatile("larl %2, %0; setz %1" : "=r" (rights), "=q" (ok) : "r" (selector));
	return ok;
}

static void check_descriptors(void)
{
	uint32_t index, sel;

	for (index = 1; index < GDT_INDEXES; index++) {
		sel = index << 3 | 3;
		if (usable_by_ring3(sel) && sel != entry_state.cs && sel != entry_state.ds)
			wrong(128, "a GDT selector open to ring 3", sel, 0);
	}
	for (index = 0; index < LDT_SLOTS; index++) {
		sel = index << 3 | SELECTOR_LDT | 3;
		if (usable_by_ring3(sel))
			wrong(128, "an LDT selector open to ring 3", sel, 0);
	}
}

/* The writes hit what plant watched, at the same addresses: a
 * watchpoint left armed would make the kernel report them ("task N
 * (fresh): watchpoint ...", which the test looks for).  Then all four
 * slots must be free. */
static void check_watchpoints(void)
{
	int i;

	for (i = 0; i < WATCHPOINTS; i++)
		watched[i] = i;
	for (i = 0; i < WATCHPOINTS; i++)
		expect(256, "the watchpoint slot given", watch((void *)&watched[i], 4), i);
}

static int check(void)
{
	if (with_fpu)
		check_fpu();	/* first: no FPU instruction ran before it */
	check_registers();
	check_descriptors();
	check_watchpoints();
	printf("fresh: check%s: %s\n", with_fpu ? "" : " (no FPU)",
	       status ? "WRONG" : "all clean");
	return status;
}

int main(void)
{
	char arg[16];
	size_t len;

	getarg(arg, sizeof(arg));
	features = cpu_features();
	len = strlen(arg);
	with_fpu = len < 6 || strcmp(arg + len - 6, "-nofpu");
	if (!with_fpu)
		arg[len - 6] = '\0';
	if (!strcmp(arg, "plant")) {
		plant(1);
		return 0;
	}
	if (!strcmp(arg, "hold"))
		return hold();
	if (!strcmp(arg, "check"))
		return check();
	printf("fresh: argument plant, hold or check, each with -nofpu or not\n");
	return 1;
}
