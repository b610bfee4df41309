// boot/web/panel.js - the panel beside the session: the op table (`pvops`)
// and one op's patch sites with their bytes now and as built (`sites OP`),
// as the running kernel itself reports them, read again after every live
// switch of the backend (`pv use`, from the panel's buttons or typed).
//
// The panel asks through the shell (shell.js), so its commands and their
// answers show in the terminal like any other: nothing is read behind the
// student's back.  answers.js turns the answers into tables.

import { parsePvops, parseSites } from "./answers.js";

const FIRST_OP = "write_cr3";   // the README's first session looks at it

// cell: a table cell with text, optionally of class cls.
function cell(tag, text, cls) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

function headRow(thead, names) {
  const row = document.createElement("tr");
  for (const name of names) {
    const th = cell("th", name);
    th.scope = "col";
    row.append(th);
  }
  thead.replaceChildren(row);
}

export class Panel {
  // root: the panel's section; shell: a Shell.
  constructor(root, shell) {
    this.root = root;
    this.shell = shell;
    this.backendName = root.querySelector("#panel-backend");
    this.note = root.querySelector("#panel-note");
    this.ops = root.querySelector("#ops-table");
    this.sites = root.querySelector("#sites-table");
    this.sitesCaption = root.querySelector("#sites-caption");
    this.readButton = root.querySelector("#panel-read");
    this.switches = [...root.querySelectorAll("button.switch")];
    this.readButton.addEventListener("click", () => this.read());
    for (const b of this.switches)
      b.addEventListener("click", () => this.use(b.dataset.backend));
    this.op = FIRST_OP;
    this.reads = 0;
    this.disable("Boot pv386 to read its table.");
  }

  // enable: the shell is up; rom tells whether the ops ROM was loaded (only
  // then can `pv use rom` work).
  enable({ rom }) {
    this.enabled = true;
    this.readButton.disabled = false;
    for (const b of this.switches) {
      b.disabled = false;
      if (b.dataset.backend === "rom") b.hidden = !rom;
    }
    this.say("Press “Read the table”, or switch the backend: the page types the commands.");
  }

  // disable: no shell to ask (not booted, a suite, or the run ended).
  disable(why) {
    this.enabled = false;
    this.again = false;
    this.readButton.disabled = true;
    for (const b of this.switches) b.disabled = true;
    this.say(why);
  }

  // reset: a new boot: the old tables go.
  reset() {
    this.ops.tHead.replaceChildren();
    this.ops.tBodies[0].replaceChildren();
    this.sites.tHead.replaceChildren();
    this.sites.tBodies[0].replaceChildren();
    this.sitesCaption.textContent = "The sites of an op: pick one in the table";
    this.backendName.textContent = "(not read yet)";
    delete this.root.dataset.backend;
    this.reading = null;
  }

  say(text) {
    this.note.textContent = text;
  }

  // use: switch the backend live; the "pv: switched" line it prints makes
  // the page read the table again (switched()).
  async use(backend) {
    try {
      await this.shell.run(`pv use ${backend}`);
    } catch (e) {
      if (this.enabled) this.say(`pv use ${backend}: ${e.message}`);
    }
  }

  // switched: a live switch happened, whoever typed it.  A suite's own
  // tests switch too, with no shell to ask: only an enabled panel reads.
  switched() {
    this.read();
  }

  // read: pvops, then the chosen op's sites.  A read asked for while one
  // runs is done once more after it, not twice in parallel; none is done
  // while the panel is disabled (no shell, or the run ended).
  async read() {
    if (!this.enabled) return;
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readOnce();
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
    if (this.again && this.enabled) {
      this.again = false;
      return this.read();
    }
  }

  async readOnce() {
    try {
      this.say("Asking the shell: pvops…");
      const table = parsePvops(await this.shell.run("pvops"));
      if (!table) return this.say("The shell's answer to pvops had no table (see the terminal).");
      this.showOps(table);
      if (!await this.readSites()) return;
      this.reads++;
      this.root.dataset.reads = this.reads;
      this.say(`Read at ${new Date().toLocaleTimeString()}: backend ${table.backend}, ` +
        `${table.count} ops${table.traced ? ", calls counted since the switch" : ""}.`);
    } catch (e) {
      if (this.enabled) this.say(`The panel could not read the table: ${e.message}`);
    }
  }

  // readSites: the chosen op's sites; false if the answer held none.
  async readSites() {
    this.say(`Asking the shell: sites ${this.op}…`);
    const answer = parseSites(await this.shell.run(`sites ${this.op}`));
    if (!answer) {
      this.say(`The shell's answer to sites ${this.op} had no sites (see the terminal).`);
      return false;
    }
    this.showSites(answer);
    return true;
  }

  // choose: the student picked an op in the table.
  async choose(op) {
    this.op = op;
    for (const b of this.ops.querySelectorAll("button.op"))
      b.setAttribute("aria-pressed", String(b.dataset.op === op));
    try {
      if (await this.readSites())
        this.say(`Sites of ${op}, read at ${new Date().toLocaleTimeString()}.`);
    } catch (e) {
      if (this.enabled) this.say(`The panel could not read the sites: ${e.message}`);
    }
  }

  showOps(table) {
    this.backendName.textContent = table.backend;
    for (const b of this.switches)
      b.setAttribute("aria-pressed", String(b.dataset.backend === table.backend));
    this.root.dataset.backend = table.backend;
    headRow(this.ops.tHead, table.traced
      ? ["Slot", "Op", "Function (trace's stub)", "Wraps", "Calls"]
      : ["Slot", "Op", "Function"]);
    const rows = table.ops.map((o) => {
      const row = document.createElement("tr");
      row.dataset.op = o.op;
      const pick = document.createElement("button");
      pick.type = "button";
      pick.className = "op";
      pick.dataset.op = o.op;
      pick.textContent = o.op;
      pick.setAttribute("aria-pressed", String(o.op === this.op));
      pick.addEventListener("click", () => this.choose(o.op));
      const opCell = document.createElement("td");
      opCell.append(pick);
      row.append(cell("td", o.slot, "num"), opCell, cell("td", o.fn, "sym"));
      if (table.traced) row.append(cell("td", o.wraps, "sym"), cell("td", o.calls, "num calls"));
      return row;
    });
    this.ops.tBodies[0].replaceChildren(...rows);
  }

  showSites(answer) {
    const counted = answer.sites.some((s) => s.calls !== null);
    this.sites.dataset.op = this.op;
    this.sites.dataset.backend = answer.backend;
    this.sitesCaption.textContent = `The ${answer.shown} sites of ${this.op} ` +
      `(of ${answer.total} in all), backend ${answer.backend}` +
      `${answer.nopatch ? ", nopatch" : ""}: each site's bytes now and as built`;
    headRow(this.sites.tHead,
      ["Address", "In function", "State", ...(counted ? ["Calls"] : []), "Bytes"]);
    const rows = answer.sites.map((s) => {
      const row = document.createElement("tr");
      row.dataset.state = s.state;
      const bytes = document.createElement("td");
      bytes.className = "bytes";
      const changed = s.now.join(" ") !== s.built.join(" ");
      bytes.append(cell("div", `now:   ${s.now.join(" ")}`, changed ? "now changed" : "now"),
        cell("div", `built: ${s.built.join(" ")}`, "built"));
      row.append(cell("td", s.addr, "addr"), cell("td", s.caller, "sym"),
        cell("td", s.state, `state ${s.state}`));
      if (counted) row.append(cell("td", s.calls ?? "", "num calls"));
      row.append(bytes);
      return row;
    });
    this.sites.tBodies[0].replaceChildren(...rows);
  }
}
