"""Exact max over all work-conserving schedules of realc = sum over counted windows of (U~_X - 1 + tau)
(counted = initial window if it has an X cycle, later windows if some X cycle is not fully issuing),
and of U~ - events. Compared with the WPP's OPT + glob/sC."""
import functools, sys
from model import parse, successors, canon, ready_info
sys.setrecursionlimit(1000000)

def dp(prog, B, W, sL, sC):
    ins, ends = parse(prog); I = len(ins)
    @functools.lru_cache(maxsize=None)
    def props(state):
        nL = nC = 0
        for b in state:
            for u in ready_info(ins, ends, b):
                if u == 'L': nL += 1
                elif u == 'C': nC += 1
        return nL, nC
    def close(mode, tau):
        if mode is None: return 0.0
        nonfull, hasX, acc, init = mode
        if hasX and (nonfull or init): return acc / sL - 1 + tau
        return 0.0
    @functools.lru_cache(maxsize=None)
    def f(state, mode):
        if all(p >= I for b in state for p in b): return close(mode, 0)
        nL, nC = props(state)
        Csat = nC >= sC; Lsat = nL >= sL
        if Csat:
            if mode is None: mode = (False, False, 0, False)
            nonfull, hasX, acc, init = mode
            if not Lsat: mode = (nonfull or nC > sC, True, acc + sL - min(sL, nL), init)
            return max(f(s, mode) for s in successors(ins, ends, state, sL, sC))
        r = close(mode, 0 if Lsat else 1)
        return r + max(f(s, None) for s in successors(ins, ends, state, sL, sC))
    s0 = canon([tuple([0] * W) for _ in range(B)])
    nL, nC = props(s0)
    mode0 = (False, False, 0, True) if nC >= sC else None
    v = f(s0, mode0); f.cache_clear(); props.cache_clear()
    return v

if __name__ == "__main__":
    from wpp import wpp_bound
    prog, B, W, sL, sC = sys.argv[1], *map(int, sys.argv[2:6])
    v = dp(prog, B, W, sL, sC)
    T, d = wpp_bound(prog, B, W, sL, sC, verbose=True)
    print(prog, B, W, sL, sC, 'max realc', v, 'OPT', d['ub'], 'glob/sC', d['glob'], 'ok' if v <= d['ub'] + d['glob'] + 1e-7 else 'VIOLATION')
