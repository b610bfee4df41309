// boot/web/machine.js - the PC the page runs pv386 on: v86 (npm v86, an x86
// emulator in WebAssembly) with Debian's SeaBIOS and VGA BIOS, booting the
// kernel as a Multiboot ELF, and how its run ends.
//
// A run ends in one of three ways, and the page must say which, never just
// look frozen:
//   exited   pv386 wrote its exit value to port 0xf4 (emulator_exit, after
//            `test` or a guest's `guestexit`); on a Multiboot boot v86 takes
//            that port as "test exited", logs the value and halts by
//            throwing "HALT" out of its run loop.
//   stopped  v86 itself stopped: a Rust panic in its CPU (a ring-3 iret to a
//            ring-0 code segment, or with a CS beyond the GDT: see
//            docs/v86-bugs.md) traps the WebAssembly ("unreachable"), or
//            anything else ends its loop.
//   failed   the PC could not be made: one of its files did not come
//            (files.js says why: the network, the site's answer).
//   halted   the machine is fine but its CPU waits in hlt with interrupts
//            off for good: pv386 panicked, or `poweroff` found no emulator
//            port to power off by.
// v86 reports the first two only through the console and an uncaught
// error, so this module listens to both, and a watchdog checks that the
// CPU still advances (pv386's timer ticks 100 times a second, so a live
// machine always does).

import { V86 } from "./v86/libv86.esm.js";
import { LoadError, bytes, wasmModule } from "./files.js";
import { DEFAULT_MEMORY_MIB } from "./options.js";

export const KERNEL = "kernel/pv386.elf";
const WATCH_INTERVAL_MS = 1000;
const STALL_INTERVALS = 3;               // this many without an instruction: stopped
const DISCARD_WAIT_MS = 1000;

const EXIT_LINE = /^Test exited with code (0x[0-9a-f]+)/i;   // v86's own words
const PANIC_LINE = /^panicked at /;                          // Rust's panic message

// The machine now running, which the console and error hooks report to.
let current = null;

// installConsoleHooks: v86 logs the exit value (console.log) and Rust's
// panic message (console.error from its WebAssembly); both still reach
// the console as before.
function installConsoleHooks() {
  const log = console.log.bind(console);
  const error = console.error.bind(console);
  console.log = (...args) => {
    log(...args);
    current?.heard(String(args[0]));
  };
  console.error = (...args) => {
    error(...args);
    current?.heard(String(args[0]));
  };
  window.addEventListener("error",
    (event) => current?.uncaught(event.error ?? event.message, event));
  window.addEventListener("unhandledrejection", (event) => current?.uncaught(event.reason, event));
}
installConsoleHooks();

