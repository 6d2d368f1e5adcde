#!/usr/bin/env python3
"""The runtime's cost, end to end (issue 19): programs built by nvcc with
-cudart shared, timed whole under `ptxvm exec`, against the same work through
`ptxvm run`, which has no runtime or driver in the way.

1. Vector add of 2^24 float32 elements: vadd.cu reads a.npy and b.npy into managed
   memory, launches `vadd`, and writes the three buffers to .npy files; the
   baseline is `ptxvm run` of nvcc's PTX of the same kernel with the same .npy
   files as buffers, which reads them into device memory and writes the three
   buffers (`--out-dir`). Both sums are checked against a + b.
2. Start-up: startup.cu holds bench/big/big.cu's kernels (about 0.8 MB of PTX with
   NKERN=16, 13 MB with the default 256) and launches one of them once; the
   baseline is `ptxvm run` of the same PTX module launching the same kernel.

Each is run REPEAT times, alternating, and the medians and the ratio printed.
nvcc comes from $NVCC or pip's nvidia-cuda-nvcc; builds go to target/bench-runtime.

    cargo build --release && python3 bench/runtime/bench.py
    PTXVM_BENCH_QUICK=1 python3 bench/runtime/bench.py   # 2^16 elements, 0.8 MB only, once (CI)
"""
import array
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "bench", "runtime")
BUILD = os.path.join(ROOT, "target", "bench-runtime")
PTXVM = os.path.join(ROOT, "target", "release", "ptxvm")
QUICK = os.environ.get("PTXVM_BENCH_QUICK") == "1"
N = 1 << (16 if QUICK else 24)
REPEAT = 1 if QUICK else 7


def nvcc():
    if os.environ.get("NVCC"):
        return os.environ["NVCC"]
    import nvidia  # pip's nvidia-cuda-nvcc

    return os.path.join(list(nvidia.__path__)[0], "cu13", "bin", "nvcc")


def build(args, out):
    """Runs nvcc unless `out` is newer than the sources."""
    sources = [a for a in args if a.endswith(".cu")] + [os.path.join(ROOT, "bench", "big", "big.cu")]
    if os.path.exists(out) and all(os.path.getmtime(out) > os.path.getmtime(s) for s in sources):
        return out
    subprocess.run([nvcc()] + args + ["-o", out], check=True)
    return out


def npy_header(n):
    """NumPy's version 1.0 header for a 1-D float32 array (numpy/lib/format.py)."""
    d = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    total = (10 + len(d) + 1 + 63) // 64 * 64
    return b"\x93NUMPY\x01\x00" + (total - 10).to_bytes(2, "little") + (d + " " * (total - 11 - len(d)) + "\n").encode()


def npy_data(path):
    data = open(path, "rb").read()
    out = array.array("f")
    out.frombytes(data[10 + int.from_bytes(data[8:10], "little") :])
    return out


def timed(args, cwd=None):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    return time.perf_counter() - start


def compare(title, exec_cmd, run_cmd, cwd=None):
    ex, rn = [], []
    for _ in range(REPEAT):
        ex.append(timed(exec_cmd, cwd))
        rn.append(timed(run_cmd, cwd))
    em, rm = statistics.median(ex), statistics.median(rn)
    print(title)
    print(f"  ptxvm exec, the program: {em:.3f} s  ({', '.join(f'{t:.3f}' for t in ex)})")
    print(f"  ptxvm run, the kernel:   {rm:.3f} s  ({', '.join(f'{t:.3f}' for t in rn)})")
    print(f"  runtime and driver cost: {em - rm:+.3f} s, {100 * (em - rm) / rm:+.1f}%")
    return em, rm


