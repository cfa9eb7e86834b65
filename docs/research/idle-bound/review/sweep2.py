import random, sys, time, signal
from dp_realc import dp
from wpp import wpp_bound
class TO(Exception): pass
def h(s,f): raise TO()
signal.signal(signal.SIGALRM, h)
def gen(rng):
    nph=rng.choice([1,2,2,3]); phs=[]
    for i in range(nph):
        n=rng.randint(1,4); pC=rng.choice([0.5,0.7,0.85])
        s=[('C' if rng.random()<pC else 'L') for _ in range(n)]
        r=rng.random()
        if r<0.35: s[0]='C'
        elif r<0.55: s[0]='L'
        if rng.random()<0.4: s[-1]='L'
        phs.append(''.join(s))
    return '|'.join(phs)
seed,tmax,maxN,dpto=map(int,sys.argv[1:5]); mode=sys.argv[5]
rng=random.Random(seed); t0=time.time(); n=0; viol=0; tight=0; sk=0; seen=set(); worst=[]
while time.time()-t0<tmax:
    prog=gen(rng)
    if len(prog.replace('|',''))>9: continue
    sL=rng.choice([2,3]) if mode=='sL2' else rng.choice([1,1,2,3])
    sC=rng.randint(1,4)
    while True:
        B=rng.randint(2,4); W=rng.randint(2,4)
        if B*W<=maxN: break
    key=(prog,B,W,sL,sC)
    if key in seen: continue
    seen.add(key)
    signal.alarm(dpto)
    try: v=dp(*key)
    except TO: sk+=1; continue
    finally: signal.alarm(0)
    try: _,d=wpp_bound(*key,verbose=True,time_limit=30)
    except Exception as ex: print('ERR',key,ex,flush=True); continue
    n+=1; lim=d['ub']+d['glob']
    worst.append((lim-v,key,v,d['ub'],d['glob'],d['status']))
    if v>lim+1e-7: viol+=1; print('VIOL',key,v,d['ub'],d['glob'],flush=True)
    elif v>lim-1e-7: tight+=1
worst.sort()
print('mode',mode,'seed',seed,'checked',n,'skipped',sk,'viol',viol,'tight',tight,'time',round(time.time()-t0))
for w in worst[:5]: print(' margin',w)
