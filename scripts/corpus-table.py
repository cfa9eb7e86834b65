#!/usr/bin/env python3
"""The table of docs/corpus.md from docs/corpus-10s.csv, docs/corpus-60s.csv
(scripts/wcet-table.sh --corpus 10 and 60) and instances/real/corpus-trips.jsonl
(scripts/corpus-fixtures.sh): per kernel, its block size, length, phases, loops (real ->
used compiled iterations), the proven interval at 10 s and 60 s, and whether it meets
issue 57's target (exact or within 1 % at W <= 16, 2 % above). Then a summary line.
usage: scripts/corpus-table.py"""
import csv, json, os
os.chdir(os.path.join(os.path.dirname(__file__), ".."))
trips = {j["name"]: j for j in map(json.loads, open("instances/real/corpus-trips.jsonl"))}
def read(t):
    path = f"docs/corpus-{t}s.csv"
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
