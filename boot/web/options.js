// boot/web/options.js - the options a link gives the page (docs/web.md),
// read from the URL and checked before anything boots.  A link is written
// by anybody: a value the page cannot take as it is is never half taken
// or silently replaced; it is named in the page's notice, and nothing
// boots by itself until the student has read it.
//
//   ?boot=ID         a choice of choices.js
//   &autostart       boot it as the page opens (=0, false, no or off: not)
//   &cmdline=TEXT    the kernel's command line instead of the choice's
//   &module=rom|kernel|none   the Multiboot module instead of the choice's
//   &c=COMMAND       type COMMAND once the shell's prompt came (as v86's ?c=)
//   &memory=MIB      the PC's memory, 4 to 1024 (v86 took anything: 0 or 4096
//                    for its 64 MiB default, 2048 for a PC that never started)
//
// The command line goes to the kernel, which echoes it on COM1, where
// xterm.js reads escape sequences: a control character in it could write
// anything into the student's terminal, so the page refuses it, and the
// kernel escapes it too (kernel/cmdline.c).  A name (boot, module) must
// be one the page has as its own: a link's "__proto__" is no module.

import { CHOICES, MODULES } from "./choices.js";

// The kernel keeps 255 bytes of its command line (struct boot_info's
// cmdline[256], include/bootinfo.h) and would cut the rest silently.
export const CMDLINE_MAX_BYTES = 255;

// A line of the shell: its LINE_MAX less the NUL (kernel/shell/shell.c).
export const SHELL_LINE_MAX = 127;

// The PC's memory in MiB: at least what the kernel needs to boot to its
// shell (its image and tables take about 2 MiB), at most what it maps
// (1 GiB: it leaves any more unused).  The default is QEMU's.
export const MEMORY_MIN_MIB = 4;
export const MEMORY_MAX_MIB = 1024;
export const DEFAULT_MEMORY_MIB = 128;

// What a link's autostart= may say: nothing, or yes or no in a usual way.
const AUTOSTART_YES = ["", "1", "true", "yes", "on"];
const AUTOSTART_NO = ["0", "false", "no", "off"];

// C0, DEL and C1: what a terminal takes as control, not text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

// codePoint: "U+001B" for a character.
const codePoint = (c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

// textProblem: why text cannot be sent to the machine as name, or null.
export function textProblem(name, text, maxBytes) {
  const control = CONTROL.exec(text);
  if (control)
    return `${name} holds a control character (${codePoint(control[0])} at character ` +
      `${control.index + 1}), which the page does not send: it could drive the terminal.`;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > maxBytes)
    return `${name} is ${bytes} bytes long; the kernel keeps at most ${maxBytes} bytes.`;
  return null;
}

// readOptions: the options of the URL's query string, each checked:
// {boot, autostart, cmdline, module, memoryMiB, command, problems: [text]}.  A value
// with a problem is left out (null: the choice's own; boot: the first
// choice), and a link with any problem does not autostart.
export function readOptions(search) {
  const url = new URLSearchParams(search);
  const problems = [];
  const options = {
    boot: url.get("boot"),
    autostart: url.has("autostart"),
    cmdline: url.get("cmdline"),
    module: url.get("module"),
    memoryMiB: DEFAULT_MEMORY_MIB,
    command: url.get("c"),
  };
  if (options.command !== null) {
    const problem = textProblem("The link's command (c=)", options.command, SHELL_LINE_MAX);
    if (problem) {
      problems.push(problem);
      options.command = null;
    }
  }
  const ids = CHOICES.map((c) => c.id);
  if (options.boot !== null && !ids.includes(options.boot)) {
    problems.push(`The link's choice (boot=${options.boot}) is none of the page's: ` +
      `${ids.join(", ")}.`);
    options.boot = null;
  }
  const modules = [...Object.keys(MODULES), "none"];
  if (options.module !== null && !modules.includes(options.module)) {
    problems.push(`The link's module (module=${options.module}) is none of ` +
      `${modules.join(", ")}.`);
    options.module = null;
  }
  if (options.autostart) {
    const value = url.get("autostart").toLowerCase();
    if (AUTOSTART_NO.includes(value)) options.autostart = false;
    else if (!AUTOSTART_YES.includes(value))
      problems.push(`The link's autostart=${url.get("autostart")} is neither yes nor no ` +
        "(autostart, or autostart=1, boots as the page opens; autostart=0 does not).");
  }
  if (url.has("memory")) {
    const text = url.get("memory");
    const mib = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
    if (mib >= MEMORY_MIN_MIB && mib <= MEMORY_MAX_MIB) options.memoryMiB = mib;
    else problems.push(`The link's memory size (memory=${text}) is not a whole number of MiB ` +
      `from ${MEMORY_MIN_MIB} to ${MEMORY_MAX_MIB}; the PC would get ${DEFAULT_MEMORY_MIB} MiB.`);
  }
  if (options.cmdline !== null) {
    const problem = textProblem("The link's command line (cmdline=)", options.cmdline,
      CMDLINE_MAX_BYTES);
    if (problem) {
      problems.push(problem);
      options.cmdline = null;
    }
  }
  if (problems.length) options.autostart = false;
  return { ...options, problems };
}