def vector_add():
    os.makedirs(BUILD, exist_ok=True)
    exe = build(["-cudart", "shared", "-arch=sm_90", "-O2", os.path.join(HERE, "vadd.cu"),
                 "-L", os.path.join(ROOT, "target", "release")], os.path.join(BUILD, "vadd"))
    ptx = build(["-ptx", "-arch=sm_90", "-O2", os.path.join(HERE, "vadd.cu")], os.path.join(BUILD, "vadd.ptx"))
    # Values exact in f32, so that the sums are too and the check is exact.
    a = array.array("f", (float(i % 1000) * 0.25 for i in range(N)))
    b = array.array("f", (float(i % 777) * 0.5 for i in range(N)))
    for name, values in (("a", a), ("b", b)):
        with open(os.path.join(BUILD, name + ".npy"), "wb") as f:
            f.write(npy_header(N))
            f.write(values.tobytes())
    spec = os.path.join(BUILD, "vadd.json")
    args = [{"type": "buffer", "npy": "a.npy", "name": "a"}, {"type": "buffer", "npy": "b.npy", "name": "b"},
            {"type": "buffer", "npy": "a.npy", "name": "c"}, {"type": "s32", "value": N}]
    kernel = "_Z4vaddPKfS0_Pfi"
    with open(spec, "w") as f:
        json.dump({"kernel": kernel, "grid": (N + 255) // 256, "block": 256, "args": args}, f)
    os.makedirs(os.path.join(BUILD, "exec-out"), exist_ok=True)
    exec_cmd = [PTXVM, "exec", "--", exe, "a.npy", "b.npy", "exec-out"]
    run_cmd = [PTXVM, "run", ptx, "--launch", spec, "--out", os.path.join(BUILD, "files.json"),
               "--out-dir", os.path.join(BUILD, "out")]
    em, rm = compare(f"vector add, {N} float32 elements, median of {REPEAT} whole runs", exec_cmd, run_cmd, BUILD)
    want = array.array("f", (x + y for x, y in zip(a, b)))
    if npy_data(os.path.join(BUILD, "exec-out", "c.npy")) != want or npy_data(os.path.join(BUILD, "out", "c.npy")) != want:
        print("FAIL: a result differs from a + b")
        sys.exit(1)
    return em, rm


def startup(nkern, label):
    exe = build(["-cudart", "shared", "-gencode", "arch=compute_90,code=compute_90", f"-DNKERN={nkern}",
                 os.path.join(HERE, "startup.cu"), "-L", os.path.join(ROOT, "target", "release")],
                os.path.join(BUILD, f"startup{nkern}"))
    ptx = build(["-ptx", "-arch=sm_90", f"-DNKERN={nkern}", os.path.join(ROOT, "bench", "big", "big.cu")],
                os.path.join(BUILD, f"big{nkern}.ptx"))
    spec = os.path.join(BUILD, "startup.json")
    with open(spec, "w") as f:
        json.dump({"kernel": "_Z10shape_hashILi0EEvPKjPji", "grid": 1, "block": 256,
                   "args": [{"buffer": "u32", "len": 256}, {"buffer": "u32", "len": 256}, {"type": "s32", "value": 256}]}, f)
    size = os.path.getsize(ptx) / 1e6
    return compare(f"start-up: a {size:.1f} MB PTX module ({label}), one launch, median of {REPEAT} whole runs",
                   [PTXVM, "exec", "--", exe], [PTXVM, "run", ptx, "--launch", spec, "--out", os.devnull])


def main():
    release = os.path.dirname(PTXVM)
    if not all(os.path.exists(os.path.join(release, f)) for f in ("ptxvm", "libcuda.so", "libcudart.so")):
        print("target/release/ptxvm, libcuda.so and libcudart.so are not built: cargo build --release")
        return 1
    em, rm = vector_add()
    startup(16, "NKERN=16")
    if not QUICK:
        startup(256, "bench/big/big.ptx")
        if em > 1.10 * rm:
            print(f"FAIL: the runtime's cost on vector add is {100 * (em - rm) / rm:.1f}%, over 10%")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
