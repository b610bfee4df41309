"""tests/suite/loader.py - pv386's own boot loader (boot/loader/).

  loader-*         The test floppy and the test hard disk (make images)
                   boot `test` to a passing suite, with the geometry the
                   BIOS reports and the loader's name in the boot log; the
                   floppy in Bochs too, which enforces real-mode segment
                   limits.  With A20 off at the start (a test flag in a
                   doctored copy) the loader sees it off and turns it on by
                   the BIOS, the keyboard controller and port 0x92 in turn;
                   made to skip E820, then E801, it finds the same memory
                   by E801 and by AH=88h; a corrupted kernel, one larger
                   than the disk, one larger than the RAM and a sector that
                   cannot be read (QEMU's blkdebug) each stop the loader
                   with its message on COM1, while a read that fails once
                   is retried; options typed on COM1 at the prompt replace
                   the default line.

The loader in DOSBox is dosbox.py's; the loader carrying the ops ROM,
rom.py's.
"""

import os
import shutil
import struct

from .emulators import (KTEST_BOCHS_TIMEOUT, KTEST_QEMU_TIMEOUT, QEMU, QEMU_BASE,
                        QEMU_MEMORY_MIB, qemu_command, read_serial, run_bochs,
                        run_emulator, serial_listener)
from .harness import Failure, Test, fresh_log, need_file, need_tool
from .judge import ktest_problem, log_details, no_line_starting
from .ktest import CPU_LINES, judge_qemu_ktest

# The images `make images` builds boot `test` by default; tests that need
# something else doctor a copy of one, in the log directory, by the
# layout tools/mkbootimg and boot/loader/layout.h document: the kernel
# header in sector 17, the kernel ELF from sector 18.

LOADER_NAME = "pv386 loader 0.1"
TEST_FLOPPY = "build/pv386-test.img"
TEST_DISK = "build/pv386-disk-test.img"
SECTOR = 512
HEADER_OFFSET = 17 * SECTOR
HEADER_BYTES = HEADER_OFFSET + 12     # u32: the kernel file's size
HEADER_FLAGS = HEADER_OFFSET + 16     # u32: test switches
HEADER_CMDLINE = HEADER_OFFSET + 20   # char[256]: the default line
KERNEL_OFFSET = 18 * SECTOR
A20_OFF_FIRST, A20_NO_BIOS, A20_NO_KBC = 1, 2, 4
NO_E820, NO_E801 = 8, 16
LOADER_ERROR_TIMEOUT = 20
# What the loader says of each drive QEMU gives it, from the geometry
# the BIOS reports: a 1.44 MB floppy, and SeaBIOS's translation of a
# small IDE disk.
FLOPPY_GEOMETRY = "disk: drive 0, 80 cylinders, 2 heads, 18 sectors per track"
DISK_GEOMETRY = "disk: drive 80, "


def loader_drive(image, blkdebug=None):
    """QEMU options that boot image as a floppy (.img of the floppy kind)
    or hard disk, never writing to it; through QEMU's blkdebug driver
    with config file blkdebug, to inject read errors."""
    kind = "ide" if "disk" in os.path.basename(image) else "floppy"
    if blkdebug:
        image = f"blkdebug:{blkdebug}:{image}"
    return ["-drive", f"file={image},format=raw,if={kind},snapshot=on",
            "-boot", "c" if kind == "ide" else "a"]


# Read errors, injected by QEMU's blkdebug driver into a sector of the
# test disk (16 heads, 63 sectors a track: the loader reads the kernel
# from sector 18 to the end of track 0, then track 1 = sectors 63-125 in
# one INT 13h call, which meets the bad sector).  SeaBIOS reports the
# failed ATA read as status 0x0c.  QEMU's floppy controller hands the
# BIOS no error for an injected one, so the disk is used.
BAD_SECTOR = 100
BAD_TRACK_START = 63
BLKDEBUG_CONF = """[inject-error]
event = "read_aio"
errno = "5"
sector = "{sector}"
once = "{once}"
"""


def blkdebug_conf(log, once):
    conf = log[:-len(".log")] + ".blkdebug"
    with open(conf, "w") as f:
        f.write(BLKDEBUG_CONF.format(sector=BAD_SECTOR, once="on" if once else "off"))
    return conf


def doctored_image(log, source, patches):
    """A copy of source next to log with bytes replaced: patches is a list
    of (offset, bytes)."""
    need_file(source, "make images")
    image = log[:-len(".log")] + ".img"
    shutil.copyfile(source, image)
    with open(image, "r+b") as f:
        for offset, data in patches:
            f.seek(offset)
            f.write(data)
    return image


def cmdline_patch(line):
    return (HEADER_CMDLINE, line.encode().ljust(256, b"\0"))


