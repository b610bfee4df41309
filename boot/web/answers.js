// boot/web/answers.js - reading the kernel shell's answers to `pvops` and
// `sites OP` (kernel/shell/pv.c prints them) into plain objects for the
// panel.  Lines that are not part of the answer (a user program's output,
// a guest's `guest: ` lines) match none of the patterns and are skipped.

// "pvops: backend trace, 52 ops; calls counted by trace"
const PVOPS_HEAD = /^pvops: backend (\S+), (\d+) ops(; calls counted by trace)?$/;
// "  12 write_cr3           native_write_cr3+0x0", and under trace
// "  12 write_cr3   paravirt_trace_stub_table+0x144 -> native_write_cr3+0x0   2"
const PVOPS_ROW = /^\s*(\d+) (\S+)\s+(\S+)(?:\s+->\s+(\S+)\s+(\d+))?$/;

// "00104498 write_cr3           arch_switch_to+0x28            inline   calls 1"
const SITE_HEAD = /^([0-9a-f]{8}) (\S+)\s+(\S+)\s+(\S+)(?:\s+calls (\S+))?$/;
const SITE_NOW = /^\s+now:\s*((?:[0-9a-f]{2}\s*)*)$/;
const SITE_BUILT = /^\s+built:\s*((?:[0-9a-f]{2}\s*)*)$/;
const SITE_MORE = /^\s{10,}((?:[0-9a-f]{2}\s*)+)$/;   // a long site's next 16 bytes
// "sites: 11 shown of 340, backend native (nopatch)"
const SITES_TAIL = /^sites: (\d+) shown of (\d+), backend (\S+)( \(nopatch\))?$/;

const bytes = (text) => text.trim().split(/\s+/).filter(Boolean);

// parsePvops: {backend, count, traced, ops: [{slot, op, fn, wraps, calls}]},
// or null when the lines hold no pvops answer.
export function parsePvops(lines) {
  let table = null;
  for (const line of lines.map((l) => l.trimEnd())) {
    const head = PVOPS_HEAD.exec(line);
    if (head) {
      table = { backend: head[1], count: +head[2], traced: !!head[3], ops: [] };
      continue;
    }
    const row = table && PVOPS_ROW.exec(line);
    if (row)
      table.ops.push({ slot: +row[1], op: row[2], fn: row[3], wraps: row[4] ?? null,
        calls: row[5] === undefined ? null : +row[5] });
  }
  return table && table.ops.length ? table : null;
}

// parseSites: {shown, total, backend, nopatch, sites: [{addr, op, caller,
// state, calls, now, built}]}, or null without the closing summary line.
export function parseSites(lines) {
  const sites = [];
  let last = null;      // the byte list a continuation line extends
  for (const line of lines.map((l) => l.trimEnd())) {
    const head = SITE_HEAD.exec(line);
    const now = SITE_NOW.exec(line);
    const built = SITE_BUILT.exec(line);
    const more = SITE_MORE.exec(line);
    const tail = SITES_TAIL.exec(line);
    if (head) {
      sites.push({ addr: head[1], op: head[2], caller: head[3], state: head[4],
        calls: head[5] ?? null, now: [], built: [] });
      last = null;
    } else if (now && sites.length) {
      last = sites.at(-1).now = bytes(now[1]);
    } else if (built && sites.length) {
      last = sites.at(-1).built = bytes(built[1]);
    } else if (more && last) {
      last.push(...bytes(more[1]));
    } else if (tail) {
      return { shown: +tail[1], total: +tail[2], backend: tail[3], nopatch: !!tail[4], sites };
    }
  }
  return null;
}
