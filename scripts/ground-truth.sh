#!/usr/bin/env bash
# Offline ground truth (not part of CI): the exact T^(W) of every distinct barrier phase
# of the real kernels (instances/real/, TX2 SM: sigma_L 1, sigma_C 4) at W = 8, 12, 16,
# by the exhaustive dense programme (one table entry per state, all C(I + W, W) of them),
# where the table fits MAX_MEMORY / 2 and the solve ends within LIMIT seconds. Rows that
# do not finish are left out (the CSV holds only proven values, lower = upper).
# Writes tests/data/ground-truth.csv (read by tests/it/truth.rs); the table in
# docs/experiments.md is made from it.
# Usage: scripts/ground-truth.sh [LIMIT_S] [MAX_MEMORY]   (defaults: 600 and 16G)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
limit=${1:-600}
memory=${2:-16G}
out=tests/data/ground-truth.csv
mkdir -p tests/data
phases=$(for f in instances/real/*.toml instances/real/cuda-samples/*.toml; do
  grep '^kernel' "$f" | sed 's/kernel = "//; s/"$//' | tr '|' '\n'
done | sort -u | awk '{ print length($0), $0 }' | sort -n | cut -d' ' -f2)
table_states() { python3 -c "import math,sys; print(math.comb($1 + $2, $2))"; }
echo "kernel,warps,sigma_l,sigma_c,makespan,seconds" > "$out"
for w in 8 12 16; do
  for k in $phases; do
    n=$(table_states "${#k}" "$w")
    # 2 bytes per state in half of the memory limit.
    [ "$n" -le $(( $(numfmt --from=iec "$memory") / 4 )) ] || continue
    echo "W = $w, I = ${#k}: $k ($n states)" >&2
    j=$($M solve --kernel "$k" --warps "$w" --sigma-l 1 --sigma-c 4 --time-limit "$limit" --max-memory "$memory" --json -q) || continue
    echo "$j" | python3 -c '
import json, sys
v = json.load(sys.stdin)
if v["exact"]:
    print("%s,%d,1,4,%d,%.2f" % (v["kernel"], v["warps"], v["makespan"], v["seconds"]))
' >> "$out"
  done
done
echo "wrote $(($(wc -l < "$out") - 1)) exact values to $out" >&2
