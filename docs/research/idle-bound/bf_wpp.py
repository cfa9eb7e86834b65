"""Brute-force soundness check of the WPP bound (and the DP bound) on tiny random instances."""
import random, sys, time, json, signal
from model import exact_worst, block_horizon
from wpp import wpp_bound
from bound import proven_bound
class TO(Exception): pass
def handler(s, f): raise TO()
signal.signal(signal.SIGALRM, handler)
def rand_instance(rng, maxlen, maxN):
    n = rng.randint(1, maxlen)
    pC = rng.choice([0.5, 0.65, 0.8])
    s = [('C' if rng.random() < pC else 'L') for _ in range(n)]
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        s.insert(rng.randint(1, len(s)), '|')
    while True:
        B, W = rng.randint(1, 4), rng.randint(1, 6)
        if B * W <= maxN: break
    return ''.join(s), B, W, rng.randint(1, 3), rng.randint(1, 4)
if __name__ == "__main__":
    seed, count, maxlen, maxN, tmax = map(int, sys.argv[1:6])
    rng = random.Random(seed); seen = set(); rows = []; fails = []; t0 = time.time(); skipped = 0
    while len(rows) < count and time.time() - t0 < tmax:
        inst = rand_instance(rng, maxlen, maxN)
        if inst in seen: continue
        seen.add(inst); prog, B, W, sL, sC = inst
        signal.alarm(6)
        try: T = exact_worst(prog, B, W, sL, sC)
        except TO: skipped += 1; continue
        finally: signal.alarm(0)
        try:
            wb = wpp_bound(prog, B, W, sL, sC, time_limit=20)
        except Exception as ex:
            print("SOLVER-ERR", inst, ex, flush=True); errs = globals().setdefault('ERRS', []); errs.append(inst); continue
        db = proven_bound(prog, B, W, sL, sC)
        bh = block_horizon(prog, B, W, sL, sC)
        row = dict(prog=prog, B=B, W=W, sL=sL, sC=sC, T=T, wpp=wb, dp=db, bh=bh)
        rows.append(row)
        if wb < T or db < T: fails.append(row); print("FAIL", row, flush=True)
    print("checked", len(rows), "skipped", skipped, "fails", len(fails), "time", round(time.time() - t0))
    import statistics
    print("mean T/wpp", round(statistics.mean(r['T'] / r['wpp'] for r in rows), 3),
          "mean T/bh", round(statistics.mean(r['T'] / r['bh'] for r in rows), 3),
          "wpp<bh", sum(r['wpp'] < r['bh'] for r in rows), "wpp tight", sum(r['wpp'] == r['T'] for r in rows))
    json.dump(rows, open(f"bfwpp_{seed}.json", "w"))
