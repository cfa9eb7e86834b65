#!/usr/bin/env bash
# Offline ground truth (not part of CI): the exact T^(W) of every distinct barrier phase
# of the real kernels (instances/real/, TX2 SM: sigma_L 1, sigma_C 4) at W = 8, 12, 16,
# by the exhaustive dense programme (one table entry per state, all C(I + W, W) of them),
# where the table fits MAX_MEMORY / 2 and the solve ends within LIMIT seconds. Rows that
# do not finish are left out (the CSV holds only proven values, lower = upper).
# Writes tests/data/ground-truth.csv (read by tests/it/truth.rs); the table in
# docs/experiments.md is made from it.
# Usage: scripts/ground-truth.sh [LIMIT_S] [MAX_MEMORY]   (defaults: 600 and 16G)
#        scripts/ground-truth.sh --corpus [LIMIT_S] [MAX_MEMORY] [MAX_STATES]: appends the
#        corpus kernels of docs/corpus.md (scripts/real-kernels.sh) whose every phase has at
#        most MAX_STATES (default 1.5e9) states, at their own W; phases already there skipped
#        (defaults 1800 s and 16G). The plain run rewrites the file: run it first, then this.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
out=tests/data/ground-truth.csv
mkdir -p tests/data
table_states() { python3 -c "import math,sys; print(math.comb($1 + $2, $2))"; }
# solve_row PHASE W LIMIT MEMORY: appends the row if the solve ends exact.
solve_row() {
  j=$($M solve --kernel "$1" --warps "$2" --sigma-l 1 --sigma-c 4 --time-limit "$3" --max-memory "$4" --json -q) || return 0
  echo "$j" | python3 -c '
import json, sys
v = json.load(sys.stdin)
if v["exact"]:
    print("%s,%d,1,4,%d,%.2f" % (v["kernel"], v["warps"], v["makespan"], v["seconds"]))
' >> "$out"
}
if [ "${1:-}" = --corpus ]; then
  limit=${2:-1800}; memory=${3:-16G}; max_states=${4:-1500000000}
  source scripts/real-kernels.sh
  for k in "${corpus[@]}"; do
    w=$(sed -n 's/^warps_per_block = //p' "$k.toml")
    phases=$(sed -n 's/^kernel = "\(.*\)"$/\1/p' "$k.toml" | tr '|' '\n')
    fits=1
    for p in $phases; do
      [ "$(table_states "${#p}" "$w")" -le "$max_states" ] || fits=0
    done
    [ $fits = 1 ] || continue
    for p in $phases; do
      grep -q "^$p,$w,1,4," "$out" && continue
      echo "$(basename "$k") W = $w, I = ${#p}: $p ($(table_states "${#p}" "$w") states)" >&2
      solve_row "$p" "$w" "$limit" "$memory"
    done
  done
  exit 0
fi
limit=${1:-600}
memory=${2:-16G}
phases=$(for f in instances/real/*.toml instances/real/cuda-samples/*.toml; do
  grep '^kernel' "$f" | sed 's/kernel = "//; s/"$//' | tr '|' '\n'
done | sort -u | awk '{ print length($0), $0 }' | sort -n | cut -d' ' -f2)
echo "kernel,warps,sigma_l,sigma_c,makespan,seconds" > "$out"
for w in 8 12 16; do
  for k in $phases; do
    n=$(table_states "${#k}" "$w")
    # 2 bytes per state in half of the memory limit (1 where the horizon is below 255:
    # this check is then conservative).
    [ "$n" -le $(( $(numfmt --from=iec "$memory") / 4 )) ] || continue
    echo "W = $w, I = ${#k}: $k ($n states)" >&2
    solve_row "$k" "$w" "$limit" "$memory"
  done
done
echo "wrote $(($(wc -l < "$out") - 1)) exact values to $out" >&2
