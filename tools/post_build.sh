#!/usr/bin/env bash
# Trunk's one post_build hook (Trunk.toml). Trunk starts the hooks of a stage all at once, and
# these steps rewrite the same staged files, so they run here one after the other:
#   1. every build: Trunk's start script takes the wasm module index.html began compiling
#      while it was parsed (tools/early_compile.mjs); first, so that the split's profile sees
#      the start as visitors get it;
#   2. release builds: short names for the wasm's imports, new SRI hashes in index.html
#      (tools/short_imports.mjs);
#   3. release builds of the page: the wasm split into the page's part and the rest, the loader
#      in the glue, new SRI hashes (tools/split.mjs);
#   4. release builds of the page: returning.html, the page a visit the service worker
#      answers gets, index.html without its static shell (tools/returning_page.mjs);
#   5. the Content-Security-Policy's script hashes in index.html and returning.html
#      (tools/csp_hashes.mjs);
#   6. release builds of the page: the reader build (built first by ./dev, in
#      $DELIBERATE_READER_DIST) copied into reader/;
#   7. the service worker's file list and version, from the files as they are now
#      (tools/precache.sh). The reader build itself ($DELIBERATE_READER_BUILD) skips 3 and 4
#      and stops after 5: it opens only conversations saved by an earlier build, whole.
set -euo pipefail
cd "$(dirname "$0")/.."
node tools/early_compile.mjs
if [ "${TRUNK_PROFILE:-}" = release ]; then
  node tools/short_imports.mjs
  if [ "${DELIBERATE_READER_BUILD:-}" != 1 ]; then
    node tools/split.mjs
    node tools/returning_page.mjs
  fi
fi
node tools/csp_hashes.mjs
if [ -f "$TRUNK_STAGING_DIR/returning.html" ]; then
  node tools/csp_hashes.mjs "$TRUNK_STAGING_DIR/returning.html"
fi
if [ "${DELIBERATE_READER_BUILD:-}" = 1 ]; then
  # The reader build keeps no service worker of its own: the page's worker keeps its files.
  rm -f "$TRUNK_STAGING_DIR/sw.js"
  echo "post_build: reader build, no service worker list"
  exit 0
fi
if [ "${TRUNK_PROFILE:-}" = release ] && [ -n "${DELIBERATE_READER_DIST:-}" ]; then
  [ -f "$DELIBERATE_READER_DIST/index.html" ] || { echo "post_build: no reader build in $DELIBERATE_READER_DIST" >&2; exit 1; }
  cp -r "$DELIBERATE_READER_DIST" "$TRUNK_STAGING_DIR/reader"
fi
bash tools/precache.sh
