"""Per-cycle bookkeeping of Pi = E - Q along a schedule, window decomposition, identity checks."""
from prog import Prog

def status(P, pos):
    """per warp status: ('F',) finished, ('P',) parked, ('L',p) L-ready, ('C',p) C-ready"""
    I, ins, ends = P.I, P.ins, P.ends
    st = []
    for b in pos:
        mn = min(b); row = []
        for p in b:
            if p >= I: row.append('F')
            elif p in ends and mn < p: row.append('P')
            else: row.append(ins[p])
        st.append(row)
    return st

def measure(P, pos):
    st = status(P, pos)
    E = 0; Q = 0
    for b, row in zip(pos, st):
        for p, s in zip(b, row):
            if s == 'C': E += P.e[p]
            elif s == 'L': Q += 1
    return E, Q

def run_schedule(P, B, W, chooser):
    """chooser(pos, readyL, readyC, mL, mC) -> (listL, listC) of (b,w); returns records"""
    I = P.I
    pos = [[0]*W for _ in range(B)]
    recs = []
    while not all(p >= I for b in pos for p in b):
        st = status(P, pos)
        rL = [(bi, wi) for bi in range(B) for wi in range(W) if st[bi][wi] == 'L']
        rC = [(bi, wi) for bi in range(B) for wi in range(W) if st[bi][wi] == 'C']
        mL = min(P.sL, len(rL)); mC = min(P.sC, len(rC))
        cL, cC = chooser(pos, rL, rC, mL, mC)
        assert len(cL) == mL and len(cC) == mC
        E, Q = measure(P, pos)
        Lissue_pos = [pos[b][w] for b, w in cL]
        # releases: block whose min position moves onto a barrier position q after this cycle
        newpos = [list(b) for b in pos]
        for b, w in cL + cC: newpos[b][w] += 1
        R = 0
        for bi in range(B):
            q = min(newpos[bi])
            if q in P.ends and min(pos[bi]) < q:
                R += (-W if P.ins[q] == 'L' else W * P.e[q])
        recs.append(dict(E=E, Q=Q, Lsat=(len(rL) >= P.sL), Csat=(len(rC) >= P.sC),
                         nL=mL, nC=mC, Lpos=Lissue_pos, R=R, minpos=min(p for b in pos for p in b if p < I)))
        for b, w in cL + cC: pos[b][w] += 1
    E, Q = measure(P, pos)
    recs.append(dict(E=E, Q=Q))
    return recs

def windows(P, recs):
    """maximal C-sat stretches containing >=1 L-unsat cycle: returns list of (p, t_s) (0-based cycle idx)"""
    T = len(recs) - 1
    out = []; t = 0
    while t < T:
        if not recs[t]['Csat']: t += 1; continue
        p = t
        while t < T and recs[t]['Csat']: t += 1
        q = t - 1
        xs = [u for u in range(p, q+1) if not recs[u]['Lsat']]
        if xs: out.append((p, max(xs)))
    return out

def check(P, recs, N):
    """verify: T = N IL/sL + Utilde ; per-window identity sigma_C*UX = Pi(p)-Pi(t+1)+sum h + R"""
    T = len(recs) - 1
    Ut = sum((P.sL - r['nL']) / P.sL for r in recs[:-1] if not r['Lsat'])
    assert abs(T - (N * P.IL / P.sL + Ut)) < 1e-9, (T, N*P.IL/P.sL, Ut)
    Pi = [r['E'] - r['Q'] for r in recs]
    res = []
    for (p, ts) in windows(P, recs):
        UX = sum((P.sL - recs[u]['nL']) / P.sL for u in range(p, ts+1) if not recs[u]['Lsat'])
        H = sum(P.h[x] for u in range(p, ts+1) for x in recs[u]['Lpos'])
        # release term R is implicit: compute residual
        Rw = sum(recs[u]['R'] for u in range(p, ts+1))
        resid = P.sC * UX - (Pi[p] - Pi[ts+1] + H + Rw)
        res.append((p, ts, UX, resid, recs[p]['E'], recs[p]['Q'], recs[ts+1]['Q']))
    return Ut, res