def loader_ktest(log, image, expect, patches=(), read_error_once=False):
    """Boot image with the loader; its line (default `test`) must run the
    in-kernel suite to a pass.  read_error_once: the first read of
    BAD_SECTOR fails."""
    need_tool(QEMU, "qemu")
    need_file(image, "make images")
    fresh_log(log)
    if patches:
        image = doctored_image(log, image, patches)
    blkdebug = blkdebug_conf(log, once=True) if read_error_once else None
    judge_qemu_ktest(log, qemu_command(log, "qemu32", loader_drive(image, blkdebug)),
                     [f"pv386: booted by {LOADER_NAME}, command line "] + list(expect))


def loader_error(log, patches, message, image=TEST_FLOPPY, read_error=False):
    """A test image spoilt by patches, or with BAD_SECTOR unreadable: the
    loader prints message on COM1 and halts, and the kernel never
    starts."""
    need_tool(QEMU, "qemu")
    fresh_log(log)
    image = doctored_image(log, image, patches)
    blkdebug = blkdebug_conf(log, once=False) if read_error else None
    line = f"pv386 loader: error: {message}; stopped"
    cmd = qemu_command(log, "qemu32", loader_drive(image, blkdebug))
    outcome = run_emulator(cmd, LOADER_ERROR_TIMEOUT,
                           done=lambda: line in read_serial(log))
    lines = read_serial(log)
    problem = None
    if line not in lines:
        problem = f"no line {line!r}"
    elif any(l.startswith("pv386:") for l in lines):
        problem = "the kernel started anyway"
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


# SeaBIOS's E820 map with QEMU_MEMORY_MIB of RAM gives this much from
# 1 MiB up (the loader's and the kernel's `mem:` lines both say so).
QEMU_UPPER_KIB = 64384
ELF_PT_LOAD = 1
TOO_MUCH_MEMORY_END = 0x10000000     # 256 MiB, page-aligned


