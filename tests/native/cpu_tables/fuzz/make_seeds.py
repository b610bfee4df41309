#!/usr/bin/env python3
"""make_seeds.py - writes the CPU-table fuzzer's seed inputs into corpus/.

Each seed is what fuzz_cpu_tables.c reads: two words for the BIOS data
area (the EBDA's segment, base memory in KiB), then the bytes that lie
at physical 0xf0000 (and again at 0x9fc00).  The seeds are sound tables
of the shapes QEMU's SeaBIOS gives - an RSDP, RSDT and MADT; an MP
floating pointer and configuration table; both - so that the fuzzer
starts from inputs that reach every part of the parser rather than
from bytes that fail the first check.  Offsets are the specifications'
(ACPI 6.x, 5.2; MP 1.4, chapter 4).

Usage: tests/native/cpu_tables/fuzz/make_seeds.py   (rewrites corpus/)
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runner"))
import seed_corpus  # noqa: E402  (tests/native/runner/seed_corpus.py)
BASE = 0xf0000
RSDP, RSDT, FACP, MADT, MPF, MPC = 0x10, 0x30, 0x60, 0x90, 0x200, 0x210
SIZE = 0x300     # small: a mutation lands on a table's field more often


def checksummed(data, at):
    """data with the byte at `at` set so that all of it sums to 0."""
    data = bytearray(data)
    data[at] = 0
    data[at] = -sum(data) & 0xff
    return bytes(data)


def sdt(sig, body):
    head = sig + struct.pack("<IBB6s8sI4sI", 36 + len(body), 1, 0, b"BOCHS ",
                             b"BXPCAPIC", 1, b"BXPC", 1)
    return checksummed(head + body, 9)


def madt(cpus, disabled=()):
    body = struct.pack("<II", 0xfee00000, 1)
    for i in range(cpus):
        body += struct.pack("<BBBBI", 0, 8, i, i, 0 if i in disabled else 1)
    body += struct.pack("<BBBBII", 1, 12, cpus, 0, 0xfec00000, 0)      # I/O APIC
    body += struct.pack("<BBBBIH", 2, 10, 0, 0, 2, 0)                  # an override
    body += struct.pack("<BBBHB", 4, 6, 0xff, 0, 1)                    # LAPIC NMI
    return sdt(b"APIC", body)


def put_acpi(mem, cpus, disabled=()):
    rsdp = checksummed(b"RSD PTR " + struct.pack("<B6sBI", 0, b"BOCHS ", 0, BASE + RSDT), 8)
    mem[RSDP:RSDP + 20] = rsdp
    rsdt = sdt(b"RSDT", struct.pack("<II", BASE + FACP, BASE + MADT))
    mem[RSDT:RSDT + len(rsdt)] = rsdt
    table = madt(cpus, disabled)
    mem[MADT:MADT + len(table)] = table
    facp = sdt(b"FACP", bytes(0))
    mem[FACP:FACP + len(facp)] = facp


def put_mp(mem, cpus):
    entries = b""
    for i in range(cpus):
        entries += struct.pack("<BBBBIIQ", 0, i, 0x14, 3 if i == 0 else 1, 0x663, 0x781abfd, 0)
    entries += struct.pack("<BB6s", 1, 0, b"ISA   ")
    entries += struct.pack("<BBBBI", 2, cpus, 0x11, 1, 0xfec00000)
    entries += struct.pack("<BBBBBBBB", 3, 0, 0, 0, 0, 1, 0, 1)
    entries += struct.pack("<BBBBBBBB", 4, 3, 0, 0, 0, 0, 0xff, 1)
    head = b"PCMP" + struct.pack("<HBB8s12sIHHIHBB", 44 + len(entries), 4, 0,
                                 b"BOCHSCPU", b"0.1         ", 0, 0, cpus + 4,
                                 0xfee00000, 0, 0, 0)
    table = checksummed(head + entries, 7)
    mem[MPC:MPC + len(table)] = table
    mpf = checksummed(b"_MP_" + struct.pack("<IBBBB4s", BASE + MPC, 1, 4, 0, 0, bytes(4)), 10)
    mem[MPF:MPF + 16] = mpf


def seed(acpi=0, mp=0, disabled=()):
    mem = bytearray(SIZE)
    if acpi:
        put_acpi(mem, acpi, disabled)
    if mp:
        put_mp(mem, mp)
    return struct.pack("<HH", 0x9fc0, 639) + bytes(mem)


SEEDS = {
    "madt-4": seed(acpi=4),
    "madt-10-some-disabled": seed(acpi=10, disabled=(2, 5)),
    "mp-2": seed(mp=2),
    "both": seed(acpi=4, mp=4),
}


if __name__ == "__main__":
    seed_corpus.write(HERE, SEEDS)
