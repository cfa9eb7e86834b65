"""Program analysis: excess mass e(p), L-gains g_j, h_j, K values, etc."""
from model import parse

class Prog:
    def __init__(self, prog, sL, sC, W):
        self.ins, self.ends = parse(prog)
        ins, ends = self.ins, self.ends
        self.I = I = len(ins); self.sL, self.sC, self.W = sL, sC, W
        self.IL = ins.count('L'); self.IC = ins.count('C')
        # phase boundaries: position q is a barrier position if q in ends (warp with pos q has finished phase)
        # e(p) for C positions: run within phase
        self.e = [None]*I
        for p in range(I):
            if ins[p] != 'C': continue
            q = p; r = 0
            while q < I and ins[q] == 'C':
                r += 1; q += 1
                if q in ends: break
            # run ends at q: q==I (end), q in ends (barrier), or ins[q]=='L'
            if q < I and q not in ends and ins[q] == 'L':
                self.e[p] = r - 1
            else:
                self.e[p] = r
        # g for L positions: change of Pi = E - Q when the warp issues this L (excluding release effects)
        self.g = [None]*I
        for p in range(I):
            if ins[p] != 'L': continue
            q = p + 1
            if q >= I: self.g[p] = 1            # finishes
            elif q in ends: self.g[p] = 1       # parks (release handled separately)
            elif ins[q] == 'L': self.g[p] = 0   # back to queue
            else: self.g[p] = self.e[q] + 1     # enters C segment
        self.Lpos = [p for p in range(I) if ins[p] == 'L']
        self.Cpos = [p for p in range(I) if ins[p] == 'C']
        self.h = {p: self.g[p] - sC / sL for p in self.Lpos}
    def rel_C_mass(self):
        """mass added per released warp for each barrier whose next phase starts with C"""
        return sum(self.e[q] for q in self.ends if q < self.I and self.ins[q] == 'C')
