#!/usr/bin/env node
// Release builds of the page only (tools/post_build.sh): splits the wasm in two, so that the
// first load carries only the code a first visit runs before the user sends anything.
//
// 1. Profile. binaryen's wasm-split instruments a copy of the wasm; a copy of the page runs it
//    in headless Chromium (fresh profiles: English and Korean, wide and narrow; first visits
//    and returning ones with stored settings) until the composer accepts input, types a
//    request and presses Enter. The copy's gate never opens
//    (see 4), so the profile holds exactly what runs before the rest is needed; one more visit
//    has the gate fail, for what the page shows when the rest cannot load.
// 2. Split. The functions the profile saw stay in the page's wasm; every other one moves to
//    `<name>_rest.wasm`, and its slot in the function table holds a placeholder until the
//    rest is linked in (the rest imports the page's memory, tables, globals and functions).
//    The page's functions the rest calls are not exports (every export costs the page's start
//    a JS function): they go after the function table's slots, and the loader reads them
//    from there as it links the rest (`functionsThroughTable`).
// 3. Check. wasm-split 108 (Debian's; binaryen's npm package has no wasm-split) exports a
//    table by the wrong index; the tool sets every exported table by its type and then links
//    both halves in Node. A pair that does not link stops the build.
// 4. Glue. The glue gets a loader: after the app has started it fetches and compiles the rest
//    in the background; `globalThis.deliberateRest()` returns nothing once the rest is linked,
//    else a promise of it (the composer waits on it before it sends); a placeholder called
//    before then loads the rest synchronously and goes on; `globalThis.deliberateRestLinked`
//    settles once the rest is linked (the app opens the database and resumes a conversation
//    after it: code a first visit does not run). A returning visit (a service worker controls
//    the page, or the app has stored something) fetches and compiles the rest beside the
//    page's wasm, and starts without waiting for it: the profile also holds returning visits
//    (settings, keys, language and theme stored), so their start needs nothing of the rest.
//    A closure the garbage collector takes before then is destroyed once the rest is linked.
//    The new SRI hashes go into index.html.
// 5. Prompt texts. The page is built without them (cargo feature `prompts-apart`): the rest
//    carries src/engine/prompts.txt in a custom section, which the loader hands to the app
//    (`globalThis.deliberatePrompts`) as it links the rest; the engine checks its digest.
//
// Usage: node tools/split.mjs [staging dir] (default: $TRUNK_STAGING_DIR). Needs $WASM_SPLIT,
// $CHROMEDRIVER and $DELIBERATE_CHROMIUM (./dev sets all three).

import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { PLACEHOLDERS, importsBody, leb, name as wasmName, readImports, readLeb, sections, stagedBuild, withIntegrity, withSection } from "./short_imports.mjs";

function fail(message) {
  console.error(`split: ${message}`);
  process.exit(1);
}

function wasmSplit(args) {
  const tool = process.env.WASM_SPLIT ?? "wasm-split";
  const out = spawnSync(tool, ["--all-features", ...args], { encoding: "utf8" });
  if (out.error) fail(`cannot run ${tool}: ${out.error.message}`);
  if (out.status !== 0) fail(`${tool} ${args[0]} failed: ${out.stderr}`);
}

// ---- the wasm's tables and exports ----

/** Skips a table's or a memory's limits at `at`: the offset after them. */
function skipLimits(wasm, at) {
  const flags = wasm[at++];
  at = readLeb(wasm, at)[1];
  return flags & 1 ? readLeb(wasm, at)[1] : at;
}

/** The import section's entries: [{ field, kind, tableType (tables only) }]. */
function importEntries(wasm) {
  const section = sections(wasm).find((s) => s.id === 2);
  if (!section) return [];
  return readImports(wasm, section).map(({ field, desc }) => ({
    field,
    kind: desc[0],
    tableType: desc[0] === 1 ? desc[1] : undefined,
  }));
}

/** Element type (0x70 funcref, 0x6f externref) of every table, imported ones first. */
function tableTypes(wasm) {
  const types = importEntries(wasm).flatMap((e) => (e.kind === 1 ? [e.tableType] : []));
  const section = sections(wasm).find((s) => s.id === 4);
  if (section) {
    let [count, at] = readLeb(wasm, section.start);
    for (; count > 0; count--) {
      types.push(wasm[at++]);
      at = skipLimits(wasm, at);
    }
  }
  return types;
}

