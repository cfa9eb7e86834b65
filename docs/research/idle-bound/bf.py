"""Brute force: exact worst-case makespan on tiny random instances vs candidate bounds."""
import random, sys, time, json
from model import exact_worst, block_horizon
from bound import candidate

def rand_instance(rng):
    n = rng.randint(1, 6)
    s = [rng.choice('LC') for _ in range(n)]
    for _ in range(rng.randint(0, 2)):
        s.insert(rng.randint(1, len(s)), '|')
    prog = ''.join(s)
    while True:
        B, W = rng.randint(1, 3), rng.randint(1, 6)
        if B * W <= 6: break
    return prog, B, W, rng.randint(1, 3), rng.randint(1, 3)

if __name__ == "__main__":
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    seen = set(); results = []
    fails = {0: [], 1: [], 2: []}
    t0 = time.time()
    while len(results) < count:
        inst = rand_instance(rng)
        if inst in seen: continue
        seen.add(inst)
        prog, B, W, sL, sC = inst
        T = exact_worst(prog, B, W, sL, sC)
        row = dict(prog=prog, B=B, W=W, sL=sL, sC=sC, T=T, BH=block_horizon(prog, B, W, sL, sC))
        for k in (0, 1, 2):
            v, _ = candidate(prog, B, W, sL, sC, nwin_extra=k)
            row[f'c{k}'] = v
            if v < T: fails[k].append(row)
        assert row['BH'] >= T, row
        results.append(row)
    print("checked", len(results), "time", round(time.time()-t0, 1))
    for k in fails: print("candidate extra windows", k, "failures", len(fails[k]), fails[k][:5])
    json.dump(results, open(f"bf_{seed}.json", "w"))
