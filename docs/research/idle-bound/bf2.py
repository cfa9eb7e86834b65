"""Harder brute force: longer programs, more warps, biased to long C runs; per-instance time guard."""
import random, sys, time, json, signal
from model import exact_worst, block_horizon
from bound import candidate

class TO(Exception): pass
def handler(s, f): raise TO()
signal.signal(signal.SIGALRM, handler)

def rand_instance(rng, maxlen, maxN):
    n = rng.randint(2, maxlen)
    pC = rng.choice([0.5, 0.7, 0.8])
    s = [('C' if rng.random() < pC else 'L') for _ in range(n)]
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        s.insert(rng.randint(1, len(s)), '|')
    prog = ''.join(s)
    while True:
        B, W = rng.randint(1, 4), rng.randint(1, 6)
        if B * W <= maxN: break
    return prog, B, W, rng.randint(1, 2), rng.randint(1, 4)

if __name__ == "__main__":
    seed, count, maxlen, maxN = map(int, sys.argv[1:5])
    rng = random.Random(seed)
    seen = set(); results = []; fails = {0: [], 1: [], 2: []}; skipped = 0
    t0 = time.time()
    while len(results) < count and time.time() - t0 < 500:
        inst = rng and rand_instance(rng, maxlen, maxN)
        if inst in seen: continue
        seen.add(inst)
        prog, B, W, sL, sC = inst
        signal.alarm(5)
        try:
            T = exact_worst(prog, B, W, sL, sC)
        except TO:
            skipped += 1; continue
        finally:
            signal.alarm(0)
        row = dict(prog=prog, B=B, W=W, sL=sL, sC=sC, T=T, BH=block_horizon(prog, B, W, sL, sC))
        for k in (0, 1, 2):
            v, _ = candidate(prog, B, W, sL, sC, nwin_extra=k)
            row[f'c{k}'] = v
            if v < T: fails[k].append(row)
        assert row['BH'] >= T, row
        results.append(row)
    print("checked", len(results), "skipped", skipped, "time", round(time.time()-t0, 1))
    for k in fails: print("extra windows", k, "failures", len(fails[k]), fails[k][:4])
    json.dump(results, open(f"bf2_{seed}.json", "w"))
