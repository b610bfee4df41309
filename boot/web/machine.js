// boot/web/machine.js - the PC the page runs pv386 on: v86 (npm v86, an x86
// emulator in WebAssembly) with Debian's SeaBIOS and VGA BIOS, booting the
// kernel as a Multiboot ELF, and how its run ends.
//
// A run ends in one of four ways, and the page must say which, never just
// look frozen: exited, stopped and halted are judged by v86run.js (the
// judge tools/run-v86 uses too), which says what each means; failed is
// this module's own: the PC could not be made, since one of its files
// did not come (files.js says why: the network, the site's answer).
// v86 reports a panic only through the console and an uncaught error, so
// this module hands both to the judge.

import { V86 } from "./v86/libv86.esm.js";
import { LoadError, bytes, wasmModule } from "./files.js";
import { DEFAULT_MEMORY_MIB } from "./options.js";
import { V86Run } from "./v86run.js";

export const KERNEL = "kernel/pv386.elf";
const DISCARD_WAIT_MS = 1000;

// The machine now running, which the console and error hooks report to.
let current = null;

// installConsoleHooks: v86 logs Rust's panic message (console.error from
// its WebAssembly); it still reaches the console as before.  An uncaught
// error the judge takes (v86 dying) is not reported again as the page's.
function installConsoleHooks() {
  const error = console.error.bind(console);
  console.error = (...args) => {
    error(...args);
    current?.run?.heard(String(args[0]));
  };
  const uncaught = (error, event) => {
    if (current?.run?.uncaught(error)) event.preventDefault();
  };
  window.addEventListener("error", (event) => uncaught(event.error ?? event.message, event));
  window.addEventListener("unhandledrejection", (event) => uncaught(event.reason, event));
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
      autostart: false,           // the judge starts it (listen)
      disable_mouse: true,
      disable_speaker: true,
    });
    this.emulator = emulator;
    this.run = new V86Run(emulator, (outcome) => this.judged(outcome), () => document.hidden);
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
    const run = this.run;
    emulator.add_listener("serial0-output-byte", (byte) => mine() && this.on.byte(byte));
    emulator.add_listener("emulator-loaded", () => mine() && run.start());
    emulator.add_listener("emulator-started", () => {
      if (!mine() || this.state !== "loading") return;
      this.state = "running";
      emulator.keyboard_set_enabled(this.keyboardWanted);
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

  // judged: the judge's outcome (v86run.js), in the page's words.
  judged({ kind, code, crashed, panic, trap, suspect }) {
    if (kind === "exited") this.end("exited", null, code);
    else if (kind === "halted")
      this.end("halted", "its CPU waits in hlt with interrupts off: pv386 stopped itself " +
        "(a kernel panic, or poweroff, which has no emulator port here). The terminal says why.");
    else if (crashed)
      this.end("stopped", panic ? `its CPU code panicked (${panic}).`
        : `its WebAssembly trapped (${trap}).`, null, true);
    else
      this.end("stopped", suspect
        ? `it stopped running instructions after an error (${suspect}).`
        : "it stopped running instructions.");
  }

  // end: the run is over; say how once.  crashed: v86's CPU code itself
  // failed (a panic or a trap), where a real CPU would have gone on.
  end(kind, text, code = null, crashed = false) {
    if (this.state !== "running" && this.state !== "loading") return;
    this.state = kind;
    this.run?.dismiss();
    this.on.ended({ kind, text, code, crashed });
    this.settled();
  }

  // discard: the emulator goes.  A live one is destroyed by v86 itself; a
  // dead one would wait for ever for its loop to stop, so its page-facing
  // parts (v86's adapters: keyboard listeners, the screen's redraw) are
  // taken down one by one.
  async discard() {
    this.run?.dismiss();
    this.run = null;
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
