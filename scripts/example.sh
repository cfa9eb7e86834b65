#!/usr/bin/env bash
# The main job on an example: exact worst-case makespan of the paper's Fig. 2 instance,
# with its (re-checked) worst-case schedule. Extra arguments go to `makespan solve`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
cargo run --release --quiet --bin makespan -- solve instances/fig2-llc.toml --schedule "$@"
