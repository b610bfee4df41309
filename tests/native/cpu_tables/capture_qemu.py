#!/usr/bin/env python3
"""capture_qemu.py - writes qemu_tables.c, the native tests' fixture: the
bytes of the CPU tables SeaBIOS leaves in a QEMU machine, captured from a
real one.

It boots build/pv386.elf in `qemu-system-i386 -m 128 -smp 4`, saves
physical memory through QEMU's monitor (pmemsave) once the kernel is up,
and keeps only what a CPU-table search reads: the BIOS data area's EBDA
segment and base memory size, the EBDA's first KiB, the RSDP, the RSDT,
each table the RSDT names (whole), the MP floating pointer and its
configuration table.  Each becomes a piece {address, bytes} that
fake_memory.c lays out at its address; the rest of the fake memory is 0,
as QEMU's is where no table lies.

Usage: tests/native/cpu_tables/capture_qemu.py   (rewrites qemu_tables.c)
"""

import os
import struct
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MEMORY = 128 << 20


def dump_memory(directory):
    """Physical memory [0, 128 MiB) of a booted QEMU -smp 4 machine."""
    path = os.path.join(directory, "memory.bin")
    qemu = subprocess.Popen(
        ["qemu-system-i386", "-m", "128", "-smp", "4", "-display", "none",
         "-serial", "null", "-monitor", "stdio",
         "-kernel", os.path.join(ROOT, "build/pv386.elf")],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3)
    qemu.stdin.write(f'pmemsave 0 {MEMORY:#x} "{path}"\n'.encode())
    qemu.stdin.flush()
    time.sleep(3)
    qemu.stdin.write(b"quit\n")
    qemu.stdin.flush()
    qemu.wait(timeout=20)
    with open(path, "rb") as f:
        return f.read()


def pieces_of(mem):
    """[(address, bytes)] of what the search reads, in address order."""
    pieces = [(0x40e, mem[0x40e:0x410]), (0x413, mem[0x413:0x415])]
    ebda = struct.unpack_from("<H", mem, 0x40e)[0] << 4
    pieces.append((ebda, mem[ebda:ebda + 1024]))
    rsdp = mem.find(b"RSD PTR ", 0xe0000)
    pieces.append((rsdp, mem[rsdp:rsdp + 20]))
    rsdt = struct.unpack_from("<I", mem, rsdp + 16)[0]
    rsdt_len = struct.unpack_from("<I", mem, rsdt + 4)[0]
    pieces.append((rsdt, mem[rsdt:rsdt + rsdt_len]))
    for i in range((rsdt_len - 36) // 4):
        table = struct.unpack_from("<I", mem, rsdt + 36 + 4 * i)[0]
        length = struct.unpack_from("<I", mem, table + 4)[0]
        pieces.append((table, mem[table:table + length]))
    mpf = mem.find(b"_MP_", 0xf0000)
    pieces.append((mpf, mem[mpf:mpf + 16]))
    mpc = struct.unpack_from("<I", mem, mpf + 4)[0]
    mpc_len = struct.unpack_from("<H", mem, mpc + 4)[0]
    pieces.append((mpc, mem[mpc:mpc + mpc_len]))
    return sorted(pieces)


def c_source(pieces):
    lines = ["/*",
             " * qemu_tables.c - the CPU tables of QEMU 7.2 -m 128 -smp 4 (SeaBIOS),",
             " * captured from a real machine by capture_qemu.py, which wrote this file:",
             " * the BIOS data area's two words, the EBDA's first KiB, the RSDP, the",
             " * RSDT and its tables, the MP floating pointer and configuration table.",
             " */",
             '#include "check.h"',
             ""]
    for n, (addr, data) in enumerate(pieces):
        lines.append(f"static const u8 piece_{n}[] = {{")
        for i in range(0, len(data), 12):
            lines.append("\t" + " ".join(f"0x{b:02x}," for b in data[i:i + 12]))
        lines.append("};")
    lines.append("")
    lines.append("const struct fixture_piece qemu_tables[] = {")
    for n, (addr, data) in enumerate(pieces):
        lines.append(f"\t{{ {addr:#x}, piece_{n}, sizeof(piece_{n}) }},")
    lines.append("};")
    lines.append("const unsigned int qemu_tables_pieces = "
                 "sizeof(qemu_tables) / sizeof(qemu_tables[0]);")
    return "\n".join(lines) + "\n"


def main():
    with tempfile.TemporaryDirectory() as directory:
        mem = dump_memory(directory)
    with open(os.path.join(HERE, "qemu_tables.c"), "w") as f:
        f.write(c_source(pieces_of(mem)))


if __name__ == "__main__":
    main()
