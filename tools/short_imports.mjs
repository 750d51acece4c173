#!/usr/bin/env node
// Release builds only (tools/post_build.sh): gives the wasm's imports short names.
//
// wasm-bindgen names every function the wasm imports from its JS glue like
// `__wbg_setTimeout_4eb823e8b72fbe79`: a readable part and 16 hex digits of hash, written
// once in the wasm's import section and once as a key of the glue's import object. The hash
// digits do not compress, and the page has about 225 of them: ≈ 6 KB gzip of the first load.
// This hook renames each import field of the wasm to a short name (`_0`, `_1`, …) and the
// glue's key to the same, then writes the new SRI hashes of both files into index.html.
//
// It checks before it writes: every import field must appear exactly once in the glue as an
// object key. Anything else (a new wasm-bindgen writing its glue differently) stops the
// build with a message instead of producing a page that cannot start.
//
// Usage: node tools/short_imports.mjs [staging dir] (default: $TRUNK_STAGING_DIR).

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function fail(message) {
  console.error(`short_imports: ${message}`);
  process.exit(1);
}

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
export function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error("the wasm ends inside a number");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** Unsigned LEB128 of `value`. */
export function leb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

/** A wasm name: its UTF-8 length, then its bytes. */
export function name(text) {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([leb(bytes.length), bytes]);
}

/** The wasm's sections: [{ id, start, end }] of each section's contents. */
export function sections(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100 || wasm.readUInt32LE(4) !== 1) throw new Error("not a wasm module");
  const found = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readLeb(wasm, at + 1);
    found.push({ id, headerStart: at, start, end: start + size });
    at = start + size;
  }
  return found;
}

/** The import section read into entries: module, field and the raw description bytes. */
export function readImports(wasm, section) {
  let at = section.start;
  const [count, first] = readLeb(wasm, at);
  at = first;
  const entries = [];
  const text = () => {
    const [length, start] = readLeb(wasm, at);
    at = start + length;
    return wasm.subarray(start, start + length).toString("utf8");
  };
  const skipLeb = () => {
    at = readLeb(wasm, at)[1];
  };
  const skipLimits = () => {
    const flags = wasm[at++];
    skipLeb();
    if (flags & 1) skipLeb();
  };
  for (let i = 0; i < count; i++) {
    const module = text();
    const field = text();
    const descStart = at;
    const kind = wasm[at++];
    if (kind === 0) skipLeb();
    else if (kind === 1) {
      at += 1;
      skipLimits();
    } else if (kind === 2) skipLimits();
    else if (kind === 3) at += 2;
    else if (kind === 4) {
      at += 1;
      skipLeb();
    } else throw new Error(`import ${module}.${field} has an unknown kind ${kind}`);
    entries.push({ module, field, desc: wasm.subarray(descStart, at) });
  }
  if (at !== section.end) throw new Error("the import section has bytes after its entries");
  return entries;
}

/** An import section's contents holding `entries` (as `readImports` reads them). */
export function importsBody(entries) {
  return Buffer.concat([leb(entries.length), ...entries.map((e) => Buffer.concat([name(e.module), name(e.field), e.desc]))]);
}

/** `wasm` with the contents of section `id` replaced by `body` (the section must exist). */
export function withSection(wasm, id, body) {
  const section = sections(wasm).find((s) => s.id === id);
  if (!section) throw new Error(`the wasm has no section ${id}`);
  return Buffer.concat([
    wasm.subarray(0, section.headerStart),
    Buffer.from([id]),
    leb(body.length),
    body,
    wasm.subarray(section.end),
  ]);
}

const KEY_CHAR = /[A-Za-z0-9_$]/;
/**
 * The module name of a split page's placeholder imports (tools/split.mjs), one per table slot
 * of a function in the rest (≈ 2,400): one letter instead of wasm-split's "placeholder" keeps
 * 24 KB out of the page's wasm (0.5 KB gzip).
 */
export const PLACEHOLDERS = "p";

