#!/usr/bin/env bash
# The library's public surface, one line per item (kind and path), as rustdoc documents
# it with the default features: modules, structs, enums, traits, functions, constants,
# type aliases. `scripts/public-api.sh` prints it; `--write` stores it in
# docs/public-api.txt; `--check` (run by scripts/test.sh, so CI) fails when the surface
# differs from that file, so that every change to the API shows in review, or when it
# has 150 entries or more.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --lib --quiet
doc=target/doc/gpu_makespan
list() {
  # Modules: every documented module page.
  (cd "$doc" && find . -mindepth 2 -name index.html | sed -E 's#^\./##; s#/index\.html$##; s#/#::#g; s#^#mod gpu_makespan::#')
  # Items: rustdoc's list of all items (`kind.Name.html` pages).
  grep -oE '<li><a href="[^"]+\.html">' "$doc/all.html" | sed -E 's#<li><a href="##; s#\.html">##' |
    sed -E 's#^(.*/)?([a-z]+)\.([A-Za-z0-9_]+)$#\2 \1\3#; s#/#::#g; s# # gpu_makespan::#; s#^fn #fn #'
}
current=$(list | sort)
case "${1:-}" in
  --write) printf '%s\n' "$current" > docs/public-api.txt; echo "docs/public-api.txt: $(wc -l < docs/public-api.txt) entries" ;;
  --check)
    if ! diff -u docs/public-api.txt <(printf '%s\n' "$current"); then
      echo "error: the public API differs from docs/public-api.txt (above); if intended, run scripts/public-api.sh --write and commit it" >&2
      exit 1
    fi
    n=$(printf '%s\n' "$current" | wc -l)
    if [ "$n" -ge 150 ]; then echo "error: $n public items; the curated API stays under 150" >&2; exit 1; fi
    echo "public API: $n entries, as in docs/public-api.txt" ;;
  *) printf '%s\n' "$current" ;;
esac
