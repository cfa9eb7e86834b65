"""Round robin (one rotation per class) beside neighbour code chosen on line.

How far can `lrr_turnover_bound_with` (warp slots only, 4,560 cycles for `histogram`
on a TX2 SM) be from the truth when the neighbours' code is free?  This script builds
the neighbours' code while it runs: whenever a warp issues, a rule picks the class of
its next instruction from what the target warp will wait for (`burst`, below).  Warps
of one block share one code: a block's instruction `i` is chosen when its first warp
reaches `i`, and its other warps then run that code.

The model is the one `docs/latency.md` states for `lrr` (latency 1): 64 warp slots in a
fixed circular order; per class X, each cycle the sigma_X units serve the ready X warps
in that order, starting after the slot last served an X instruction; a block's warps
pass a barrier together, the cycle after the last one reaches it.  `cross_check()`
compares this simulator with `makespan simulate --scheduler lrr` (same values).

    python3 chosen_code.py            # the table of docs/experiments.md (2026-12-02, noon)
    python3 chosen_code.py --starts 100 --no-check   # and 100 random rotation starts per row
    python3 chosen_code.py --climb 400 --export F --no-check   # one lead per warp: 4,015;
                                                    # appends its code to F (tests/data)
    python3 chosen_code.py --climb-groups N STEPS SEED --no-check   # groups of N sharing code

The table's runs start both rotations after the target's slot 0 (it is served last in
the first cycle of each class).
"""
import re
import subprocess
import sys

SLOTS, SIGMA = 64, {"L": 1, "C": 4}


def kernel(name):
    text = open(f"instances/real/{name}.toml").read()
    return re.search(r'^kernel = "(.*)"', text, re.M).group(1)


def simulate(fixed, blocks, chosen, rule, start=(0, 0), target=0, keep=None):
    """Cycles until `target` (a slot) finishes.  `fixed`: slot -> code (with '|');
    `blocks`: slot lists that pass barriers together; `chosen`: slot lists sharing one
    code built by `rule`; `start`: the slots the L and C rotations start after; `keep`:
    a dict that receives every slot's code as run (with the next instruction chosen)."""
    code = dict(fixed)
    for group in chosen:
        shared = ["C"]
        for s in group:
            code[s] = shared
    free = {s for g in chosen for s in g}
    pos = {s: 0 for s in code}
    ready = {s: 1 for s in code}

    def at(s):
        return code[s][pos[s]] if pos[s] < len(code[s]) else None

    last = {"L": start[0], "C": start[1]}
    served_in_wait, t = set(), 1
    while True:
        served = {}
        for x in "LC":
            n, origin = 0, last[x]
            for k in range(1, SLOTS + 1):
                s = (origin + k) % SLOTS
                if s in code and at(s) == x and ready[s] <= t:
                    served[s], n, last[x] = x, n + 1, s
                    if n == SIGMA[x]:
                        break
        for s in served:
            ready[s], pos[s] = t + 1, pos[s] + 1
        for s in served:
            if s in free and pos[s] == len(code[s]):
                code[s].append(rule(s, served[s], code[target], pos[target], served_in_wait))
        if pos[target] >= len(code[target]):
            if keep is not None:
                keep.update(code)
            return t
        for b in blocks:
            if all(at(s) in ("|", None) for s in b) and any(at(s) == "|" for s in b):
                for s in b:
                    if at(s) == "|":
                        pos[s], ready[s] = pos[s] + 1, t + 1
        if at(target) == "L":
            served_in_wait.update(s for s, x in served.items() if x == "L")
        else:
            served_in_wait.clear()
        t += 1


def burst(lead):
    """The rule: after an L, C.  After a C: while the target waits for an L, L for the
    warps its rotation has not served yet in this wait (they are ahead of it), C for
    the others; while the target runs C's, C until it has at most `lead` C's left
    before its next L, then L (the warps come ready for L in a burst, in rotation order,
    as the target does).  `lead`: one number, or a dict slot -> number."""

    def rule(s, issued, target_code, i, served_in_wait):
        own_lead = lead[s] if isinstance(lead, dict) else lead
        if issued == "L":
            return "C"
        while i < len(target_code) and target_code[i] == "|":
            i += 1
        if i < len(target_code) and target_code[i] == "L":
            return "C" if s in served_in_wait else "L"
        left = 0
        while i < len(target_code) and target_code[i] != "L":
            left += target_code[i] == "C"
            i += 1
        return "L" if left <= own_lead else "C"

    return rule


def cross_check():
    """This simulator against `makespan simulate --scheduler lrr` (every warp starting
    together; the rotations start at slot 0, i.e. after slot 63)."""
    for k, per_block in ((kernel("histogram"), 8), ("LCCLCCCLLC", 1)):
        blocks = [list(range(b, b + per_block)) for b in range(0, SLOTS, per_block)]
        ours = max(simulate({s: list(k) for s in range(SLOTS)}, blocks, [], None, (63, 63), s) for s in range(SLOTS))
        out = subprocess.run(
            ["makespan", "simulate", "--kernel", k, "--warps", "64", "--warps-per-block", str(per_block),
             "--sigma-l", "1", "--sigma-c", "4", "--scheduler", "lrr", "--json"],
            capture_output=True, text=True, check=True).stdout
        tool = int(re.search(r'"makespan":\s*(\d+)', out).group(1))
        print(f"cross-check {k[:12]}...: this simulator {ours}, makespan simulate {tool}")
        assert ours == tool


