import random, sys, time, signal, json
from dp_realc import dp
from wpp import wpp_bound
class TO(Exception): pass
def h(s,f): raise TO()
signal.signal(signal.SIGALRM, h)
def rand_prog(rng, maxlen, bias):
    n=rng.randint(2,maxlen); pC=rng.choice([0.5,0.65,0.8])
    s=[('C' if rng.random()<pC else 'L') for _ in range(n)]
    nb=rng.choice([0,1,1,2,2,3]) if bias else rng.choice([0,1,2])
    for _ in range(nb): s.insert(rng.randint(1,len(s)),'|')
    return ''.join(s)
seed, tmax, maxlen, maxN = map(int, sys.argv[1:5]); mode = sys.argv[5] if len(sys.argv)>5 else 'any'
rng=random.Random(seed); t0=time.time(); n=0; viol=[]; tight=0; seen=set(); skipped=0
while time.time()-t0<tmax:
    prog=rand_prog(rng,maxlen,True)
    if mode=='sL2': sL=rng.randint(2,3)
    elif mode=='sL1': sL=1
    else: sL=rng.randint(1,3)
    sC=rng.randint(1,4)
    while True:
        B=rng.randint(1,4); W=rng.randint(1,5)
        if B*W<=maxN and (mode!='multi' or (B>=2 and W>=2)): break
    key=(prog,B,W,sL,sC)
    if key in seen: continue
    seen.add(key)
    signal.alarm(20)
    try: v=dp(prog,B,W,sL,sC)
    except TO: skipped+=1; continue
    finally: signal.alarm(0)
    try: T,d=wpp_bound(prog,B,W,sL,sC,verbose=True,time_limit=30)
    except Exception as ex: print('SOLVERR',key,ex,flush=True); continue
    n+=1; lim=d['ub']+d['glob']
    if v>lim+1e-7: viol.append((key,v,lim)); print('VIOL',key,'realc',v,'OPT',d['ub'],'glob',d['glob'],flush=True)
    elif v>lim-1e-7: tight+=1
print('seed',seed,'checked',n,'skipped',skipped,'viol',len(viol),'tight',tight,'time',round(time.time()-t0))
