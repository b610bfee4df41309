// boot/web/own.js - booting your own kernel build: a student picks (or
// drops on the page) a kernel and, optionally, a module, with a command
// line; the page checks the kernel is a Multiboot image (multiboot.js)
// and the command line as a link's (options.js), and says why not.

import { multibootProblem } from "./multiboot.js";
import { CMDLINE_MAX_BYTES, textProblem } from "./options.js";

// ownBuild: wire the fieldset's inputs (ids own-kernel, own-module,
// own-cmdline, own-boot, own-note) and drops on the page; boot(build) is
// called with {name, kernel, moduleName, module, cmdline} (ArrayBuffers).
export function ownBuild(boot) {
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $("own-note").textContent = text; };

  async function tryBoot(kernelFile, moduleFile) {
    if (!kernelFile) return say("Pick a kernel file first.");
    const cmdline = $("own-cmdline").value;
    const problem = textProblem("The command line", cmdline, CMDLINE_MAX_BYTES);
    if (problem) return say(problem);
    const kernel = await kernelFile.arrayBuffer();
    const why = multibootProblem(kernel);
    if (why) return say(`${kernelFile.name} is not a Multiboot image: ${why}.  ` +
      "Pick the kernel's ELF (build/pv386.elf or build/pv386-stripped.elf).");
    const module = moduleFile ? await moduleFile.arrayBuffer() : null;
    say(`Booting ${kernelFile.name}${moduleFile ? ` with ${moduleFile.name} as its module` : ""}.`);
    boot({ name: kernelFile.name, kernel, moduleName: moduleFile?.name ?? null, module, cmdline });
  }

  $("own-boot").addEventListener("click",
    () => tryBoot($("own-kernel").files[0], $("own-module").files[0]));

  // A drop: the first Multiboot image among the files is the kernel, the
  // next other file its module.
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    const kernels = await Promise.all(files.map(async (f) =>
      !multibootProblem(await f.arrayBuffer())));
    const kernel = files.find((f, i) => kernels[i]) ?? files[0];
    tryBoot(kernel, files.find((f) => f !== kernel));
  });
}
