import random
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
