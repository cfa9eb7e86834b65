#!/usr/bin/env bash
# Runs a sweep on a Slurm cluster: a job array of N tasks, task I running shard I/N of
# SPEC (with --resume, so a requeued or re-submitted task continues its file), then a
# merge job that starts when every task has succeeded.
#
#   scripts/slurm-sweep.sh SPEC N [--out DIR] [--cpus C] [--wait] [-- SBATCH-OPTIONS...]
#
#   --out DIR   results directory on a file system every node sees
#               (default: sweep-results/<spec name>); shard I writes DIR/shard-I.jsonl,
#               the merge DIR/all.jsonl, logs go to DIR/*.log
#   --cpus C    CPUs per task, used as the sweep's --threads (default 1)
#   --wait      return only when the merge job has ended (its exit code)
#   after --    options passed to both sbatch calls (e.g. --partition=long --time=4:00:00)
#
# The binary is $MAKESPAN_BIN, else target/release/makespan (built here if missing).
# Relative paths in the spec (files = [...]) are relative to the directory this script
# is started in, which is where the tasks run (sbatch's default working directory).
set -euo pipefail

usage() { echo "usage: scripts/slurm-sweep.sh SPEC N [--out DIR] [--cpus C] [--wait] [-- SBATCH-OPTIONS...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
spec=$1; n=$2; shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "error: N = $n: must be a positive number of shards" >&2; exit 2; }
[ -f "$spec" ] || { echo "error: SPEC = $spec: no such file" >&2; exit 2; }
out="sweep-results/$(basename "$spec" .toml)"; cpus=1; wait=(); extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --cpus) cpus=$2; shift 2 ;;
        --wait) wait=(--wait); shift ;;
        --) shift; extra=("$@"); break ;;
        *) usage ;;
    esac
done
command -v sbatch >/dev/null || { echo "error: sbatch not found: run this on a Slurm submit host (scripts/slurm-local.sh starts a one-node cluster here)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${MAKESPAN_BIN:-$root/target/release/makespan}
if [ ! -x "$bin" ]; then
    echo "building $bin ..." >&2
    (cd "$root" && bash scripts/ensure-deps.sh && cargo build --release --quiet)
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
spec=$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")
# Fail now, not in N tasks, if the spec is wrong.
"$bin" sweep "$spec" --out "$out/shard-1.jsonl" --shard "1/$n" --dry-run >/dev/null

task="'$bin' --quiet sweep '$spec' --out '$out/shard-'\$SLURM_ARRAY_TASK_ID.jsonl --shard \$SLURM_ARRAY_TASK_ID/$n --resume --threads $cpus"
array=$(sbatch --parsable --array="1-$n" --job-name=makespan-sweep --cpus-per-task="$cpus" \
    --output="$out/shard-%a.log" "${extra[@]}" --wrap "$task")
array=${array%%;*}
shards=$(for i in $(seq 1 "$n"); do printf "'%s' " "$out/shard-$i.jsonl"; done)
echo "submitted array job $array: $n shards of $spec into $out" >&2
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=makespan-merge --output="$out/merge.log" \
    "${wait[@]}" "${extra[@]}" --wrap "'$bin' sweep merge $shards --out '$out/all.jsonl' && '$bin' sweep report '$out/all.jsonl' --csv > '$out/report.txt'")
echo "merge job ${merge%%;*}: $out/all.jsonl (table: $out/report.txt)" >&2
echo "$out/all.jsonl"
