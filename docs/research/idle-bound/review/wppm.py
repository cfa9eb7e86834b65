"""Window-profile program (WPP): a small MILP whose optimum bounds the fractional L-idle time
Utilde_X summed over profitable windows.  Sound by the window lemma (see report).
T <= floor(N*IL/sL + OPT + Ybound + global_release_terms)."""
import math, itertools
import numpy as np
from scipy.optimize import milp, LinearConstraint, Bounds
from prog import Prog
from bound import quantities

def wpp_bound(prog, B, W, sL, sC, K=None, verbose=False, time_limit=120, model_only=False, FIXPARK=False):
    P = Prog(prog, sL, sC, W); q = quantities(prog, B, W, sL, sC)
    N = B * W; I, ins, ends = P.I, P.ins, P.ends
    lam = P.Lpos; m = len(lam)
    h = q['h']; KS = q['KS']
    slack = sC + sL - 1
    Ybound = len(P.Cpos) if sL == 1 else I
    if K is None: K = (len(P.Cpos) if sL == 1 else I) + 1
    # stage j = served exactly j L's (0..m). segment of stage j: positions (lam[j-1], lam[j]) (lam[-1]=-1, lam[m]=I)
    def stage_range(j):
        lo = lam[j-1] + 1 if j >= 1 else 0
        hi = lam[j] if j < m else I
        return lo, hi
    # barrier in stage j: beta with lo <= beta <= hi, beta in ends (beta = lo means right after L_j... a barrier
    # position equal to lam[j-1]+1 means the L_j ended a phase: warp parks right after issuing L_j)
    bar = {}
    for j in range(m + 1):
        lo, hi = stage_range(j)
        bs = [b for b in ends if lo <= b <= hi and b < I]
        if bs: bar[j] = bs
    # phase id of a position
    def phase(p): return sum(1 for b in ends if b <= p)
    # next L index (1-based L number) after position p
    def nextLidx(p):
        for jj, pp in enumerate(lam):
            if pp >= p: return jj      # 0-based index into h/KS
        return None
    # pipeline values per stage
    v = [0.0] * (m + 1)
    for j in range(m + 1):
        lo, hi = stage_range(j); best = 0.0
        for x in range(lo, hi):
            if ins[x] == 'C' and P.e[x] >= 1:
                jj = nextLidx(x + 1)
                best = max(best, P.e[x] - 1 + (KS[jj] if jj is not None else 0.0))
        if j >= 1:
            y = lam[j-1]; qq = y + 1
            if qq < I and qq not in ends and ins[qq] == 'C':
                jj = nextLidx(qq)
                best = max(best, P.e[qq] + (KS[jj] if jj is not None else 0.0))
        v[j] = best
    # stock parameters: emax_j = max remaining units of an S-warp in stage j; emass_j = units a warp gets on entering
    emax = [0.0] * (m + 1); emass = [0.0] * (m + 1); KSst = [0.0] * (m + 1)
    for j in range(m + 1):
        lo, hi = stage_range(j)
        emax[j] = max([P.e[x] for x in range(lo, hi) if ins[x] == 'C'] + [0])
        first = lo
        if j == 0:
            emass[j] = P.e[0] if ins[0] == 'C' else 0
        elif first < I and first not in ends and ins[first] == 'C':
            emass[j] = P.e[first]
        KSst[j] = KS[j] if j < m else 0.0
    # C-start phases (release into C): global terms
    Cstart = [b for b in ends if b < I and ins[b] == 'C']
    glob = 0.0
    for b in Cstart:
        jj = nextLidx(b)
        glob += N * (P.e[b] + (KS[jj] if jj is not None else 0.0))
    rho_allowed = len(Cstart) > 0
    # release into L possible for barrier in stage j if the phase after the barrier starts with L = L_{j+1}
    relL = {j: any(ins[b] == 'L' for b in bs) for j, bs in bar.items()}
    # ---- variables ----
    idx = {}; lb = []; ub = []; integ = []
    def var(name, lo=0, hi=np.inf, integer=1):
        idx[name] = len(lb); lb.append(lo); ub.append(hi); integ.append(integer)
    hsum = lambda a, b: sum(h[a:b])     # h of L_{a+1}..L_b  (0-based slice)
    for j in range(m + 1): var(('u', j), 0, N)
    var(('X', 0), 0, np.inf, 0); var(('pi0',), 0, np.inf, 0); var(('tau', 0), 0, 1); var(('w', 0), 0, 1)
    for j in range(m + 1): var(('cy0', j), 0, np.inf, 0)
    for k in range(1, K):
        for j in range(m + 1): var(('s', k, j), 0, N)
        for j in range(m): var(('q', k, j), 0, N)
        for j in bar: var(('z', k, j), 0, N)
        var(('f', k), 0, N)
        for j in range(m + 1):
            for j2 in range(j, m + 1):
                var(('sx', k, j, j2), 0, N)
        for j in range(m):
            for j2 in range(j + 1, m + 1):
                var(('x', k, j, j2), 0, N)
                if j in bar and relL.get(j): var(('r', k, j, j2), 0, N)
        if rho_allowed: var(('rho', k), 0, N)
        for j in range(m + 1):
            var(('st', k, j), 0, np.inf, 0); var(('pi', k, j), 0, np.inf, 0); var(('cy', k, j), 0, np.inf, 0)
        var(('X', k), 0, np.inf, 0); var(('y', k), 0, 1); var(('w', k), 0, 1); var(('tau', k), 0, 1)
    nv = len(lb)
    rows = []; rlo = []; rhi = []; labels = []
    LBL=['?']
    def add(coefs, lo, hi):
        labels.append(LBL[0])
        row = np.zeros(nv)
        for name, c in coefs: row[idx[name]] += c
        rows.append(row); rlo.append(lo); rhi.append(hi)
    # window 0
    LBL[0]='w0-pop'
    add([(('u', j), 1) for j in range(m + 1)], N, N)
    init_exists = (ins[0] == 'C' and N >= sC)
    if init_exists:
        LBL[0]='w0-value'
        # sC*X0 <= N e0 + sum_j u_j * hsum(0,j) + slack
        add([(('X', 0), sC), (('pi0',), -1), (('tau', 0), sC)] + [(('u', j), -hsum(0, j)) for j in range(m + 1)]
            + [(('cy0', j), 1) for j in range(m + 1)], -np.inf, slack)
        add([(('tau', 0), 1), (('w', 0), -1)], -np.inf, 0)
        MX0 = (N * P.e[0] + N * max(0, max([hsum(0, j) for j in range(m + 1)])) + slack) / sC + 1
        add([(('X', 0), 1), (('w', 0), -MX0)], -np.inf, 0)
        LBL[0]='w0-carry'
        for j in range(1, m + 1):   # carry of window-0 entrants into stage >= j
            add([(('cy0', j), 1)] + [(('u', j2), -emass[j]) for j2 in range(j, m + 1)], -np.inf, 0)
        add([(('cy0', 0), 1)], 0, 0)
        add([(('pi0',), 1)], 0, N * P.e[0])
    else:
        add([(('X', 0), 1)], 0, 0); add([(('u', 0), 1)], N, N); add([(('pi0',), 1)], 0, 0); add([(('tau', 0), 1)], 0, 0)
        add([(('w', 0), 1)], 0, 0)
        for j in range(m + 1): add([(('cy0', j), 1)], 0, 0)
    hs_all = [hsum(a, b) for a in range(m + 1) for b in range(a, m + 1)] or [0.0]
    Mbig = N * (max(emax + [0]) + max(abs(min(hs_all)), max(hs_all)) + 2) + slack + 1
    MX = (N * (max(emax + [0]) + max(0, max(hs_all))) + slack) / sC + 1
    def A(k, t):
        """list of coefs for # warps at stage >= t at p_k"""
        c = []
        for j in range(t, m + 1):
            c.append((('s', k, j), 1))
            if j < m: c.append((('q', k, j), 1))
            if j in bar: c.append((('z', k, j), 1))
        c.append((('f', k), 1))
        return c
    for k in range(1, K):
        # population
        LBL[0]='population'
        add(A(k, 0), N, N)
        # S cap
        LBL[0]='S-cap'
        cap = [(('s', k, j), 1) for j in range(m + 1)]
        if rho_allowed: cap.append((('rho', k), -1))
        add(cap, -np.inf, sC - 1 + sL)
        LBL[0]='sx-split'
        for j in range(m + 1):
            add([(('sx', k, j, j2), 1) for j2 in range(j, m + 1)] + [(('s', k, j), -1)], 0, 0)
        # split of Q-warps and released
        LBL[0]='x-split'
        for j in range(m):
            add([(('x', k, j, j2), 1) for j2 in range(j + 1, m + 1)] + [(('q', k, j), -1)], 0, 0)
        for j in bar:
            LBL[0]='r<=z'
            if relL.get(j) and j < m:
                add([(('r', k, j, j2), 1) for j2 in range(j + 1, m + 1)] + [(('z', k, j), -1)], -np.inf, 0)
            # parking needs pre-barrier active warps of the same phase
            LBL[0]='park-phase'
            pb = min(bar[j]); ph = phase(pb - 1) if pb >= 1 else 0
            act = [(('s', k, j), 1)]
            if FIXPARK:
                # union over the barriers of stage j of the stages holding active positions of the phase before it
                act = []; seen_ = set()
                for b_ in bar[j]:
                    b0_ = max([e_ for e_ in ends if e_ < b_] + [0])
                    for x_ in range(b0_, b_):
                        j3 = sum(1 for l_ in lam if l_ < x_)
                        if ins[x_] == 'C' and ('s', j3) not in seen_: seen_.add(('s', j3)); act.append((('s', k, j3), 1))
                        if ins[x_] == 'L' and ('q', j3) not in seen_: seen_.add(('q', j3)); act.append((('q', k, j3), 1))
            else:
              for j3 in range(j):
                lo3, hi3 = stage_range(j3)
                if phase(hi3) == ph and phase(lo3) == ph:
                    act.append((('s', k, j3), 1)); act.append((('q', k, j3), 1))
            add([(('z', k, j), 1)] + [(nm, -(W - 1) * c) for nm, c in act], -np.inf, 0)
            LBL[0]='park-WB'
            add([(('z', k, j), 1)], 0, (W - 1) * B)
        # progress from previous slot
        LBL[0]='progress'
        for t in range(1, m + 1):
            if k == 1:
                add(A(1, t) + [(('u', j), -1) for j in range(t, m + 1)], 0, np.inf)
            else:
                moved = []
                for j in range(0, t):
                    for j2 in range(t, m + 1):
                        moved.append((('x', k - 1, j, j2), -1))
                        moved.append((('sx', k - 1, j, j2), -1))
                        if ('r', k - 1, j, j2) in idx: moved.append((('r', k - 1, j, j2), -1))
                add(A(k, t) + [(nm, -c) for nm, c in A(k - 1, t)] + moved, 0, np.inf)
        LBL[0]='f-mono'
        if k >= 2: add([(('f', k), 1), (('f', k - 1), -1)], 0, np.inf)
        # stock dynamics
        for j in range(m + 1):
            LBL[0]='stock-cap'
            add([(('st', k, j), 1), (('s', k, j), -emax[j])], -np.inf, 0)
            add([(('pi', k, j), 1), (('st', k, j), -1)], -np.inf, 0)
            LBL[0]='stock-rec'
            if k == 1:
                if j == 0:
                    add([(('st', 1, 0), 1), (('pi0',), 1)], -np.inf, N * (P.e[0] if ins[0] == 'C' else 0))
                else:   # stock <= carried window-0 units + emass * gap entrants
                    add([(('st', 1, j), 1), (('cy0', j), -1)] + [(nm, -emass[j] * c) for nm, c in A(1, j)]
                        + [(('u', j2), emass[j]) for j2 in range(j, m + 1)], -np.inf, 0)
            else:
                # stock(k) <= stock(k-1) - pi(k-1) + carry(k-1) + emass * (gap entrants)
                coefs = [(('st', k, j), 1), (('st', k - 1, j), -1), (('pi', k - 1, j), 1), (('cy', k - 1, j), -1)]
                if j >= 1:
                    coefs += [(nm, -emass[j] * c) for nm, c in A(k, j)] + [(nm, emass[j] * c) for nm, c in A(k - 1, j)]
                    # minus window-(k-1) entrants (they are not gap entrants)
                    for j0 in range(0, j):
                        for j2 in range(j, m + 1):
                            for nm in (('x', k - 1, j0, j2), ('sx', k - 1, j0, j2), ('r', k - 1, j0, j2)):
                                if nm in idx: coefs.append((nm, emass[j]))
                add(coefs, -np.inf, 0)
            # carry out of window k limited by entrants during window k landing in stage >= j
            LBL[0]='carry'
            cc = [(('cy', k, j), 1)]
            for j0 in range(0, j):
                for j2 in range(j, m + 1):
                    for nm in (('x', k, j0, j2), ('sx', k, j0, j2), ('r', k, j0, j2)):
                        if nm in idx: cc.append((nm, -emass[j]))
            add(cc, -np.inf, 0)
        # window value
        LBL[0]='value'
        val = [(('X', k), sC)]
        for j in range(m + 1):
            val.append((('pi', k, j), -1)); val.append((('cy', k, j), 1))
            for j2 in range(j + 1, m + 1): val.append((('sx', k, j, j2), -hsum(j, j2)))
        for j in range(m):
            for j2 in range(j + 1, m + 1):
                c = -1 + hsum(j, j2)
                val.append((('x', k, j, j2), -c))
                if ('r', k, j, j2) in idx: val.append((('r', k, j, j2), -c))
        val.append((('y', k), Mbig)); val.append((('tau', k), sC))
        add(val, -np.inf, slack + Mbig)
        LBL[0]='tau<=w'
        add([(('tau', k), 1), (('w', k), -1)], -np.inf, 0)
        add([(('y', k), 1), (('w', k), -1)], 0, 0)
        if k >= 2: add([(('w', k - 1), 1), (('w', k), -1)], 0, np.inf)
        LBL[0]='X<=MX'
        add([(('X', k), 1), (('y', k), -MX)], -np.inf, 0)
        # small windows (<= sC active warps during the window) only have min-advancing X cycles, which are
        # already covered by the Y/min-position budget: count X_k only if the window is big.
        add([(('X', k), 1), (('w', k), -MX)], -np.inf, 0)
        LBL[0]='big-act'
        act = [(('s', k, j), 1) for j in range(m + 1)] + [(('q', k, j), 1) for j in range(m)]
        for nm in idx:
            if nm[0] == 'r' and nm[1] == k: act.append((nm, 1))
        if rho_allowed:
            for j in bar: act.append((('z', k, j), 1))
            act.append((('rho', k), 1))
        add(act + [(('w', k), -(sC + 1))], 0, np.inf)
    c = np.zeros(nv)
    for k in range(K): c[idx[('X', k)]] = -1
    for k in range(1, K):
        c[idx[('w', k)]] += 1; c[idx[('tau', k)]] -= 1
    c[idx[('tau', 0)]] -= 1; c[idx[('w', 0)]] += 1
    const0 = 0
    # stages without any C position cannot hold C-ready warps
    for k in range(1, K):
        for j in range(m + 1):
            lo_, hi_ = stage_range(j)
            if not any(ins[x] == 'C' for x in range(lo_, hi_)):
                ub[idx[('s', k, j)]] = 0
    if model_only: return dict(idx=idx, A=np.array(rows), lo=np.array(rlo,float), hi=np.array(rhi,float), lb=np.array(lb,float), ub=np.array(ub,float), integ=integ, c=c, labels=labels, Ybound=Ybound, glob=glob, K=K, N=N, IL=P.IL, bar=bar, relL=relL, emass=emass, emax=emax, m=m, rho_allowed=rho_allowed, init_exists=init_exists)
    cons = LinearConstraint(np.array(rows), rlo, rhi)
    res = milp(c, constraints=cons, integrality=np.array(integ),
               bounds=Bounds(lb, ub), options=dict(time_limit=time_limit, disp=False))
    if res.x is None:   # HiGHS presolve occasionally reports 'Solve error' on tiny models: retry without presolve
        res = milp(c, constraints=cons, integrality=np.array(integ),
                   bounds=Bounds(lb, ub), options=dict(time_limit=time_limit, disp=False, presolve=False))
    if res.x is None: raise RuntimeError(res.message)
    # use dual bound if not optimal (sound)
    opt = -res.fun + const0
    dual = getattr(res, 'mip_dual_bound', None)
    ub_val = (-dual + const0) if (dual is not None and res.status != 0) else opt
    U = ub_val + Ybound + glob / sC
    T = math.floor(N * P.IL / sL + U + 1e-7)
    if verbose:
        xs = {nm: res.x[i] for nm, i in idx.items() if abs(res.x[i]) > 1e-6}
        return T, dict(opt=opt, ub=ub_val, status=res.status, Y=Ybound, glob=glob / sC, sol=xs, v=v)
    return T

if __name__ == "__main__":
    import sys
    Pg = "CCCCCCLCCCLLCCLCCCCC|LCCL"
    for (B, W) in [(2, 4), (3, 4), (2, 8), (8, 8)]:
        T, d = wpp_bound(Pg, B, W, 1, 4, verbose=True)
        print(B, W, "WPP bound", T, "opt", round(d['opt'], 2), "ub", round(d['ub'], 2), "status", d['status'], "v", d['v'])
        if (B, W) == (8, 8):
            for nm, val in sorted(d['sol'].items(), key=lambda a: (a[0][1] if len(a[0]) > 1 else 0)):
                print("  ", nm, round(val, 2))