def main():
    h = kernel("histogram")
    mates = list(range(57, 64))  # the target (slot 0) is the last warp of its block
    own = {s: list(h) for s in [0] + mates}
    print("neighbours' code chosen per group of n warps sharing one code; target: histogram, slot 0 of 64")
    for n in (1, 2, 4, 8):
        chosen = [list(range(1 + i, 1 + i + n)) for i in range(0, 56, n)]
        row = [simulate(own, [[0] + mates], chosen, burst(lead)) for lead in (0, 1, 2, 3)]
        print(f"  n = {n}: lead 0-3 -> {row}")
    alone = simulate({0: list(h.replace("|", ""))}, [[0]], [[s] for s in range(1, 64)], burst(1))
    print(f"  every other warp chosen (no block mates, barriers dropped): {alone}")
    if "--climb" in sys.argv:
        export = sys.argv[sys.argv.index("--export") + 1] if "--export" in sys.argv else None
        climb(own, mates, int(sys.argv[sys.argv.index("--climb") + 1]), export)
    if "--climb-groups" in sys.argv:
        n, steps, seed = (int(a) for a in sys.argv[sys.argv.index("--climb-groups") + 1 :][:3])
        climb_groups(own, mates, n, steps, seed)
    if "--starts" in sys.argv:
        random_starts(own, mates, int(sys.argv[sys.argv.index("--starts") + 1]))
    if "--no-check" not in sys.argv:
        cross_check()


def climb(own, mates, steps, export=None):
    """Hill-climbing over one `lead` per neighbour warp (1-4 of them moved by one per
    step, a run kept when no shorter), one-warp groups, seed 1; `export` writes the
    best run's neighbour code, one line per slot 1-56."""
    import random

    rng, free = random.Random(1), list(range(1, 57))
    chosen = [[s] for s in free]
    leads = {s: 1 for s in free}
    best = simulate(own, [[0] + mates], chosen, burst(leads))
    for _ in range(steps):
        trial = dict(leads)
        for _ in range(rng.randint(1, 4)):
            s = rng.choice(free)
            trial[s] = max(0, min(6, trial[s] + rng.choice([-1, 1])))
        found = simulate(own, [[0] + mates], chosen, burst(trial))
        if found >= best:
            best, leads = found, trial
    print(f"  one lead per warp, {steps} climbing steps: {best}")
    if export:
        kept = {}
        simulate(own, [[0] + mates], chosen, burst(leads), keep=kept)
        with open(export, "a") as f:
            f.writelines("".join(kept[s]) + "\n" for s in free)


def climb_groups(own, mates, n, steps, seed):
    """Hill-climbing over the leads and the rotation starts, groups of `n` warps sharing
    one code (each instruction chosen by the lead of the group's first warp to reach
    it): 1-3 moves per step, each a new random pair of starts (15 %) or a group's or one
    warp's lead moved by one (0-8); a run kept when no shorter."""
    import random

    rng = random.Random(seed)
    groups = [list(range(1 + i, 1 + i + n)) for i in range(0, 56, n)]
    leads, start = {s: 1 for s in range(1, 57)}, (0, 0)
    best = simulate(own, [[0] + mates], groups, burst(leads), start)
    for _ in range(steps):
        trial, trial_start = dict(leads), start
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.15:
                trial_start = (rng.randrange(SLOTS), rng.randrange(SLOTS))
            else:
                g = rng.choice(groups)
                lead = max(0, min(8, trial[g[0]] + rng.choice([-1, 1])))
                for s in g if rng.random() < 0.5 else [rng.choice(g)]:
                    trial[s] = lead
        found = simulate(own, [[0] + mates], groups, burst(trial), trial_start)
        if found >= best:
            best, leads, start = found, trial, trial_start
    print(f"  groups of {n}, leads and starts, {steps} climbing steps, seed {seed}: {best} (starts {start})")


def random_starts(own, mates, runs):
    """The lead-1 rows of 1- and 2-warp blocks with `runs` random rotation starts."""
    import random

    rng = random.Random(7)
    for n in (1, 2):
        chosen = [list(range(1 + i, 1 + i + n)) for i in range(0, 56, n)]
        starts = [(rng.randrange(SLOTS), rng.randrange(SLOTS)) for _ in range(runs)]
        found = [simulate(own, [[0] + mates], chosen, burst(1), start) for start in starts]
        print(f"  n = {n}, lead 1, {runs} random starts: {min(found)}-{max(found)}")


if __name__ == "__main__":
    main()
