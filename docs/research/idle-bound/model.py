"""Core model: B blocks of W warps, program over {L,C} with barriers '|', latency 1.
State = tuple over blocks of sorted tuples of positions (#instructions issued)."""
import itertools, functools, sys
sys.setrecursionlimit(100000)

def parse(prog):
    ins=[]; ends=[]
    for ch in prog:
        if ch=='|': ends.append(len(ins))
        else: ins.append(ch)
    ends=[e for e in ends if 0<e<len(ins)]   # barrier positions (end of phase k, not last)
    ends=sorted(set(ends))
    return ''.join(ins), tuple(ends)

def ready_info(ins, ends, blk):
    """for one block (tuple of positions) return list of (pos, unit) for ready warps"""
    I=len(ins); mn=min(blk)
    out=[]
    for p in blk:
        if p>=I: out.append(None); continue
        if p in ends and mn<p: out.append(None); continue   # parked
        out.append(ins[p])
    return out

def canon(state):
    return tuple(sorted(tuple(sorted(b)) for b in state))

def successors(ins, ends, state, sL, sC):
    """all canonical successor states under work-conserving choices"""
    # groups: (block index, position, unit) -> count
    groups={}
    for bi,b in enumerate(state):
        ri=ready_info(ins,ends,b)
        for p,u in zip(b,ri):
            if u is None: continue
            groups.setdefault((u,bi,p),0); groups[(u,bi,p)]+=1
    res=set()
    def choices(unit,sigma):
        gs=[(k,c) for k,c in groups.items() if k[0]==unit]
        tot=sum(c for _,c in gs); m=min(sigma,tot)
        out=[]
        def rec(i,left,acc):
            if i==len(gs):
                if left==0: out.append(list(acc))
                return
            k,c=gs[i]
            for x in range(min(c,left),-1,-1):
                acc.append((k,x)); rec(i+1,left-x,acc); acc.pop()
        rec(0,m,[])
        return out
    for cl in choices('L',sL):
        for cc in choices('C',sC):
            adv={}
            for (k,x) in cl+cc:
                if x: adv[(k[1],k[2])]=adv.get((k[1],k[2]),0)+x
            nb=[]
            for bi,b in enumerate(state):
                lst=list(b)
                for (bj,p),x in adv.items():
                    if bj!=bi: continue
                    for _ in range(x):
                        i=lst.index(p); lst[i]=p+1
                nb.append(tuple(sorted(lst)))
            res.add(canon(nb))
    return res

def exact_worst(prog,B,W,sL,sC):
    ins,ends=parse(prog); I=len(ins)
    @functools.lru_cache(maxsize=None)
    def f(state):
        if all(p>=I for b in state for p in b): return 0
        return 1+max(f(s) for s in successors(ins,ends,state,sL,sC))
    s0=canon([tuple([0]*W) for _ in range(B)])
    r=f(s0); f.cache_clear(); return r

def block_horizon(prog,B,W,sL,sC):
    ins,_=parse(prog); I=len(ins); N=B*W
    IL=ins.count('L'); IC=ins.count('C')
    return I+((N-1)*IL)//sL+((N-1)*IC)//sC

if __name__=="__main__":
    print(exact_worst("CCCCCCLCCCLLCCLCCCCC|LCCL",2,4,1,4))
