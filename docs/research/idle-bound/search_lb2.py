"""Lower-bound search with per-position and per-warp priority biases (hill climbing)."""
import random, sys, time
from model import parse

def sim(ins,ends,B,W,sL,sC,wC,wL,bw,return_trace=False):
    I=len(ins); N=B*W
    pos=[[0]*W for _ in range(B)]
    t=0; tr=[]
    while True:
        rL=[];rC=[]; done=True
        for bi in range(B):
            pb=pos[bi]; mn=min(pb)
            for wi in range(W):
                p=pb[wi]
                if p>=I: continue
                done=False
                if p in ends and mn<p: continue
                k=bi*W+wi
                if ins[p]=='L': rL.append((wL[p]+bw[0][k],bi,wi))
                else: rC.append((wC[p]+bw[1][k],bi,wi))
        if done: break
        t+=1
        if return_trace: tr.append((len(rL),len(rC),[list(b) for b in pos]))
        if len(rL)>sL: rL.sort(reverse=True)
        if len(rC)>sC: rC.sort(reverse=True)
        for x in rL[:sL]: pos[x[1]][x[2]]+=1
        for x in rC[:sC]: pos[x[1]][x[2]]+=1
    return (t,tr) if return_trace else t

def climb(P,B,W,sL,sC,iters,seed,init=None):
    ins,ends=parse(P); I=len(ins); N=B*W
    rng=random.Random(seed)
    def rl(p):
        k=0
        while p<I and ins[p]=='C': k+=1;p+=1
        return k
    if init: wC,wL,bw=init
    else:
        wC=[float(rl(p)) for p in range(I)]; wL=[-float(p) for p in range(I)]
        bw=[[0.0]*N,[0.0]*N]
    best=sim(ins,ends,B,W,sL,sC,wC,wL,bw)
    for it in range(iters):
        nC=wC[:];nL=wL[:];nb=[bw[0][:],bw[1][:]]
        k=rng.randrange(4)
        sc=rng.choice([0.5,2,8,30])
        if k==0: i=rng.randrange(I); nC[i]+=rng.gauss(0,sc)
        elif k==1: i=rng.randrange(I); nL[i]+=rng.gauss(0,sc)
        else: i=rng.randrange(N); nb[k-2][i]+=rng.gauss(0,sc)
        v=sim(ins,ends,B,W,sL,sC,nC,nL,nb)
        if v>=best:
            if v>best: print(it,v,flush=True)
            best=v;wC,wL,bw=nC,nL,nb
    return best,(wC,wL,bw)

if __name__=="__main__":
    P=sys.argv[1]
    B,W=int(sys.argv[2]),int(sys.argv[3]); iters=int(sys.argv[4]); seed=int(sys.argv[5])
    t0=time.time()
    best,par=climb(P,B,W,1,4,iters,seed)
    print("best",best,time.time()-t0)
    import pickle; pickle.dump(par,open(f"best_{B}x{W}_{seed}.pkl","wb"))
