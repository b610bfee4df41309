"""tests/suite/builds.py - the two kernel builds the suite tests.

`make test` builds the kernel twice: PARAVIRT=y in build/ (the table of
ops, the patcher, the backends) and PARAVIRT=n in build/nopv/ (the same
source with every op compiled inline).  Each boots to a "ready" line
that names its backend.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Build:
    """One of the two kernel builds and what its boot must say."""
    paravirt: str   # "y" or "n", as given to make
    dir: str
    ready: str      # how its "ready" line starts

    @property
    def elf(self):
        return f"{self.dir}/pv386.elf"

    @property
    def iso(self):
        return f"{self.dir}/pv386.iso"

    @property
    def test_iso(self):
        return f"{self.dir}/pv386-test.iso"

    def make(self, target):
        return f"make PARAVIRT={self.paravirt} {target}"


Y = Build("y", "build", "pv386 ready: backend=native")
N = Build("n", "build/nopv", "pv386 ready: backend=inline (PARAVIRT=n)")
BUILDS = {"y": Y, "n": N}

USER_PROGRAM_DIR = "build/user"     # the ELF files both kernels pack
