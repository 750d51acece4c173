#!/usr/bin/env bash
# Trunk's one post_build hook (Trunk.toml). Trunk starts the hooks of a stage all at once, and
# these steps rewrite the same staged files, so they run here one after the other:
#   1. release builds: short names for the wasm's imports, new SRI hashes in index.html
#      (tools/short_imports.mjs);
#   2. the Content-Security-Policy's script hashes in index.html (tools/csp_hashes.mjs);
#   3. the service worker's file list and version, from the files as they are now
#      (tools/precache.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${TRUNK_PROFILE:-}" = release ]; then
  node tools/short_imports.mjs
fi
node tools/csp_hashes.mjs
bash tools/precache.sh
