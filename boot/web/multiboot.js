// boot/web/multiboot.js - whether a file a student picks or drops can be
// booted as their own kernel: v86 loads it as `qemu -kernel` does, so it
// must be a Multiboot image (the Multiboot Specification 0.6.96, section
// 3.1: a header in the first 8192 bytes, 32-bit aligned, whose magic,
// flags and checksum sum to zero), and, unless the header gives the load
// addresses itself (flags bit 16), a 32-bit x86 ELF file.

const MAGIC = 0x1badb002;
const SEARCH_BYTES = 8192;
const FLAG_ADDRESSES = 1 << 16;      // the a.out kludge: load addresses in the header
const EM_386 = 3;

// multibootProblem: why bytes (an ArrayBuffer) cannot be booted as a
// Multiboot kernel, or null if they can.
export function multibootProblem(bytes) {
  const view = new DataView(bytes);
  const end = Math.min(SEARCH_BYTES, bytes.byteLength) - 12;
  let header = -1;
  for (let at = 0; at <= end; at += 4) {
    if (view.getUint32(at, true) !== MAGIC) continue;
    const flags = view.getUint32(at + 4, true);
    if (((MAGIC + flags + view.getUint32(at + 8, true)) >>> 0) !== 0)
      return `its Multiboot header (at byte ${at}) has a wrong checksum: magic, flags and ` +
        "checksum must sum to zero";
    header = at;
    if (flags & FLAG_ADDRESSES) return null;
    break;
  }
  if (header < 0)
    return `no Multiboot header (the magic 0x1BADB002, 32-bit aligned) in its first ${SEARCH_BYTES} bytes`;
  const elf = bytes.byteLength >= 20 && view.getUint32(0, false) === 0x7f454c46;
  if (!elf) return "its Multiboot header gives no load addresses, and it is no ELF file";
  if (view.getUint8(4) !== 1 || view.getUint16(18, true) !== EM_386)
    return "it is an ELF file, but not a 32-bit x86 one";
  return null;
}
