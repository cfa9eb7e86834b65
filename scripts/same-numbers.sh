#!/usr/bin/env bash
# Same numbers before and after a change that should not change any: builds the
# release binary of BASE (a git revision, default HEAD) and of the work tree, runs the
# same command lines with both (every command, text and JSON, plus the start-state
# bounds and a 1 s solve of every instance of instances/bench/), and diffs the outputs.
#
# Usage: scripts/same-numbers.sh [BASE]        (exit 0: same numbers; 1: they differ)
#
# Timings (`seconds`, "in 0.3 s", ...) are masked before the diff, and JSON fields
# added since the base (listed in ADDED below) are left out of it. The 1 s solves of the
# bench suite are time-limited: their bounds may move with the machine's load, so a
# difference there is listed apart and does not fail the run; look at it by hand.
# Outputs stay in target/same-numbers/{base,new}/ for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base_rev=$(git rev-parse --short=12 "${1:-HEAD}")
work="$root/target/same-numbers"
# The base's outputs are kept per revision and reused by later runs against it.
cached="$root/target/same-numbers-base-$base_rev-$(sed -n '/^commands()/,/^}/p' "$0" | cksum | cut -d' ' -f1)"
rm -rf "$work"
mkdir -p "$work/base-src" "$work/base" "$work/new"

bash scripts/ensure-deps.sh
# A copy of the work tree, taken now, so that it may change while this runs.
mkdir -p "$work/new-src"
tar -c --exclude=./target --exclude=./.git . | tar -x -C "$work/new-src"
if [ ! -f "$cached/done" ]; then
  echo "building $base_rev ..." >&2
  git archive "$base_rev" | tar -x -C "$work/base-src"
  (cd "$work/base-src" && CARGO_TARGET_DIR="$root/target" cargo build --release --quiet --bin makespan)
  cp "$root/target/release/makespan" "$work/base/makespan"
fi
echo "building the work tree (as copied at the start) ..." >&2
(cd "$work/new-src" && CARGO_TARGET_DIR="$root/target" cargo build --release --quiet --bin makespan)
cp "$root/target/release/makespan" "$work/new/makespan"

# One command line per line; `@` stands for the output directory of the run.
commands() {
  cat <<'EOF'
bound instances/bench/tx2-block.toml
bound instances/bench/tx2-block.toml --json
bound instances/counterexample-sigma2.toml
solve instances/fig2-llc.toml --schedule
solve instances/fig2-llc.toml --schedule --json
solve instances/fig5-llcll.toml --json
solve instances/fig7-lclcl-fermi.toml --schedule
solve instances/counterexample-sigma2.toml --method ilp --horizon paper
solve --kernel LLCLLL --warps 4 --sigma-l 2 --sigma-c 2 --method both --json
solve instances/tx2-block.toml --json
solve --kernel LLC --warps 1 --method heuristic --json
solve --kernel LLCCLLCLLCCL --warps 12 --json
solve --kernel CCLCLLLL --warps 12 --json
solve --kernel LCCLCL --warps 3 --sigma-c 2 --method ilp --constraints long --json
approx instances/lcl-approx-counterexample.toml --x 2
approx instances/fig5-llcll.toml --x 4 --json
converge instances/fig2-llc.toml --x-max 4 --csv @/converge.csv
compare-constraints --kernel LLC --warps 1 --warps-max 2 --time-limit 30
rta instances/rta-chapter-example.toml
rta instances/rta-thesis-order1.toml --json
rta instances/examiner/thesis-order2.json --deadline 0.1
rta instances/rta-tx2-instructions.toml --json
sweep instances/sweeps/small.toml --out @/small.jsonl --threads 1
sweep report @/small.jsonl --csv @/small.csv
bench-suite --out @/bench
EOF
}