/** Where `field` stands as an object key in the glue (`field: function`), every place. */
function keyPlaces(js, field) {
  const places = [];
  let from = 0;
  for (;;) {
    const at = js.indexOf(field, from);
    if (at < 0) return places;
    from = at + field.length;
    const before = js[at - 1];
    const after = js[at + field.length];
    if ((before && KEY_CHAR.test(before)) || (after && KEY_CHAR.test(after))) continue;
    places.push(at);
  }
}

/** The renamed wasm and glue; throws with the reason when the glue is not as expected. */
export function shorten(wasm, js) {
  const all = sections(wasm);
  const section = all.find((s) => s.id === 2);
  if (!section) throw new Error("the wasm has no import section");
  const entries = readImports(wasm, section);
  const renames = new Map();
  for (const entry of entries) {
    // wasm-split's placeholders (tools/split.mjs) are named by table slot, already short.
    if (entry.module === PLACEHOLDERS || renames.has(entry.field)) continue;
    const places = keyPlaces(js, entry.field);
    if (places.length !== 1 || !/^\s*:/.test(js.slice(places[0] + entry.field.length))) {
      throw new Error(`import ${entry.field} is in the glue ${places.length} times, not once as a key`);
    }
    renames.set(entry.field, { place: places[0], short: `_${renames.size.toString(36)}` });
  }
  let glue = "";
  let last = 0;
  for (const [field, { place, short }] of [...renames].sort((a, b) => a[1].place - b[1].place)) {
    glue += js.slice(last, place) + short;
    last = place + field.length;
  }
  glue += js.slice(last);
  const renamed = entries.map((e) => (e.module === PLACEHOLDERS ? e : { ...e, field: renames.get(e.field).short }));
  return { wasm: withSection(wasm, 2, importsBody(renamed)), js: glue, renamed: renames.size };
}

function sri(bytes) {
  return `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
}

/** index.html with the integrity of the link to `file` set to `bytes`' hash. */
export function withIntegrity(html, file, bytes) {
  const link = new RegExp(`(<link\\b[^>]*\\bhref="(?:[^"]*/)?${file.replace(/[.]/g, "\\.")}"[^>]*\\bintegrity=")[^"]*(")`);
  if (!link.test(html)) throw new Error(`index.html has no link to ${file} with an integrity`);
  return html.replace(link, `$1${sri(bytes)}$2`);
}

/**
 * The staged build a post_build step works on: the directory (the first argument, else
 * Trunk's staging directory), the wasm's and the glue's file names. `fail` says what is missing.
 */
export function stagedBuild(fail) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) fail("run this as a Trunk post_build hook (TRUNK_STAGING_DIR is unset) or give the directory");
  const files = readdirSync(dir);
  const wasmFile = files.find((f) => f.endsWith("_bg.wasm"));
  if (!wasmFile) fail(`no *_bg.wasm in ${dir}`);
  const jsFile = wasmFile.replace(/_bg\.wasm$/, ".js");
  if (!files.includes(jsFile)) fail(`no ${jsFile} beside ${wasmFile}`);
  return { dir, wasmFile, jsFile };
}

function main() {
  const { dir, wasmFile, jsFile } = stagedBuild(fail);
  const wasm = readFileSync(join(dir, wasmFile));
  const js = readFileSync(join(dir, jsFile), "utf8");
  let result;
  try {
    result = shorten(wasm, js);
  } catch (e) {
    fail(e.message);
  }
  let html = readFileSync(join(dir, "index.html"), "utf8");
  try {
    html = withIntegrity(html, wasmFile, result.wasm);
    html = withIntegrity(html, jsFile, Buffer.from(result.js, "utf8"));
  } catch (e) {
    fail(e.message);
  }
  writeFileSync(join(dir, wasmFile), result.wasm);
  writeFileSync(join(dir, jsFile), result.js);
  writeFileSync(join(dir, "index.html"), html);
  console.log(
    `short_imports: ${result.renamed} imports renamed; wasm ${wasm.length} → ${result.wasm.length} B, glue ${js.length} → ${result.js.length} B`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
