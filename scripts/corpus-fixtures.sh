#!/usr/bin/env bash
# Regenerates the real-kernel corpus of docs/corpus.md from public CUDA code: the
# kernels of PolyBench/GPU 1.0 and of Rodinia 3.1, extracted verbatim
# (scripts/corpus_extract.py), compiled to sm_62 PTX with NVRTC 12.9 and to a cubin with
# ptxas 12.9 (its -v report kept for the resources), then imported with `makespan import`
# (scripts/corpus_import.py: trip counts). Not part of CI: the text output is committed.
# Usage: scripts/corpus-fixtures.sh
#   WORK=/tmp/cuda-tools (NVIDIA's wheels, as scripts/cuda-samples-fixtures.sh fetches them)
#   POLYBENCH=<git dir of github.com/sgrauerg/polybenchGpu> RODINIA=<git dir of
#   github.com/yuhc/gpu-rodinia> (cloned into $WORK when not given)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=${WORK:-/tmp/cuda-tools}
PB_COMMIT=5584aaa7d0be810ff5eb0b61c49fb64ecc81ba4c
RD_COMMIT=9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4
mkdir -p "$WORK/wheels" "$WORK/x"
for spec in nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-nvcc-cu12==12.9.86; do
  name=${spec%%==*}; ver=${spec##*==}
  ls "$WORK"/wheels/"${name//-/_}-$ver"-*.whl >/dev/null 2>&1 || pip download --no-deps --only-binary=:all: -d "$WORK/wheels" "$spec"
  unzip -qo "$WORK"/wheels/"${name//-/_}-$ver"-*.whl -d "$WORK/x"
done
NVRTC=$WORK/x/nvidia/cuda_nvrtc/lib/libnvrtc.so.12
PTXAS=$WORK/x/nvidia/cuda_nvcc/bin/ptxas
chmod +x "$PTXAS"
clone() { # URL DIR COMMIT
  [ -d "$2" ] || git clone -q "$1" "$2"
  git -C "$2" cat-file -e "$3^{commit}"
}
POLYBENCH=${POLYBENCH:-$WORK/polybenchGpu}
RODINIA=${RODINIA:-$WORK/gpu-rodinia}
PB_URL=https://github.com/sgrauerg/polybenchGpu
RD_URL=https://github.com/yuhc/gpu-rodinia
clone $PB_URL "$POLYBENCH" $PB_COMMIT
clone $RD_URL "$RODINIA" $RD_COMMIT
cargo build --release --quiet
M=$ROOT/target/release/makespan

# compile NAME DIR [NVRTC options]: DIR/NAME.cu -> NAME.sm62.ptx and NAME.sm62.ptxas.txt
compile() {
  python3 scripts/nvrtc_ptx.py "$NVRTC" "$2/$1.cu" "$2/$1.sm62.ptx" --gpu-architecture=compute_62 "${@:3}" 2> "$WORK/$1.nvrtc.log" ||
    { cat "$WORK/$1.nvrtc.log" >&2; return 1; }
  "$PTXAS" -v -arch=sm_62 "$2/$1.sm62.ptx" -o "$WORK/$1.cubin" 2> "$2/$1.sm62.ptxas.txt"
}
: > "$WORK/corpus.jsonl"
PB=instances/real/polybench
PB_CREDIT="PolyBench/GPU 1.0 (c) 2012, 2013 University of Delaware: S. Grauer-Gray, W. Killian, J. Cavazos, L.-N. Pouchet"
for dir in $(git -C "$POLYBENCH" ls-tree --name-only $PB_COMMIT CUDA/); do
  files=$(git -C "$POLYBENCH" ls-tree --name-only $PB_COMMIT "$dir/" | grep -E '\.cuh?$' | sort -r) || continue
  echo "$files" | grep -q '\.cuh$' || continue  # DOITGEN has no header of sizes: left out
  name=$(basename "$dir" | tr 'A-Z' 'a-z')
  python3 scripts/corpus_extract.py "$POLYBENCH" $PB_URL $PB_COMMIT $PB/$name.cu "$PB_CREDIT" common/polybench.h $files
  # The sizes as constants (polybench.h's own switch): loops keep their real trip count
  # in the code, where the default parametric bounds leave it to run time.
  compile "$name" $PB -DPOLYBENCH_USE_SCALAR_LB
  python3 scripts/corpus_import.py "$M" $PB/$name.sm62.ptx $PB/$name.sm62.ptxas.txt 256 $PB "$name-" >> "$WORK/corpus.jsonl"
done

RD=instances/real/rodinia
RD_CREDIT="Rodinia 3.1 (c) 2008-2011 University of Virginia (BSD-style licence, see the repository's LICENSE)"
mkdir -p $RD
git -C "$RODINIA" show $RD_COMMIT:LICENSE > $RD/LICENSE  # its terms ask for the notice to be kept
rodinia() { # NAME THREADS [corpus_import extra args] -- FILE...
  local name=$1 threads=$2; shift 2
  local extra=(); while [ "$1" != -- ]; do extra+=("$1"); shift; done; shift
  python3 scripts/corpus_extract.py "$RODINIA" $RD_URL $RD_COMMIT $RD/$name.cu "$RD_CREDIT" "$@"
  compile "$name" $RD
  python3 scripts/corpus_import.py "$M" $RD/$name.sm62.ptx $RD/$name.sm62.ptxas.txt "$threads" $RD "$name-" "${extra[@]}" >> "$WORK/corpus.jsonl"
}
# Rodinia: block sizes and run-time loop counts from each benchmark's own run script.
rodinia hotspot 256 calculate_temp@2 -- cuda/hotspot/hotspot.cu        # ./hotspot 512 2 2: pyramid 2
rodinia pathfinder 256 dynproc_kernel@20 -- cuda/pathfinder/pathfinder.cu  # 100000 100 20: pyramid 20
rodinia srad 256 -- cuda/srad/srad_v2/srad.h cuda/srad/srad_v2/srad_kernel.cu  # 16 x 16
rodinia backprop 256 -- cuda/backprop/backprop.h cuda/backprop/backprop_cuda_kernel.cu  # 16 x 16
rodinia lud 256 lud_diagonal=skip lud_perimeter=skip -- cuda/lud/cuda/lud_kernel.cu  # one warp: left out
rodinia gaussian 512 Fan2=skip -- cuda/gaussian/gaussian.cu  # Fan1: MAXBLOCKSIZE 512; Fan2: 4 x 4
# Each kernel's loops, their real and used counts: the table of docs/corpus.md reads it.
cp "$WORK/corpus.jsonl" instances/real/corpus-trips.jsonl
