#!/usr/bin/env python3
"""make_seeds.py - writes the fuzzer's seed inputs into corpus/.

Each seed is what fuzz_multiboot.c reads: the loader's memory from
physical address 0, whose first four bytes hold the info block's address.
The seeds are well-formed blocks of the shapes loaders pass (QEMU with a
module, GRUB without the map's neighbours sorted, RAM above 4 GiB), so
the fuzzer starts from inputs that reach every part of the parser rather
than from bytes that fail the first check.  Offsets are the Multiboot
specification's (0.6.96, section 3.3).

Usage: tests/native/multiboot/fuzz/make_seeds.py   (rewrites corpus/)
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runner"))
import seed_corpus  # noqa: E402  (tests/native/runner/seed_corpus.py)
INFO = 0x40
CMDLINE, LOADER, MAP, MODS, MOD_STRINGS = 0x100, 0x180, 0x200, 0x400, 0x480
SIZE = 0x600      # below the fuzz target's kernel image (0x1000)

F_MEM, F_CMDLINE, F_MODS, F_MMAP, F_LOADER = 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9
RAM, RESERVED = 1, 2
QEMU_MAP = [(0, 0x9fc00, RAM), (0x9fc00, 0x400, RESERVED),
            (0xf0000, 0x10000, RESERVED), (0x100000, 0x7ee0000, RAM),
            (0x7fe0000, 0x20000, RESERVED), (0xfffc0000, 0x40000, RESERVED)]


def put(mem, addr, data):
    mem[addr:addr + len(data)] = data


def put_string(mem, addr, text):
    put(mem, addr, text.encode() + b"\0")


def put_map(mem, entries, extra=0):
    """Entries of 20 + extra bytes after the size field; returns the length."""
    pos = MAP
    for start, length, kind in entries:
        put(mem, pos, struct.pack("<IQQI", 20 + extra, start, length, kind)
            + b"\xee" * extra)
        pos += 24 + extra
    return pos - MAP


def seed(flags, cmdline="", map_entries=(), extra=0, modules=()):
    mem = bytearray(SIZE)
    put(mem, 0, struct.pack("<I", INFO))
    map_len = put_map(mem, map_entries, extra)
    put_string(mem, CMDLINE, cmdline)
    put_string(mem, LOADER, "GRUB 2.06")
    for i, (start, end, name) in enumerate(modules):
        put_string(mem, MOD_STRINGS + 0x20 * i, name)
        put(mem, MODS + 16 * i,
            struct.pack("<IIII", start, end, MOD_STRINGS + 0x20 * i, 0))
    info = struct.pack("<IIIIIII16xII12xI", flags, 639, 129920, 0, CMDLINE,
                       len(modules), MODS, map_len, MAP, LOADER)
    put(mem, INFO, info)
    return bytes(mem)


SEEDS = {
    "qemu-module": seed(F_MEM | F_CMDLINE | F_MMAP | F_LOADER | F_MODS,
                        "/boot/pv386.elf run=hello.elf", QEMU_MAP,
                        modules=[(0x200000, 0x204000, "build/user/hello.elf x"),
                                 (0x205000, 0x206000, "heap.elf")]),
    "unsorted-overlapping": seed(
        F_MEM | F_CMDLINE | F_MMAP, "test",
        [(0x2000000, 0x2000000, RAM), (0x100000, 0x2700000, RAM),
         (0, 0x9fc00, RAM), (0x3000000, 0x100000, RESERVED)], extra=4),
    "above-4g": seed(
        F_MEM | F_CMDLINE | F_MMAP | F_LOADER, "hz=250",
        [(0, 0x9fc00, RAM), (0x100000, 0xbfee0000, RAM),
         (0x100000000, 0x20000000, RAM), (0xfffffffffffff000, 0x2000, RAM)]),
    "meminfo-only": seed(F_MEM | F_CMDLINE | F_MODS, "",
                         modules=[(0x300000, 0x2ff000, "backwards")]),
}


if __name__ == "__main__":
    seed_corpus.write(HERE, SEEDS)
