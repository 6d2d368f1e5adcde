#!/usr/bin/env python3
"""End-to-end cost of buffer data as JSON against .npy files (no NumPy needed).

Runs `ptxvm run examples/saxpy.ptx` on 2^22 elements (y = 2x + y) with the same
data twice: once in the launch spec's JSON lists and the result JSON, once in
.npy files (`"npy"` arguments and `--out-dir`). Each process is timed whole (spec
parsing, module load, launch, writing results), 5 times each; the medians and
their ratio are printed, and the results of both checked against y = 2x + y
computed here. Exits 1 when npy is not at least 5x faster.

    cargo build --release && python3 bench/npy/bench.py
    PTXVM_BENCH_QUICK=1 python3 bench/npy/bench.py   # 2^16 elements, once, no ratio bound
"""
import array
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QUICK = os.environ.get("PTXVM_BENCH_QUICK") == "1"
N = 1 << (16 if QUICK else 22)
REPEAT = 1 if QUICK else 5
PTXVM = os.path.join(ROOT, "target", "release", "ptxvm")
PTX = os.path.join(ROOT, "examples", "saxpy.ptx")


def npy_header(descr, n):
    """NumPy's version 1.0 header for a 1-D array (numpy/lib/format.py)."""
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, n)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    return b"\x93NUMPY\x01\x00" + (total - 10).to_bytes(2, "little") + (d + " " * (total - 11 - len(d)) + "\n").encode()


def read_npy_f32(path):
    data = open(path, "rb").read()
    hlen = int.from_bytes(data[8:10], "little")
    assert b"'<f4'" in data[10 : 10 + hlen], data[: 10 + hlen]
    out = array.array("f")
    out.frombytes(data[10 + hlen :])
    return out


def timed(args):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    # Values exact in f32, so that 2x + y is too and the check is exact.
    x = array.array("f", (float(i % 1000) * 0.25 for i in range(N)))
    y = array.array("f", (float(i % 777) * 0.5 for i in range(N)))
    want = [2.0 * a + b for a, b in zip(x, y)]
    tmp = tempfile.mkdtemp(prefix="ptxvm-npy-bench-")
    grid = N // 256
    scalars = ({"type": "f32", "value": 2.0}, {"type": "s32", "value": N})

    json_spec = os.path.join(tmp, "saxpy_json.json")
    with open(json_spec, "w") as f:
        f.write('{"kernel": "saxpy", "grid": %d, "block": 256, "args": [%s, ' % (grid, json.dumps(scalars[0])))
        f.write('{"buffer": "f32", "data": [%s]}, ' % ", ".join(repr(v) for v in x))
        f.write('{"buffer": "f32", "data": [%s]}, %s]}' % (", ".join(repr(v) for v in y), json.dumps(scalars[1])))
    for name, values in (("x", x), ("y", y)):
        with open(os.path.join(tmp, name + ".npy"), "wb") as f:
            f.write(npy_header("<f4", N))
            f.write(values.tobytes())
    npy_spec = os.path.join(tmp, "saxpy_npy.json")
    args = [scalars[0], {"type": "buffer", "npy": "x.npy", "name": "x"},
            {"type": "buffer", "npy": "y.npy", "name": "y"}, scalars[1]]
    with open(npy_spec, "w") as f:
        json.dump({"kernel": "saxpy", "grid": grid, "block": 256, "args": args}, f)

    json_out = os.path.join(tmp, "result.json")
    out_dir = os.path.join(tmp, "out")
    json_cmd = [PTXVM, "run", PTX, "--launch", json_spec, "--out", json_out]
    npy_cmd = [PTXVM, "run", PTX, "--launch", npy_spec, "--out", os.path.join(tmp, "files.json"), "--out-dir", out_dir]
    json_times, npy_times = [], []
    for _ in range(REPEAT):
        json_times.append(timed(json_cmd))
        npy_times.append(timed(npy_cmd))

    got_json = json.load(open(json_out))["buffers"][1]["data"]
    got_npy = read_npy_f32(os.path.join(out_dir, "y.npy"))
    if list(got_json) != want or list(got_npy) != want:
        print("FAIL: a result differs from y = 2x + y")
        return 1
    jm, nm = statistics.median(json_times), statistics.median(npy_times)
    print(f"saxpy, {N} f32 elements, median of {REPEAT} whole runs of `ptxvm run`")
    print(f"  JSON data and result: {jm:.3f} s  ({', '.join(f'{t:.3f}' for t in json_times)})")
    print(f"  npy files, --out-dir: {nm:.3f} s  ({', '.join(f'{t:.3f}' for t in npy_times)})")
    print(f"  JSON / npy: {jm / nm:.1f}x")
    if not QUICK and jm / nm < 5:
        print("FAIL: npy is not 5x faster than JSON end to end")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