def loader_error_memory(log):
    """A kernel whose first loadable segment claims memory up to 256 MiB,
    on a machine with 64 MiB: the loader says how much it needs (the
    segments' end plus the file, staged above them) and how much there
    is, and stops."""
    need_file(TEST_FLOPPY, "make images")
    with open(TEST_FLOPPY, "rb") as f:
        f.seek(HEADER_BYTES)
        kernel_bytes, = struct.unpack("<I", f.read(4))
        f.seek(KERNEL_OFFSET)
        elf = f.read(4096)
    phoff, = struct.unpack_from("<I", elf, 28)
    phnum, = struct.unpack_from("<H", elf, 44)
    for i in range(phnum):
        entry = phoff + 32 * i
        kind, _, _, paddr = struct.unpack_from("<IIII", elf, entry)
        if kind == ELF_PT_LOAD:
            break
    else:
        raise Failure(f"{TEST_FLOPPY}: the kernel has no PT_LOAD segment")
    memsz = TOO_MUCH_MEMORY_END - paddr
    sectors = -(-kernel_bytes // SECTOR)
    need_kib = (TOO_MUCH_MEMORY_END + sectors * SECTOR - 0x100000) >> 10
    loader_error(log, [(KERNEL_OFFSET + entry + 20, struct.pack("<I", memsz))],
                 f"not enough memory: the kernel needs {need_kib} KiB above "
                 f"1 MiB, there are {QEMU_UPPER_KIB}")


def loader_bochs_ktest(log, cpu, expect):
    """The test floppy in Bochs, which, unlike QEMU and DOSBox, holds real
    mode to its segment limits: the loader's unreal mode must be real."""
    need_file(TEST_FLOPPY, "make images")
    outcome, problem = run_bochs(log, TEST_FLOPPY, cpu, KTEST_BOCHS_TIMEOUT,
                                 floppy=True)
    lines = read_serial(log)
    problem = problem or ktest_problem(lines)
    expect = [f"pv386: booted by {LOADER_NAME}, command line 'test'"] + list(expect)
    if problem is None:
        problem = no_line_starting(lines, expect)
    if problem:
        raise Failure(problem, log_details(log, lines, outcome.output))


def loader_prompt(log, typed, line, expect):
    """Type on COM1 at the loader's `boot:` prompt (QEMU's COM1 is a TCP
    connection to us): the typed text, Backspaces and all, must become
    the command line line, and that line's tests must pass."""
    need_tool(QEMU, "qemu")
    need_file(TEST_FLOPPY, "make images")
    fresh_log(log)
    port, thread, stopping = serial_listener(log, (b"boot: ", typed))
    cmd = QEMU_BASE + ["-m", str(QEMU_MEMORY_MIB), "-cpu", "qemu32",
                       "-serial", f"tcp:127.0.0.1:{port}"] + loader_drive(TEST_FLOPPY)
    try:
        outcome = run_emulator(cmd, KTEST_QEMU_TIMEOUT)
    finally:
        stopping.set()
        thread.join()
    judge_qemu_ktest(log, cmd, [f"loader: command line '{line}'",
                                f"pv386: booted by {LOADER_NAME}, command line '{line}'"]
                     + list(expect), outcome)



# pv386's own loader carries build/pvrom.bin too (tools/mkbootimg
# --module): the header lists each module's LBA, size and name.
HEADER_MODULE0 = HEADER_OFFSET + 280    # u32 LBA, u32 bytes, char name[24]


def loader_module_too_large(log):
    """A module larger than the disk stops the loader with its message."""
    need_file(TEST_FLOPPY, "make images")
    with open(TEST_FLOPPY, "rb") as f:
        f.seek(HEADER_MODULE0)
        lba, = struct.unpack("<I", f.read(4))
    loader_error(log, [(HEADER_MODULE0 + 4, struct.pack("<I", 2 << 20))],
                 f"module 0 is too large: 4096 sectors from sector {lba}, "
                 "the disk has 2880")


# A20 off at the start (port 0x92, by a test flag), as on a real PC: the
# loader must see it off and turn it on by each way in turn: (name, test
# flags, the way its line names).
A20_WAYS = [
    ("loader-a20-bios-y", A20_OFF_FIRST, "the BIOS (int 15h ax=2401)"),
    ("loader-a20-kbc-y", A20_OFF_FIRST | A20_NO_BIOS, "the keyboard controller"),
    ("loader-a20-port92-y", A20_OFF_FIRST | A20_NO_BIOS | A20_NO_KBC, "port 0x92"),
]
# SeaBIOS answers E820, E801 and AH=88h; test flags make the loader skip
# the newer ones: (name, test flags, the way its line names).
MEMORY_WAYS = [
    ("loader-mem-e801-y", NO_E820, "e801"),
    ("loader-mem-88h-y", NO_E820 | NO_E801, "int 15h ah=88h"),
]


def tests():
    return [
        Test("loader-floppy-ktest-y", loader_ktest,
             (TEST_FLOPPY, [FLOPPY_GEOMETRY, "pv386 ready: backend=native"])),
        Test("loader-bochs-pentium-y", loader_bochs_ktest,
             ("pentium", [FLOPPY_GEOMETRY, CPU_LINES["pentium"]])),
        Test("loader-disk-ktest-y", loader_ktest,
             (TEST_DISK, [DISK_GEOMETRY, "pv386 ready: backend=native"])),
        # The kernel at 1 MiB, which A20 off would put on the interrupt
        # vectors, must pass the timer tests (a few seconds, unlike the
        # whole suite).
        *[Test(name, loader_ktest, (TEST_FLOPPY, [f"a20: off, on by {way}"]),
               {"patches": [(HEADER_FLAGS, struct.pack("<I", flags)),
                            cmdline_patch("test=timer")]})
          for name, flags, way in A20_WAYS],
        # Each way must give the same memory size from 1 MiB up
        # (QEMU_UPPER_KIB), and the kernel must get it (its line is the
        # loader's without the way).
        *[Test(name, loader_ktest, (TEST_FLOPPY, [
            f"mem: 639 KiB low, {QEMU_UPPER_KIB} KiB from 1 MiB ({way})",
            f"mem: 639 KiB low, {QEMU_UPPER_KIB} KiB from 1 MiB$"]),
            {"patches": [(HEADER_FLAGS, struct.pack("<I", flags)),
                         cmdline_patch("test=timer")]})
          for name, flags, way in MEMORY_WAYS],
        Test("loader-error-not-elf", loader_error,
             ([(KERNEL_OFFSET, b"\0")], "the kernel is not an ELF file")),
        Test("loader-error-too-large", loader_error,
             ([(HEADER_BYTES, struct.pack("<I", 2 << 20))],
              "the kernel is too large: 4096 sectors from sector 18, "
              "the disk has 2880")),
        Test("loader-error-memory", loader_error_memory),
        Test("loader-error-disk-read", loader_error,
             ([], f"disk read error at sector {BAD_TRACK_START} (BIOS status c) "
              "after 5 tries"), {"image": TEST_DISK, "read_error": True}),
        # A read that fails once: the loader resets the drive, reads again
        # and boots.
        Test("loader-disk-read-retry-y", loader_ktest,
             (TEST_DISK, [f"disk: read error at sector {BAD_TRACK_START} "
                          "(BIOS status c), resetting the drive"]),
             {"patches": [cmdline_patch("test=timer")], "read_error_once": True}),
        # Typed at the prompt: a stray character rubbed out with DEL (what
        # a serial terminal's Backspace sends) and a BS, then Enter.
        Test("loader-prompt-serial-y", loader_prompt,
             (b"test=cmdline hz=2500\x7fx\x08\r", "test=cmdline hz=250",
              ["timer: PIT at 250 Hz (divisor 4773)"])),
    ]
