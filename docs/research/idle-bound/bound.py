"""Candidate upper bounds on the worst-case makespan (general programs)."""
import math
from prog import Prog

def quantities(prog, B, W, sL, sC):
    P = Prog(prog, sL, sC, W)
    N = B * W; I, IL, IC = P.I, P.IL, P.IC
    ins, ends = P.ins, P.ends
    Lpos = P.Lpos
    h = [P.h[p] for p in Lpos]          # per L index
    m = len(h)
    # K_Q(j): warp waiting at L_j at window start (-1) + best contiguous continuation (>=1 L)
    def best_run(j):
        best = -math.inf; s = 0
        for i in range(j, m):
            s += h[i]; best = max(best, s)
        return best
    KQ = [-1 + best_run(j) for j in range(m)]
    KS = [max(0.0, best_run(j)) for j in range(m)]     # warp in S (no -1), may take 0 L's
    # per-warp credit over all windows: disjoint contiguous ranges, each with -1, value^+;
    # except a first range starting at L_0 with no -1 if the program starts with C (initial window)
    # DP over L indices
    # phase starts (0 and every barrier position) whose phase begins with C: warps are put into S there,
    # so the first range of L's after such a start carries no -1 (free start).
    free_starts = set()
    for q in [0] + list(ends):
        if q < I and ins[q] == 'C':
            j = next((jj for jj, pp in enumerate(Lpos) if pp >= q), None)
            if j is not None: free_starts.add(j)
    def credit():
        f = [0.0]*(m+1)
        for j in range(m-1, -1, -1):
            best = f[j+1]; s = 0.0
            pen = 0.0 if j in free_starts else 1.0
            for k in range(j, m):
                s += h[k]
                best = max(best, max(0.0, s - pen) + f[k+1])
            f[j] = best
        return f[0]
    Cw = credit() if m else 0.0
    E0 = N * P.e[0] if ins[0] == 'C' else 0
    Rtot = N * P.rel_C_mass()
    # next-L index after a position
    def nextL(p):
        for j, q in enumerate(Lpos):
            if q >= p: return j
        return None
    # pipeline values
    vC = []
    for x in P.Cpos:
        if P.e[x] >= 1:
            j = nextL(x + 1)
            ks = KS[j] if j is not None else 0.0
            # if the run ends at a barrier the warp parks; K_S still an upper bound
            vC.append(P.e[x] - 1 + ks)
    vL = []
    for y in Lpos:
        q = y + 1
        if q < I and q not in ends and ins[q] == 'C':
            j = nextL(q)
            vL.append(P.e[q] + (KS[j] if j is not None else 0.0))
    Omega = (sC - 1) * max(vC + [0.0]) + sL * max(vL + [0.0])
    slack = sC + sL - 1
    return dict(N=N, I=I, IL=IL, IC=IC, E0=E0, Cw=Cw, Rtot=Rtot, Omega=Omega, slack=slack,
                h=h, KQ=KQ, KS=KS)

def candidate(prog, B, W, sL, sC, nwin_extra=1, Yterm='I'):
    q = quantities(prog, B, W, sL, sC)
    N = q['N']
    Y = q['I']
    UX = (q['E0'] + N * q['Cw'] + q['Rtot'] + nwin_extra * q['Omega'] + (1 + nwin_extra) * q['slack']) / sC
    return math.floor(N * q['IL'] / sL + Y + UX + 1e-9), q

if __name__ == "__main__":
    P = "CCCCCCLCCCLLCCLCCCCC|LCCL"
    for (B, W) in [(2,4),(3,4),(2,8),(8,8)]:
        for k in (0,1,2,3):
            v, q = candidate(P, B, W, 1, 4, nwin_extra=k)
            print(B, W, "extra windows", k, "bound", v)
    print(q)

def proven_bound(prog, B, W, sL, sC, detail=False):
    """Sound general bound (Theorem): T <= floor(N IL/sL + Ubound), where
    Ubound = (N*Cw + Rtot)/sC + DP over min-position events (windows & Y cycles)."""
    q = quantities(prog, B, W, sL, sC)
    P = Prog(prog, sL, sC, W)
    I, ins, ends = P.I, P.ins, P.ends
    N = q['N']; slack = q['slack']
    KS = q['KS']; Lpos = P.Lpos
    def nextL(p):
        for j, pp in enumerate(Lpos):
            if pp >= p: return j
        return None
    def vC(x):
        if P.e[x] < 1: return 0.0
        j = nextL(x + 1)
        return P.e[x] - 1 + (KS[j] if j is not None else 0.0)
    def vL(y):
        qq = y + 1
        if qq < I and qq not in ends and ins[qq] == 'C':
            j = nextL(qq)
            return P.e[qq] + (KS[j] if j is not None else 0.0)
        return 0.0
    def Omega(after):   # pipeline built from warps at positions > after
        mc = max([vC(x) for x in P.Cpos if x > after] + [0.0])
        ml = max([vL(y) for y in Lpos if y > after] + [0.0])
        return (sC - 1) * mc + sL * ml
    # event positions: for sL == 1 only C positions host events (min warp is C-ready in L-unsat cycles)
    evpos = P.Cpos if sL == 1 else list(range(I))
    from functools import lru_cache
    @lru_cache(maxsize=None)
    def f(after):
        best = 0.0
        for qq in evpos:
            if qq <= after: continue
            wY = 1.0
            wW = (Omega(after) + slack) / sC + 1.0 if (P.Cpos and qq in P.Cpos) or sL > 1 else 0.0
            best = max(best, max(wY, wW) + f(qq))
        return best
    # initial window (cycle 1 C-saturated): weight (E0 + slack)/sC + 1, at some position
    init = 0.0
    if ins[0] == 'C' and q['E0'] > 0:
        for qq in evpos:
            init = max(init, (q['E0'] + slack) / sC + 1.0 + f(qq))
    tot = max(init, f(-1))
    U = (N * q['Cw'] + q['Rtot']) / sC + tot
    T = math.floor(N * q['IL'] / sL + U + 1e-9)
    return (T, dict(U=U, dp=tot, credit=(N*q['Cw']+q['Rtot'])/sC)) if detail else T