# Masks timings in text and JSON so that only numbers that must not move remain.
normalise() {
  python3 - "$1" <<'PY'
import json, re, sys
path = sys.argv[1]
text = open(path).read()
TIMED = {"seconds", "solve_seconds", "elapsed", "time"}
# Fields added beside old ones (JSON contracts grow by adding): left out of the
# comparison, so that a base from before them still compares; the CLI tests check them.
ADDED = {"interval", "gpu_load", "alone", "presolve"}
def scrub(v):
    if isinstance(v, dict):
        return {k: ("<t>" if k in TIMED or k.endswith("_seconds") else scrub(x)) for k, x in v.items() if k not in ADDED}
    if isinstance(v, list):
        return [scrub(x) for x in v]
    return v
def one(t):
    try:
        return json.dumps(scrub(json.loads(t)), indent=1, sort_keys=True)
    except ValueError:
        return None
def csv(t):
    rows = [l.split(",") for l in t.splitlines()]
    if len(rows) < 2 or len(rows[0]) < 2 or any(len(r) != len(rows[0]) for r in rows):
        return None
    timed = [i for i, h in enumerate(rows[0]) if "seconds" in h or "time" in h]
    return "\n".join(",".join("<t>" if i in timed and r is not rows[0] else x for i, x in enumerate(r)) for r in rows)
timed_solve = path.split("/")[-1].startswith("timed-")
out = one(text)
if out is not None and timed_solve:
    v = json.loads(text)
    out = json.dumps({k: v.get(k) for k in ("kernel", "warps", "makespan", "upper_bound", "status")}, sort_keys=True)
if out is None:
    lines = [one(l) if l.startswith("{") else None for l in text.splitlines()]
    if text.strip() and all(l is not None for l in lines):
        out = "\n".join(lines)
if out is None:
    out = csv(text)
if out is None and text.split("\n", 1)[0].split()[-1:] == ["seconds"]:
    # A table whose last column is seconds (sweep report): mask that column.
    out = "\n".join(re.sub(r"\d+(\.\d+)?$", "<t>", l) if i else l for i, l in enumerate(text.splitlines()))
    out = re.sub(r"(total|longest) \d+(\.\d+)?", r"\1 <t>", out)
if out is None:
    out = re.sub(r"\d+(\.\d+)?(e-?\d+)? ?(s|ms|us)\b", "<t> s", text)
    out = re.sub(r"(total|longest) \d+(\.\d+)?", r"\1 <t>", out)
open(path, "w").write(out)
PY
}

record() {
  local bin="$1" dir="$2" i=0
  while read -r line; do
    i=$((i + 1))
    local args="${line//@/$dir}"
    # shellcheck disable=SC2086
    "$bin" $args --quiet >"$dir/cmd$(printf %02d $i).out" 2>"$dir/cmd$(printf %02d $i).err" || echo "exit $?" >>"$dir/cmd$(printf %02d $i).err"
    echo "$line" >"$dir/cmd$(printf %02d $i).line"
  done < <(commands)
  for f in instances/bench/*.toml; do
    local name
    name=$(basename "$f" .toml)
    "$bin" bound "$f" --json >"$dir/bound-$name.out" 2>&1 || true
    "$bin" solve "$f" --time-limit 1 --json --quiet >"$dir/timed-$name.out" 2>&1 || true
  done
  for f in "$dir"/*.out "$dir"/*.csv "$dir"/*.jsonl "$dir"/bench/*; do
    [ -f "$f" ] && normalise "$f"
  done
  rm -f "$dir/makespan"
}

echo "running $(commands | wc -l) command lines and the bench suite with each binary ..." >&2
if [ -f "$cached/done" ]; then
  cp -r "$cached/." "$work/base/"
  rm -f "$work/base/done"
else
  record "$work/base/makespan" "$work/base"
fi
record "$work/new/makespan" "$work/new"
# The output directory's own name appears in outputs (paths): make it the same.
find "$work/base" -type f -exec sed -i "s#$work/base#@#g" {} +
find "$work/new" -type f -exec sed -i "s#$work/new#@#g" {} +
rm -rf "$cached" && cp -r "$work/base" "$cached" && touch "$cached/done"

status=0
if ! diff -r -x 'timed-*' "$work/base" "$work/new" >"$work/diff.txt"; then
  echo "DIFFERENT numbers (see $work/diff.txt):" >&2
  head -60 "$work/diff.txt" >&2
  status=1
fi
timed=$(for f in "$work"/base/timed-*.out; do n=$(basename "$f"); cmp -s "$f" "$work/new/$n" || echo "${n#timed-}"; done)
if [ -n "$timed" ]; then
  echo "time-limited solves that differ (check by hand that only timing moved them):" $timed >&2
fi
[ $status = 0 ] && echo "same numbers: $(commands | wc -l) command lines and $(ls instances/bench/*.toml | wc -l) bench instances" >&2
exit $status
