#!/usr/bin/env bash
# Regenerates the instance files of instances/real/ from the kernel files beside them
# (makespan import), each as one block of 256 threads on the TX2 SM, and prints the
# table in docs/import.md: I, phases, and the proven interval at W = 8 and W = 64 (10 s per solve).
# Usage: scripts/import-real.sh [--table]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
R=instances/real
$M import $R/saxpy.ptx --block-threads 256 --trip '$L__BB0_2=0' --out $R/saxpy.toml
$M import $R/reduction.ptx --block-threads 256 --out $R/reduction.toml
$M import $R/stencil.ptx --block-threads 256 --out $R/stencil.toml
$M import $R/gemm-tiled.ptx --block-threads 256 --trip '$L__BB0_1=4' --out $R/gemm-tiled.toml
$M import $R/transpose.ptx --block-threads 256 --out $R/transpose.toml
$M import $R/histogram.ptx --block-threads 256 --trip '$L__BB0_2=16' --trip '$L__BB0_3=0' --out $R/histogram.toml
$M import $R/gemm-tiled.trace.ptx --block-threads 256 --trace --out $R/gemm-tiled-trace.toml
# ptxas turned the reduction's predicated steps into branches: 0 = never taken (every
# step executes, the longest path).
trips=()
for l in $(grep -o 'BRA `([^)]*)' $R/reduction.sm75.sass | sed 's/BRA `(//; s/)//' | sort -u); do trips+=(--trip "$l=0"); done
$M import $R/reduction.sm75.sass --block-threads 256 "${trips[@]}" --trip EXIT=0 --out $R/reduction-sm75.toml
if [ "${1:-}" = "--table" ]; then
  echo "| kernel | I | phases | W = 8 | s | W = 64 | s |"
  echo "|---|---|---|---|---|---|---|"
  for f in saxpy reduction stencil gemm-tiled transpose histogram reduction-sm75; do
    row="| $f |"
    for w in 8 64; do
      j=$($M solve $R/$f.toml --warps $w --time-limit 10 --json)
      read -r lo up ex secs i ph < <(echo "$j" | python3 -c 'import json,sys; v=json.load(sys.stdin); ph=len(v.get("phases",[0])); i=sum(len(p["kernel"]) for p in v["phases"]) if "phases" in v else len(v["kernel"]); print(v["makespan"], v["upper_bound"], v["exact"], v["seconds"], i, ph)')
      [ "$w" = 8 ] && row="$row $i | $ph |"
      if [ "$ex" = "True" ]; then val="$lo (exact)"; else val="[$lo, $up]"; fi
      row="$row $val | $(printf '%.2f' "$secs") |"
    done
    echo "$row"
  done
fi