/** The export section's entries: [{ name, kind, index, from, indexAt, end }] (offsets in `wasm`). */
function exportEntries(wasm) {
  const section = sections(wasm).find((s) => s.id === 7);
  if (!section) return [];
  let [count, at] = readLeb(wasm, section.start);
  const found = [];
  for (; count > 0; count--) {
    const from = at;
    const [length, start] = readLeb(wasm, at);
    const name = wasm.subarray(start, start + length).toString("utf8");
    at = start + length;
    const kind = wasm[at++];
    const indexAt = at;
    const [index, next] = readLeb(wasm, at);
    at = next;
    found.push({ name, kind, index, from, indexAt, end: at });
  }
  return found;
}

/** Every table export: [{ name, indexAt (offset of its one-byte index) }]. */
function tableExports(wasm) {
  return exportEntries(wasm)
    .filter((e) => e.kind === 1)
    .map(({ name, indexAt, end }) => {
      if (end !== indexAt + 1) throw new Error(`table export ${name} has a long index`);
      return { name, indexAt };
    });
}

/**
 * Points each exported table of `wasm` at the table of the type `typeOf(name)` says
 * (0x70 or 0x6f); there must be exactly one table of that type. Changes `wasm` in place.
 */
export function fixTableExports(wasm, typeOf) {
  const types = tableTypes(wasm);
  for (const { name, indexAt } of tableExports(wasm)) {
    const want = typeOf(name);
    if (want === undefined) throw new Error(`no type known for the exported table ${name}`);
    const matching = types.flatMap((t, i) => (t === want ? [i] : []));
    if (matching.length !== 1) throw new Error(`${matching.length} tables of type ${want} for ${name}`);
    wasm[indexAt] = matching[0];
  }
}

/** The element type of every table `wasm` exports, by the index it exports: name → type. */
function exportedTableTypes(wasm) {
  const types = tableTypes(wasm);
  return new Map(tableExports(wasm).map(({ name, indexAt }) => [name, types[wasm[indexAt]]]));
}

/** The element type of every table `wasm` imports: name → type. */
function importedTableTypes(wasm) {
  return new Map(importEntries(wasm).flatMap((e) => (e.kind === 1 ? [[e.field, e.tableType]] : [])));
}

const FUNCREF = 0x70;

/** Signed LEB128 of `value` (an i32.const's operand). */
function sleb(value) {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40);
    out.push(done ? byte : byte | 0x80);
    if (done) return Buffer.from(out);
  }
}

/** The function table's index, its limits' offset and the offset after them, in `wasm`. */
function functionTable(wasm) {
  if (importEntries(wasm).some((e) => e.kind === 1)) throw new Error("the page's wasm imports a table");
  const section = sections(wasm).find((s) => s.id === 4);
  let [count, at] = readLeb(wasm, section.start);
  const found = [];
  for (let index = 0; index < count; index++) {
    const type = wasm[at++];
    if (type === FUNCREF) found.push({ index, limitsAt: at, end: skipLimits(wasm, at) });
    at = skipLimits(wasm, at);
  }
  if (found.length !== 1) throw new Error(`${found.length} function tables in the page's wasm`);
  return { ...found[0], section };
}

/**
 * The rest's imports from the page, and how the page hands over its functions. wasm-split
 * exports from the page every function the rest calls (about a thousand, named `%…`), and an
 * instance makes a JS function of every export as it starts: measured in Node, 2.5 ms of the
 * page's instantiation, which every visit waits for. Here those functions go into the page's
 * function table instead, after its slots, in the order the rest imports them, and their
 * exports go; the loader hands them to the rest from the table when it links it
 * (`restImports`). The rest's import of the table then allows the larger size. Returns both
 * halves anew: { primary, rest }.
 */
