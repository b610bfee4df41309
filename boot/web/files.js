// boot/web/files.js - the PC's files (v86.wasm, the BIOS images, the kernel
// and its module), fetched by the page itself before v86 starts, so that
// a failure is the page's to say: v86's own loader logs a network error
// and waits for ever, and a page must never just look frozen.
//
// A file that came is kept for the page's life: a reboot starts at once,
// and a retry after a failure fetches only what is still missing.
// v86.wasm is compiled once too; each PC instantiates it afresh.

const FETCH_TIMEOUT_MS = 60000;

// LoadError: file could not be had; reason says why, in words.
export class LoadError extends Error {
  constructor(file, reason) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

const kept = new Map();       // path -> Promise of ArrayBuffer (or Module)

// fetchBytes: the file at path, as an ArrayBuffer, or a LoadError.
async function fetchBytes(path) {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), FETCH_TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, { signal: timeout.signal });
    if (!response.ok)
      throw new LoadError(path, `the site answered ${response.status} ${response.statusText}`.trim());
    return await response.arrayBuffer();
  } catch (e) {
    if (e instanceof LoadError) throw e;
    if (timeout.signal.aborted)
      throw new LoadError(path, `it did not arrive within ${FETCH_TIMEOUT_MS / 1000} s`);
    throw new LoadError(path, `the network failed (${e.message})`);
  } finally {
    clearTimeout(timer);
  }
}

// keep: make(path) once; a failure is forgotten, so that a retry tries again.
function keep(path, make) {
  if (!kept.has(path)) {
    const promise = make(path);
    kept.set(path, promise);
    promise.catch(() => kept.delete(path));
  }
  return kept.get(path);
}

// bytes: a copy of the file at path (v86 may write into what it is given).
export async function bytes(path) {
  return (await keep(path, fetchBytes)).slice(0);
}

// wasmModule: v86.wasm at path, compiled.
export function wasmModule(path) {
  return keep(`compiled:${path}`, async () => {
    const code = await keep(path, fetchBytes);
    try {
      return await WebAssembly.compile(code);
    } catch (e) {
      throw new LoadError(path, `it is not WebAssembly this browser can run (${e.message})`);
    }
  });
}
