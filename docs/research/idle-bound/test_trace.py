import random
from prog import Prog
from trace import run_schedule, check
def rand_chooser(rng):
    def ch(pos, rL, rC, mL, mC):
        return rng.sample(rL, mL), rng.sample(rC, mC)
    return ch
rng = random.Random(1)
for it in range(200):
    prog = ''.join(rng.choice('LC') for _ in range(rng.randint(1, 8)))
    # insert barriers
    k = rng.randint(0, 2); s = list(prog)
    for _ in range(k): s.insert(rng.randint(1, len(s)), '|')
    prog = ''.join(s)
    B, W = rng.randint(1, 3), rng.randint(1, 4); sL, sC = rng.randint(1, 3), rng.randint(1, 3)
    P = Prog(prog, sL, sC, W)
    if P.I == 0: continue
    recs = run_schedule(P, B, W, rand_chooser(rng))
    Ut, res = check(P, recs, B*W)
    for r in res:
        if abs(r[3]) > 1e-9: print(prog, B, W, sL, sC, r)
print("done")
