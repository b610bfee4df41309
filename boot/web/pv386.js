// boot/web/pv386.js - the page's main module: it puts the parts together.
// The boot menu (choices.js) starts the PC (machine.js); COM1's bytes go
// to the xterm.js terminal and to the shell's follower (shell.js), the
// terminal's keys to COM1; the session's steps (session.js) and the op
// panel (panel.js) type through the follower; the status line and the
// banner say what the machine is doing, and how its run ended.
//
// A link's options (?boot=, &autostart, &cmdline=, &module=, &memory=,
// &c=; docs/web.md) are read and checked by options.js; what it does not
// take is named in the notice.  share.js keeps the URL a link to the
// setup and downloads the transcript; own.js boots your own build.
// Boots are serialized (requestBoot).  window.pv386 gives a test the
// figures and the terminal's text.

import { Terminal } from "./xterm/xterm.esm.js";
import { CHOICES, MODULES, findChoice } from "./choices.js";
import { Machine } from "./machine.js";
import { DEFAULT_MEMORY_MIB, SHELL_LINE_MAX, readOptions, textProblem } from "./options.js";
import { ownBuild } from "./own.js";
import { copyLink, download, keepURL, setupLink } from "./share.js";
import { Shell } from "./shell.js";
import { Panel } from "./panel.js";
import { Session } from "./session.js";
import { showBuild } from "./about.js";

const READY_LINE = /^pv386 ready: backend=(\S+)/;
const SWITCH_LINE = /^pv: switched from (\S+) to (\S+):/;
// pv386's exit values (include/asm/machine.h: EMU_EXIT_PASS, EMU_EXIT_FAIL).
const EXIT_VALUES = {
  0x10: "the suite passed",
  0x11: "a failure: the terminal's last lines say which",
};

const $ = (id) => document.getElementById(id);
const options = readOptions(location.search);

// timing: milliseconds since the page started loading (performance.now()).
const timing = { loadMs: null, bootMs: null, readyMs: null, bootToReadyMs: null };
window.addEventListener("load", () => { timing.loadMs = performance.now(); });

// ---- the terminal on COM1 ----

// xterm.js with its default renderer, the DOM one: the rows are text in
// the page, for screen readers and tests.  Its font follows the VGA
// screen's (style.css): smaller on a narrow window, so that both fit
// side by side on a laptop's.
const NARROW = window.matchMedia("(max-width: 1399px)");
const terminal = new Terminal({
  cols: 80, rows: 25, scrollback: 5000, fontSize: NARROW.matches ? 12 : 14, lineHeight: 1.15,
  cursorBlink: true, fontFamily: "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace",
  theme: { background: "#101418", foreground: "#d8dee4" },
});
terminal.open($("terminal"));
NARROW.addEventListener("change", () => { terminal.options.fontSize = NARROW.matches ? 12 : 14; });

// terminalText: every line the terminal holds, scrolled-off ones too, a
// wrapped line joined again.
function terminalText() {
  const buffer = terminal.buffer.active;
  const lines = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.join("\n");
}

// ---- the machine and the shell ----

const machine = new Machine($("screen"), {
  byte: (b) => {
    terminal.write(new Uint8Array([b]));
    shell.feed(b);
  },
  started: () => {
    document.body.dataset.state = "running";
    setStatus(`Running ${choiceLine()}; waiting for the ready line…`);
  },
  ended: (how) => ended(how),
});
const shell = new Shell((text) => machine.send(text), { line: heardLine, prompt: promptSeen });
const panel = new Panel($("panel"), shell);
const session = new Session($("steps"), shell);
let booted = null;          // {choice, cmdline, module} of the running boot

// Tab, Shift+Tab and Escape leave the terminal, as they leave the VGA
// screen: xterm.js would send them to COM1, and a keyboard-only user
// could never reach the steps or the panel (the shell has no use for a
// tab or a lone escape; arrow keys are keys of their own).  Tab is left
// to the browser, which moves the focus; Escape takes it away.
terminal.attachCustomKeyEventHandler((e) => {
  if (e.key !== "Tab" && e.key !== "Escape") return true;
  if (e.type === "keydown" && e.key === "Escape") terminal.blur();
  return false;
});

terminal.onData((data) => {
  if (machine.state !== "running") return;
  shell.typed();
  machine.send(data);
});

