import sys, itertools, subprocess, json
from bound import proven_bound
from wpp import wpp_bound
def rust(prog,B,W,sL,sC,tl=60):
    out=subprocess.run(['/work/main/target/release/makespan','solve','-q','--json','--kernel',prog,'--warps',str(B*W),'--warps-per-block',str(W),'--sigma-l',str(sL),'--sigma-c',str(sC),'--time-limit',str(tl)],capture_output=True,text=True)
    if out.returncode!=0: return None
    d=json.loads(out.stdout)
    return d['makespan'] if d['exact'] else None
progs=sys.argv[1].split(',')
for prog in progs:
  for sL in (1,2,3):
    for sC in (1,2,3,4):
      for (B,W) in [(1,2),(1,3),(1,4),(1,5),(1,6),(2,2),(2,3),(3,2)]:
        T=rust(prog,B,W,sL,sC)
        if T is None: continue
        pb=proven_bound(prog,B,W,sL,sC)
        flag='PB-FAIL' if pb<T else ''
        print(prog,B,W,sL,sC,'T',T,'pb',pb,flag,flush=True)
