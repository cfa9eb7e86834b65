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
#   --wait      return only when the merge job has ended (its exit code); when a shard
#               fails, the merge job is cancelled and this exits non-zero naming the
#               shards whose tasks did not succeed
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
        --out) [ $# -ge 2 ] || { echo "error: --out needs a directory" >&2; exit 2; }; out=$2; shift 2 ;;
        --cpus) [ $# -ge 2 ] || { echo "error: --cpus needs a number" >&2; exit 2; }; cpus=$2; shift 2 ;;
        --wait) wait=(--wait); shift ;;
        --) shift; extra=("$@"); break ;;
        *) usage ;;
    esac
done
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || { echo "error: --cpus = $cpus: must be a positive number of CPUs" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "error: sbatch not found: run this on a Slurm submit host (scripts/slurm-local.sh starts a one-node cluster here)" >&2; exit 2; }
# A task asking for more CPUs than any node has would wait for ever (PartitionConfig).
most=$(sinfo -h -o '%c' 2>/dev/null | tr -d '+' | sort -n | tail -1)
if [ -n "$most" ] && [ "$cpus" -gt "$most" ]; then
    echo "error: --cpus = $cpus: no node of this cluster has more than $most CPUs" >&2
    exit 2
fi

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

rm -f "$out/all.jsonl" "$out/report.txt"  # the merge job writes them anew
task="'$bin' --quiet sweep '$spec' --out '$out/shard-'\$SLURM_ARRAY_TASK_ID.jsonl --shard \$SLURM_ARRAY_TASK_ID/$n --resume --threads $cpus"
array=$(sbatch --parsable --array="1-$n" --job-name=makespan-sweep --cpus-per-task="$cpus" \
    --output="$out/shard-%a.log" "${extra[@]}" --wrap "$task")
array=${array%%;*}
shards=$(for i in $(seq 1 "$n"); do printf "'%s' " "$out/shard-$i.jsonl"; done)
echo "submitted array job $array: $n shards of $spec into $out" >&2
# --kill-on-invalid-dep: if a shard fails, the merge job is cancelled instead of
# pending for ever (DependencyNeverSatisfied), so --wait returns.
status=0
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --job-name=makespan-merge --output="$out/merge.log" \
    "${wait[@]}" "${extra[@]}" --wrap "'$bin' sweep merge $shards --out '$out/all.jsonl' && '$bin' sweep report '$out/all.jsonl' --csv > '$out/report.txt'") || status=$?
echo "merge job ${merge%%;*}: $out/all.jsonl (table: $out/report.txt)" >&2
# sbatch --wait also returns 0 when the merge job was cancelled: the merged file is the
# evidence that every shard succeeded.
if [ ${#wait[@]} -gt 0 ] && { [ "$status" -ne 0 ] || [ ! -s "$out/all.jsonl" ]; }; then
    failed=$(for i in $(seq 1 "$n"); do
        if [ ! -s "$out/shard-$i.jsonl" ] || grep -q '^error' "$out/shard-$i.log" 2>/dev/null; then printf '%s ' "$i"; fi
    done)
    echo "error: the sweep did not complete: shard task(s) ${failed:-?} of array $array did not succeed (see $out/shard-<I>.log); the merge job did not run" >&2
    exit 1
fi
echo "$out/all.jsonl"
