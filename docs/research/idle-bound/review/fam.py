import subprocess, json, sys, time
from wpp import wpp_bound
from bound import proven_bound
def rust(prog,B,W,sL,sC,tl):
    out=subprocess.run(['/work/main/target/release/makespan','solve','-q','--json','--kernel',prog,'--warps',str(B*W),'--warps-per-block',str(W),'--sigma-l',str(sL),'--sigma-c',str(sC),'--time-limit',str(tl),'--max-memory','600M'],capture_output=True,text=True)
    if out.returncode!=0: return None
    d=json.loads(out.stdout); return d['makespan'] if d['exact'] else None
P='CCCCCCLCCCLLCCLCCCCC|LCCL'
progs=[P,'CCCCCCLCCCLL|CCLCCCCC|LCCL','CCCLCCLL|CCLCC|LCCL','LCCCCCLCCL|CCCC|LC']
t0=time.time()
for prog in progs:
  for (B,W) in [(1,2),(1,3),(1,4),(2,2),(1,5),(2,3),(3,2),(1,6),(2,4),(4,2)]:
    for sL in (1,2):
      for sC in (1,2,4):
        T=rust(prog,B,W,sL,sC,15)
        if T is None: continue
        wb=wpp_bound(prog,B,W,sL,sC,time_limit=60); pb=proven_bound(prog,B,W,sL,sC)
        print(prog,B,W,sL,sC,'exact',T,'wpp',wb,'pb',pb,'FAIL' if min(wb,pb)<T else '',flush=True)
print('time',round(time.time()-t0))
