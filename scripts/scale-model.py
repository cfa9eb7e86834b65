#!/usr/bin/env python3
"""An AMALTHEA model K times as large, for timing `makespan system` against model size.

Usage: scripts/scale-model.py MODEL.amxmi K OUT.amxmi

Copies every task, runnable, label, stimulus and task allocation of MODEL K - 1 times,
each copy's names suffixed `_c1`, `_c2`, ... (references renamed alike); the hardware,
events and constraints stay as they are. The WATERS 2019 model (about 38 kB) at K = 400
is 15 MB, just under the 16 MiB input cap. Figures: docs/experiments.md ("System
analysis time against model size").
"""
import re, sys
src = open(sys.argv[1]).read()
k = int(sys.argv[2])
# names of tasks, runnables, labels, stimuli, events
kinds = ['tasks', 'runnables', 'labels', 'stimuli']
names = set()
for kind in kinds:
    names |= set(re.findall(r'<%s [^>]*?name="([^"]+)"' % kind, src))
sw_start = src.index('<swModel>') + len('<swModel>')
sw_end = src.index('</swModel>')
sw = src[sw_start:sw_end]
# top-level elements of swModel to copy: tasks, runnables, labels (not events)
def blocks(text, tag):
    out = []
    for m in re.finditer(r'\n    <%s [^\n]*?(/>|>)' % tag, text):
        start = m.start()
        if m.group(1) == '/>':
            out.append(text[start:m.end()])
        else:
            end = text.index('\n    </%s>' % tag, m.end()) + len('\n    </%s>' % tag)
            out.append(text[start:end])
    return out
copies_sw = {t: blocks(sw, t) for t in ['tasks', 'runnables', 'labels']}
stim_start = src.index('<stimuliModel>') + len('<stimuliModel>')
stim = src[stim_start:src.index('</stimuliModel>')]
stim_blocks = blocks(stim, 'stimuli')
map_start = src.index('<mappingModel')
mp = src[map_start:src.index('</mappingModel>')]
alloc_blocks = blocks(mp, 'taskAllocation')
pat = re.compile(r'(name="|task="|[" ])(' + '|'.join(sorted(map(re.escape, names), key=len, reverse=True)) + r')(\?type=|")')
def rename(text, i):
    return pat.sub(lambda m: m.group(1) + m.group(2) + '_c%d' % i + m.group(3), text)
add_sw = {t: ''.join(rename(b, i) for i in range(1, k) for b in bl) for t, bl in copies_sw.items()}
out = src
# insert copies after the originals: just before </swModel>, order tasks, runnables, labels doesn't matter for reader?
out = out.replace('</swModel>', add_sw['tasks'] + add_sw['runnables'] + add_sw['labels'] + '\n  </swModel>', 1)
out = out.replace('</stimuliModel>', ''.join(rename(b, i) for i in range(1, k) for b in stim_blocks) + '\n  </stimuliModel>', 1)
out = out.replace('</mappingModel>', ''.join(rename(b, i) for i in range(1, k) for b in alloc_blocks) + '\n  </mappingModel>', 1)
open(sys.argv[3], 'w').write(out)
