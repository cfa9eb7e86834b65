import random, sys, time, subprocess, json
from wpp import wpp_bound
from bound import proven_bound
from sweep2_gen import gen
def rust(prog,B,W,sL,sC,tl):
    out=subprocess.run(['/work/main/target/release/makespan','solve','-q','--json','--kernel',prog,'--warps',str(B*W),'--warps-per-block',str(W),'--sigma-l',str(sL),'--sigma-c',str(sC),'--time-limit',str(tl),'--max-memory','600M'],capture_output=True,text=True)
    if out.returncode!=0: return None
    d=json.loads(out.stdout); return d['makespan'] if d['exact'] else None
if __name__=="__main__":
  pass
if __name__=="__main__":
 seed,tmax,minN,maxN,maxI=map(int,sys.argv[1:6])
rng=random.Random(seed); t0=time.time(); n=0; fw=0; fp=0; sk=0; seen=set(); margins=[]
while time.time()-t0<tmax:
    prog=gen(rng)
    if len(prog.replace('|',''))>maxI: continue
    sL=rng.choice([1,2,2,3]); sC=rng.randint(1,4)
    while True:
        B=rng.randint(1,6); W=rng.randint(2,6)
        if minN<=B*W<=maxN: break
    key=(prog,B,W,sL,sC)
    if key in seen: continue
    seen.add(key)
    T=rust(*key,20)
    if T is None: sk+=1; continue
    wb=wpp_bound(*key,time_limit=30); pb=proven_bound(*key)
    n+=1; margins.append((wb-T,key,T,wb,pb))
    if wb<T: fw+=1; print('WPP-FAIL',key,'exact',T,'wpp',wb,flush=True)
    if pb<T: fp+=1; print('PB-FAIL',key,'exact',T,'pb',pb,flush=True)
margins.sort()
print('seed',seed,'checked',n,'skipped',sk,'wppfail',fw,'pbfail',fp,'time',round(time.time()-t0))
for m in margins[:6]: print(' ',m)
