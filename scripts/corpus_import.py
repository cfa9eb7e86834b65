#!/usr/bin/env python3
"""Import every kernel of one PTX file of the real-kernel corpus (docs/corpus.md).
usage: corpus_import.py MAKESPAN FILE.ptx RESOURCE_USAGE.txt BLOCK_THREADS OUT_DIR PREFIX
           [KERNEL=THREADS|KERNEL=skip ...] [KERNEL@TRIP ...]
Trip counts: every loop runs min(its real count, 64) compiled iterations, a loop nested
in another min(real, 64) per entry with the outer loop at 2 (PolyBench's 512-4096
elements give 128-512 compiled iterations in most loops, many kernels past the tool's cap
of 10,000 instructions); the real
count is read from the loop's counter (`add.s32 %r, %r, STEP; setp.ne.s32 %p, %r, N`)
where the compiler left it in that form. Forward branches and predicated exits take the
proposal of --list-branches (the guarded code runs). KERNEL (the unmangled name) =THREADS
sets a kernel's own block size where it differs from BLOCK_THREADS, =skip leaves it out;
KERNEL@TRIP is the real count of that kernel's loops whose counter the pattern does not
read (a run-time argument such as Rodinia's pyramid height). Prints one JSON line per
kernel: name, entry, threads, loops (label, real, used)."""
import json, re, subprocess, sys
makespan, ptx, usage, threads, out_dir, prefix, *extra = sys.argv[1:]
CAP, OUTER = 64, 2
own_threads = dict(e.split("=") for e in extra if "@" not in e)
fixed = {k: int(v) for k, v in (e.split("@") for e in extra if "@" in e)}
lines = open(ptx).read().splitlines()
entries = re.findall(r"\.entry (\w+)", "\n".join(lines))

def real_count(line_no):
    """The loop's real trip count from its counter, or None."""
    window = lines[max(0, line_no - 6):line_no - 1]
    setp = [re.search(r"setp\.ne\.s32\s+%p\d+, (%r\d+), (\d+);", l) for l in window]
    setp = [m for m in setp if m]
    if not setp:
        return None
    reg, bound = setp[-1].group(1), int(setp[-1].group(2))
    for l in window:
        m = re.search(r"add\.s32\s+" + re.escape(reg) + r", " + re.escape(reg) + r", (\d+);", l)
        if m:
            return bound // int(m.group(1))
    return None

def listing(entry, trips):
    cmd = [makespan, "import", ptx, "--entry", entry, "--warps", "1", "--list-branches", "--json"]
    for t in trips:
        cmd += ["--trip", t]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)

for entry in entries:
    short = re.sub(r"^_Z\d+", "", entry)
    short = short[:int(re.match(r"_Z(\d+)", entry).group(1))] if entry.startswith("_Z") else entry
    trips, loops = {}, []
    for _ in range(4):  # nested loops: list again once the outer counts are given
        todo = [b for b in listing(entry, [f"{k}={v}" for k, v in trips.items()]) if b["target"] not in trips]
        if not todo:
            break
        for b in todo:
            if b["kind"] != "loop":
                trips[b["target"]] = str(b["proposed"])
                continue
            if b["outer"] is not None and b["proposed_per_visit"] is None:
                continue  # its outer loop's count first
            real = real_count(b["lines"][0]) or fixed.get(short)
            nested_outer = any(o["outer"] == b["target"] for o in todo)
            used = min(real or CAP, OUTER if nested_outer else CAP)
            visits = len(b["proposed_per_visit"]) if b["proposed_per_visit"] else 1
            trips[b["target"]] = ",".join([str(used)] * visits)
            loops.append({"label": b["target"], "real": real, "used": used, "entries": visits})
    n = own_threads.get(short, threads)
    if n == "skip":
        continue
    cmd = [makespan, "import", ptx, "--entry", entry, "--block-threads", n, "--sm", "tx2",
           "--resource-usage", usage, "--out", f"{out_dir}/{prefix}{short}.toml"]
    for k, v in sorted(trips.items()):
        cmd += ["--trip", f"{k}={v}"]
    subprocess.run(cmd, check=True)
    print(json.dumps({"name": prefix + short, "entry": entry, "threads": int(n), "loops": loops}))
