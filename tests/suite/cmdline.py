"""tests/suite/cmdline.py - boot options reach the kernel and do what they say.

  cmdline-*        Boot options reach the kernel: an unknown one is
                   reported, hz=N sets the timer (known divisors), test=word
                   filters tests; hz= at and just past each end of its
                   range, in decimal and hex, overflowing, empty, bare.
  nofpu-*          With `nofpu` (CR0.EM), a task using the FPU is killed
                   alone, with the reason; a new task still starts with
                   nothing of the one before it.
  cmdline-fpu-*    fpu=eager switches the FPU eagerly where the backend
                   would have it lazy (the last fpu= counts), and the FPU
                   tests hold; a bad value is reported and leaves the
                   backend's choice.
  cmdline-cures-off-y  The options that turn a guest's cures off for make
                   bench, all at once: the host's nofastswitch,
                   noshadowshare, noshadowspares and noprefill, the
                   guest's nolazycpu, noinlineflags and fpu=lazy (in
                   guest=, '+' for a space); each is said to be in force,
                   and the guest's tests of tasks' own state pass.
  vm86-iret-*      Under QEMU, whose TCG lets an iret from ring 3 enter
                   virtual-8086 mode, the task that does it is killed
                   alone (Bochs refuses the iret with #GP: its ktest rows
                   check that path).

Each row boots the ELF in QEMU with its options and a test= filter, and
judges the in-kernel run as ktest.py does, plus the lines it must print.
"""

from .builds import BUILDS, Y
from .guest import guest_matrix
from .harness import Test
from .ktest import qemu_ktest

# Boot options on the QEMU command line, and lines they must produce.
# hz= takes 19-10000, decimal or 0x-hex; each divisor is worked out by
# hand (1193182 Hz / hz, rounded).  A rejected value leaves the default.
HZ_REJECTED = ["18", "10001", "", "0x", "0x12", "0x2711", "4294967396",
               "0x100000064", "1e2", "-1", "19x"]
