"""audit_main: the command line the binary audits share (tools/audit-*).

tools/audit-privileged, tools/audit-sites and tools/audit-natives each
judge a linked kernel ELF by their own checks; what they do around the
checks is the same, and it is here: the arguments (ELF files, the
PARAVIRT=y kernel build/pv386.elf by default, never built here: the
caller chooses which kernel to build), a missing file, the exit status
and the error lines.

An audit is a function audit(path, label, options) that prints its
findings for one ELF and returns EXIT_CLEAN or EXIT_FOUND; it raises
AuditError (or binscan.BinutilsError) when the ELF cannot be audited,
including a scan that saw nothing to judge: that is exit status 2 and a
line `PROG: LABEL: error: WHY` on stderr, never a pass.  With several
ELF files the worst status wins.
"""

import argparse
import os
import sys

import binscan

EXIT_CLEAN = 0
EXIT_FOUND = 1      # a check failed: violations, problems
EXIT_ERROR = 2      # could not audit

DEFAULT_ELF = os.path.join("build", "pv386.elf")


class AuditError(Exception):
    """The ELF cannot be audited: exit 2 with this message."""


def targets(elfs, default=DEFAULT_ELF):
    """[(path, label)] to audit; the default kernel if elfs is empty."""
    if elfs:
        return [(elf, elf) for elf in elfs]
    root = binscan.repo_root()
    path = os.path.join(root, default)
    if not os.path.exists(path):
        raise AuditError(f"{default} not found; build it with `make` "
                         f"(PARAVIRT=y, the default) in {root}")
    return [(path, default)]


def main(prog, doc, audit, argv, add_options=None, default=DEFAULT_ELF):
    """Parse argv, run audit on each ELF it names; the exit status.
    doc is the tool's docstring (its --help); add_options(parser) adds
    the tool's own options; default is what to audit when argv names
    nothing (audit-calls reads a build's objects, not its ELF)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    if add_options:
        add_options(parser)
    parser.add_argument("elfs", nargs="*", metavar="ELF",
                        help=f"what to audit (default: {default})")
    options = parser.parse_args(argv)
    try:
        todo = targets(options.elfs, default)
    except AuditError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        return EXIT_ERROR
    status = EXIT_CLEAN
    for path, label in todo:
        try:
            if not os.path.exists(path):
                raise AuditError("no such file")
            status = max(status, audit(path, label, options))
        except (AuditError, binscan.BinutilsError) as err:
            print(f"{prog}: {label}: error: {err}", file=sys.stderr)
            status = max(status, EXIT_ERROR)
    return status
