// boot/web/shell.js - the page's side of a conversation with pv386's shell
// on COM1: it follows what the shell prints, knows when the shell waits at
// an empty prompt, and types the page's commands (the session's steps, the
// panel's pvops and sites) one at a time, each answer collected up to the
// next prompt.
//
// The student types on the same line (the terminal, or the VGA screen's
// keyboard), so a command is sent only when the prompt is empty and
// nothing was typed since: the page never writes into a half-typed line.
// Keys typed while the kernel booted may still wait in its input, unseen
// (the prompt looks empty): each command therefore starts with ^U, which
// clears the shell's line (kernel/shell/shell.c), so that it runs alone.
// What the shell prints stays exactly what the terminal shows; the page
// only reads it.  The shell draws its line with printable characters, \r
// (back to the prompt's column 0), \b (one left) and \r\n (kernel/shell/
// shell.c), so a line and a cursor model it exactly.

export const PROMPT = "pv386> ";
const CLEAR_LINE = "\x15";        // ^U
const ANSWER_TIMEOUT_MS = 60000;   // `bench` or a busy guest may take a while

export class Shell {
  // send(text): bytes to COM1.  on: {line(text), prompt()}, both optional.
  constructor(send, on = {}) {
    this.sendBytes = send;
    this.on = on;
    this.reset();
  }

  // reset: a new boot: no line, no prompt seen, nothing queued.
  reset(reason = "the machine was rebooted") {
    for (const job of this.queue ?? []) job.reject(new Error(reason));
    if (this.job) this.job.reject(new Error(reason));
    clearTimeout(this.timer);
    this.chars = [];
    this.cursor = 0;
    this.ready = false;        // the prompt is up, empty, and nothing typed since
    this.seenPrompt = false;   // the shell has started
    this.queue = [];
    this.job = null;           // the command sent, waiting for its answer
  }

  // feed: one byte the kernel wrote to COM1.
  feed(byte) {
    if (byte === 0x0a) return this.endLine();
    if (byte === 0x0d) this.cursor = 0;
    else if (byte === 0x08) this.cursor = Math.max(0, this.cursor - 1);
    else if (byte >= 0x20 && byte < 0x7f) this.chars[this.cursor++] = String.fromCharCode(byte);
    else return;
    if (this.atEmptyPrompt()) this.promptUp();
  }

  endLine() {
    const line = this.chars.join("").trimEnd();
    this.chars = [];
    this.cursor = 0;
    if (this.job) this.job.lines.push(line);
    this.on.line?.(line);
  }

  atEmptyPrompt() {
    return this.cursor === PROMPT.length && this.chars.join("").trimEnd() === PROMPT.trimEnd();
  }

  // promptUp: the shell waits at an empty line: the command in flight (if
  // any) has its answer, and the next may go.
  promptUp() {
    this.seenPrompt = true;
    this.ready = true;
    const job = this.job;
    // The ^U before a command redraws an empty prompt too: the answer
    // comes only after the command's own line.
    if (job && job.lines.length) {
      this.job = null;
      clearTimeout(this.timer);
      job.resolve(job.lines);
    }
    this.on.prompt?.();
    this.next();
  }

  // typed: the student pressed a key for this line; the page waits until
  // the line is empty again.
  typed() {
    this.ready = false;
  }

  // run: type command (when the shell is free); resolves with the lines it
  // printed before the next prompt.
  run(command) {
    return new Promise((resolve, reject) => {
      this.queue.push({ command, resolve, reject, lines: [] });
      this.next();
    });
  }

  busy() {
    return this.job !== null || this.queue.length > 0;
  }

  // waitingForStudent: a command waits only because of a half-typed line.
  waitingForStudent() {
    return this.queue.length > 0 && !this.job && this.seenPrompt && !this.ready;
  }

  next() {
    if (this.job || !this.ready || this.queue.length === 0) return;
    this.job = this.queue.shift();
    this.ready = false;
    this.timer = setTimeout(() => this.giveUp(), ANSWER_TIMEOUT_MS);
    this.sendBytes(CLEAR_LINE + this.job.command + "\r");
  }

  giveUp() {
    const job = this.job;
    this.job = null;
    job?.reject(new Error(`no prompt after '${job.command}' within ${ANSWER_TIMEOUT_MS / 1000} s`));
  }
}