// The VGA screen takes the keyboard only while it has the focus; keys
// typed there are the student's line too.  Tab and Escape leave it (the
// shell has no use for them), so a keyboard user is never trapped: this
// listener runs before v86's own (on the window), which then finds the
// keyboard off and leaves the key to the browser.
const screen = $("screen");
screen.addEventListener("focus", () => machine.keyboard(true));
screen.addEventListener("blur", () => machine.keyboard(false));
screen.addEventListener("click", () => screen.focus());
screen.addEventListener("keydown", (e) => {
  if (e.key === "Tab" || e.key === "Escape") {
    machine.keyboard(false);
    if (e.key === "Escape") screen.blur();
  } else if (!["Shift", "Control", "Alt", "Meta"].includes(e.key)) {
    shell.typed();
  }
});

// The line form: a phone has no keys to type into the terminal with, so
// the page offers a text field; Enter sends its line to COM1, as if
// typed there.  Only printable text goes (options.js's check).
$("line-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("line-input");
  const problem = textProblem("The line", input.value, SHELL_LINE_MAX);
  if (problem) return setStatus(problem);
  if (machine.state !== "running") return setStatus("Boot first: no machine runs to type to.");
  shell.typed();
  machine.send(`${input.value}\r`);
  input.value = "";
});

// heardLine: each whole line the kernel printed on COM1.
function heardLine(line) {
  const ready = READY_LINE.exec(line);
  if (ready && timing.readyMs === null) {
    timing.readyMs = performance.now();
    timing.bootToReadyMs = timing.readyMs - timing.bootMs;
    document.body.dataset.readyMs = Math.round(timing.readyMs);
    const seconds = (timing.bootToReadyMs / 1000).toFixed(2);
    const then = booted.choice.shell ? "" : "; the suite runs, and the machine exits at its end";
    const what = booted.own ? `Your kernel (${booted.own})` : "pv386";
    setStatus(`${what} is ready (backend ${ready[1]}): ${seconds} s after Boot${then}.`);
  }
  const switched = SWITCH_LINE.exec(line);
  if (switched && booted?.choice.shell) {
    setStatus(`pv386 is running, backend ${switched[2]} (switched live from ${switched[1]}).`);
    panel.switched();
  }
}

// promptSeen: the shell waits for a line: the page's buttons can work.
function promptSeen() {
  if (document.body.dataset.shell === "up") return;
  document.body.dataset.shell = "up";
  session.enable(true);
  panel.enable({ rom: booted.module === MODULES.rom || (booted.own && booted.module !== null) });
  if (booted.command !== null) shell.run(booted.command).catch(() => {});
}

// ---- booting and how a run ends ----

function choiceLine() {
  return `“${booted.choice.label}” (command line '${booted.cmdline}')`;
}

// menuBoot: what the menu's choice boots: its command line and module,
// or the link's; the link's command (c=) the first time only.
let commandLeft = options.command;
function menuBoot() {
  const choice = findChoice($("boot-choice").value);
  const name = options.module ?? choice.module ?? "none";
  const module = name === "none" ? null : MODULES[name];
  const command = commandLeft;
  commandLeft = null;
  return { choice, cmdline: options.cmdline ?? choice.cmdline, module,
    memoryMiB: options.memoryMiB, command, own: null };
}

// ownBoot: your own build (own.js): its kernel and module as bytes.
function ownBoot(build) {
  const label = `your kernel ${build.name}` +
    (build.moduleName ? ` with module ${build.moduleName}` : "");
  return { choice: { id: "own", label, shell: true }, cmdline: build.cmdline,
    kernel: build.kernel, module: build.module, memoryMiB: options.memoryMiB, command: null,
    own: build.name };
}

// Boots are serialized: a Boot or Reboot pressed while a PC is still
// loading waits for it, and any number of presses meanwhile make one boot
// more (each boot discards the PC before it; a PC discarded half loaded
// kept running, and v86 threw from its loop).
let booting = null;          // the boots under way (a promise), or null
let bootAgain = false;
let nextBoot = null;         // what the next boot boots (its parameters)

// requestBoot: boot params (menuBoot(), ownBoot(), or the last boot's).
async function requestBoot(params) {
  nextBoot = params;
  if (booting) {
    bootAgain = true;
    setStatus("Rebooting as soon as the PC being loaded has started…");
    return booting;
  }
  booting = (async () => {
    do {
      bootAgain = false;
      await boot(nextBoot);
    } while (bootAgain);
  })();
  try {
    await booting;
  } finally {
    booting = null;
  }
}

