// boot/web/share.js - what a teacher asked for: the page's URL follows the
// boot menu, so the address bar is always a link to this setup, and a
// button copies it; the COM1 transcript downloads as a text file.

// setupLink: a link that opens the page booting choice, with the link's
// own options that were taken (cmdline, module, memory, c).
export function setupLink(choice, options, defaults) {
  const url = new URL(location.href);
  url.search = "";
  const query = url.searchParams;
  query.set("boot", choice);
  if (options.cmdline !== null) query.set("cmdline", options.cmdline);
  if (options.module !== null) query.set("module", options.module);
  if (options.memoryMiB !== defaults.memoryMiB) query.set("memory", options.memoryMiB);
  if (options.command !== null) query.set("c", options.command);
  return url;
}

// keepURL: the address bar shows choice's setup (without autostart: a
// reload shows the page as it is); replaceState, so Back is not filled.
export function keepURL(link) {
  history.replaceState(null, "", link.href);
}

// copyLink: the setup's link, with autostart, to the clipboard; says.
export async function copyLink(link, say) {
  link.searchParams.set("autostart", "");
  const text = link.href.replace(/autostart=(&|$)/, "autostart$1");
  try {
    await navigator.clipboard.writeText(text);
    say(`Copied: ${text}`);
  } catch {
    say(`The browser let the page copy nothing; the link is: ${text}`);
  }
}

// download: text as a file named name.
export function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
