import random, sys, time, signal
from wppm import wpp_bound
from dp_realc import dp
class TO(Exception): pass
def h(s,f): raise TO()
signal.signal(signal.SIGALRM, h)
def rand_prog(rng):
    # phases starting with L, several barriers
    nph=rng.randint(2,4); phs=[]
    for i in range(nph):
        n=rng.randint(1,4); s=[('C' if rng.random()<rng.choice([0.4,0.6,0.8]) else 'L') for _ in range(n)]
        if i>0 and rng.random()<0.7: s[0]='L'
        phs.append(''.join(s))
    return '|'.join(phs)
seed,tmax,maxN=map(int,sys.argv[1:4]); rng=random.Random(seed); t0=time.time(); n=0; diff=0; viol=0
while time.time()-t0<tmax:
    prog=rand_prog(rng); sL=rng.choice([1,1,2,3]); sC=rng.randint(1,4)
    while True:
        B=rng.randint(1,3); W=rng.randint(2,5)
        if B*W<=maxN: break
    try:
        _,d0=wpp_bound(prog,B,W,sL,sC,verbose=True,time_limit=20)
        _,d1=wpp_bound(prog,B,W,sL,sC,verbose=True,time_limit=20,FIXPARK=True)
    except Exception as ex: print('ERR',ex); continue
    n+=1
    if d1['ub']>d0['ub']+1e-6:
        diff+=1
        signal.alarm(60)
        try: v=dp(prog,B,W,sL,sC)
        except TO: v=None
        finally: signal.alarm(0)
        lim=d0['ub']+d0['glob']
        flag='VIOL' if (v is not None and v>lim+1e-7) else ''
        if flag: viol+=1
        print('DIFF',prog,B,W,sL,sC,'opt',round(d0['ub'],3),'fixed',round(d1['ub'],3),'glob',round(d0['glob'],3),'realc',v,flag,flush=True)
print('checked',n,'diff',diff,'viol',viol)
