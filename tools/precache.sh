#!/usr/bin/env bash
# Trunk post_build hook (Trunk.toml): fills in the service worker's list of files to keep
# offline and its version, in the staged build, for release builds only.
#
# - sw.js: `const VERSION` becomes a hash of every staged file's name and content (sw.js's
#   own text and returning.html included, index.html left out: a visit the worker answers
#   gets returning.html, and a first visit gets index.html from the network); `const FILES`
#   lists every staged file but sw.js, with the page itself as "./" (the worker keeps
#   returning.html there, tools/returning_page.mjs).
# - sw-register.js: `const ENABLED` becomes true, so only release builds register the worker
#   (`trunk serve` builds a debug build with live reload: no worker there).
# - Both lose their whole-line comments.
#
# Needs only bash, find, sort, sha256sum and sed (coreutils), as on any Debian.
set -euo pipefail

dir="${TRUNK_STAGING_DIR:?run this as a Trunk post_build hook (TRUNK_STAGING_DIR is unset)}"
if [ "${TRUNK_PROFILE:-}" != release ]; then
  echo "precache: ${TRUNK_PROFILE:-debug} build, the service worker stays off"
  exit 0
fi
cd "$dir"

fail() { echo "precache: $*" >&2; exit 1; }

# Replaces the one line that ends in `// precache: <marker>` with `<text> // precache: <marker>`.
fill() {
  local file=$1 marker=$2 text=$3
  [ "$(grep -c "// precache: $marker\$" "$file")" = 1 ] || fail "$file has no single '// precache: $marker' line"
  sed -i "s|^\( *\).*// precache: $marker\$|\1$text // precache: $marker|" "$file"
}

[ -f sw.js ] || fail "sw.js is missing from the build (index.html copies it with data-trunk rel=copy-file)"
[ -f sw-register.js ] || fail "sw-register.js is missing from the build"
[ -f returning.html ] || fail "returning.html is missing from the build (tools/returning_page.mjs writes it)"

fill sw-register.js enabled "const ENABLED = true;"

files=()
while IFS= read -r -d '' path; do
  path=${path#./}
  case "$path" in sw.js | index.html | returning.html) continue ;; esac
  # Names go into JavaScript and sed unescaped: only plain ones are allowed.
  [[ $path =~ ^[A-Za-z0-9._/-]+$ ]] || fail "unexpected file name: $path"
  files+=("$path")
done < <(find . -type f ! -name '.*' -print0 | LC_ALL=C sort -z)

version=$(
  {
    for path in "${files[@]}"; do
      printf '%s %s\n' "$path" "$(sha256sum <"$path" | cut -c1-64)"
    done
    sha256sum <sw.js
    sha256sum <returning.html
  } | sha256sum | cut -c1-16
)

list='"./"'
for path in "${files[@]}"; do
  list+=", \"$path\""
done

fill sw.js version "const VERSION = '$version';"
fill sw.js files "const FILES = [$list];"
# The comments are for readers of the repository, not for every visitor's download.
sed -i '/^[[:space:]]*\/\//d' sw.js sw-register.js
echo "precache: version $version, ${#files[@]} files and the page"
