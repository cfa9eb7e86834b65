import random
def uniform(rng):
    return lambda t,pos,st,rL,rC,nL,nC: (rng.sample(rL,nL), rng.sample(rC,nC))
def static_prio(rng, N):
    pl=[rng.random() for _ in range(N)]; pc=[rng.random() for _ in range(N)] if rng.random()<0.5 else pl
    return lambda t,pos,st,rL,rC,nL,nC: (sorted(rL,key=lambda w:pl[w])[:nL], sorted(rC,key=lambda w:pc[w])[:nC])
def pos_prio(rng):
    a=rng.choice([1,-1]); b=rng.choice([1,-1]); noise=rng.random()*0.5
    return lambda t,pos,st,rL,rC,nL,nC: (sorted(rL,key=lambda w:a*pos[w]+noise*rng.random()*3)[:nL], sorted(rC,key=lambda w:b*pos[w]+noise*rng.random()*3)[:nC])
def mixed(rng, N):
    k=rng.randrange(4)
    if k==0: return uniform(rng)
    if k==1: return static_prio(rng,N)
    if k==2: return pos_prio(rng)
    # switching
    cs=[uniform(rng), static_prio(rng,N), pos_prio(rng)]
    return lambda *a: cs[rng.randrange(3)](*a)
