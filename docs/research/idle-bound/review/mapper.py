"""Independent simulator + mapping of a real schedule onto the WPP's variables (as the proof claims)."""
import numpy as np, random
from model import parse
from prog import Prog
from wppm import wpp_bound

class Inst:
    def __init__(s, prog, B, W, sL, sC):
        s.prog, s.B, s.W, s.sL, s.sC = prog, B, W, sL, sC
        s.P = Prog(prog, sL, sC, W); s.ins, s.ends = s.P.ins, s.P.ends; s.I = s.P.I; s.N = B * W
        s.lam = s.P.Lpos; s.m = len(s.lam)
    def stage(s, p):  # number of L positions < p
        return sum(1 for x in s.lam if x < p)
    def status(s, pos):
        out = []
        for bi in range(s.B):
            blk = pos[bi * s.W:(bi + 1) * s.W]; mn = min(blk)
            for p in blk:
                if p >= s.I: out.append('F')
                elif p in s.ends and mn < p: out.append('P')
                else: out.append(s.ins[p])
        return out

def simulate(inst, chooser):
    """chooser(t, pos, st, readyL, readyC, nL, nC) -> (Lset, Cset). Returns list of per-cycle records."""
    N = inst.N; pos = [0] * N; recs = []; t = 0
    while not all(p >= inst.I for p in pos):
        t += 1
        st = inst.status(pos)
        rL = [w for w in range(N) if st[w] == 'L']; rC = [w for w in range(N) if st[w] == 'C']
        nL = min(inst.sL, len(rL)); nC = min(inst.sC, len(rC))
        Ls, Cs = chooser(t, pos, st, rL, rC, nL, nC)
        assert len(Ls) == nL and len(Cs) == nC and set(Ls) <= set(rL) and set(Cs) <= set(rC)
        recs.append(dict(pos=list(pos), st=st, rL=rL, rC=rC, Ls=list(Ls), Cs=list(Cs), nL=nL,
                         Lsat=len(rL) >= inst.sL, Csat=len(rC) >= inst.sC))
        for w in list(Ls) + list(Cs): pos[w] += 1
    recs.append(dict(pos=list(pos), st=inst.status(pos)))
    return recs   # recs[t-1] = state at start of cycle t ; recs[T] = final

def release_cycles(inst, recs):
    """list per cycle index i (0-based cycle) of (block, q) releases happening in that cycle"""
    out = []
    for i in range(len(recs) - 1):
        a, b = recs[i]['pos'], recs[i + 1]['pos']; rel = []
        for bi in range(inst.B):
            ma = min(a[bi*inst.W:(bi+1)*inst.W]); mb = min(b[bi*inst.W:(bi+1)*inst.W])
            if mb in inst.ends and ma < mb: rel.append((bi, mb))
        out.append(rel)
    return out

def run_start(inst, p):
    """start of the C run containing C position p (within phase): walk back while C and not crossing a barrier"""
    q = p
    while q > 0 and inst.ins[q - 1] == 'C' and q not in inst.ends: q -= 1
    return q

def is_stock(inst, p):
    """units of a C-ready warp at p are stock units (run began right after an L in the same phase, or at 0
    without barrier) rather than release units (run began at a barrier)"""
    q = run_start(inst, p)
    return not (q in inst.ends)

def analyse(inst, recs):
    T = len(recs) - 1; sL, sC = inst.sL, inst.sC
    Ut = sum((sL - r['nL']) / sL for r in recs[:T] if not r['Lsat'])
    runs = []; i = 0
    while i < T:
        if not recs[i]['Csat']: i += 1; continue
        a = i
        while i < T and recs[i]['Csat']: i += 1
        runs.append((a, i - 1))
    wins = []
    for (a, b) in runs:
        xs = [u for u in range(a, b + 1) if not recs[u]['Lsat']]
        init = (a == 0)
        if not xs and not init: continue
        nxt = b + 1
        tau = 1 if (nxt < T and not recs[nxt]['Lsat']) else 0   # next cycle is Y (C-unsat by maximality)
        if xs:
            e = b if tau else max(xs)
        else:
            e = None
        full = all(len(recs[u]['Cs']) == len(recs[u]['rC']) and len(recs[u]['Ls']) == len(recs[u]['rL']) for u in xs)
        UX = sum((sL - recs[u]['nL']) / sL for u in xs)
        wins.append(dict(p=a, e=e, run=(a, b), tau=tau, full=full, UX=UX, nX=len(xs), init=init and xs != []))
    Ycyc = [u for u in range(T) if not recs[u]['Csat'] and not recs[u]['Lsat']]
    return Ut, wins, Ycyc

