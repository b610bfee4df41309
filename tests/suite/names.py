"""tests/suite/names.py - every test's name can be found with grep (suite-names).

  suite-names      Each test of tests/run and tests/matrix has a name that
                   stands whole, as a string literal, in the suite's
                   source (tests/run, tests/matrix, tests/suite/), so
                   that grep finds the row that defines it; no two tests
                   share a name (they would share a log); and the check
                   itself refuses a made-up name that no source holds.

Names built by formatting (f"ktest-qemu-{cpu}") are what this refuses:
a table lists each name whole instead.
"""

import glob
import os

from .harness import ROOT, Failure, Test

SOURCE_FILES = ["tests/run", "tests/matrix", "tests/suite/*.py", "tests/suite/*/*.py"]


def source_text():
    """The suite's source, all files as one text."""
    paths = [path for pattern in SOURCE_FILES
             for path in sorted(glob.glob(os.path.join(ROOT, pattern)))]
    texts = []
    for path in paths:
        with open(path) as f:
            texts.append(f.read())
    return "\n".join(texts)


def unwritten(names, text):
    """The names that do not stand whole, in double quotes, in text."""
    return [name for name in names if f'"{name}"' not in text]


def shared(names):
    """The names that more than one test has."""
    return sorted({name for name in names if names.count(name) > 1})


def check_names(log, *tables):
    """Every test of tables (functions that return lists of Tests) is
    named literally in the source, and once."""
    names = [test.name for table in tables for test in table()]
    text = source_text()
    problems = [f"{name}: not written whole in the suite's source (a name built "
                "by formatting? list it whole)" for name in unwritten(names, text)]
    problems += [f"{name}: the name of more than one test" for name in shared(names)]
    made_up = f"{names[0]}-made-up"
    if not unwritten([made_up], text):
        problems.append(f"the check finds the made-up name {made_up!r} in the "
                        "source: it cannot fail")
    with open(log, "w") as f:
        f.write("\n".join(problems or [f"{len(names)} names, each written whole, "
                                       "each once"]) + "\n")
    if problems:
        raise Failure(problems[0], problems[1:])


def tests(*tables):
    return [Test("suite-names", check_names, tables)]
