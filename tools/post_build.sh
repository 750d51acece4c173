#!/usr/bin/env bash
# Trunk's one post_build hook (Trunk.toml). Trunk starts the hooks of a stage all at once, and
# these steps rewrite the same staged files, so they run here one after the other:
#   1. release builds: short names for the wasm's imports, new SRI hashes in index.html
#      (tools/short_imports.mjs);
#   2. the Content-Security-Policy's script hashes in index.html (tools/csp_hashes.mjs);
#   3. release builds of the page: the reader build (built first by ./dev, in
#      $DELIBERATE_READER_DIST) copied into reader/;
#   4. the service worker's file list and version, from the files as they are now
#      (tools/precache.sh). The reader build itself ($DELIBERATE_READER_BUILD) stops after 2.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${TRUNK_PROFILE:-}" = release ]; then
  node tools/short_imports.mjs
fi
node tools/csp_hashes.mjs
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
