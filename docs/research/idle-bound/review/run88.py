import time, wpp
import scipy.optimize as so
cap = {}
orig = wpp.milp
def spy(*a, **k):
    r = orig(*a, **k); cap['res'] = r; return r
wpp.milp = spy
t0 = time.time()
T, d = wpp.wpp_bound("CCCCCCLCCCLLCCLCCCCC|LCCL", 8, 8, 1, 4, verbose=True, time_limit=900)
r = cap['res']
print('T', T, 'opt', d['opt'], 'ub', d['ub'], 'status', r.status, r.message, 'fun', r.fun, 'dual', getattr(r, 'mip_dual_bound', None), 'gap', getattr(r, 'mip_gap', None), 'time', round(time.time() - t0))
print('X', {k[1]: round(v, 3) for k, v in d['sol'].items() if k[0] == 'X'})
