#!/usr/bin/env bash
# The per-block WCET table of the real kernels (instances/real/, TX2 SM: sigma_L 1,
# sigma_C 4): for each kernel and W, one block of W warps solved with a time limit, the
# proven interval, its gap and the wall-clock seconds. Writes the CSV of every solve to
# docs/wcet-table.csv (docs/wcet-table-<limit>s.csv at another limit) and prints the
# Markdown table that docs/wcet-table.md shows.
# Usage: scripts/wcet-table.sh [TIME_LIMIT_S] [W ...]   (defaults: 10 and 4 8 16 32 64)
#        scripts/wcet-table.sh --corpus [TIME_LIMIT_S]: the corpus of docs/corpus.md, each
#        kernel at its own block size (W = own), into docs/corpus-<limit>s.csv
#        ONLY=REGEX before either: only the kernels whose name matches (grep -E), their
#        rows replaced in the existing CSV (the others kept), e.g. after a change that can
#        move only some kernels' numbers
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
M=target/release/makespan
source scripts/real-kernels.sh
if [ "${1:-}" = --corpus ]; then
  limit=${2:-10}
  kernels=("${corpus[@]}")
  csv=docs/corpus-${limit}s.csv
  ws=(own)
else
  limit=${1:-10}
  shift || true
  ws=("$@")
  [ ${#ws[@]} -gt 0 ] || ws=(4 8 16 32 64)
  csv=docs/wcet-table.csv
  [ "$limit" = 10 ] || csv=docs/wcet-table-${limit}s.csv
fi
if [ -n "${ONLY:-}" ]; then
  [ -f "$csv" ] || { echo "error: ONLY needs the existing $csv to replace rows in" >&2; exit 2; }
  kept=("${kernels[@]}")
  kernels=()
  for k in "${kept[@]}"; do ! basename "$k" | grep -qE "$ONLY" || kernels+=("$k"); done
  [ ${#kernels[@]} -gt 0 ] || { echo "error: ONLY=$ONLY matches no kernel" >&2; exit 2; }
  full=$csv
  csv=$(mktemp)
  trap 'rm -f "$csv"' EXIT
fi
echo "kernel,instructions,phases,warps,lower,upper,exact,gap_percent,seconds,bound_upper" > "$csv"
header="| kernel | I | phases |"
rule="|---|---|---|"
for w in "${ws[@]}"; do header="$header W = $w |"; rule="$rule---|"; done
echo "$header"
echo "$rule"
for k in "${kernels[@]}"; do
  name=$(basename "$k")
  row=""
  for w in "${ws[@]}"; do
    [ "$w" != own ] || w=$(sed -n 's/^warps_per_block = //p' "$k.toml")
    echo "$name W = $w ..." >&2
    b=$($M bound "$k.toml" --warps "$w" --warps-per-block "$w" --json -q)
    j=$($M solve "$k.toml" --warps "$w" --warps-per-block "$w" --time-limit "$limit" --json -q)
    line=$(python3 - "$name" "$w" "$j" "$b" <<'EOF'
import json, sys
name, w, j, b = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
phases = j.get("phases", [j])
i = sum(len(p["kernel"]) for p in phases)
bound = b["start_state_bound"] if "start_state_bound" in b else b["total"]["start_state_bound"]
lo, up = j["makespan"], j["upper_bound"]
gap = 100.0 * (up - lo) / lo
cell = f"{lo} exact" if j["exact"] else f"[{lo}, {up}] {gap:.1f} %"
print(f"{name},{i},{len(phases)},{w},{lo},{up},{str(j['exact']).lower()},{gap:.2f},{j['seconds']:.2f},{bound}")
print(f"{i}|{len(phases)}|{cell} ({j['seconds']:.1f} s)")
EOF
)
    echo "$line" | head -1 >> "$csv"
    cell=$(echo "$line" | tail -1)
    [ -n "$row" ] || row="| $name | $(echo "$cell" | cut -d'|' -f1) | $(echo "$cell" | cut -d'|' -f2) |"
    row="$row $(echo "$cell" | cut -d'|' -f3) |"
  done
  echo "$row"
done
if [ -n "${ONLY:-}" ]; then
  python3 - "$full" "$csv" <<'EOF'
import csv, sys
full, new = sys.argv[1], sys.argv[2]
reader = csv.DictReader(open(full))
rows = list(reader)
fresh = {(r["kernel"], r["warps"]): r for r in csv.DictReader(open(new))}
out = [fresh.pop((r["kernel"], r["warps"]), r) for r in rows] + list(fresh.values())
with open(full, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=reader.fieldnames, lineterminator="\n")
    w.writeheader()
    w.writerows(out)
EOF
  echo "replaced the rows of the matching kernels in $full" >&2
fi
