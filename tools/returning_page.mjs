#!/usr/bin/env node
// A step of the post_build hook (tools/post_build.sh), release builds of the page: writes
// returning.html beside the staged index.html. It is index.html without its static shell
// (from the comment "shell: start" to "shell: end"), with www/returning.js inlined there
// instead. The service worker keeps it as the app's page (www/sw.js), so a visit it answers
// parses no shell and runs none of the shell's script before the app starts: the app's wasm
// is already on the device. A first visit still gets index.html, shell and all, from the
// network. README, First paint.
//
// Runs before tools/csp_hashes.mjs, which then fills both pages' policies with their own
// inline scripts' hashes.
//
// Usage: node tools/returning_page.mjs [path/to/index.html]
// (default: $TRUNK_STAGING_DIR/index.html); the page is written beside it.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const START = "<!-- shell: start -->";
export const END = "<!-- shell: end -->";
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "..", "www", "returning.js");

/** index.html's text without the shell, `script` inlined in its place. */
export function returningPage(html, script) {
  const start = html.indexOf(START);
  const end = html.indexOf(END);
  if (start < 0 || end < 0 || end < start || html.indexOf(START, start + 1) >= 0 || html.indexOf(END, end + 1) >= 0) {
    throw new Error(`index.html must hold "${START}" once, then "${END}" once`);
  }
  const lineStart = html.lastIndexOf("\n", start) + 1;
  const indent = html.slice(lineStart, start);
  const body = script
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .map((line) => (line ? `${indent}  ${line}` : line))
    .join("\n")
    .trimEnd();
  return `${html.slice(0, start)}<script>\n${body}\n${indent}</script>${html.slice(end + END.length)}`;
}

function main() {
  const path = process.argv[2] ?? join(process.env.TRUNK_STAGING_DIR ?? "dist", "index.html");
  const page = returningPage(readFileSync(path, "utf8"), readFileSync(SCRIPT, "utf8"));
  const out = join(dirname(path), "returning.html");
  writeFileSync(out, page);
  console.log(`returning_page: ${out} (${page.length} bytes)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (err) {
    console.error(`returning_page: ${err.message}`);
    process.exit(1);
  }
}
