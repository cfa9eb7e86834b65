import pickle, sys
from prog import Prog
from trace import run_schedule, windows, check
P = Prog("CCCCCCLCCCLLCCLCCCCC|LCCL", 1, 4, 8)
wC, wL, bw = pickle.load(open(sys.argv[1], "rb"))
B = W = 8
def chooser(pos, rL, rC, mL, mC):
    kL = sorted(rL, key=lambda x: -(wL[pos[x[0]][x[1]]] + bw[0][x[0]*W+x[1]]))
    kC = sorted(rC, key=lambda x: -(wC[pos[x[0]][x[1]]] + bw[1][x[0]*W+x[1]]))
    return kL[:mL], kC[:mC]
recs = run_schedule(P, B, W, chooser)
T = len(recs) - 1
Ut, res = check(P, recs, B*W)
print("T", T, "Utilde", Ut)
for (p, ts, UX, resid, E, Q, Qend) in res:
    H = sum(P.h[x] for u in range(p, ts+1) for x in recs[u]['Lpos'])
    print(f"window p={p+1} t={ts+1} UX={UX} E(p)={E} Q(p)={Q} sumh={H} Q(t+1)={Qend} minpos={recs[ts]['minpos']}")
Y = [u+1 for u in range(T) if not recs[u]['Lsat'] and not recs[u]['Csat']]
print("Y cycles", len(Y), Y)
