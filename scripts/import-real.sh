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
# The cuda-samples-style kernels (sm_62 PTX from NVRTC), one block of 256 threads each;
# loops at realistic trip counts: matrixMulCUDA's 4 tiles (a 64-wide matrix), reduce4's
# 2 shared-memory steps above a warp (s = 128, 64), histogram256's 4 words per thread.
S=$R/cuda-samples
P=$S/samples.sm62.ptx
$M import $P --entry vectorAdd --block-threads 256 --trip '$L__BB0_2=0' --out $S/vectorAdd.toml
$M import $P --entry transposeNoBankConflicts --block-threads 256 --out $S/transposeNoBankConflicts.toml
$M import $P --entry matrixMulCUDA --block-threads 256 --trip '$L__BB2_2=1' --trip '$L__BB2_3=4' --out $S/matrixMulCUDA.toml
$M import $P --entry reduce4 --block-threads 256 --trip '$L__BB3_2=0' --trip '$L__BB3_4=0' --trip '$L__BB3_9=0' \
  --trip '$L__BB3_8=0' --trip '$L__BB3_6=2' --trip '$L__BB3_13=0' --trip '$L__BB3_12=0' --trip '$L__BB3_15=0' \
  --dynamic-smem 1024 --out $S/reduce4.toml
$M import $P --entry histogram256Kernel --block-threads 256 --trip '$L__BB4_1=1' --trip '$L__BB4_2=1' --trip '$L__BB4_6=0' \
  --trip '$L__BB4_5=4' --trip '$L__BB4_9=0' --trip '$L__BB4_8=1' --out $S/histogram256Kernel.toml
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
