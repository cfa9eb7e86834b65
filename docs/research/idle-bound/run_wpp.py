import sys
from wpp import wpp_bound
P = "CCCCCCLCCCLLCCLCCCCC|LCCL"
B, W, tl = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
T, d = wpp_bound(P, B, W, 1, 4, verbose=True, time_limit=tl)
print(B, W, "WPP bound", T, "opt", round(d['opt'], 3), "ub", round(d['ub'], 3), "status", d['status'])
Xs = {k[1]: round(v, 2) for k, v in d['sol'].items() if k[0] == 'X'}
print("window values", Xs)
