"""tests/suite/rom.py - the ops ROM (pv=rom): good, newer, and refused.

  native-rom, native-rom-fuzz  The ops ROM validator's unit tests
                   (tests/native/rom/) and its libFuzzer target, seeded
                   with build/pvrom.bin, as for the Multiboot parser.
  ktest-*-rom*, rom-*  The ops ROM (pv=rom): build/pvrom.bin as a module
                   (QEMU -initrd; GRUB from build/pv386-rom-test.iso in
                   QEMU and Bochs) passes the in-kernel suite with
                   backend=rom; booted native, the ROM can be installed
                   after boot; a newer ABI minor is accepted; on QEMU
                   -smp 2, where the local APIC is set up, the suite
                   passes with the ROM's own APIC ops (ABI 1.1), and a
                   1.0 ROM (minor 0: no APIC ops) still runs the APIC
                   tests through the glue's; doctored
                   copies (truncated, corrupt, wrong checksum, wrong ABI
                   major, size past the module, an entry or a fixup out
                   of bounds, an entry missing), no ROM magic and no
                   module at all are each refused with the validator's
                   words and the kernel boots native; a ROM module is
                   not taken for a program.  pv386's own loader carries
                   the ROM as a module: the test floppy boots pv=rom to
                   a passing suite, and a module larger than the disk
                   stops the loader with its message.
"""

import os
import struct
import zlib

from .builds import USER_PROGRAM_DIR, Y
from .emulators import QEMU_MEMORY_MIB
from .harness import Test, need_file
from .native import check_native_tests, run_fuzzer
from .ktest import bochs_ktest, qemu_ktest
from .loader import TEST_FLOPPY, cmdline_patch, loader_ktest, loader_module_too_large
from .programs import qemu_program_run

# build/pvrom.bin (arch/x86/paravirt/backends/rom/, ABI in include/asm/rom.h) given as a
# Multiboot module: by QEMU's -initrd, by GRUB from the ROM test ISO's
# menu entry.  Bad ROMs are doctored copies of the good one, written
# here, each refused with the validator's words while the kernel boots
# native and passes the patcher's tests (test=patch).

ROM = "build/pvrom.bin"
ROM_TEST_ISO = "build/pv386-rom-test.iso"
NATIVE_ROM_TEST = "build/native/test_rom"
ROM_FUZZER = "build/native/fuzz_rom"
ROM_SEEDS = "build/native/pvrom-seeds"
ROM_FUZZ_RUNS = 100000
ROM_FUZZ_SCRATCH = "build/native/rom-fuzz-run"

ROM_READY = "pv386 ready: backend=rom "
ROM_KTESTS = ["ktest: PASS rom_table_points_into_rom",
              "ktest: PASS rom_sites_call_rom_directly",
              "ktest: PASS rom_runs_read_only",
              "ktest: PASS rom_fixups_in_exception_table"]

# struct rom_header's fields, by offset (include/asm/rom.h).
ROM_MAGIC, ROM_MAJOR, ROM_MINOR, ROM_SIZE, ROM_CHECKSUM = 0, 4, 6, 8, 12
ROM_FIXUPS_START, ROM_ENTRY = 16, 44
ROM_OP_IRET, ROM_OP_READ_CR3 = 7, 13
APIC_KTESTS = ["ktest: PASS apic_id_matches_cpuid", "ktest: PASS apic_self_ipi",
               "ktest: PASS apic_timer_ticks_at_hz"]


def rom_put(image, offset, fmt, value):
    struct.pack_into("<" + fmt, image, offset, value)
    return image


def rom_sealed(image):
    """The image with the checksum its bytes now call for (CRC-32 with
    the field as zero), so a spoiled field is what gets refused."""
    rom_put(image, ROM_CHECKSUM, "I", 0)
    return rom_put(image, ROM_CHECKSUM, "I", zlib.crc32(image))