export function functionsThroughTable(primary, rest) {
  const entries = readImports(rest, sections(rest).find((s) => s.id === 2));
  const wanted = entries.filter((i) => i.module === "primary" && i.desc[0] === 0).map((i) => i.field);
  const asked = new Set(wanted);
  // The page's exports: each function's index by name; the `%` ones the rest alone reads go.
  const exports = exportEntries(primary);
  const functions = new Map(exports.filter((e) => e.kind === 0).map((e) => [e.name, e.index]));
  const kept = exports
    .filter((e) => !(e.kind === 0 && e.name.startsWith("%") && asked.has(e.name)))
    .map((e) => primary.subarray(e.from, e.end));
  const indices = wanted.map((label) => {
    if (!functions.has(label)) throw new Error(`the rest imports ${label}, which the page does not export`);
    return functions.get(label);
  });
  let wasm = withSection(primary, 7, Buffer.concat([leb(kept.length), ...kept]));

  // The function table grows by as many slots, filled by one more element segment.
  const table = functionTable(wasm);
  const flags = wasm[table.limitsAt];
  const [min, afterMin] = readLeb(wasm, table.limitsAt + 1);
  const max = flags & 1 ? readLeb(wasm, afterMin)[0] : undefined;
  if (max !== undefined && max !== min) throw new Error("the function table's limits are not fixed");
  const slot = min;
  const size = leb(min + indices.length);
  const limits = Buffer.concat([Buffer.from([flags]), size, flags & 1 ? size : Buffer.alloc(0)]);
  wasm = withSection(
    wasm,
    4,
    Buffer.concat([
      wasm.subarray(table.section.start, table.limitsAt),
      limits,
      wasm.subarray(table.end, table.section.end),
    ]),
  );
  const elements = sections(wasm).find((s) => s.id === 9);
  if (!elements) throw new Error("the page's wasm has no element section");
  const [segments, firstSegment] = readLeb(wasm, elements.start);
  const head = table.index === 0 ? Buffer.from([0]) : Buffer.concat([Buffer.from([2]), leb(table.index)]);
  const segment = Buffer.concat([
    head,
    Buffer.from([0x41]),
    sleb(slot),
    Buffer.from([0x0b]),
    table.index === 0 ? Buffer.alloc(0) : Buffer.from([0]),
    leb(indices.length),
    ...indices.map(leb),
  ]);
  wasm = withSection(
    wasm,
    9,
    Buffer.concat([leb(segments + 1), wasm.subarray(firstSegment, elements.end), segment]),
  );
  // The rest imports the table with the limits it had: its maximum grows by as much.
  const imports = entries.map((entry) => {
    const { desc } = entry;
    if (desc[0] !== 1 || desc[1] !== FUNCREF || !(desc[2] & 1)) return entry;
    const [least, next] = readLeb(desc, 3);
    const most = readLeb(desc, next)[0];
    if (most !== min) throw new Error(`the rest imports the function table with room for ${most} slots, not ${min}`);
    return { ...entry, desc: Buffer.concat([desc.subarray(0, 3), leb(least), size]) };
  });
  return { primary: wasm, rest: withSection(rest, 2, importsBody(imports)) };
}

/**
 * What the rest imports from the page: the page's exports, and each function the rest imports
 * from it read from the function table `table`, whose last slots hold them in the order of the
 * rest's imports (see `functionsThroughTable`). The loader in the glue does the same.
 */
export function restImports(module, exports, table) {
  const primary = { ...exports };
  const wanted = WebAssembly.Module.imports(module).filter((i) => i.module === "primary" && i.kind === "function");
  const functions = exports[table];
  let at = functions.length - wanted.length;
  for (const i of wanted) primary[i.name] = functions.get(at++);
  return { primary };
}

/** The name under which the rest imports the page's function table. */
function restTableName(rest) {
  return [...importedTableTypes(rest)].find(([, type]) => type === FUNCREF)?.[0];
}

/** Links the two halves in Node with throwing imports: throws if they do not fit. */
export function link(primary, rest) {
  const stub = () => {
    throw new Error("not in the build check");
  };
  const anyImports = (module) => {
    const imports = {};
    for (const i of WebAssembly.Module.imports(module)) {
      if (i.kind !== "function") throw new Error(`the page's wasm imports a ${i.kind}`);
      (imports[i.module] ??= {})[i.name] = stub;
    }
    return imports;
  };
  const page = new WebAssembly.Module(primary);
  const instance = new WebAssembly.Instance(page, anyImports(page));
  // wasm-bindgen's glue keeps JS values in this table: it must hold any value (the very
  // thing wasm-split 108 gets wrong, by exporting the function table under its name).
  instance.exports.__wbindgen_externrefs.set(0, {});
  const module = new WebAssembly.Module(rest);
  new WebAssembly.Instance(module, restImports(module, instance.exports, restTableName(rest)));
}

// ---- profiling in Chromium ----

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

