#!/usr/bin/env bash
# The latency table of docs/latency.md: for each real kernel (instances/real/, TX2 SM:
# sigma_L 1, sigma_C 4), one block of W warps (W = 4, 8, 16, 32) with C latency 4 and L
# latency m (m = 5, 20, 100, 400, and the range 5..400): the GTO and LRR simulated
# times, the proven interval of the worst case over every scheduler (`any`: with a fixed
# latency the exact search for 2 s, `exact` where it completes; with the range every
# latency in it), and upper / longest schedule found. Writes every row to
# docs/latency-table.csv and prints the Markdown table.
# Usage: scripts/latency-table.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
source scripts/real-kernels.sh
csv=docs/latency-table.csv
echo "kernel,warps,latency_l,latency_c,gto,lrr,lower,upper,upper_over_longest" > "$csv"
echo "| kernel | W | L = 5: GTO / LRR / bound (ratio) | L = 20 | L = 100 | L = 400 | L in 5..400: worst case (ratio) |"
echo "|---|---|---|---|---|---|---|"
sim() { $M simulate "$1.toml" --warps "$2" --warps-per-block "$2" --latency-l "$3" --latency-c 4 --scheduler "$4" --time-limit 2 --json -q; }
for k in "${kernels[@]}"; do
  name=$(basename "$k")
  for w in 4 8 16 32; do
    echo "$name W = $w ..." >&2
    row="| $name | $w |"
    for m in 5 20 100 400 5..400; do
      line=$(python3 - "$name" "$w" "$m" "$(sim "$k" "$w" "$m" gto)" "$(sim "$k" "$w" "$m" lrr)" "$(sim "$k" "$w" "$m" any)" <<'PY'
import json, sys
name, w, m = sys.argv[1:4]
gto, lrr, anyv = (json.loads(a) for a in sys.argv[4:7])
lo, up = anyv["interval"]["lower"], anyv["interval"]["upper"]
ratio = up / lo
print(f"{name},{w},{m},4,{gto['interval']['lower']},{lrr['interval']['lower']},{lo},{up},{ratio:.3f}")
if ".." in m:
    cell = f"[{lo}, {up}] ({ratio:.3f})"
else:
    exact = " exact" if lo == up else ""
    cell = f"{gto['makespan']} / {lrr['makespan']} / {up}{exact} ({ratio:.3f})"
print(cell)
PY
)
      echo "$line" | head -1 >> "$csv"
      row="$row $(echo "$line" | tail -1) |"
    done
    echo "$row"
  done
done