def map_point(inst, recs, model=None, drop=frozenset(), drop_init=False):
    if model is None: model = wpp_bound(inst.prog, inst.B, inst.W, inst.sL, inst.sC, model_only=True)
    idx = model['idx']; K = model['K']; m = inst.m; N = inst.N; sC = inst.sC; sL = inst.sL
    x = np.zeros(len(idx)); notes = []
    def setv(name, val):
        if name not in idx:
            if abs(val) > 1e-12: notes.append(('missing-var', name, val))
            return
        x[idx[name]] += val
    Ut, wins, Ycyc = analyse(inst, recs)
    rels = release_cycles(inst, recs)
    e0 = inst.P.e
    # window 0
    init_exists = model['init_exists']
    w_init = [w for w in wins if w['p'] == 0]
    big_all = [w for w in wins if w['p'] != 0 and not w['full']]
    big = [w for i, w in enumerate(big_all) if i not in drop]
    small = [w for w in wins if w['p'] != 0 and w['full']]
    events = len(Ycyc) + sum(w['nX'] for w in small) + sum(1 for w in big if w['tau'] == 0)
    if init_exists:
        w = w_init[0] if w_init else None
        if w is not None and w['init'] and drop_init:
            if w['tau'] == 0: events += 1
            setv(('u', 0), N)
        elif w is not None and w['init']:
            e = w['e']; fin = recs[e + 1]
            setv(('X', 0), w['UX']); setv(('w', 0), 1); setv(('tau', 0), w['tau'])
            if w['tau'] == 0: events += 1
            for wi in range(N):
                setv(('u', inst.stage(fin['pos'][wi])), 1)
            pi0 = 0
            for wi in range(N):
                p1 = fin['pos'][wi]
                rem = e0[p1] if (fin['st'][wi] == 'C' and inst.stage(p1) == 0 and is_stock(inst, p1)) else 0
                pi0 += e0[0] - rem
            setv(('pi0',), pi0)
            for wi in range(N):
                p1 = fin['pos'][wi]; j = inst.stage(p1)
                if j >= 1 and fin['st'][wi] == 'C' and is_stock(inst, p1): setv(('cy0', j), e0[p1])
        else:
            setv(('u', 0), N)
    else:
        setv(('u', 0), N)
        if w_init:   # a run at cycle 0 with L-unsat when init_exists false: impossible?
            notes.append(('init-run-without-slot', w_init[0]))
    if len(big) > K - 1: notes.append(('too-many-big', len(big), K - 1))
    bar = model['bar']; relL = model['relL']
    for k, w in enumerate(big[:K - 1], start=1):
        p, e = w['p'], w['e']; S0 = recs[p]; S1 = recs[e + 1]
        setv(('X', k), w['UX']); setv(('w', k), 1); setv(('y', k), 1); setv(('tau', k), w['tau'])
        # releases inside window
        rset = set()
        rel_in = {}   # block -> (cycle, q)
        for u in range(p, e + 1):
            for (bi, qq) in rels[u]: rel_in.setdefault(bi, []).append((u, qq))
        rho = 0
        if p >= 1:
            for (bi, qq) in rels[p - 1]:
                if qq < inst.I and inst.ins[qq] == 'C': rho += inst.W
        setv(('rho', k), rho)
        for wi in range(N):
            pp = S0['pos'][wi]; s = S0['st'][wi]; j = inst.stage(pp); j2 = inst.stage(S1['pos'][wi])
            if s == 'F': setv(('f', k), 1)
            elif s == 'C':
                setv(('s', k, j), 1); setv(('sx', k, j, j2), 1)
                if is_stock(inst, pp):
                    setv(('st', k, j), e0[pp])
                    p1 = S1['pos'][wi]
                    same = (S1['st'][wi] == 'C' and inst.stage(p1) == j and is_stock(inst, p1) and run_start(inst, p1) == run_start(inst, pp))
                    setv(('pi', k, j), e0[pp] - (e0[p1] if same else 0))
            elif s == 'L':
                setv(('q', k, j), 1)
                if j2 <= j: notes.append(('Q-warp-did-not-move', k, wi))
                setv(('x', k, j, j2), 1)
            elif s == 'P':
                setv(('z', k, j), 1)
                if j not in bar: notes.append(('parked-stage-not-in-bar', k, j))
                bi = wi // inst.W
                rl = [qq for (u, qq) in rel_in.get(bi, []) if qq == pp]
                if rl and inst.ins[pp] == 'L' and j2 > j:
                    setv(('r', k, j, j2), 1); rset.add(wi)
        # carry: new stock units alive at e+1 held by warps that were S/Q/r-moved
        for wi in range(N):
            pp = S0['pos'][wi]; s = S0['st'][wi]; j = inst.stage(pp)
            p1 = S1['pos'][wi]; j2 = inst.stage(p1)
            if j2 > j and S1['st'][wi] == 'C' and is_stock(inst, p1):
                moved = s in 'CL' or wi in rset
                if moved: setv(('cy', k, j2), e0[p1])
    for k in range(len(big) + 1, K):
        setv(('f', k), N)
    info = dict(Ut=Ut, wins=wins, Y=len(Ycyc), events=events, big=len(big), small=len(small), big_all=big_all, rels=rels)
    # real contribution of the big windows (incl. init): sum (UX - 1 + tau)
    realc = sum(w['UX'] - 1 + w['tau'] for w in big_all)
    if init_exists and w_init and w_init[0]['init']:
        realc += w_init[0]['UX'] - 1 + w_init[0]['tau']
    info['realc'] = realc
    return x, notes, info

