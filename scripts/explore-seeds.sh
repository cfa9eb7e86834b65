#!/usr/bin/env bash
# Explores new seeds for the property tests and the fuzzer. `scripts/test.sh` (and so CI)
# runs one fixed seed, so that the same commit gives the same result twice; this script
# is where new cases are drawn. Each round draws a seed and runs the tests with it (the
# fuzzer with larger budgets). proptest saves every failing case in
# tests/proptest-regressions/ (the proptest! tests per file, the fuzzer as
# fuzz-TEST.txt), and every later run, CI's included, replays those first: commit them
# with the fix. The slow property tests run at full size here (MAKESPAN_FULL_PROPTESTS=1);
# scripts/test.sh runs the first cases of the same seed only (docs/testing.md).
#
# Usage: scripts/explore-seeds.sh [ROUNDS] [cargo test arguments...]   (default 3 rounds)
# e.g.   scripts/explore-seeds.sh 10 --test it blocks::
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
bash scripts/ensure-deps.sh || exit 1
fail=0
for i in $(seq "$rounds"); do
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  echo "round $i of $rounds: PROPTEST_RNG_SEED=$seed" >&2
  if ! PROPTEST_RNG_SEED=$seed MAKESPAN_FULL_PROPTESTS=1 FUZZ_CASES=${FUZZ_CASES:-1000} FUZZ_CLI_CASES=${FUZZ_CLI_CASES:-100} \
    cargo test --release --quiet "$@"; then
    echo "FAILED with PROPTEST_RNG_SEED=$seed MAKESPAN_FULL_PROPTESTS=1: the failing cases are saved under tests/proptest-regressions/ (git status)" >&2
    fail=1
  fi
done
exit $fail
