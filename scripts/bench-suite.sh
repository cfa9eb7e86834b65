#!/usr/bin/env bash
# Runs `makespan solve` on every instance of instances/bench/ (written by
# `makespan bench-suite`) with a time limit, and prints a Markdown table: proven lower
# and upper bound on T^(W), gap, wall-clock seconds and peak memory (GNU time).
# Usage: scripts/bench-suite.sh [TIME_LIMIT_SECONDS] [DIR]   (defaults: 10, instances/bench)
set -euo pipefail
limit="${1:-10}"
# DIR is relative to where the script is called from (the default to the repository).
if [ -n "${2:-}" ]; then
  dir=$(cd "$2" 2>/dev/null && pwd) || { echo "error: DIR $2 is not a directory" >&2; exit 2; }
fi
cd "$(dirname "$0")/.."
dir="${dir:-instances/bench}"
compgen -G "$dir/*.toml" >/dev/null || { echo "error: no *.toml instance in $dir" >&2; exit 2; }
failed=0
bin=target/release/makespan
[ -x "$bin" ] || cargo build --release --quiet
command -v /usr/bin/time >/dev/null || { echo "error: needs GNU time (apt-get install -y time)" >&2; exit 1; }
echo "| instance | I | W | sigma_L/sigma_C | lower | upper | gap % | seconds | peak MB | status |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for f in "$dir"/*.toml; do
  out=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$out.time" "$bin" solve "$f" --time-limit "$limit" --json --quiet >"$out" || failed=1
  python3 - "$f" "$out" "$out.time" <<'PY'
import json, sys, os
name, out, tim = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    v = json.load(open(out))
except Exception:
    print(f"| {os.path.basename(name)} | | | | | | | | | failed |"); sys.exit(0)
secs, kb = open(tim).read().split()[-2:]
lo, up = v["makespan"], v["upper_bound"]
gap = 100.0 * (up - lo) / lo
print(f"| {os.path.basename(name)[:-5]} | {len(v['kernel'])} | {v['warps']} | {v['sigma_l']}/{v['sigma_c']} | {lo} | {up} | {gap:.1f} | {float(secs):.1f} | {int(kb)//1024} | {v['status']} |")
PY
  rm -f "$out" "$out.time"
done
exit $failed
