// boot/web/v86run.js - how a run of pv386 in v86 ends, judged one way for
// the page (machine.js, in the browser) and for tools/run-v86 (Node, the
// suite's v86 rows).  It touches neither the DOM nor Node: both import
// this file as it is.
//
// A run ends in one of three ways:
//   exited   the kernel wrote its exit value to port 0xf4 (emulator_exit,
//            after `test` or a guest's `guestexit`).  v86 has no device
//            there; on a Multiboot boot it would log "Test exited" and
//            throw out of its loop.  start() puts a handler of its own on
//            the port before the first instruction runs, so the value is
//            the write's, not read back from a log line.
//   stopped  v86 itself stopped: a Rust panic in its CPU code (a ring-3
//            iret to a ring-0 code segment, or with a CS beyond the GDT:
//            docs/v86-bugs.md) prints "panicked at FILE: MESSAGE" on the
//            console and traps the WebAssembly ("unreachable"); or another
//            error ended its loop, and the CPU stopped outside hlt.
//   halted   the CPU waits in hlt with interrupts off for good: pv386
//            panicked, or `poweroff` found no emulator port to power off by.
// v86 reports a panic only through the console and an uncaught error: the
// host hands its console lines to heard() and its uncaught errors to
// uncaught().  A watchdog checks that the CPU still advances (pv386's
// timer ticks 100 times a second, so a live machine always does).

export const EXIT_PORT = 0xf4;
export const WATCH_INTERVAL_MS = 1000;
export const STALL_INTERVALS = 3;       // this many without an instruction: not running
const PANIC_LINE = /^panicked at /;     // Rust's panic message

export class V86Run {
  // emulator: a V86 made with autostart false.  end(outcome) is called
  // once, with {kind: "exited", code} or {kind: "stopped", crashed, panic,
  // trap, suspect} or {kind: "halted"}; panic is the panic's text after
  // "panicked at ", trap the error that ended v86's loop, suspect an
  // earlier uncaught error.  paused(): true while progress cannot be
  // judged (a hidden tab, which the browser throttles).
  constructor(emulator, end, paused = () => false) {
    this.emulator = emulator;
    this.end = end;
    this.paused = paused;
    this.panic = null;
    this.suspect = null;
    this.over = false;
    this.watchdog = null;
  }

  // start: on v86's "emulator-loaded": the exit port claimed, the
  // watchdog on, the machine running.
  start() {
    const exit = (value) => this.finish({ kind: "exited", code: value & 0xff });
    this.emulator.v86.cpu.io.register_write(EXIT_PORT, this, exit, exit, exit);
    this.watch();
    this.emulator.run();
  }

  // heard: a line v86 wrote on the console (a panic's message comes
  // before the trap that stops it).
  heard(line) {
    if (PANIC_LINE.test(line))
      this.panic = line.replace(PANIC_LINE, "").replace(/\s*\n\s*/g, " ").trim();
  }

  // uncaught: an error nobody caught, most from v86's run loop.  A
  // WebAssembly trap, or any error after a panic's message, is v86 dying:
  // the run ends and this answers true.  Anything else is remembered and
  // left to the watchdog.
  uncaught(error) {
    if (this.over) return false;
    if (error instanceof WebAssembly.RuntimeError || this.panic) {
      this.finish({ kind: "stopped", crashed: true, panic: this.panic,
                    trap: `${error?.message ?? error}` });
      return true;
    }
    this.suspect = `${error?.message ?? error}`;
    return false;
  }

  // watch: every WATCH_INTERVAL_MS, the CPU must have run something.
  watch() {
    let last = this.instructions();
    let still = 0;
    this.watchdog = setInterval(() => {
      const now = this.instructions();
      still = now === last && !this.paused() ? still + 1 : 0;
      last = now;
      if (still >= STALL_INTERVALS) this.stalled();
    }, WATCH_INTERVAL_MS);
  }

  instructions() {
    return this.emulator.get_instruction_counter();
  }

  // stalled: no instruction for a while.  A CPU in hlt is the kernel's
  // doing (in_hlt is v86's own CPU state); otherwise v86's loop stopped.
  stalled() {
    if (this.emulator.v86?.cpu?.in_hlt?.[0] === 1)
      this.finish({ kind: "halted" });
    else
      this.finish({ kind: "stopped", crashed: false, suspect: this.suspect });
  }

  // finish: the run is over: end hears how, once, and then the machine
  // stops (after: v86's own "emulator-stopped" must find the run judged).
  finish(outcome) {
    if (this.over) return;
    this.dismiss();
    this.end(outcome);
    try {
      Promise.resolve(this.emulator.stop()).catch(() => {});
    } catch {
      // A dead v86 may not stop cleanly; the outcome says enough.
    }
  }

  // dismiss: no more judging (the host discards the machine).
  dismiss() {
    this.over = true;
    clearInterval(this.watchdog);
  }
}
