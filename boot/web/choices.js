// boot/web/choices.js - the page's boot menu: GRUB's choices (boot/grub.cfg),
// each a kernel command line and at most one Multiboot module, which v86
// takes as its `cmdline` and `initrd` options.
//
// Two differences from GRUB's menu, both because of v86 (docs/web.md):
// the suites leave out the two tests whose ring-3 iret makes v86 itself
// panic (notest=), and the guest also has an interactive choice, its own
// shell, since a page is for trying things.  The last choice keeps those
// two tests in, to show what the page does when the emulator stops.

// The in-kernel tests that stop v86 instead of raising #GP: two ring-3
// irets, one to a ring-0 code segment, one whose frame's CS lies beyond
// the GDT (docs/v86-bugs.md).  tests/suite/gaps/v86.py's LEFT_OUT is the
// list with the reasons; web-choices-leave-out-v86s-panics holds the two
// the same.
export const V86_STOPPERS = "priv:iret_to_kernel,crash:vm86_iret";

// What a choice's module is: the ops ROM, or the kernel itself as a guest.
export const MODULES = {
  rom: "kernel/pvrom.bin",
  kernel: "kernel/pv386.elf",
};

// id: the URL's ?boot= name.  shell: it ends at the shell (not a suite
// that exits).  module: a key of MODULES.
export const CHOICES = [
  { id: "native", label: "pv386 (native backend)", cmdline: "", shell: true,
    about: "The default: every patch site is the CPU's own instruction, inline." },
  { id: "trace", label: "pv386, trace backend (pv=trace)", cmdline: "pv=trace", shell: true,
    about: "Every op is counted: each site is a direct call to a counting stub." },
  { id: "rom", label: "pv386, ops ROM backend (pv=rom)", cmdline: "pv=rom", module: "rom",
    shell: true,
    about: "The ops come from build/pvrom.bin, a separate binary given as a Multiboot module " +
      "(VMI-style)." },
  { id: "nopatch", label: "pv386, sites left unpatched (nopatch)", cmdline: "nopatch", shell: true,
    about: "Every site stays an indirect call through the table: slower, still correct." },
  { id: "guest", label: "pv386 hosting pv386: the guest boots to its shell", cmdline: "guest=",
    module: "kernel", shell: true,
    about: "The kernel is its own module and runs at ring 1 under itself. Its lines come out as " +
      "'guest: ...'; the host's shell is yours: type `guest console help` to talk to the guest." },
  { id: "guest-test", label: "pv386 hosting pv386, the guest runs the test suite",
    cmdline: `guest=test+notest=${V86_STOPPERS} guestexit`, module: "kernel",
    about: "The in-kernel suite in a ring-1 guest; the machine exits when it ends. Some " +
      "tests fail where v86 is not a real CPU (docs/web.md lists them)." },
  { id: "test", label: "pv386 test suite", cmdline: `test notest=${V86_STOPPERS}`,
    about: "The in-kernel suite (about 30 s in a browser); the machine exits when it ends. Some tests fail " +
      "where v86 is not a real CPU (docs/web.md lists them)." },
  { id: "rom-test", label: "pv386 test suite, ops ROM backend",
    cmdline: `pv=rom test notest=${V86_STOPPERS}`, module: "rom",
    about: "The in-kernel suite with the ops ROM's table." },
  { id: "test-all", label: "pv386 test suite, with the tests that stop v86", cmdline: "test",
    about: "As on a CPU: two tests make v86 itself stop (a Rust panic), and the page says so." },
];

// The choice named id, else the first.
export function findChoice(id) {
  return CHOICES.find((c) => c.id === id) || CHOICES[0];
}
