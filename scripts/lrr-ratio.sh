#!/usr/bin/env bash
# The round-robin figure of docs/latency.md: for the six real kernels of
# instances/rta-real-kernels-lrr.toml and several latency settings, each kernel's C under
# gpu.warp_arbitration = "round-robin" (the proven turnover bound, in cycles) over its own full
# SM's time (8 blocks of 8 warps starting together, `simulate --scheduler lrr` at the
# longest latencies), beside the oldest-first C of the same setting.
# Usage: scripts/lrr-ratio.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
tmp=$(mktemp instances/lrr-ratio-XXXX.toml)
trap 'rm -f "$tmp"' EXIT
cycles() { # task set, arbitration -> "name cycles" per kernel
  sed -e "s/warp_arbitration = \"round-robin\"/warp_arbitration = \"$2\"/" "$1" > "$tmp"
  $M rta "$tmp" --json | python3 -c '
import json, sys
for k in json.load(sys.stdin)["kernels"]:
    print(k["name"], k["wcet_source"].split(" ")[0])'
}
echo "| latency | kernel | C lrr | own full SM (lrr) | ratio | C oldest-first | ratio |"
echo "|---|---|---|---|---|---|---|"
for setting in "L = [23, 2750], C = [6, 14]|2750|14" "L = [5, 400], C = 4|400|4" "L = 20, C = 4|20|4" "L = 1, C = 1|1|1"; do
  IFS='|' read -r spec ll lc <<< "$setting"
  set_file=$(mktemp /tmp/lrr-set-XXXX.toml)
  sed -e "s/^latency = .*/latency = { $spec }/" instances/rta-real-kernels-lrr.toml > "$set_file"
  lrr_c=$(cycles "$set_file" round-robin)
  old_c=$(cycles "$set_file" oldest-first)
  paste <(echo "$lrr_c") <(echo "$old_c") | while read -r name lrr _ old; do
    k=$name; [ "$k" = gemm ] && k=gemm-tiled
    own=$($M simulate "instances/real/$k.toml" --warps 64 --warps-per-block 8 --scheduler lrr \
      --latency-l "$ll" --latency-c "$lc" --json -q | python3 -c 'import json,sys; print(json.load(sys.stdin)["makespan"])')
    python3 -c "print(f'| {\"$spec\"} | $name | $lrr | $own | {$lrr/$own:.2f} | $old | {$old/$own:.1f} |')"
  done
  rm -f "$set_file"
done
