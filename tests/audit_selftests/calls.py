#!/usr/bin/env python3
"""tests/audit_selftests/calls.py - tools/audit-calls can both fail and pass.

Each case is a tiny source tree - a door header, the door's list of
names, and a few C files under arch/x86/, kernel/ and tests/kernel/,
compiled as the kernel's are into an object folder - with the verdict
we know is right:
  clean        kernel calls arch, arch calls a door function back -> 0
  past-door    arch calls a kernel function the door does not name -> 1
  widened      the door header includes a header that declares a
               kernel function the list does not name; nobody calls
               it yet, but the door is wider than its list         -> 1
  not-kernel   the included header declares only arch and inline
               functions: no way into kernel/, not a widening       -> 0
  stale        the list names a function no kernel file defines    -> 1
  kernel-loop  two kernel files call each other                   -> 1
  arch-loop    two arch files call each other                     -> 1
  sched-task   kernel/sched and kernel/task call each other: one unit -> 0
  callback     arch takes a kernel function's address, never calls it
               by name, and the kernel calls arch: no loop        -> 0
  test-code    a kernel file calls into tests/kernel/             -> 1
  host-door    kernel calls a host function its public header lacks -> 1
  host-room    host files call each other, kernel calls the public one,
               a test calls a private one                          -> 0
  empty        no objects at all                                  -> 2
"""

import os
import subprocess
import sys

from harness import SelfTest

DOOR = """
#include <wide.h>
void schedule(void);		/* the one function arch may call back */
"""
DOOR_LIST = "# the door\nschedule   # arch's way back\n"

# Files every case starts from: the kernel calls arch, arch calls the
# door's schedule() back - a loop through the door, which is allowed.
BASE = {
    "kernel/sched.c": "void arch_switch(void); void schedule(void) { arch_switch(); }",
    "arch/x86/process.c": "void schedule(void); void arch_switch(void) {}\n"
                          "void arch_exit(void) { schedule(); }",
}

CASES = [
    ("clean", {}, 0, "clean: calls through the door only", r": clean$"),
    ("past-door", {
        "kernel/task.c": "void task_kill(void) {}",
        "arch/x86/traps.c": "void task_kill(void); void trap(void) { task_kill(); }",
    }, 1, "past-door: arch calling task_kill, which the door lacks, is caught",
     r"arch/x86/traps calls kernel/task outside the door .*: task_kill"),
    ("widened", {
        "include/wide.h": "void task_kill(void);",
        "kernel/task.c": "void task_kill(void) {}",
    }, 1, "widened: a header change that opens task_kill past the list is caught",
     r"widen the door: .*: task_kill$"),
    ("not-kernel", {
        "include/wide.h": "void arch_switch(void);\n"
                          "static inline int twice(int x) { return x + x; }",
    }, 0, "not-kernel: an arch or inline function in the door's headers is no widening",
     r": clean$"),
    ("stale", {
        "include/door.list": DOOR_LIST + "task_kill\n",
    }, 1, "stale: a listed name that no kernel file defines is caught",
     r"names functions no kernel file defines: task_kill$"),
    ("kernel-loop", {
        "kernel/exec.c": "void spawn(void); void exec(void) { spawn(); }",
        "kernel/spawn.c": "void exec(void); void spawn(void) { exec(); }",
    }, 1, "kernel-loop: two kernel files calling each other are caught",
     r"a call loop of 2 files"),
    ("arch-loop", {
        "arch/x86/traps.c": "void fpu(void); void trap(void) { fpu(); }",
        "arch/x86/fpu.c": "void trap(void); void fpu(void) { trap(); }",
    }, 1, "arch-loop: two arch files calling each other are caught",
     r"arch/x86/fpu -> arch/x86/traps: trap"),
    ("sched-task", {
        "kernel/task.c": "void schedule(void); void task_exit(void) { schedule(); }",
        "kernel/sched.c": "void arch_switch(void); void task_exit(void);\n"
                          "void schedule(void) { arch_switch(); }\n"
                          "void reap(void) { task_exit(); }",
    }, 0, "sched-task: the scheduler and its task table are one unit", r": clean$"),
    ("callback", {
        "kernel/main.c": "void timer_init(void (*f)(void)); void tick(void) {}\n"
                         "void kmain(void) { timer_init(tick); }",
        "arch/x86/timer.c": "static void (*handler)(void);\n"
                            "void timer_init(void (*f)(void)) { handler = f; }\n"
                            "void irq0(void) { handler(); }",
    }, 0, "callback: a function given at init is not a call by name", r": clean$"),
    ("test-code", {
        "kernel/main.c": "void ktest_hook(void); void kmain(void) { ktest_hook(); }",
        "tests/kernel/hook.c": "void ktest_hook(void) {}",
    }, 1, "test-code: the kernel calling test code is caught",
     r"kernel/main calls test code tests/kernel/hook: ktest_hook"),
    ("host-door", {
        "arch/x86/host/shadow.c": "void shadow_fill(void) {}",
        "kernel/host.c": "void shadow_fill(void); void guest_thread(void) { shadow_fill(); }",
    }, 1, "host-door: the kernel calling a function of the host's private side is caught",
     r"kernel/host calls arch/x86/host/shadow outside the host's door .*: shadow_fill"),
    ("host-room", {
        "arch/x86/host/shadow.c": "void shadow_fill(void) {}",
        "arch/x86/host/run.c": "void shadow_fill(void); void guest_run(void) { shadow_fill(); }",
        "kernel/host.c": "void guest_run(void); void guest_thread(void) { guest_run(); }",
        "tests/kernel/test_shadow.c": "void shadow_fill(void); void t(void) { shadow_fill(); }",
    }, 0, "host-room: calls inside the host, through its door, and from tests pass",
     r": clean$"),
]

HOST_DOOR = """
void guest_run(void);		/* the host's one public function here */
"""


def build_tree(test, name, files):
    """The case's tree and object folder; (root, objects) or None."""
    root = test.scratch(name)
    objects = os.path.join(root, "obj")
    os.makedirs(os.path.join(root, "include"))
    for path, text in (("door.h", DOOR), ("door.list", DOOR_LIST), ("host.h", HOST_DOOR),
                       ("wide.h", "")):
        with open(os.path.join(root, "include", path), "w") as f:
            f.write(text)
    for path, source in files.items():
        if not path.endswith(".c"):
            with open(os.path.join(root, path), "w") as f:
                f.write(source + "\n")
            continue
        source_path = os.path.join(root, path)
        obj = os.path.join(objects, path[:-2] + ".o")
        os.makedirs(os.path.dirname(source_path), exist_ok=True)
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        with open(source_path, "w") as f:
            f.write(source + "\n")
        proc = subprocess.run(["gcc", "-m32", "-O2", "-fno-pic", "-c", source_path,
                               "-o", obj], capture_output=True, text=True)
        if proc.returncode != 0:
            test.failed(f"could not compile {name}/{path}", proc.stdout + proc.stderr)
            return None
    return root, objects


def main():
    test = SelfTest("audit-calls")
    for name, files, status, what, pattern in CASES:
        built = build_tree(test, name, {**BASE, **files})
        if built:
            root, objects = built
            test.expect(objects, status, what, pattern,
                        options=("--root", root, "--door", "include/door.h",
                                 "--door-list", "include/door.list",
                                 "--host-door", "include/host.h"))
    empty = test.scratch("empty")
    os.makedirs(empty)
    test.expect(empty, 2, "empty: no objects is an error, not a pass",
                r"error: no kernel objects", options=("--root", empty))
    return test.finish()


if __name__ == "__main__":
    sys.exit(main())
