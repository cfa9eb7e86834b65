#!/usr/bin/env bash
# End-to-end test of scripts/slurm-sweep.sh on a single-node Slurm cluster started on
# this machine (scripts/slurm-local.sh; needs root, installs Slurm from Debian): runs a
# sweep as 4 array tasks plus the merge job, and checks that the merged results equal an
# unsharded run (same ids, same values apart from timings) and that no id is in two shards.
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${1:-instances/sweeps/small.toml}
bin=target/release/makespan
[ -x "$bin" ] || cargo build --release --quiet
bash scripts/slurm-local.sh
trap 'bash scripts/slurm-local.sh stop' EXIT
tmp=$(mktemp -d)
"$bin" --quiet sweep "$spec" --out "$tmp/unsharded.jsonl" >/dev/null
started=$(date +%s)
timeout 900 scripts/slurm-sweep.sh "$spec" 4 --out "$tmp/slurm" --wait >/dev/null
echo "slurm sweep: 4 array tasks + merge in $(( $(date +%s) - started )) s" >&2
count() { grep -c . "$1"; }
n=$(count "$tmp/unsharded.jsonl")
shards=0
for i in 1 2 3 4; do shards=$(( shards + $(count "$tmp/slurm/shard-$i.jsonl") )); done
# Merging finds no conflicting value; the union has no more ids than either run.
"$bin" --quiet sweep merge "$tmp/slurm/all.jsonl" "$tmp/unsharded.jsonl" --out "$tmp/check.jsonl"
ok=1
[ "$(count "$tmp/slurm/all.jsonl")" = "$n" ] || ok=0
[ "$(count "$tmp/check.jsonl")" = "$n" ] || ok=0
[ "$shards" = "$n" ] || ok=0
if [ $ok = 1 ]; then
    echo "slurm sweep OK: $n jobs, 4 disjoint shards, merged = unsharded" >&2
else
    echo "error: slurm sweep differs: unsharded $n, merged $(count "$tmp/slurm/all.jsonl"), shards $shards, union $(count "$tmp/check.jsonl")" >&2
    tail -n 5 "$tmp"/slurm/*.log >&2 || true
    exit 1
fi
# A shard that fails: --wait returns non-zero naming it (the merge job is cancelled).
cat >"$tmp/failing" <<WRAP
#!/usr/bin/env bash
for a in "\$@"; do [ "\$a" = "2/2" ] && ! [[ " \$* " == *" --dry-run "* ]] && { echo "error: injected failure" >&2; exit 1; }; done
exec '$(cd "$(dirname "$bin")" && pwd)/makespan' "\$@"
WRAP
chmod +x "$tmp/failing"
if MAKESPAN_BIN="$tmp/failing" timeout 300 bash scripts/slurm-sweep.sh "$spec" 2 --out "$tmp/failing-run" --wait 2>"$tmp/failing.err"; then
    echo "error: slurm-sweep.sh --wait returned 0 although shard 2 failed" >&2
    exit 1
fi
grep -q "shard task(s) 2 " "$tmp/failing.err" || { echo "error: the failed shard is not named:" >&2; cat "$tmp/failing.err" >&2; exit 1; }
echo "slurm sweep with a failed shard: --wait exits non-zero naming shard 2" >&2
rm -rf "$tmp"
