// boot/web/session.js - the README's first session as steps a student clicks:
// each types its command into the shell on COM1 (shell.js), says in a
// sentence what it shows, and marks itself answered when the shell's answer
// has come (the answer itself is in the terminal).  The same steps are
// the README's "A first session" and docs/walkthrough.md's; the suite's
// session-* tests type them at QEMU.

// command: what is typed.  teaches: the sentence shown.  expect: what
// the answer holds when it went as the README says (else the step says
// so, and the terminal shows what happened instead).
export const STEPS = [
  { command: "sites write_cr3", expect: /^sites: \d+ shown of \d+, backend/,
    teaches: "Each write_cr3 site: its bytes as built (a call through the table) and now " +
      "(mov %eax,%cr3 and a NOP: patched inline)." },
  { command: "pv use trace", expect: /^pv: switched from \S+ to trace/,
    teaches: "Switch to the trace backend, live: every site becomes a direct call to a " +
      "counting stub." },
  { command: "run hello", expect: /^run: hello started as pid \d+/,
    teaches: "A user program; its system calls come back by sysexit." },
  { command: "pvops", expect: /^pvops: backend \S+, \d+ ops/,
    teaches: "Every op: its slot, the function in it, and under trace how often it ran " +
      "since the switch." },
  { command: "sites write_cr3", expect: /^sites: \d+ shown of \d+, backend/,
    teaches: "The same sites, now direct calls, with counts." },
  { command: "pv use native", expect: /^pv: switched from \S+ to native/,
    teaches: "Back: every site inline again." },
  { command: "pv use rom", expect: /^pv: (backend rom refused|switched from \S+ to rom)/,
    teaches: "Refused unless the ops ROM was loaded as a module: boot the pv=rom choice " +
      "to see it work." },
  { command: "help", expect: /\^U clears the/,
    teaches: "Every command of the shell." },
];

export class Session {
  // list: the <ol> the steps go in; shell: a Shell.
  constructor(list, shell) {
    this.shell = shell;
    this.items = STEPS.map((step, i) => this.item(list, step, i));
    this.enable(false);
  }

  item(list, step, i) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "step";
    button.dataset.step = i + 1;
    button.textContent = step.command;
    const teaches = document.createElement("p");
    teaches.id = `step-${i + 1}-teaches`;
    teaches.textContent = step.teaches;
    button.setAttribute("aria-describedby", teaches.id);
    const result = document.createElement("span");
    result.className = "step-result";
    button.addEventListener("click", () => this.run(step, li, result));
    li.append(button, result, teaches);
    list.append(li);
    return { li, button, result };
  }

  enable(on) {
    for (const { button } of this.items) button.disabled = !on;
  }

  // reset: a new boot; no step answered yet.
  reset() {
    for (const { li, result } of this.items) {
      delete li.dataset.state;
      result.textContent = "";
    }
  }

  async run(step, li, result) {
    li.dataset.state = "sent";
    result.textContent = "typed…";
    try {
      const lines = await this.shell.run(step.command);
      const asExpected = lines.some((l) => step.expect.test(l));
      li.dataset.state = asExpected ? "answered" : "other";
      result.textContent = asExpected ? "✓ answered"
        : "answered: not as in the README, see the terminal";
    } catch (e) {
      li.dataset.state = "failed";
      result.textContent = `no answer: ${e.message}`;
    }
  }
}