def rom_field(image, offset):
    return struct.unpack_from("<I", image, offset)[0]


# name: (how to spoil the good image, what the kernel must say of it).
BAD_ROMS = {
    "truncated": (lambda r: r[:30],
                  "truncated: shorter than its header and entry table"),
    "corrupt": (lambda r: rom_put(r, len(r) - 4, "I", rom_field(r, len(r) - 4) ^ 0x80),
                "wrong checksum"),
    "checksum": (lambda r: rom_put(r, ROM_CHECKSUM, "I", rom_field(r, ROM_CHECKSUM) + 1),
                 "wrong checksum"),
    "major": (lambda r: rom_sealed(rom_put(r, ROM_MAJOR, "H", 2)),
              "wrong ABI major version"),
    "size": (lambda r: rom_sealed(rom_put(r, ROM_SIZE, "I", len(r) + 4)),
             "size field larger than the module"),
    "entry": (lambda r: rom_sealed(rom_put(r, ROM_ENTRY + 4 * ROM_OP_READ_CR3, "I",
                                           len(r) + 0x100)),
              "an entry points outside the ROM's code: op 13, read_cr3"),
    "missing": (lambda r: rom_sealed(rom_put(r, ROM_ENTRY + 4 * ROM_OP_IRET, "I", 0)),
                "a required entry is missing: op 7, iret"),
    "fixup": (lambda r: rom_sealed(rom_put(r, rom_field(r, ROM_FIXUPS_START), "I", 8)),
              "a fixup points outside the ROM's code: fixup 0"),
}

# The test of each of BAD_ROMS, by its name (written out for grep).
REFUSED_TESTS = [
    ("rom-refused-truncated-y", "truncated"),
    ("rom-refused-corrupt-y", "corrupt"),
    ("rom-refused-checksum-y", "checksum"),
    ("rom-refused-major-y", "major"),
    ("rom-refused-size-y", "size"),
    ("rom-refused-entry-y", "entry"),
    ("rom-refused-missing-y", "missing"),
    ("rom-refused-fixup-y", "fixup"),
]


def doctored_rom(log, name, spoil):
    """A copy of build/pvrom.bin spoiled by spoil, beside the log."""
    need_file(ROM, "make")
    path = os.path.join(os.path.dirname(log), f"rom-{name}.bin")
    with open(ROM, "rb") as f:
        image = spoil(bytearray(f.read()))
    with open(path, "wb") as f:
        f.write(image)
    return path


def rom_refused(log, build, name):
    """A bad ROM is refused with its reason; the kernel stays native."""
    spoil, reason = BAD_ROMS[name]
    rom = doctored_rom(log, name, spoil)
    qemu_ktest(log, build, "qemu32", append="pv=rom test=patch",
               expect=[f"paravirt: backend rom refused (rom-{name}.bin: {reason}): "
                       "staying native$", build.ready],
               extra=("-initrd", rom))


def rom_newer_minor(log, build):
    """A newer minor version of the ABI is accepted (it only adds ops)."""
    rom = doctored_rom(log, "minor", lambda r: rom_sealed(rom_put(r, ROM_MINOR, "H", 7)))
    qemu_ktest(log, build, "qemu32", append="pv=rom test=rom",
               expect=[ROM_READY, *ROM_KTESTS], extra=("-initrd", rom))


def rom_minor_0_smp(log, build):
    """A ROM of ABI 1.0 gives no APIC ops: on -smp 2 the glue's do the
    APIC's work and its tests pass under pv=rom."""
    rom = doctored_rom(log, "minor-0", lambda r: rom_sealed(rom_put(r, ROM_MINOR, "H", 0)))
    qemu_ktest(log, build, "qemu32", append="pv=rom test=apic",
               expect=[ROM_READY, *APIC_KTESTS], extra=("-initrd", rom, "-smp", "2"))


