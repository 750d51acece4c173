#!/usr/bin/env node
// Trunk post_build hook: fills the Content-Security-Policy of the built index.html with the
// SHA-256 hash of every inline script in it, so the policy allows exactly the page's own
// inline scripts (the module script Trunk writes to start the wasm, and index.html's own: the
// early compile of the wasm and the static shell's script) and no other; and its
// style-src with the hash of every inline <style> (the stylesheet Trunk inlines).
//
// index.html carries the policy in a <meta http-equiv="Content-Security-Policy"> whose
// script-src holds the placeholder below. This hook replaces it with 'sha256-…' sources:
// base64 of the SHA-256 of each script's text exactly as the browser sees it (the bytes
// between <script …> and </script>, line endings normalized to \n as the HTML parser does).
//
// `trunk serve` adds a live-reload script whose text the dev server rewrites per request, so
// no build-time hash can match it. When that script is present (only the dev server adds
// it) the policy is relaxed for the dev page: 'unsafe-inline' instead of hashes, and the
// reload WebSocket allowed. `trunk build` (release or not) never has it: its policy is strict.
//
// Usage: node tools/csp_hashes.mjs [path/to/index.html]
// (default: $TRUNK_STAGING_DIR/index.html, which is what Trunk gives its hooks).
// Node is there wherever the build runs: ./dev installs it for wasm-opt (npm binaryen).

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const PLACEHOLDER = "'inline-script-hashes'";
// The style-src placeholder: the hashes of the page's inline <style> elements (Trunk inlines
// the stylesheet so that the first paint waits for no request). Hashes allow those elements'
// exact text and nothing else: no other <style>, and no style="…" attribute.
export const STYLE_PLACEHOLDER = "'inline-style-hashes'";
const RELOAD_MARKER = ".well-known/trunk/ws";

/** Every <tag> element of the page: its attributes and its text (up to its closing tag). */
function elements(html, tag) {
  const found = [];
  const open = new RegExp(`<${tag}\\b([^>]*)>`, "gi");
  let match;
  while ((match = open.exec(html)) !== null) {
    const start = match.index + match[0].length;
    const end = html.toLowerCase().indexOf(`</${tag}`, start);
    if (end < 0) break;
    open.lastIndex = end;
    found.push({ attributes: match[1], text: html.slice(start, end) });
  }
  return found;
}

/** Every inline <script> (one without a src attribute): its attributes and its text. */
export function inlineScripts(html) {
  return elements(html, "script").filter((s) => !/\bsrc\s*=/i.test(s.attributes));
}

/** The text of every inline <style> element. */
export function inlineStyles(html) {
  return elements(html, "style").map((s) => s.text);
}

/** The page with its style-src placeholder replaced by the hash of each inline <style>. */
function fillStyles(html) {
  const styles = inlineStyles(html);
  if (!html.includes(STYLE_PLACEHOLDER)) {
    if (styles.length > 0) {
      throw new Error(`inline <style> but no ${STYLE_PLACEHOLDER} placeholder in style-src: the browser would refuse it`);
    }
    return { html, count: 0 };
  }
  const sources = [...new Set(styles.map(hashSource))];
  // No inline style: the placeholder goes, leaving the directive's other sources.
  return { html: html.replaceAll(` ${STYLE_PLACEHOLDER}`, sources.map((s) => ` ${s}`).join("")), count: sources.length };
}

/** The CSP source for a script's text: 'sha256-<base64>'. */
export function hashSource(text) {
  const normalized = text.replace(/\r\n?/g, "\n");
  return `'sha256-${createHash("sha256").update(normalized, "utf8").digest("base64")}'`;
}

/** The built page with its policy filled in, and what was done (for the build log). */
export function fillPolicy(html) {
  if (!html.includes(PLACEHOLDER)) {
    throw new Error(`no ${PLACEHOLDER} placeholder in the Content-Security-Policy of index.html`);
  }
  const styled = fillStyles(html);
  html = styled.html;
  const styleNote = `; ${styled.count} inline style(s) allowed by hash`;
  const scripts = inlineScripts(html);
  const devServer = scripts.some((s) => s.text.includes(RELOAD_MARKER));
  if (devServer) {
    const relaxed = html
      .replaceAll(PLACEHOLDER, "'unsafe-inline'")
      .replace(/connect-src /, "connect-src ws://127.0.0.1:* ws://localhost:* ");
    return {
      html: relaxed,
      note: `dev server page: inline scripts allowed for live reload (not a release build)${styleNote}`,
    };
  }
  const sources = [...new Set(scripts.map((s) => hashSource(s.text)))];
  return {
    html: html.replaceAll(PLACEHOLDER, sources.join(" ")),
    note: `${sources.length} inline script(s) allowed by hash: ${sources.join(" ") || "(none)"}${styleNote}`,
  };
}

function main() {
  const path = process.argv[2] ?? join(process.env.TRUNK_STAGING_DIR ?? "dist", "index.html");
  const { html, note } = fillPolicy(readFileSync(path, "utf8"));
  writeFileSync(path, html);
  console.log(`csp_hashes: ${note}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (err) {
    console.error(`csp_hashes: ${err.message}`);
    process.exit(1);
  }
}
