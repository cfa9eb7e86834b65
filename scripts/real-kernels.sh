# The real kernels of the tables (instances/real/, without the .toml), sourced by
# scripts/wcet-table.sh and scripts/latency-table.sh.
R=instances/real
S=$R/cuda-samples
kernels=($R/saxpy $R/reduction $R/reduction-sm75 $R/stencil $R/transpose $R/gemm-tiled $R/histogram
  $S/vectorAdd $S/transposeNoBankConflicts $S/matrixMulCUDA $S/reduce4 $S/histogram256Kernel)
# The corpus of public benchmark kernels (docs/corpus.md; scripts/corpus-fixtures.sh makes
# them), each at its own block size.
corpus=($(ls $R/polybench/*.toml $R/rodinia/*.toml | sed 's/\.toml$//'))
