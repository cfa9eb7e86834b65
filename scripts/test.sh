#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, property and CLI tests) in the
# release profile, so that HiGHS is compiled once for the example, the tests and benches.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
cargo test --release "$@"
