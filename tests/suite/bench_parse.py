"""tests/suite/bench_parse.py - tools/bench reads the kernel's counting lines
whole, or stops.

  bench-parse-selftest  tools/bench's reading of the lines it added for
                   the padding (a pv=trace run's "bench: padding ...")
                   and for a guest's exits by reason ("bench: host count
                   name", "host totals", "host count") takes made-up runs
                   as they should be to the right figures, and stops
                   (never a figure left out or made up) on each spoiled
                   one: a line malformed, one printed twice, one missing,
                   counts that do not add up to their totals, totals that
                   are not the "bench: exits" line's, a name missing.  No
                   emulator: make bench's runs are the bench-runs-* rows.
"""

import importlib.machinery
import importlib.util
import os

from .harness import ROOT, Test, judge_problems

# A guest's lines for two paths: the names of five counts (two hypercalls,
# two kinds of exit, one event), then each path's exits line, totals and
# counts.  context_switch: 4 iterations, 6 exits (4 write_cr3, 2 nm), 4
# hypercalls, 3 interrupts injected.
GUEST = [
    "bench: host count name 0 hypercall flush",
    "bench: host count name 1 hypercall write_cr3",
    "bench: host count name 2 exit nm",
    "bench: host count name 3 exit other",
    "bench: host count name 4 event injected",
    "bench: path syscall_int80 116.00",
    "bench: exits syscall_int80 0.00 0.00",
    "bench: host totals syscall_int80 100 0 0",
    "bench: path context_switch 1331.00",
    "bench: exits context_switch 1.50 1.00",
    "bench: host totals context_switch 4 6 4",
    "bench: host count context_switch 1 4",
    "bench: host count context_switch 2 2",
    "bench: host count context_switch 4 3",
]
# The padding run's lines for one op, the two workloads and the paths.
PADDING = [
    "bench: padding op irq_disable 1.00",
    "bench: padding workload hotpath 5.00",
    "bench: padding workload kernel 7.00",
    "bench: padding path syscall_int80 0.00",
    "bench: padding path context_switch 4.00",
]
PATCHED = {"syscall_int80": 109.0, "context_switch": 469.0}
PATHS = tuple(PATCHED)


def load_bench():
    """tools/bench as a module (a script without .py), its PATHS the two
    paths of the made-up runs."""
    loader = importlib.machinery.SourceFileLoader("tools_bench",
                                                  os.path.join(ROOT, "tools/bench"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name,
                                                                             loader))
    loader.exec_module(module)
    module.PATHS = list(PATHS)
    return module


def read(bench, guest=GUEST, padding=PADDING):
    """The made-up runs read as make bench reads its logs: (exits by
    reason, padding figures)."""
    runs = {"guest": bench.parse(guest, "made-up guest log"),
            "padding": bench.parse(padding, "made-up padding log"),
            "patched": {"path": dict(PATCHED)}}
    return bench.guest_exit_reasons(runs), bench.padding_figures(runs, ["irq_disable"])


def stops(bench, **spoiled):
    """Whether tools/bench stops on the made-up runs with spoiled lines."""
    try:
        read(bench, **spoiled)
    except SystemExit:
        return True
    return False


def spoil(lines, old, new):
    """lines with old made new: old None adds new, new None drops old."""
    if old is None:
        return lines + [new]
    return [new if x == old else x for x in lines if x != old or new is not None]


# (what is wrong, which run, the line spoiled, what it becomes)
COUNT_2 = "bench: host count context_switch 2 2"
SPOILED = [
    ("a count line malformed", "guest", COUNT_2, "bench: host count context_switch nm 2"),
    ("a name line malformed", "guest", "bench: host count name 2 exit nm",
     "bench: host count name 2 exits nm"),
    ("a count line twice", "guest", None, COUNT_2),
    ("a count line missing", "guest", COUNT_2, None),
    ("a hypercall counted as another exit", "guest", "bench: host count context_switch 1 4",
     "bench: host count context_switch 3 4"),
    ("a count of no name", "guest", None, "bench: host count context_switch 7 1"),
    ("a name missing", "guest", "bench: host count name 3 exit other", None),
    ("a path's totals missing", "guest", "bench: host totals context_switch 4 6 4", None),
    ("totals that are not the exits line's", "guest", "bench: exits context_switch 1.50 1.00",
     "bench: exits context_switch 1.60 1.00"),
    ("a padding line malformed", "padding", "bench: padding path context_switch 4.00",
     "bench: padding path context_switch four"),
    ("a path's padding missing", "padding", "bench: padding path context_switch 4.00", None),
    ("a workload's padding missing", "padding", "bench: padding workload kernel 7.00", None),
]
RUNS = {"guest": GUEST, "padding": PADDING}


def check_bench_parsing(log):
    """The made-up runs read to their figures; each spoiled one stops."""
    bench = load_bench()
    reasons, padding = read(bench)
    switch = reasons["context_switch"]
    want = ({"hypercalls": {"flush": 0, "write_cr3": 1}, "nm": 0.5, "other": 0},
            {"injected": 0.75}, 4.0, 7.0)
    got = (switch["by_reason"], switch["events"], padding["paths"]["context_switch"],
           padding["workload"])
    problems = [] if got == want else [f"the made-up runs read as {got}, not {want}"]
    problems += [f"tools/bench reads on with {what}" for what, run, old, new in SPOILED
                 if not stops(bench, **{run: spoil(RUNS[run], old, new)})]
    judge_problems(log, problems, f"the made-up runs read right; {len(SPOILED)} spoiled "
                   "ones each stop")


def tests():
    return [Test("bench-parse-selftest", check_bench_parsing)]
