#!/usr/bin/env bash
# Regenerates the text fixtures of instances/real/cuda-samples/ from samples.cu with
# NVIDIA's tools as a user can install them today, nothing installed system-wide
# (wheels unpacked, a .deb extracted, all under $WORK). Not part of CI: the fixtures
# are committed; CI only reads them. Only text output is kept: no cubin is committed.
#
#   sm_75 (Turing): nvcc, cicc, ptxas, cuobjdump, nvdisasm 13.5.37 from PyPI
#     (nvidia-cuda-nvcc, nvidia-nvvm, nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm).
#   sm_62 (Jetson TX2, Pascal): nvcc 13.x refuses compute_62, and every cuobjdump and
#     nvdisasm on PyPI (13.2.51 to 13.5.37) refuses sm_62 ("SM62 is deprecated"); there
#     is no nvidia-cuda-cuobjdump-cu12 or nvidia-cuda-nvdisasm-cu12 on PyPI. So:
#     PTX   NVRTC 12.9 (nvidia-cuda-nvrtc-cu12==12.9.86) through scripts/nvrtc_ptx.py,
#     cubin ptxas 12.9 (nvidia-cuda-nvcc-cu12==12.9.86),
#     SASS  cuobjdump and nvdisasm 12.4 from Debian's non-free nvidia-cuda-toolkit
#           (12.4.131~12.4.1-2, trixie), downloaded with a private apt configuration.
# Usage: scripts/cuda-samples-fixtures.sh   (WORK=/tmp/cuda-tools by default)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/instances/real/cuda-samples
SRC=$OUT/samples.cu
WORK=${WORK:-/tmp/cuda-tools}
mkdir -p "$WORK/wheels" "$WORK/x" "$WORK/deb"
cd "$WORK"
for spec in nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-cuobjdump==13.5.37 nvidia-cuda-nvdisasm==13.5.37 \
  nvidia-cuda-crt==13.5.37 nvidia-cuda-runtime==13.5.37 nvidia-cuda-nvrtc-cu12==12.9.86 nvidia-cuda-nvcc-cu12==12.9.86; do
  name=${spec%%==*}; ver=${spec##*==}
  ls wheels/"${name//-/_}-$ver"-*.whl >/dev/null 2>&1 || pip download --no-deps --only-binary=:all: -d wheels "$spec"
done
for w in wheels/*.whl; do unzip -qo "$w" -d x; done
CU13=$WORK/x/nvidia/cu13/bin
chmod +x "$CU13"/* "$WORK"/x/nvidia/cu13/nvvm/bin/* "$WORK/x/nvidia/cuda_nvcc/bin/ptxas"

# sm_75 with the CUDA 13.5 toolkit from PyPI.
PATH=$CU13:$PATH nvcc -arch=sm_75 -ptx -o "$OUT/samples.sm75.ptx" "$SRC"
PATH=$CU13:$PATH nvcc -arch=sm_75 -cubin -o "$WORK/samples.sm75.cubin" "$SRC"
"$CU13/cuobjdump" -sass "$WORK/samples.sm75.cubin" > "$OUT/samples.sm75.cuobjdump.sass"
"$CU13/nvdisasm" "$WORK/samples.sm75.cubin" > "$OUT/samples.sm75.nvdisasm.sass"

# sm_62: NVRTC 12.9 for PTX, ptxas 12.9, Debian's cuobjdump/nvdisasm 12.4 for SASS.
mkdir -p apt/lists/partial apt/cache/archives/partial
echo 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie non-free' > apt/sources.list
cat > apt/apt.conf <<CONF
Dir::Etc::SourceList "$WORK/apt/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$WORK/apt/lists";
Dir::Cache "$WORK/apt/cache";
Dir::State::status "$WORK/apt/status";
CONF
touch apt/status
if ! ls nvidia-cuda-toolkit_*amd64.deb >/dev/null 2>&1; then
  APT_CONFIG=$WORK/apt/apt.conf apt-get -q update
  APT_CONFIG=$WORK/apt/apt.conf apt-get -q download 'nvidia-cuda-toolkit=12.4.131~12.4.1-2'
fi
dpkg-deb -x nvidia-cuda-toolkit_*amd64.deb deb
python3 "$ROOT/scripts/nvrtc_ptx.py" "$WORK/x/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" "$SRC" "$OUT/samples.sm62.ptx" --gpu-architecture=compute_62
"$WORK/x/nvidia/cuda_nvcc/bin/ptxas" -v -arch=sm_62 "$OUT/samples.sm62.ptx" -o "$WORK/samples.sm62.cubin" 2> "$OUT/samples.sm62.ptxas.txt"
"$WORK/deb/usr/bin/cuobjdump" -sass "$WORK/samples.sm62.cubin" > "$OUT/samples.sm62.cuobjdump.sass"
"$WORK/deb/usr/bin/nvdisasm" "$WORK/samples.sm62.cubin" > "$OUT/samples.sm62.nvdisasm.sass"

# vectors.cu (vector accesses, brace operands, dynamic shared memory): NVRTC 12.9 PTX
# for compute_62 (plain and -lineinfo, whose .file paths are made relative) and
# compute_75, ptxas 12.9 for sm_62 (-v) and sm_75, nvdisasm 13.5 for the sm_75 SASS
# (it still reads sm_75).
VEC=$OUT/vectors
NVRTC=$WORK/x/nvidia/cuda_nvrtc/lib/libnvrtc.so.12
(cd "$OUT" && python3 "$ROOT/scripts/nvrtc_ptx.py" "$NVRTC" vectors.cu vectors.sm62.ptx --gpu-architecture=compute_62)
(cd "$OUT" && python3 "$ROOT/scripts/nvrtc_ptx.py" "$NVRTC" vectors.cu vectors.sm62.lineinfo.ptx --gpu-architecture=compute_62 --generate-line-info)
sed -i "s|\"$OUT/|\"|" "$VEC.sm62.lineinfo.ptx"
(cd "$OUT" && python3 "$ROOT/scripts/nvrtc_ptx.py" "$NVRTC" vectors.cu vectors.sm75.ptx --gpu-architecture=compute_75)
"$WORK/x/nvidia/cuda_nvcc/bin/ptxas" -v -arch=sm_62 "$VEC.sm62.ptx" -o "$WORK/vectors.sm62.cubin" 2> "$VEC.sm62.ptxas.txt"
"$WORK/x/nvidia/cuda_nvcc/bin/ptxas" -arch=sm_75 "$VEC.sm75.ptx" -o "$WORK/vectors.sm75.cubin"
"$CU13/nvdisasm" "$WORK/vectors.sm75.cubin" > "$VEC.sm75.nvdisasm.sass"
ls -l "$OUT"