CMDLINE_CHECKS = [
    {
        "name": "cmdline-qemu-y",
        "build": "y",
        "append": "test=cmdline hz=250 no_such_option",
        "expect": ["cmdline: unknown option 'no_such_option' ignored",
                   "timer: PIT at 250 Hz (divisor 4773)"],
    },
    {   # Each value just outside the range, or not a number, or one that
        # only fits in 32 bits if it wraps (2^32 + 100, 0x1_0000_0064).
        "name": "cmdline-hz-rejected-y",
        "build": "y",
        "append": "test=cmdline " + " ".join(f"hz={v}" for v in HZ_REJECTED),
        "expect": [f"cmdline: bad value '{v}' for 'hz' ignored" for v in HZ_REJECTED]
        + ["timer: PIT at 100 Hz (divisor 11932)"],
    },
    {   # The lowest rate; a bare `hz` (no value) after it changes nothing.
        "name": "cmdline-hz-19-y",
        "build": "y",
        "append": "test=timer hz=19 hz",
        "expect": ["cmdline: bad value '' for 'hz' ignored",
                   "timer: PIT at 19 Hz (divisor 62799)"],
    },
    {   # Control bytes in the command line (a web page's link sets it) are
        # echoed as \xNN, on every console: raw, an ESC sequence would
        # drive the terminal reading COM1, and a CR would start a fake
        # line (the page once took "x\rpv386 ready: ..." for the ready
        # line).  The row also checks the words the parser warns about.
        "name": "cmdline-control-bytes-escaped-y",
        "build": "y",
        "append": "test=cmdline \x1b[31mred\x1b]8;;http://x\x07 x\rpv386\x7f\x9b",
        "expect": [f"pv386: booted by qemu, command line '{BUILDS['y'].elf} test=cmdline "
                   "\\x1b[31mred\\x1b]8;;http://x\\x07 x\\x0dpv386\\x7f\\xc2\\x9b'$",
                   "cmdline: unknown option '\\x1b[31mred\\x1b]8;;http://x\\x07' ignored",
                   "cmdline: unknown option 'x\\x0dpv386\\x7f\\xc2\\x9b' ignored"],
    },
    {
        "name": "cmdline-hz-10000-y",
        "build": "y",
        "append": "test=timer hz=10000",
        "expect": ["timer: PIT at 10000 Hz (divisor 119)"],
    },
    {
        "name": "cmdline-hz-hex-10000-n",
        "build": "n",
        "append": "test=timer hz=0x2710",
        "expect": ["timer: PIT at 10000 Hz (divisor 119)"],
    },
    {
        "name": "cmdline-hz-hex-19-n",
        "build": "n",
        "append": "test=timer hz=0X13",
        "expect": ["timer: PIT at 19 Hz (divisor 62799)"],
    },
    # Without an FPU (CR0.EM, as on a 386 without a 387) a task's first
    # FPU instruction kills that task alone (tests/kernel/test_user_state.c).
    {
        "name": "nofpu-y",
        "build": "y",
        "append": "test=user_fpu nofpu",
        "expect": ["fpu: off (nofpu): CR0.EM set, a task using floating point is killed"],
    },
    # ... and a new task starts clean there too, FPU aside
    # (tests/kernel/test_fresh_task.c).
    {
        "name": "nofpu-fresh-task-y",
        "build": "y",
        "append": "test=fresh_task nofpu",
        "expect": ["fresh: check (no FPU): all clean",
                   "ktest: PASS fresh_task_beside_a_live_one"],
    },
    # QEMU's TCG lets an iret from ring 3 enter virtual-8086 mode, which a
    # CPU must refuse (test_user_faults.c): the in-kernel test takes the
    # path QEMU gives it, and this row makes sure that path is the one
    # that once panicked the kernel, in both builds.
    {
        "name": "vm86-iret-y",
        "build": "y",
        "append": "test=user_iret_to_vm86",
        "expect": ["ktest:   this CPU entered virtual-8086 mode from ring 3",
                   "ktest: PASS user_iret_to_vm86_kills_only_the_task"],
    },
    {
        "name": "vm86-iret-n",
        "build": "n",
        "append": "test=user_iret_to_vm86",
        "expect": ["ktest:   this CPU entered virtual-8086 mode from ring 3",
                   "ktest: PASS user_iret_to_vm86_kills_only_the_task"],
    },
    {
        "name": "nofpu-n",
        "build": "n",
        "append": "test=user_fpu nofpu",
        "expect": ["fpu: off (nofpu): CR0.EM set, a task using floating point is killed"],
    },
    # fpu= overrides the backend's choice of FPU switching (arch/x86/
    # kernel/fpu.c): natively lazy, here eager, and the FPU tests hold
    # (tests/kernel/test_fpu_mode.c reads the command line for the mode
    # it must find, test_user_state.c expects no #NM).
    {
        "name": "cmdline-fpu-eager-y",
        "build": "y",
        "append": "test=fpu fpu=lazy fpu=eager",
        "expect": ["fpu: present, switched eagerly with fxsave/fxrstor (fpu=eager)$",
                   "ktest: PASS fpu_switching_is_the_backends_unless_fpu_says",
                   "ktest: PASS fpu_switching_kept_across_a_live_switch",
                   "ktest: PASS user_fpu_state_is_per_task"],
    },
    {
        "name": "cmdline-fpu-rejected-n",
        "build": "n",
        "append": "test=fpu fpu=sometimes fpu",
        "expect": ["cmdline: bad value 'sometimes' for 'fpu' ignored (lazy or eager: "
                   "how tasks share the FPU, whatever the backend chooses)$",
                   "cmdline: bad value '' for 'fpu' ignored",
                   "fpu: present, switched lazily with fxsave/fxrstor$",
                   "ktest: PASS fpu_switching_is_the_backends_unless_fpu_says",
                   "ktest: PASS user_fpu_state_is_per_task"],
    },
]


def option_test(check):
    """The Test of one CMDLINE_CHECKS row (sysfuzz.py makes rows too)."""
    return Test(check["name"], qemu_ktest, (BUILDS[check["build"]], "qemu32"),
                {"append": check["append"], "expect": check["expect"]})


# The cures' options (docs/guest.md, "What it costs"): a host and its
# guest, each with its own, and the line each prints when in force.
CURES_OFF_GUEST = "test=per_task+nolazycpu+noinlineflags+fpu=lazy"
CURES_OFF_EXPECT = [
    "paravirt: guest without its lazy CPU mode (nolazycpu): "
    "each op of a context switch calls the host$",
    "paravirt: guest flag ops called, not inline (noinlineflags)$",
    "fpu: present, switched lazily with fxsave/fxrstor (fpu=lazy)$",
    "ktest: PASS user_tls_is_per_task", "ktest: PASS user_fpu_state_is_per_task",
]
CURES_OFF_HOST_OPTIONS = "nofastswitch noshadowshare noshadowspares noprefill"
CURES_OFF_HOST_EXPECT = ["host: the Switcher's fast context switch is off (nofastswitch): "
                         "every context_switch hypercall exits to the host$",
                         "host: the guest's kernel tables are not shared among its shadows "
                         "(noshadowshare): each shadow fills its own$",
                         "host: the guest's shadows keep no spare frames (noshadowspares): "
                         "each frame goes back to the host at once$",
                         "host: the guest's changed page-table entries are not made again "
                         "(noprefill): each is forgotten$"]


def tests():
    return [option_test(check) for check in CMDLINE_CHECKS] + [
        Test("cmdline-cures-off-y", guest_matrix, (Y, "qemu32"),
             {"guest": CURES_OFF_GUEST, "expect": CURES_OFF_EXPECT,
              "host_options": CURES_OFF_HOST_OPTIONS, "host_expect": CURES_OFF_HOST_EXPECT})]
