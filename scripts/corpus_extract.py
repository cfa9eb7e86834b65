#!/usr/bin/env python3
"""Extract the CUDA kernels of public benchmark sources into one file NVRTC compiles alone.
usage: corpus_extract.py REPO URL COMMIT OUT.cu CREDIT FILE...
REPO is a git directory of the repository URL; FILE are paths in it at COMMIT, headers first. Keeps, in order, every preprocessor line
but #include (conditionals and continued lines whole) and, from .cu files, every
__device__ and __global__ function verbatim (braces matched); host code is dropped.
Comments outside those are dropped. Used by scripts/corpus-fixtures.sh."""
import re, subprocess, sys
repo, url, commit, out, credit, *paths = sys.argv[1:]
PRE = re.compile(r"^\s*#\s*(define|undef|if|ifdef|ifndef|elif|else|endif)\b")
FUN = re.compile(r"^(__device__|__global__)[^;{]*\{", re.M)

def show(path):
    return subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout

def preprocessor(src):
    kept, going = [], False
    for line in src.splitlines():
        if going or PRE.match(line):
            kept.append(line)
            going = line.rstrip().endswith("\\")
    return kept

def functions(src):
    found = []
    for m in FUN.finditer(src):
        depth, i = 0, m.end() - 1
        while True:
            depth += {"{": 1, "}": -1}.get(src[i], 0)
            i += 1
            if depth == 0:
                break
        found.append(src[m.start():i])
    return found

with open(out, "w") as f:
    f.write(f"// {credit}\n// Extracted verbatim by scripts/corpus_extract.py from {url} at\n"
            f"// {commit}: {', '.join(paths)}.\n\n")
    for p in paths:
        src = show(p)
        f.write(f"// ---- {p}\n" + "\n".join(preprocessor(src)) + "\n\n")
        if p.endswith(".cu"):
            f.write("\n\n".join(functions(src)) + "\n\n")