def fit_X(model, x, sC):
    """set each X_k to min(real, max allowed by its value row); return list of slots whose allowed X < 0"""
    idx = model['idx']; A = model['A']; hi = model['hi']; labels = model['labels']; neg = []
    for i, lab in enumerate(labels):
        if lab not in ('value', 'w0-value'): continue
        row = A[i]
        # which X is in this row
        ks = [nm for nm, j in idx.items() if nm[0] == 'X' and row[j] != 0]
        if len(ks) != 1: continue
        j = idx[ks[0]]; real = x[j]; x[j] = 0
        rest = row @ x; allowed = (hi[i] - rest) / row[j]
        if allowed < -1e-9: neg.append(ks[0][1])
        x[j] = max(0.0, min(real, allowed))
    return neg

def full_check(inst, recs, model):
    drop = set(); drop_init = False
    for _ in range(50):
        x, notes, info = map_point(inst, recs, model, frozenset(drop), drop_init)
        neg = fit_X(model, x, inst.sC)
        if not neg: break
        kept = [i for i in range(len(info['big_all'])) if i not in drop]
        for k in neg:
            if k == 0: drop_init = True
            else:
                if k - 1 >= len(kept): raise RuntimeError(('neg-allowed-in-filler-slot', k, len(kept)))
                drop.add(kept[k - 1])
    obj = sum(x[model['idx'][('X', k)]] - x[model['idx'][('w', k)]] + x[model['idx'][('tau', k)]] for k in range(model['K']))
    bad = check_point(model, x)
    T = len(recs) - 1
    lhs = info['Ut']; rhs = info['events'] + obj + model['glob'] / inst.sC
    ok_chain = lhs <= rhs + 1e-7
    realpart = info['realc']
    return dict(x=x, notes=notes, info=info, bad=bad, obj=obj, ok_chain=ok_chain, lhs=lhs, rhs=rhs, T=T,
                deficit=realpart - obj, glob=model['glob'] / inst.sC, events=info['events'], dropped=len(drop) + int(drop_init))

def check_point(model, x, tol=1e-6):
    A, lo, hi = model['A'], model['lo'], model['hi']
    v = A @ x; bad = []
    for i in range(len(v)):
        if v[i] < lo[i] - tol or v[i] > hi[i] + tol: bad.append((model['labels'][i], v[i], lo[i], hi[i]))
    for nm, i in model['idx'].items():
        if x[i] < model['lb'][i] - tol or x[i] > model['ub'][i] + tol: bad.append(('bound', nm, x[i], model['lb'][i], model['ub'][i]))
    return bad