def tests():
    """The ops ROM's rows, in the order they are printed."""
    if sorted(bad for _, bad in REFUSED_TESTS) != sorted(BAD_ROMS):
        raise ValueError("REFUSED_TESTS must have one row for each of BAD_ROMS")
    initrd = {"extra": ("-initrd", ROM)}
    return [
        Test("native-rom", check_native_tests, (NATIVE_ROM_TEST,)),
        Test("native-rom-fuzz", run_fuzzer,
             (ROM_FUZZER, ROM_SEEDS, ROM_FUZZ_RUNS, ROM_FUZZ_SCRATCH,
              16448, "native-rom-fuzz")),
        Test("ktest-qemu-y-qemu32-rom", qemu_ktest, (Y, "qemu32"),
             {"append": "pv=rom test", "expect": [ROM_READY, *ROM_KTESTS], **initrd}),
        Test("ktest-qemu-y-486-rom", qemu_ktest, (Y, "486"),
             {"append": "pv=rom test", "expect": [ROM_READY, *ROM_KTESTS], **initrd}),
        Test("ktest-qemu-y-qemu32-rom-pvdebug", qemu_ktest, (Y, "qemu32"),
             {"append": "pv=rom pvdebug test", "expect": [ROM_READY, *ROM_KTESTS],
              **initrd}),
        Test("ktest-qemu-grub-rom-y", qemu_ktest, (Y, "qemu32"),
             {"boot": ["-cdrom", ROM_TEST_ISO],
              "expect": ["pv386: booted by GRUB", ROM_READY, *ROM_KTESTS]}),
        Test("ktest-bochs-rom-y-p3_katmai", bochs_ktest, (Y, "p3_katmai"),
             {"iso": ROM_TEST_ISO, "expect": [ROM_READY, *ROM_KTESTS]}),
        # Booted native with the ROM as a module, the rom backend is
        # prepared after boot (as a live switch would), on a 486: CR0.WP
        # makes its read-only room fault for anything but the code writer.
        Test("rom-installs-after-boot-y-486", qemu_ktest, (Y, "486"),
             {"append": "test=rom", "expect": ["ktest: PASS rom_installs_after_boot"],
              **initrd}),
        Test("rom-newer-minor-y", rom_newer_minor, (Y,)),
        Test("rom-smp-2-y", qemu_ktest, (Y, "qemu32"),
             {"append": "pv=rom test", "expect": [ROM_READY, *ROM_KTESTS, *APIC_KTESTS],
              "extra": ("-initrd", ROM, "-smp", "2")}),
        Test("rom-minor-0-smp-2-y", rom_minor_0_smp, (Y,)),
        *[Test(name, rom_refused, (Y, bad)) for name, bad in REFUSED_TESTS],
        Test("rom-refused-magic-y", qemu_ktest, (Y, "qemu32"),
             {"append": "pv=rom test=patch",
              "expect": ["paravirt: backend rom refused (no ops ROM among the modules",
                         Y.ready],
              "extra": ("-initrd", f"{USER_PROGRAM_DIR}/hello.elf")}),
        Test("rom-not-a-program-y", qemu_program_run,
             (Y, QEMU_MEMORY_MIB, "qemu32", "run=pvrom.bin",
              # -2 (ENOENT): not found; taken for a program it would be
              # found and fail as no ELF file, with another error.
              ["run: cannot start pvrom.bin: error -2$"]),
             {"qemu_extra": ("-initrd", ROM)}),
        Test("loader-floppy-rom-y", loader_ktest,
             (TEST_FLOPPY, ["module: pvrom.bin, ",
                            ROM_READY, *ROM_KTESTS]),
             {"patches": [cmdline_patch("pv=rom test")]}),
        Test("loader-error-module-too-large", loader_module_too_large),
        Test("rom-no-module-y", qemu_ktest, (Y, "qemu32"),
             {"append": "pv=rom test=patch",
              "expect": ["paravirt: backend rom refused (no ops ROM among the modules",
                         Y.ready]}),
    ]
