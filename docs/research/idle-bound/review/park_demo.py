import random
from mapper import Inst, simulate, full_check
from wppm import wpp_bound
from choosers import mixed
rng=random.Random(5); found=None
for prog in ['C|L|LC','CC|L|LC','C|LC|LC','C|L|LCC','CC|L|LCC','C|LL|LCC']:
  for (B,W) in [(1,2),(1,3),(2,2)]:
    for sL in (1,2):
      for sC in (1,2,3):
        inst=Inst(prog,B,W,sL,sC); model=wpp_bound(prog,B,W,sL,sC,model_only=True)
        for t in range(400):
            recs=simulate(inst,mixed(rng,inst.N)); r=full_check(inst,recs,model)
            if any(b[0]=='park-phase' for b in r['bad']):
                big=r['info']['big_all']
                print(prog,B,W,sL,sC,'T',r['T'],'bad',[b for b in r['bad'] if b[0]=='park-phase'])
                for w in big: print('  big window cycles',w['p']+1,'..',w['e']+1,'state at start (positions per warp):',recs[w['p']]['pos'],recs[w['p']]['st'])
                found=1; break
        if found: break
      if found: break
    if found: break
  if found: break
