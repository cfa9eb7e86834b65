#!/usr/bin/env python3
"""The table of docs/corpus.md from docs/corpus-10s.csv, docs/corpus-60s.csv
(scripts/wcet-table.sh --corpus 10 and 60) and instances/real/corpus-trips.jsonl
(scripts/corpus-fixtures.sh): per kernel, its block size, length, phases, loops (real ->
used compiled iterations), the proven interval at 10 s and 60 s, and whether it meets
issue 57's target (exact or within 1 % at W <= 16, 2 % above). Then a summary line.
With --gain: per kernel, the 10 s and 60 s intervals of the baseline
(docs/corpus-10s-388a543.csv and docs/corpus-60s-388a543.csv: the solver as it was when
issue 57 was filed) beside today's, and what each end gained, for the kernels where an
end moved; then how many moved.
usage: scripts/corpus-table.py [--gain]"""
import csv, json, os, sys
os.chdir(os.path.join(os.path.dirname(__file__), ".."))
trips = {j["name"]: j for j in map(json.loads, open("instances/real/corpus-trips.jsonl"))}
def read(t, suffix=""):
    path = f"docs/corpus-{t}s{suffix}.csv"
    return {r["kernel"]: r for r in csv.DictReader(open(path))} if os.path.exists(path) else {}

runs = {t: read(t) for t in (10, 60)}

def gap(r):
    """(upper - lower) / lower in per cent, from the ends (the CSV's column is rounded)."""
    return 100.0 * (int(r["upper"]) - int(r["lower"])) / int(r["lower"])

def cell(r):
    if r is None:
        return "not run"
    if r["exact"] == "true":
        return f"{r['lower']} exact ({float(r['seconds']):.1f} s)"
    return f"[{r['lower']}, {r['upper']}] {gap(r):.2f} %"

def meets(r):
    return r is not None and gap(r) <= (1.0 if int(r["warps"]) <= 16 else 2.0)

def loops(name):
    ls = trips[name]["loops"]
    if not ls:
        return "none"
    return ", ".join(f"{l['real'] if l['real'] else 'not read'} -> {l['used']}"
                     + (f" x{l['entries']}" if l["entries"] > 1 else "") for l in ls)

def gains():
    """The kernels whose interval moved since the baseline, at each limit."""
    base = {t: read(t, "-388a543") for t in (10, 60)}
    for t in (10, 60):
        if not base[t] or not runs[t]:
            sys.exit(f"error: --gain needs docs/corpus-{t}s.csv and docs/corpus-{t}s-388a543.csv")
        for name, r in runs[t].items():
            b = base[t].get(name)
            if b and (int(r["lower"]) < int(b["lower"]) or int(r["upper"]) > int(b["upper"])):
                sys.exit(f"error: {name} at {t} s moved the wrong way: {cell(b)} then, {cell(r)} now")
    print("| kernel | 10 s then | 10 s now | 60 s then | 60 s now | gained (lower, upper; 10 s / 60 s) |")
    print("|---|---|---|---|---|---|")
    moved = {10: 0, 60: 0}
    for name in runs[10]:
        pairs = [(base[t].get(name), runs[t].get(name)) for t in (10, 60)]
        ends = lambda r: (int(r["lower"]), int(r["upper"])) if r else None
        if all(ends(a) == ends(b) for a, b in pairs):
            continue
        d = []
        for t, (a, b) in zip((10, 60), pairs):
            if a and b and ends(a) != ends(b):
                moved[t] += 1
                d.append(f"+{int(b['lower']) - int(a['lower'])}, -{int(a['upper']) - int(b['upper'])}")
            else:
                d.append("none")
        print(f"| {name} | {cell(pairs[0][0])} | {cell(pairs[0][1])} | {cell(pairs[1][0])} | {cell(pairs[1][1])} | {' / '.join(d)} |")
    print(f"\n{moved[10]} of {len(runs[10])} kernels moved at 10 s, {moved[60]} at 60 s; no end moved the wrong way.")

if sys.argv[1:] == ["--gain"]:
    gains()
    sys.exit(0)

print("| kernel | W | I | phases | loops (real -> used) | 10 s | 60 s | target |")
print("|---|---|---|---|---|---|---|---|")
count = {10: 0, 60: 0}
for name, r in runs[10].items():
    r60 = runs[60].get(name)
    for t, x in ((10, r), (60, r60)):
        count[t] += meets(x)
    mark = "yes" if meets(r) else ("at 60 s" if meets(r60) else "no")
    print(f"| {name} | {r['warps']} | {r['instructions']} | {r['phases']} | {loops(name)} | {cell(r)} | {cell(r60)} | {mark} |")
n = len(runs[10])
print(f"\n{count[10]} of {n} kernels meet the target at 10 s, {count[60]} at 60 s.")
