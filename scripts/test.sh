#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, property and CLI tests) in the
# release profile, so that HiGHS is compiled once for the example, the tests and benches.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# One seed for every property test and fuzz runner: the same commit gives the same result
# twice. New seeds are explored by scripts/explore-seeds.sh, whose failures are saved in
# tests/proptest-regressions/ and replayed here first. The slowest property tests run
# capped here (their first cases; MAKESPAN_FULL_PROPTESTS=1 runs them whole, as
# scripts/explore-seeds.sh does): docs/testing.md has the figures.
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261128}
cargo test --release "$@"
# The public API is the list in docs/public-api.txt (under 150 entries): a change to it
# shows in review.
bash scripts/public-api.sh --check