function serve(dir) {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      let path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
      if (path === SEED_PAGE) {
        res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>seed</title>");
        return;
      }
      if (path.endsWith("/")) path += "index.html";
      let body;
      try {
        body = readFileSync(join(dir, path));
      } catch {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    });
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

async function driver() {
  const bin = process.env.CHROMEDRIVER ?? "chromedriver";
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(bin, [`--port=${port}`], { stdio: "ignore" });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) break;
      try {
        const r = await fetch(`${url}/status`);
        if ((await r.json()).value?.ready) return { child, url };
      } catch {}
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill();
  }
  fail(`chromedriver (${bin}) did not start`);
}

async function call(url, method, path, body) {
  const r = await fetch(url + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value).slice(0, 400)}`);
  return json.value;
}

// Runs in the page: waits for the composer, then the caller types; writes the profile.
const WAIT_READY = `
const done = arguments[arguments.length - 1];
const t0 = Date.now();
(function poll() {
  const area = document.getElementById("composer-input");
  if (globalThis.__profiled && area && !area.disabled && performance.getEntriesByName("app-ready").length) return done("ready");
  if (Date.now() - t0 > 30000) return done("timeout: " + document.body.innerText.slice(0, 300));
  setTimeout(poll, 20);
})();`;
const WRITE_PROFILE = `
const done = arguments[arguments.length - 1];
setTimeout(() => {
  const w = globalThis.__profiled;
  const at = w.memory.grow(4) * 65536;
  const n = w.__write_profile(at, 4 * 65536);
  const bytes = new Uint8Array(w.memory.buffer, at, n);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  done(btoa(s));
}, 500);`;

// What a returning visit finds in localStorage (src/store/local.rs writes these keys): LLM
// settings with remembered keys (a local server on a closed port: nothing answers) or with
// sealed ones, the session settings, a theme, a language, and the conversation last opened.
const LLM = { kind: "openai_compatible", base_url: "http://127.0.0.1:9/v1", model: "local-model" };
const RETURNING_WITH_LLM = {
  "deliberate.llm": JSON.stringify({ enabled: true, designer: LLM, separate_critic: false, critic: LLM, remember_keys: true, timeout_secs: 30 }),
  "deliberate.llm.keys": JSON.stringify({ designer: "sk-profile", critic: "sk-profile" }),
  "deliberate.discussion": JSON.stringify({ max_rounds: 4, alignment_rounds: 2, strict: true, context_window: 8192 }),
  "deliberate.theme": "dark",
  "deliberate.current": "s0",
};
// Keys sealed with a passphrase (src/store/keylock.rs's record): the start asks to unlock.
const ANTHROPIC = { kind: "anthropic", base_url: "", model: "claude-haiku" };
const RETURNING_IN_KOREAN = {
  "deliberate.llm": JSON.stringify({ enabled: true, designer: ANTHROPIC, separate_critic: false, critic: ANTHROPIC, remember_keys: true, timeout_secs: 30 }),
  "deliberate.llm.keys.locked": JSON.stringify({ v: 1, kdf: "PBKDF2-SHA256", iterations: 600000, salt: "00".repeat(16), iv: "ab".repeat(12), data: "cd".repeat(40) }),
  "deliberate.lang": "ko",
  "deliberate.theme": "light",
  "deliberate.current": "s0",
};
const SEED = `localStorage.clear();
for (const [key, value] of Object.entries(arguments[0])) localStorage.setItem(key, value);
return localStorage.length;`;
/** The blank page of the profiling server's origin that stores what a returning visit finds. */
const SEED_PAGE = "/profile-seed";

async function profile(site, out) {
  const server = await serve(site);
  const page = `http://127.0.0.1:${server.address().port}/`;
  const { child, url } = await driver();
  // [language, window, request, the rest cannot load, what an earlier visit stored]. What a
  // start runs depends a little on timing (which of the database and the first frame comes
  // first): each visit runs three times, and the profile keeps every function any run saw.
  const visits = [
    ["en-US", "1280,900", "Build a small tool that renames photos by date", false, null],
    ["ko-KR", "1280,900", "사진을 날짜별로 이름 바꾸는 도구를 만들어 줘", false, null],
    ["en-US", "390,844", "Plan a weekend trip", false, null],
    ["en-US", "1280,900", "Plan a weekend trip", true, null],
    ["en-US", "1280,900", "Plan a weekend trip", false, RETURNING_WITH_LLM],
    // A returning visit whose rest cannot load: what the opening conversation says, and the
    // retries, are in the page's part.
    ["en-US", "1280,900", "Plan a weekend trip", true, RETURNING_WITH_LLM],
    ["ko-KR", "390,844", "주말 여행 계획을 세워 줘", false, RETURNING_IN_KOREAN],
  ];
  const runs = [...visits, ...visits, ...visits];
  const files = [];
  try {
    for (const [i, [lang, size, text, fails, stored]] of runs.entries()) {
      const profileDir = mkdtempSync(join(tmpdir(), "deliberate-split-chromium-"));
      const args = ["--headless=new", "--no-sandbox", "--disable-gpu", `--lang=${lang}`, `--window-size=${size}`];
      args.push(`--user-data-dir=${profileDir}`);
      const options = { args, prefs: { intl: { accept_languages: `${lang},${lang.slice(0, 2)}` } } };
      if (process.env.DELIBERATE_CHROMIUM) options.binary = process.env.DELIBERATE_CHROMIUM;
      const session = (await call(url, "POST", "/session", { capabilities: { alwaysMatch: { "goog:chromeOptions": options } } }))
        .sessionId;
      try {
        const at = `/session/${session}`;
        await call(url, "POST", `${at}/timeouts`, { script: 60000 });
        if (stored) {
          // localStorage belongs to the origin: a blank page of it fills it.
          await call(url, "POST", `${at}/url`, { url: `${page}${SEED_PAGE.slice(1)}` });
          const seeded = await call(url, "POST", `${at}/execute/sync`, { script: SEED, args: [stored] });
          if (seeded !== Object.keys(stored).length) throw new Error(`the returning visit's storage was not filled: ${seeded}`);
        }
        await call(url, "POST", `${at}/url`, { url: fails ? `${page}?rest-fails` : page });
        const ready = await call(url, "POST", `${at}/execute/async`, { script: WAIT_READY, args: [] });
        if (ready !== "ready") throw new Error(`the app did not start (${lang}, ${size}): ${ready}`);
        const area = await call(url, "POST", `${at}/element`, { using: "css selector", value: "#composer-input" });
        const id = Object.values(area)[0];
        await call(url, "POST", `${at}/element/${id}/click`, {});
        await call(url, "POST", `${at}/element/${id}/value`, { text });
        await call(url, "POST", `${at}/element/${id}/value`, { text: "\uE007" });
        const data = await call(url, "POST", `${at}/execute/async`, { script: WRITE_PROFILE, args: [] });
        const file = join(out, `run-${i}.prof`);
        writeFileSync(file, Buffer.from(data, "base64"));
        files.push(file);
      } finally {
        await call(url, "DELETE", `/session/${session}`).catch(() => {});
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
  } finally {
    child.kill();
    server.close();
  }
  return files;
}

// ---- the prompt texts ----

/** The custom section of the rest that carries the prompt texts (src/engine/prompt_text.rs). */
const PROMPTS_SECTION = "deliberate-prompts";
const PROMPTS_FILE = new URL("../src/engine/prompts.txt", import.meta.url);

/**
 * `wasm` with a custom section `name` holding `bytes` at its end. The page's build leaves the
 * prompt texts out (cargo feature `prompts-apart`): the rest, which only a send needs, carries
 * them, and the loader hands them to the app when it links the rest.
 */
export function withCustomSection(wasm, label, bytes) {
  const body = Buffer.concat([wasmName(label), bytes]);
  return Buffer.concat([wasm, Buffer.from([0]), leb(body.length), body]);
}

// ---- the glue ----

/** The page's glue with the loader of `rest` (a file name beside it) and `table` (export). */
export function withLoader(js, rest, table) {
  const importsAt = /\n(\s*)"\.\/deliberate_bg\.js": import0,\n/;
  if (!importsAt.test(js)) throw new Error("the glue's import object is not as expected");
  js = js.replace(importsAt, (m, indent) => `${m}${indent}${PLACEHOLDERS}: __rest_placeholders,\n`);
  const loaded = "const { instance, module } = await __wbg_load(await module_or_path, imports);";
  if (js.split(loaded).length !== 2) throw new Error("the glue's init is not as expected");
  js = js.replace(
    loaded,
    `if (__rest_returning()) __rest_module().catch(() => {});
    ${loaded}
    __rest_page = instance.exports;
    setTimeout(() => __rest_linked || __rest_load().catch(() => {}), 0);`,
  );
  // A closure the garbage collector took is destroyed through its drop function, which may be
  // in the rest: when the collector runs is no profile's to know, so before the rest is
  // linked such a destruction waits for it instead of loading it at once.
  const dtors = "new FinalizationRegistry(state => wasm.__wbindgen_destroy_closure(state.a, state.b))";
  if (js.split(dtors).length !== 2) throw new Error("the glue's closure destructors are not as expected");
  js = js.replace(
    dtors,
    "new FinalizationRegistry(state => __rest_linked ? wasm.__wbindgen_destroy_closure(state.a, state.b) : __rest_dtors.push(state))",
  );
  const sync = "const instance = new WebAssembly.Instance(module, imports);";
  if (js.split(sync).length !== 2) throw new Error("the glue's initSync is not as expected");
  js = js.replace(sync, `${sync}\n    __rest_page = instance.exports;`);
  const loader = `
const __rest_url = new URL(${JSON.stringify(rest)}, import.meta.url);
let __rest_page, __rest_linked = false, __rest_compiling, __rest_pending, __rest_arrived;
const __rest_dtors = [];
let __rest_bytes;
const __rest_imports = ${restImports.toString().replace(/^function restImports/, "function")};
globalThis.deliberateRestLinked = new Promise((resolve) => (__rest_arrived = resolve));
function __rest_link(module) {
    if (!__rest_linked) {
        const texts = WebAssembly.Module.customSections(module, ${JSON.stringify(PROMPTS_SECTION)});
        if (texts.length) globalThis.deliberatePrompts = new Uint8Array(texts[0]);
        new WebAssembly.Instance(module, __rest_imports(module, __rest_page, ${JSON.stringify(table)}));
        __rest_linked = true;
        __rest_bytes = undefined;
        performance.mark("deliberate:rest-linked");
        for (const state of __rest_dtors.splice(0)) wasm.__wbindgen_destroy_closure(state.a, state.b);
        __rest_arrived();
    }
}
function __rest_now(slot) {
    if (__rest_linked) return;
    // The slot (the table index of the first function called early) tells a profile's gap.
    performance.mark("deliberate:rest-now", { detail: slot });
    // Bytes already fetched compile here and now: a synchronous request would bypass the
    // service worker (Chromium sends it to the network), so offline it would fail.
    if (__rest_bytes) return __rest_link(new WebAssembly.Module(__rest_bytes));
    const request = new XMLHttpRequest();
    request.open("GET", __rest_url, false);
    request.overrideMimeType("text/plain; charset=x-user-defined");
    try {
        request.send();
    } catch (e) {}
    if (request.status !== 200) throw new WebAssembly.RuntimeError("the rest of the app could not be loaded");
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    __rest_link(new WebAssembly.Module(bytes));
}
function __rest_returning() {
    try {
        return !!globalThis.navigator?.serviceWorker?.controller || localStorage.length > 0;
    } catch (e) {
        return false;
    }
}
function __rest_module() {
    return (__rest_compiling ??= fetch(__rest_url)
        .then((r) => {
            if (!r.ok) throw new Error(r.status);
            return r.arrayBuffer();
        })
        .then((bytes) => WebAssembly.compile((__rest_bytes = bytes)))
        .catch((e) => {
            __rest_compiling = undefined;
            throw e;
        }));
}
function __rest_load() {
    return (__rest_pending ??= __rest_module()
        .then(__rest_link)
        .catch((e) => {
            __rest_pending = undefined;
            throw e;
        }));
}
const __rest_placeholders = new Proxy({}, {
    get: (_, slot) => (...args) => {
        __rest_now(+slot);
        return __rest_page[${JSON.stringify(table)}].get(+slot)(...args);
    },
});
globalThis.deliberateRest = () => (__rest_linked ? undefined : __rest_load());
globalThis.deliberateRestNow = () => __rest_now(-1);
`;
  const exportAt = "\nexport { initSync, __wbg_init as default };";
  if (js.split(exportAt).length !== 2) throw new Error("the glue's exports are not as expected");
  return js.replace(exportAt, `${loader}${exportAt}`);
}

/**
 * The profiling copy's glue: exports the instance, and the gate before sending never opens
 * (or, with `?rest-fails` in the address, fails: what the page shows then is in its part too).
 */
function profilingGlue(js) {
  const loaded = "const { instance, module } = await __wbg_load(await module_or_path, imports);";
  if (js.split(loaded).length !== 2) throw new Error("the glue's init is not as expected");
  return (
    js.replace(loaded, `${loaded}\n    globalThis.__profiled = instance.exports;`) +
    "\nglobalThis.deliberateRest = () =>\n" +
    '    location.search.includes("rest-fails") ? Promise.reject(new Error("profiling")) : new Promise(() => {});\n' +
    "globalThis.deliberateRestLinked = new Promise(() => {});\n"
  );
}

async function main() {
  const { dir, wasmFile, jsFile } = stagedBuild(fail);
  const restFile = wasmFile.replace(/_bg\.wasm$/, "_rest.wasm");
  const work = mkdtempSync(join(tmpdir(), "deliberate-split-"));
  try {
    const input = join(work, "input.wasm");
    const original = readFileSync(join(dir, wasmFile));
    writeFileSync(input, original);
    const js = readFileSync(join(dir, jsFile), "utf8");
    // The glue must be as the loader expects before anything is spent on profiling.
    withLoader(js, restFile, "%table");
    profilingGlue(js);

    // 1. Profile a copy of the page.
    const site = join(work, "site");
    cpSync(dir, site, { recursive: true });
    wasmSplit(["--instrument", input, "-o", join(site, wasmFile)]);
    const instrumented = readFileSync(join(site, wasmFile));
    const exported = exportedTableTypes(original);
    fixTableExports(instrumented, (name) => exported.get(name));
    writeFileSync(join(site, wasmFile), instrumented);
    writeFileSync(join(site, jsFile), profilingGlue(js));
    writeFileSync(join(site, "sw-register.js"), "");
    const html = readFileSync(join(site, "index.html"), "utf8");
    // The copy runs without SRI (its files differ) and without the policy, whose script hashes
    // tools/csp_hashes.mjs fills in only after this step.
    const copy = html.replace(/\s+integrity="[^"]*"/g, "").replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, "");
    if (copy.includes("Content-Security-Policy")) fail("index.html's policy is not as expected");
    writeFileSync(join(site, "index.html"), copy);
    const runs = await profile(site, work);
    const merged = join(work, "merged.prof");
    wasmSplit(["--merge-profiles", ...runs, "-o", merged]);

    // 2. Split.
    const primaryPath = join(work, "primary.wasm");
    const restPath = join(work, "rest.wasm");
    // DELIBERATE_SPLIT_MAP=FILE keeps wasm-split's map of table slots to functions (named in a
    // build that keeps names), to read the slot of a "deliberate:rest-now" mark against.
    const map = process.env.DELIBERATE_SPLIT_MAP;
    wasmSplit(["--split", input, `--profile=${merged}`, "-o1", primaryPath, "-o2", restPath, "--export-prefix=%", `--placeholder-namespace=${PLACEHOLDERS}`].concat(map ? ["--placeholdermap"] : []));
    if (map) cpSync(`${primaryPath}.placeholders`, map);
    let primary = readFileSync(primaryPath);
    let rest = withCustomSection(readFileSync(restPath), PROMPTS_SECTION, readFileSync(PROMPTS_FILE));

    // 3. Check.
    const wanted = importedTableTypes(rest);
    fixTableExports(primary, (name) => exported.get(name) ?? wanted.get(name));
    const table = restTableName(rest);
    if (!table) fail("the rest imports no function table");
    ({ primary, rest } = functionsThroughTable(primary, rest));
    link(primary, rest);
    if (WebAssembly.Module.customSections(new WebAssembly.Module(rest), PROMPTS_SECTION).length !== 1)
      fail("the rest does not carry the prompt texts");

    // 4. Glue and hashes.
    const glue = withLoader(js, restFile, table);
    let page = readFileSync(join(dir, "index.html"), "utf8");
    page = withIntegrity(page, wasmFile, primary);
    page = withIntegrity(page, jsFile, Buffer.from(glue, "utf8"));
    writeFileSync(join(dir, wasmFile), primary);
    writeFileSync(join(dir, restFile), rest);
    writeFileSync(join(dir, jsFile), glue);
    writeFileSync(join(dir, "index.html"), page);
    console.log(
      `split: ${runs.length} profiled visits; wasm ${original.length} B → page ${primary.length} B + rest ${rest.length} B`,
    );
  } catch (e) {
    fail(e.message);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
