#!/usr/bin/env node
// Every build (tools/post_build.sh, first step): the app's start takes the wasm module that
// index.html began compiling while the page was parsed.
//
// Trunk writes a module script that imports the glue and calls
// `init({ module_or_path: '/deliberate-…_bg.wasm' })`, which fetches and compiles the wasm.
// A module script runs only once parsing is done and its glue has loaded; on a first visit
// that comes after the shell's first layout, long after the preloaded bytes are in. The
// first script of index.html's body therefore starts `WebAssembly.compileStreaming` on them
// and keeps the promise in `globalThis.deliberateWasm`. This hook makes Trunk's call pass
// that promise when there is one (the glue awaits a module or a response alike) and the path
// as before when there is not (a browser without streaming compilation).
//
// It runs before the release build's other steps: the split's profile (tools/split.mjs) must
// see the start as visitors get it. A start script not written as expected stops the build.
//
// Usage: node tools/early_compile.mjs [path/to/index.html]
// (default: $TRUNK_STAGING_DIR/index.html).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const EARLY = "globalThis.deliberateWasm";

/** The page with Trunk's `init` call taking the early module; throws if the call is not there once. */
export function withEarlyModule(html) {
  const call = /\binit\(\{ module_or_path: ('[^'\n]*_bg\.wasm') \}\)/g;
  const found = [...html.matchAll(call)];
  if (found.length !== 1) {
    throw new Error(`expected one init({ module_or_path: '…_bg.wasm' }) in index.html, found ${found.length}`);
  }
  return html.replace(call, (_, path) => `init({ module_or_path: ${EARLY} ?? ${path} })`);
}

function main() {
  const file = process.argv[2] ?? join(process.env.TRUNK_STAGING_DIR ?? "", "index.html");
  let html;
  try {
    html = withEarlyModule(readFileSync(file, "utf8"));
  } catch (e) {
    console.error(`early_compile: ${e.message}`);
    process.exit(1);
  }
  writeFileSync(file, html);
  console.log("early_compile: the start takes the module compiled while the page is parsed");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
