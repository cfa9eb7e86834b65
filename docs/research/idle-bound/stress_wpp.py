"""Stress: larger N for random programs biased to long C runs / heavy L's; checks WPP >= exact."""
import random, sys, time, signal
from model import exact_worst
from wpp import wpp_bound
class TO(Exception): pass
def handler(s,f): raise TO()
signal.signal(signal.SIGALRM, handler)
rng = random.Random(int(sys.argv[1])); tmax = int(sys.argv[2])
t0 = time.time(); n = 0; fails = 0; margins = []
while time.time() - t0 < tmax:
    L = rng.randint(3, 8); pC = rng.choice([0.6, 0.75, 0.85])
    s = [('C' if rng.random() < pC else 'L') for _ in range(L)]
    for _ in range(rng.choice([0, 1, 1, 2])): s.insert(rng.randint(1, len(s)), '|')
    prog = ''.join(s); sL = rng.choice([1, 1, 2]); sC = rng.randint(1, 4); B = rng.choice([1, 1, 2, 3])
    for W in range(2, {1: 11, 2: 6, 3: 4}[B]):
        signal.alarm(10)
        try: T = exact_worst(prog, B, W, sL, sC)
        except TO: signal.alarm(0); break
        signal.alarm(0)
        wb = wpp_bound(prog, B, W, sL, sC, time_limit=30)
        n += 1; margins.append((wb - T, prog, B, W, sL, sC, T, wb))
        if wb < T: fails += 1; print("FAIL", prog, B, W, sL, sC, T, wb, flush=True)
margins.sort()
print("checked", n, "fails", fails)
for m in margins[:8]: print(m)
