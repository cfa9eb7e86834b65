import random, subprocess, json, sys
from model import exact_worst
def rust(prog,B,W,sL,sC):
    out=subprocess.run(['/work/main/target/release/makespan','solve','-q','--json','--kernel',prog,'--warps',str(B*W),'--warps-per-block',str(W),'--sigma-l',str(sL),'--sigma-c',str(sC),'--time-limit','60'],capture_output=True,text=True)
    if out.returncode!=0: return ('ERR',out.stderr.strip()[:200])
    d=json.loads(out.stdout); 
    return d['makespan'] if d['exact'] else ('NX',d['interval'])
rng=random.Random(int(sys.argv[1])); n=int(sys.argv[2]); bad=0; errs=0
for it in range(n):
    L=rng.randint(1,7); s=[rng.choice('LCC') for _ in range(L)]
    for _ in range(rng.choice([0,1,1,2])): s.insert(rng.randint(1,len(s)),'|')
    prog=''.join(s)
    B=rng.randint(1,3); W=rng.randint(1,3); sL=rng.randint(1,3); sC=rng.randint(1,3)
    a=exact_worst(prog,B,W,sL,sC); b=rust(prog,B,W,sL,sC)
    if isinstance(b,tuple): errs+=1; print('rust',prog,B,W,sL,sC,b); continue
    if a!=b: bad+=1; print('MISMATCH',prog,B,W,sL,sC,a,b)
print('done',n,'mismatch',bad,'errs',errs)