// sleep: a promise that resolves after ms.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Machine {
  // screen: the element v86 draws the VGA screen into.  on: {byte(b),
  // started(), ended({kind, text, code})}.
  constructor(screen, on) {
    this.screen = screen;
    this.on = on;
    this.emulator = null;
    this.state = "idle";        // loading, running, exited, stopped, halted, failed
    this.keyboardWanted = false;
  }

  // boot: a fresh PC running the kernel with cmdline and, if given, module
  // (a site path) as its Multiboot module.  Resolves once the PC runs, or
  // its load ended (a download failed): only then may the next boot
  // discard it, so that no emulator is left half made (the page
  // serializes boots on this).
  async boot({ cmdline, module, kernel = KERNEL, memoryMiB = DEFAULT_MEMORY_MIB }) {
    await this.discard();
    this.state = "loading";
    this.exitCode = null;
    this.panicText = null;
    this.suspect = null;
    this.freshScreen();
    let files;
    try {
      files = await this.files(kernel, module);
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      this.end("failed", `${e.file} could not be loaded: ${e.reason}.`);
      return;
    }
    if (this.state !== "loading") return;      // discarded meanwhile
    const emulator = new V86({
      wasm_fn: async (imports) => (await WebAssembly.instantiate(files.wasm, imports)).exports,
      memory_size: memoryMiB << 20,
      screen_container: this.screen,
      bios: { buffer: files.bios },
      vga_bios: { buffer: files.vgaBios },
      multiboot: { buffer: files.kernel },
      ...(files.module ? { initrd: { buffer: files.module } } : {}),
      cmdline,
      autostart: true,
      disable_mouse: true,
      disable_speaker: true,
    });
    this.emulator = emulator;
    current = this;
    const loaded = new Promise((resolve) => { this.loaded = resolve; });
    this.listen(emulator);
    await loaded;
  }

  // files: what the PC needs, fetched (files.js), or a LoadError.  kernel
  // and module are site paths, or ArrayBuffers already in hand.
  async files(kernel, module) {
    const get = (f) => (typeof f === "string" ? bytes(f) : f.slice(0));
    const [wasm, bios, vgaBios, kernelBytes, moduleBytes] = await Promise.all([
      wasmModule("v86/v86.wasm"), bytes("bios/bios.bin"), bytes("bios/vgabios.bin"),
      get(kernel), module ? get(module) : null]);
    return { wasm, bios, vgaBios, kernel: kernelBytes, module: moduleBytes };
  }

  // settled: the load is over, one way or the other.
  settled() {
    this.loaded?.();
    this.loaded = null;
  }

  // listen: v86's events for this emulator only (an old one may still
  // speak while it is being discarded).
  listen(emulator) {
    const mine = () => emulator === this.emulator;
    emulator.add_listener("serial0-output-byte", (byte) => mine() && this.on.byte(byte));
    emulator.add_listener("emulator-started", () => {
      if (!mine() || this.state !== "loading") return;
      this.state = "running";
      emulator.keyboard_set_enabled(this.keyboardWanted);
      this.watch();
      this.on.started();
      this.settled();
    });
    emulator.add_listener("emulator-stopped", () => {
      if (mine() && this.state === "running")
        this.end("stopped", "v86 stopped the machine on its own.");
    });
  }

  // freshScreen: the text-mode div and the graphics canvas v86 draws into,
  // new for each boot.
  freshScreen() {
    const text = document.createElement("div");
    text.className = "screen-text";
    const canvas = document.createElement("canvas");
    canvas.hidden = true;
    this.screen.replaceChildren(text, canvas);
  }

  // send: bytes to COM1, as if typed on the serial line.
  send(text) {
    if (this.state === "running") this.emulator.serial0_send(text);
  }

  // keyboard: whether keys go to the PS/2 keyboard (only while the screen
  // has the focus: v86 listens on the whole window).
  keyboard(on) {
    this.keyboardWanted = on;
    if (this.state === "running") this.emulator.keyboard_set_enabled(on);
  }

  instructions() {
    return this.emulator ? this.emulator.get_instruction_counter() : 0;
  }

  // heard: a console line from v86.
  heard(line) {
    const exit = EXIT_LINE.exec(line);
    if (exit) this.exitCode = parseInt(exit[1], 16);
    else if (PANIC_LINE.test(line)) {
      const where = line.replace(PANIC_LINE, "").replace(/\s+/g, " ").trim();
      this.panicText = `its CPU code panicked (${where}).`;
    }
  }

  // uncaught: an error nobody caught; v86's run loop is where most come
  // from.  "HALT" is v86's exit port; a WebAssembly trap or a panic message
  // just before is v86 dying; anything else is judged by the watchdog.
  uncaught(error, event) {
    if (this.state !== "running" && this.state !== "loading") return;
    if (error === "HALT") {
      event.preventDefault();
      this.end("exited", null, this.exitCode);
    } else if (error instanceof WebAssembly.RuntimeError || this.panicText) {
      event.preventDefault();
      this.end("stopped", this.panicText || `its WebAssembly trapped (${error.message ?? error}).`,
        null, true);
    } else {
      this.suspect = `${error?.message ?? error}`;
    }
  }

  // watch: every WATCH_INTERVAL_MS, the CPU must have run something.  A
  // hidden tab is throttled by the browser, so it is not judged.
  watch() {
    let last = this.instructions();
    let still = 0;
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => {
      const now = this.instructions();
      still = now === last && !document.hidden ? still + 1 : 0;
      last = now;
      if (still >= STALL_INTERVALS) this.stalled();
    }, WATCH_INTERVAL_MS);
  }

  // stalled: no instruction for a while.  A CPU in hlt is the kernel's
  // doing (in_hlt is v86's own CPU state, read only for this wording);
  // otherwise v86's loop has stopped.
  stalled() {
    const inHlt = this.emulator?.v86?.cpu?.in_hlt?.[0] === 1;
    if (inHlt)
      this.end("halted", "its CPU waits in hlt with interrupts off: pv386 stopped itself " +
        "(a kernel panic, or poweroff, which has no emulator port here). The terminal says why.");
    else
      this.end("stopped", this.suspect
        ? `it stopped running instructions after an error (${this.suspect}).`
        : "it stopped running instructions.");
  }

  // end: the run is over; say how once.  crashed: v86's CPU code itself
  // failed (a panic or a trap), where a real CPU would have gone on.
  end(kind, text, code = null, crashed = false) {
    if (this.state !== "running" && this.state !== "loading") return;
    this.state = kind;
    clearInterval(this.watchdog);
    this.on.ended({ kind, text, code, crashed });
    this.settled();
  }

  // discard: the emulator goes.  A live one is destroyed by v86 itself; a
  // dead one would wait for ever for its loop to stop, so its page-facing
  // parts (v86's adapters: keyboard listeners, the screen's redraw) are
  // taken down one by one.
  async discard() {
    clearInterval(this.watchdog);
    this.settled();
    const emulator = this.emulator;
    const alive = this.state === "running" || this.state === "loading";
    this.emulator = null;
    this.state = "idle";
    if (current === this) current = null;
    if (!emulator) return;
    if (alive) {
      await Promise.race([emulator.destroy().catch(() => {}), sleep(DISCARD_WAIT_MS)]);
      return;
    }
    for (const part of ["keyboard_adapter", "mouse_adapter", "screen_adapter", "speaker_adapter"]) {
      try { emulator[part]?.destroy(); } catch { /* already half gone */ }
    }
  }
}
