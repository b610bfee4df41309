// boot/web/about.js - what the page says about itself: the commit it was
// built from and its parts with their versions and licences, from the
// build-info.json that tools/web-build writes beside it.

// link: an <a> to a file of this site (a licence text).
function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function textCell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

// licenceCell: the licence's name, its texts in this site, and a note.
function licenceCell(part) {
  const td = textCell(part.licence);
  for (const file of part.licence_files) {
    td.append(" ");
    td.append(link(file, `[${file.replace(/^licences\/|\.txt$/g, "")}]`));
  }
  if (part.note) td.append(document.createElement("br"), part.note);
  return td;
}

// showBuild: the header's build line and the footer's parts table;
// resolves with the build info (null if it could not be read).
export async function showBuild(line, partsBody) {
  let info;
  try {
    const response = await fetch("build-info.json", { cache: "no-cache" });
    info = await response.json();
  } catch (e) {
    line.textContent = `Build: build-info.json could not be read (${e.message}).`;
    return null;
  }
  line.replaceChildren("Built from pv386 commit ");
  const commit = document.createElement("code");
  commit.id = "build-commit";
  commit.textContent = info.commit;
  line.append(commit, ` on ${info.date}.`);
  line.title = line.textContent;        // whole, where a narrow window cuts it
  partsBody.replaceChildren(...info.parts.map((part) => {
    const row = document.createElement("tr");
    row.append(textCell(part.name), textCell(part.what), textCell(part.version), licenceCell(part),
      textCell(part.source ?? "this repository"));
    return row;
  }));
  return info;
}
