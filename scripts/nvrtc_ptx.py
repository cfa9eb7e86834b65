#!/usr/bin/env python3
"""Compile a CUDA source file to PTX with NVRTC (ctypes, no other deps).
usage: nvrtc_ptx.py LIBNVRTC SRC.cu OUT.ptx [nvrtc options...]"""
import ctypes, sys
lib_path, src_path, out_path, *opts = sys.argv[1:]
lib = ctypes.CDLL(lib_path)
lib.nvrtcGetErrorString.restype = ctypes.c_char_p
def check(rc, what):
    if rc != 0:
        sys.exit(f"{what}: {lib.nvrtcGetErrorString(rc).decode()}")
major, minor = ctypes.c_int(), ctypes.c_int()
check(lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
print(f"NVRTC {major.value}.{minor.value}", file=sys.stderr)
src = open(src_path, "rb").read()
prog = ctypes.c_void_p()
check(lib.nvrtcCreateProgram(ctypes.byref(prog), src, src_path.encode(), 0, None, None), "nvrtcCreateProgram")
copts = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
rc = lib.nvrtcCompileProgram(prog, len(opts), copts)
n = ctypes.c_size_t()
lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
log = ctypes.create_string_buffer(n.value)
lib.nvrtcGetProgramLog(prog, log)
if log.value.strip():
    print(log.value.decode(), file=sys.stderr)
check(rc, "nvrtcCompileProgram")
check(lib.nvrtcGetPTXSize(prog, ctypes.byref(n)), "nvrtcGetPTXSize")
ptx = ctypes.create_string_buffer(n.value)
check(lib.nvrtcGetPTX(prog, ptx), "nvrtcGetPTX")
open(out_path, "wb").write(ptx.value)
lib.nvrtcDestroyProgram(ctypes.byref(prog))
