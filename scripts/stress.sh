#!/usr/bin/env bash
# Stress test: random instances at the edges of the caps (I up to 10^4, W up to
# 10^6, long runs of one type, extreme sigmas, up to 64 blocks with barriers), each under a wall clock and a memory
# measurement. Fails on a panic, an abort (any exit code but 0, 2 and 130), a time
# overrun beyond the stated slack (5 % + 0.5 s, plus 1 s for start-up and re-checking),
# or a peak memory above --max-memory plus a stated constant (400 MB: the binary,
# HiGHS, threads and the witness's check).
# Usage: scripts/stress.sh [CASES] [SEED]   (default 40 cases, seed 1)
set -uo pipefail
cd "$(dirname "$0")/.."
cases=${1:-40}
seed=${2:-1}
M=${MAKESPAN:-target/release/makespan}
[ -x "$M" ] || cargo build --release --quiet
limit_mb=512
const_mb=400
fail=0
work=$(mktemp -d)
python3 - "$cases" "$seed" >"$work/cases" <<'PY'
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed)
def kernel():
    kind = r.choice(["run", "runs", "random", "alternating"])
    size = r.choice([1, 2, 10, 100, 1000, 5000, 10000])
    if kind == "run":
        return r.choice("LC") * size
    if kind == "runs":
        parts, left = [], size
        while left > 0:
            k = min(left, r.choice([1, 3, 50, 500, 2000]))
            parts.append(r.choice("LC") * k)
            left -= k
        return "".join(parts)
    if kind == "alternating":
        return ("LC" * size)[:size]
    return "".join(r.choice("LC") for _ in range(size))
def barrier_kernel():
    # Phases of a few instructions: the block search's rollouts grow with B W I.
    return "|".join("".join(r.choice("LC") for _ in range(r.choice([1, 3, 10, 40]))) for _ in range(r.choice([2, 3, 5])))
for _ in range(n):
    if r.random() < 0.25:
        # Several blocks with barriers: up to 64 blocks of W warps (the block search).
        b, w = r.choice([1, 2, 21, 33, 64]), r.choice([1, 2, 4, 8])
        print("blocks", barrier_kernel(), b * w, r.choice([1, 2, 4]), r.choice([1, 4, 32]), r.choice([0.5, 1, 2]), w)
        continue
    k = kernel()
    w = r.choice([1, 2, 8, 64, 1000, 100000, 1000000])
    sl, sc = r.choice([1, 1, 2, 4, 32]), r.choice([1, 1, 4, 32, 64])
    t = r.choice([0.5, 1, 2])
    cmd = r.choice(["solve", "solve", "solve-heuristic", "bound", "approx", "approx-total", "converge-total"])
    print(cmd, k, w, sl, sc, t, 0)
PY
i=0
while read -r cmd k w sl sc t per_block; do
  i=$((i + 1))
  args=(--kernel "$k" --warps "$w" --sigma-l "$sl" --sigma-c "$sc")
  case $cmd in
    solve) run=(solve "${args[@]}" --time-limit "$t" --max-memory ${limit_mb}M --json) ;;
    blocks) run=(solve "${args[@]}" --warps-per-block "$per_block" --time-limit "$t" --max-memory ${limit_mb}M --json) ;;
    solve-heuristic) run=(solve "${args[@]}" --method heuristic --time-limit "$t" --max-memory ${limit_mb}M --json) ;;
    bound) run=(bound "${args[@]}" --json); t=10 ;;
    approx) run=(approx "${args[@]}" --x 2 --time-limit "$t" --max-memory ${limit_mb}M --json) ;;
    # Every y up to W, ended by the overall limit.
    approx-total) run=(approx "${args[@]}" --x "$w" --time-limit "$t" --total-time-limit "$t" --max-memory ${limit_mb}M --json) ;;
    converge-total) run=(converge "${args[@]}" --x-max "$w" --time-limit "$t" --total-time-limit "$t" --max-memory ${limit_mb}M) ;;
  esac
  # approx: --time-limit applies to each of its 3 solves (y = 1, 2 and W).
  solves=1
  [ "$cmd" = approx ] && solves=3
  allowed=$(python3 -c "print($solves * $t * 1.05 + 0.5 + 1.0)")
  /usr/bin/time -f "%e %M" -o "$work/time" timeout 300 "$M" "${run[@]}" >"$work/out" 2>"$work/err"
  code=$?
  read -r secs kb < <(tail -n 1 "$work/time") 2>/dev/null || { secs=999; kb=0; }
  what="case $i: $cmd I=${#k} W=$w sigma $sl/$sc limit $t s"
  if grep -q "panicked" "$work/err" || [[ ! " 0 2 130 " =~ " $code " ]]; then
    echo "FAIL $what: exit $code: $(tail -c 300 "$work/err")"; fail=1
  elif python3 -c "import sys; sys.exit(0 if $secs <= $allowed else 1)"; [ $? -ne 0 ]; then
    echo "FAIL $what: took $secs s, allowed $allowed s"; fail=1
  elif [ "$kb" -gt $(((limit_mb + const_mb) * 1024)) ]; then
    echo "FAIL $what: peak memory $((kb / 1024)) MB, allowed $((limit_mb + const_mb)) MB"; fail=1
  else
    echo "ok   $what: exit $code, $secs s, $((kb / 1024)) MB"
  fi
done <"$work/cases"
rm -rf "$work"
exit $fail
