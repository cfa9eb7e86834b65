import sys, signal
from wppm import wpp_bound
from dp_realc import dp
class TO(Exception): pass
def h(s,f): raise TO()
signal.signal(signal.SIGALRM, h)
progs=sys.argv[1].split(','); confs=[(1,2),(1,3),(2,2),(1,4),(2,3),(3,2),(4,2)]
for prog in progs:
  for sL in (1,2):
    for sC in (1,2,3,4):
      for B,W in confs:
        _,d0=wpp_bound(prog,B,W,sL,sC,verbose=True,time_limit=20)
        _,d1=wpp_bound(prog,B,W,sL,sC,verbose=True,time_limit=20,FIXPARK=True)
        signal.alarm(90)
        try: v=dp(prog,B,W,sL,sC)
        except TO: v=None
        finally: signal.alarm(0)
        lim=d0['ub']+d0['glob']
        print(prog,B,W,sL,sC,'realc',v,'opt',round(d0['ub'],3),'fixed',round(d1['ub'],3),'glob',round(d0['glob'],2),'VIOL' if v is not None and v>lim+1e-7 else ('DIFF' if d1['ub']>d0['ub']+1e-6 else ''),flush=True)
