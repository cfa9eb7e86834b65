import random, sys, time, collections
from mapper import Inst, simulate, full_check
from wppm import wpp_bound
from choosers import mixed
def rand_prog(rng, maxlen):
    n=rng.randint(2,maxlen); pC=rng.choice([0.5,0.65,0.8])
    s=[('C' if rng.random()<pC else 'L') for _ in range(n)]
    for _ in range(rng.choice([0,1,1,2,3])): s.insert(rng.randint(1,len(s)),'|')
    return ''.join(s)
if __name__=="__main__":
    seed, ninst, nsched, maxlen = map(int, sys.argv[1:5])
    rng=random.Random(seed); cnt=collections.Counter(); ex={}; t0=time.time(); nchk=0
    for it in range(ninst):
        prog=rand_prog(rng,maxlen); B=rng.randint(1,4); W=rng.randint(1,4); sL=rng.randint(1,3); sC=rng.randint(1,4)
        inst=Inst(prog,B,W,sL,sC)
        if inst.I==0: continue
        model=wpp_bound(prog,B,W,sL,sC,model_only=True,FIXPARK=True)
        for sch in range(nsched):
            recs=simulate(inst, mixed(rng, inst.N))
            try: r=full_check(inst,recs,model); nchk+=1
            except RuntimeError as ex_:
                print('ERR',prog,B,W,sL,sC,ex_); import pickle; pickle.dump((prog,B,W,sL,sC,recs),open('err.pkl','wb')); sys.exit()
            bad=list(r['bad'])
            if r['events']>model['Ybound']: bad.append(('EVENTS',r['events'],model['Ybound']))
            if not r['ok_chain']: bad.append(('CHAIN',r['lhs'],r['rhs']))
            if r['deficit']>r['glob']+1e-7: bad.append(('DEFICIT>glob',r['deficit'],r['glob']))
            if r['dropped']: bad.append(('dropped',r['dropped']))
            for n in r['notes']: bad.append(('NOTE-'+n[0],)+tuple(n[1:]))
            keys=set(b[0] for b in bad)
            for kk in keys:
                cnt[kk]+=1
                if kk not in ex: ex[kk]=(prog,B,W,sL,sC,[b for b in bad if b[0]==kk][:3])
    print('checked',nchk,'time',round(time.time()-t0))
    for kk,v in cnt.most_common(): print(kk,v,ex[kk])