async function boot(params) {
  const { choice } = params;
  booted = params;
  shell.reset();
  panel.reset();
  panel.disable(choice.shell ? "Waiting for the shell…"
    : "This choice runs a suite: there is no shell to ask.");
  session.reset();
  session.enable(false);
  terminal.reset();
  $("banner").hidden = true;
  delete document.body.dataset.shell;
  delete document.body.dataset.readyMs;
  Object.assign(timing, { bootMs: performance.now(), readyMs: null, bootToReadyMs: null });
  $("reboot").disabled = false;
  setStatus(`Loading the PC for ${choiceLine()}…`);
  document.body.dataset.state = "loading";
  await machine.boot(booted);
  document.body.dataset.state = machine.state;
}

// ended: the banner says how the run ended, with a reboot button.
function ended({ kind, text, code, crashed }) {
  document.body.dataset.state = kind;
  shell.reset(`the machine ${kind}`);
  session.enable(false);
  panel.disable("The machine is not running: reboot to ask again.");
  let message;
  if (kind === "exited") {
    const value = code === null ? "a value" : `0x${code.toString(16)}`;
    const meaning = EXIT_VALUES[code] ? ` (${EXIT_VALUES[code]})` : "";
    message = `The machine has exited: pv386 wrote ${value}${meaning} to port 0xf4 ` +
      "(its emulator_exit), and the page stopped the machine.";
  } else if (kind === "halted") {
    message = `The machine halted: ${text}`;
  } else if (kind === "failed") {
    message = `The PC could not be started: ${text} Check the connection, then retry.`;
  } else {
    message = `The emulator (v86) stopped: ${text} The machine cannot go on` + (crashed
      ? ": this is v86's limit, not the kernel's (a real CPU raises an exception here: " +
        "docs/web.md)." : ".");
  }
  $("banner-text").textContent = message;
  $("banner").hidden = false;
  $("banner").dataset.kind = kind;
  $("banner-reboot").textContent = kind === "failed" ? "Retry" : "Reboot";
  // The banner is an alert, read out by itself; the status only points to it.
  setStatus(kind === "failed" ? "The PC could not be started: the banner says why."
    : `The machine ${kind}: the banner says how. Reboot to start again.`);
}

// setStatus: the status line (an aria-live region) says text.
let statusText = $("status").textContent;   // the first hint, until replaced
function setStatus(text) {
  statusText = text;
  $("status").textContent = text;
}

// A command waiting only because the student's line is half typed says
// so, for as long as it waits.
const WAITING = "The page waits to type its command: finish your line, or clear it (Ctrl-U).";
setInterval(() => {
  const text = shell.waitingForStudent() ? WAITING : statusText;
  if ($("status").textContent !== text) $("status").textContent = text;
}, 500);

// ---- the menu ----

function fillMenu() {
  const select = $("boot-choice");
  for (const choice of CHOICES) select.append(new Option(choice.label, choice.id));
  select.value = findChoice(options.boot).id;
  const about = () => { $("choice-about").textContent = findChoice(select.value).about; };
  select.addEventListener("change", about);
  about();
}

fillMenu();
$("boot").addEventListener("click", () => requestBoot(menuBoot()));
// Reboot: the same again (your own build too).
const again = () => requestBoot(booted ? { ...booted, command: null } : menuBoot());
$("reboot").addEventListener("click", again);
$("banner-reboot").addEventListener("click", again);
ownBuild((build) => requestBoot(ownBoot(build)));

// The address bar follows the menu; the copy button copies it, to boot.
const link = () => setupLink($("boot-choice").value, options,
  { memoryMiB: DEFAULT_MEMORY_MIB });
$("boot-choice").addEventListener("change", () => keepURL(link()));
$("copy-link").addEventListener("click", () => copyLink(link(), setStatus));
$("download-transcript").addEventListener("click", () => download(
  `pv386-com1-${new Date().toISOString().replace(/\.\d+Z$/, "Z").replace(/:/g, "-")}.txt`,
  terminalText() + "\n"));
// The footer (the parts) shows once the page above it is whole: shown
// before the steps were made, it would be pushed down in view.
showBuild($("build-line"), $("parts-table").tBodies[0])
  .finally(() => { $("footer").hidden = false; });

window.pv386 = {
  timing,
  state: () => machine.state,
  terminalText,
  shellBusy: () => shell.busy(),
  instructions: () => machine.instructions(),
};

// showProblems: what the link asked for that the page does not take.
function showProblems(problems) {
  if (!problems.length) return;
  $("notice").replaceChildren(`This link's options were not all taken; nothing booted by itself. ` +
    "Press Boot to boot without them.", ...problems.map((p) => {
    const line = document.createElement("span");
    line.className = "problem";
    line.textContent = p;
    return line;
  }));
  $("notice").hidden = false;
}

showProblems(options.problems);
if (options.autostart) requestBoot(menuBoot());
