#!/usr/bin/env python3
"""Launch specs and independent expected results for tests/kernels/ (tests/kernels.rs).

The kernels are CUDA sources in tests/kernels/src/, compiled by nvcc 13 for sm_90:

    nvcc -ptx -arch=sm_90 -O3 tests/kernels/src/NAME.cu -o tests/kernels/NAME.ptx

(mbarrier.cu also needs -I with the CCCL headers, site-packages/nvidia/cu13/include/cccl.)
(hopper.cu is compiled with -arch=sm_90a: setmaxnreg needs it.)

Every expected value is computed here in Python from the kernel's source: exactly where
the kernel's arithmetic is exact (the mma tile, the cp.async copy and the
cuda::barrier and cuda::pipeline kernels use small integers, the SIMD intrinsics follow the CUDA Math API's definitions), in double
precision within a stated tolerance where the kernel uses CUDA's
approximate math (expf, tanhf, rsqrtf, logf, erfcf, the __ intrinsics). The
tolerances are the CUDA C++ Programming Guide's error bounds for those functions
(appendix "Mathematical Functions"), widened for the sums the kernels do. The printf
case gives the text C's printf prints (Python's % operator follows C but for `%#x` of 0),
and the assert
case the fault. Nothing here comes from ptxvm.

Usage: python3 tools/kernel_cases.py   (deterministic; Python 3.11, standard library)

Expected-file fields:
  ptx      the PTX file, relative to the repository root
  exit     0 or 2
  buffers  [{"arg": N, "data": [...], "rel": r, "abs": a}]: each element within
           abs + rel * |expected| (0 and 0: exactly)
  stdout   text printed before the result JSON (device printf)
  stderr   substrings of the fault diagnostic
"""

import json
import math
import os
import random
import struct

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "kernels")


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32s(xs):
    return [f32(x) for x in xs]


def case(name, ptx, launch, expected):
    expected = {"ptx": f"tests/kernels/{ptx}", **expected}
    with open(os.path.join(OUT, f"{name}.launch.json"), "w") as f:
        json.dump(launch, f)
        f.write("\n")
    with open(os.path.join(OUT, f"{name}.expected.json"), "w") as f:
        json.dump(expected, f)
        f.write("\n")


def buf(data, kind="f32"):
    return {"buffer": kind, "data": data}


def main():
    rng = random.Random(9)

    # softmax: 4 rows of 200 values in [-8, 8], 256 threads per row.
    rows, n = 4, 200
    x = f32s(rng.uniform(-8, 8) for _ in range(rows * n))
    want = []
    for r in range(rows):
        row = x[r * n:(r + 1) * n]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        want += [v / s for v in e]
    case("softmax", "math.ptx",
         {"kernel": "softmax", "grid": rows, "block": 256,
          "args": [buf(x), {"buffer": "f32", "len": rows * n}, {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 2e-6 * 8, "abs": 1e-12}]})

    # GELU on 1,000 values in [-6, 6].
    n = 1000
    x = f32s(rng.uniform(-6, 6) for _ in range(n))
    k = f32(0.7978845608)
    want = [0.5 * v * (1 + math.tanh(k * (v + 0.044715 * v ** 3))) for v in x]
    case("gelu", "math.ptx",
         {"kernel": "gelu", "grid": 8, "block": 128,
          "args": [buf(x), {"buffer": "f32", "len": n}, {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 1e-5, "abs": 1e-6}]})

    # Layer norm: 3 rows of 96 values around 2 with spread 1.
    rows, n = 3, 96
    x = f32s(rng.gauss(2, 1) for _ in range(rows * n))
    g = f32s(rng.uniform(0.5, 1.5) for _ in range(n))
    b = f32s(rng.uniform(-1, 1) for _ in range(n))
    want = []
    for r in range(rows):
        row = x[r * n:(r + 1) * n]
        mean = sum(row) / n
        var = sum(v * v for v in row) / n - mean * mean
        inv = 1 / math.sqrt(var + 1e-5)
        want += [(v - mean) * inv * g[i] + b[i] for i, v in enumerate(row)]
    case("layernorm", "math.ptx",
         {"kernel": "layernorm", "grid": rows, "block": 32,
          "args": [buf(x), buf(g), buf(b), {"buffer": "f32", "len": rows * n}, {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 3, "data": want, "rel": 1e-4, "abs": 1e-4}]})

    # Black-Scholes: 500 options.
    n = 500
    s = f32s(rng.uniform(5, 30) for _ in range(n))
    kk = f32s(rng.uniform(1, 100) for _ in range(n))
    t = f32s(rng.uniform(0.25, 10) for _ in range(n))
    r, v = f32(0.02), f32(0.30)
    call, put = [], []
    for i in range(n):
        sq = math.sqrt(t[i])
        d1 = (math.log(s[i] / kk[i]) + (r + 0.5 * v * v) * t[i]) / (v * sq)
        d2 = d1 - v * sq
        e = math.exp(-r * t[i])
        cnd = lambda d: 0.5 * math.erfc(-d / math.sqrt(2))
        call.append(s[i] * cnd(d1) - kk[i] * e * cnd(d2))
        put.append(kk[i] * e * cnd(-d2) - s[i] * cnd(-d1))
    case("black_scholes", "math.ptx",
         {"kernel": "black_scholes", "grid": 4, "block": 128,
          "args": [buf(s), buf(kk), buf(t), {"buffer": "f32", "len": n}, {"buffer": "f32", "len": n},
                   {"type": "f32", "value": r}, {"type": "f32", "value": v}, {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 3, "data": call, "rel": 1e-4, "abs": 2e-4},
                                 {"arg": 4, "data": put, "rel": 1e-4, "abs": 2e-4}]})

    # The intrinsics on 256 values in [-3, 3] (where the guide bounds __sinf/__cosf).
    n = 256
    x = f32s(rng.uniform(-3, 3) for _ in range(n))
    want = []
    for v in x:
        want += [math.exp(v), math.log(abs(v) + 1), math.sin(v), math.cos(v), v / 3, (abs(v) + 0.5) ** 1.5]
    case("intrinsics", "math.ptx",
         {"kernel": "intrinsics", "grid": 2, "block": 128,
          "args": [buf(x), {"buffer": "f32", "len": 6 * n}, {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 2e-6 * 8, "abs": 2 ** -21.41}]})

    # printf with a struct argument passed by value: {double scale; int offset; char tag[12]}.
    xs = [5, -7, 100, 3, 0, 42]
    scale, offset, tag = 1.5, -3, b"demo"
    params = struct.pack("<di", scale, offset) + tag + bytes(12 - len(tag))
    text = ""
    for blk in range(2):
        for t, xv in enumerate(xs):
            # C's %#x prints 0 as "0" (Python's gives "0x0").
            hexed = "%#x" % (xv & 0xFFFFFFFF) if xv else "0"
            text += "[%s] block %d thread %2d: x=%-4d scaled=%.3f hex=%s %c\n" % (
                tag.decode(), blk, t, xv, scale * xv + offset, hexed, chr(ord("a") + t % 26))
    case("printf", "io.ptx",
         {"kernel": "hello", "grid": 2, "block": len(xs),
          "args": [{"buffer": "s32", "data": xs}, {"type": "bytes", "value": "0x" + params.hex()}]},
         {"exit": 0, "stdout": text, "buffers": [{"arg": 0, "data": xs, "rel": 0, "abs": 0}]})

    # assert: element 4 is negative.
    xs = [1, 2, 3, 4, -5, 6, 7, 8]
    case("assert", "io.ptx",
         {"kernel": "check_positive", "grid": 1, "block": 8,
          "args": [{"buffer": "s32", "data": xs}, {"buffer": "s32", "len": 8}, {"type": "s32", "value": 8}]},
         {"exit": 2, "stderr": ["tid=(4,0,0)", "assertion `x[i] >= 0` failed", "src/io.cu:20",
                                "void check_positive(const int *, int *, int)"]})

    # mma tile: 3 tiles of small integers, so every sum is exact in f32.
    def half_bits(v):
        return struct.unpack("<H", struct.pack("<e", v))[0]
    tiles = 3
    a = [rng.randint(-4, 4) * 0.5 for _ in range(tiles * 256)]
    bt = [rng.randint(-4, 4) for _ in range(tiles * 128)]
    c = [float(rng.randint(-20, 20)) for _ in range(tiles * 128)]
    d = []
    for tile in range(tiles):
        for m in range(16):
            for nn in range(8):
                acc = c[tile * 128 + m * 8 + nn]
                for kk2 in range(16):
                    acc += a[tile * 256 + m * 16 + kk2] * bt[tile * 128 + nn * 16 + kk2]
                d.append(acc)
    case("mma_tile", "tensor.ptx",
         {"kernel": "mma_tile", "grid": tiles, "block": 32,
          "args": [{"buffer": "u16", "data": [half_bits(v) for v in a]},
                   {"buffer": "u16", "data": [half_bits(v) for v in bt]}, buf(c), {"buffer": "f32", "len": tiles * 128}]},
         {"exit": 0, "buffers": [{"arg": 3, "data": d, "rel": 0, "abs": 0}]})

    # cp.async double buffer: 5 chunks of 64 threads x 4 floats.
    threads, chunks = 64, 5
    per = threads * 4
    x = [float(rng.randint(-1000, 1000)) for _ in range(chunks * per)]
    want = [x[i] * 2 + (x[i - per] if i >= per else 0.0) for i in range(chunks * per)]
    case("double_buffer", "tensor.ptx",
         {"kernel": "double_buffer", "grid": 1, "block": threads, "dynamic_shared_bytes": 2 * per * 4,
          "args": [buf(x), {"buffer": "f32", "len": chunks * per}, {"type": "s32", "value": chunks}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 0, "abs": 0}]})

    # mbarrier.cu: libcu++'s cuda::barrier and cuda::pipeline, on small integers so
    # every value is exact. Their own generator leaves the other cases' draws as they were.
    mrng = random.Random(90)
    # Producer/consumer: 2 blocks of 1 producer warp and 128 consumers, 5 rounds.
    blocks, cons, rounds = 2, 128, 5
    x = [mrng.randint(-10000, 10000) for _ in range(blocks * rounds * cons)]
    want = []
    for b in range(blocks):
        acc = [0] * cons
        for r in range(rounds):
            for c in range(cons):
                tile = x[(b * rounds + r) * cons + c] * 3 + r
                acc[c] += tile
                want.append(tile - acc[c])
    case("mbarrier_producer_consumer", "mbarrier.ptx",
         {"kernel": "producer_consumer", "grid": blocks, "block": cons + 32,
          "args": [{"buffer": "s32", "data": x}, {"buffer": "s32", "len": len(x)},
                   {"type": "s32", "value": rounds}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 0, "abs": 0}]})

    # Split arrive/wait: 3 blocks of 128 threads.
    blocks, n = 3, 128
    x = [float(mrng.randint(-5000, 5000)) for _ in range(blocks * n)]
    want = [x[b * n + n - 1 - t] * 2 + x[b * n + t] + 1 for b in range(blocks) for t in range(n)]
    case("mbarrier_split_phase", "mbarrier.ptx",
         {"kernel": "split_phase", "grid": blocks, "block": n,
          "args": [buf(x), {"buffer": "f32", "len": blocks * n}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 0, "abs": 0}]})

    # cuda::memcpy_async with a barrier: 2 blocks of 64 threads, 300 ints each.
    blocks, n = 2, 300
    x = [mrng.randint(-10 ** 6, 10 ** 6) for _ in range(blocks * n)]
    want = [x[b * n + n - 1 - i] + i for b in range(blocks) for i in range(n)]
    case("mbarrier_memcpy_async", "mbarrier.ptx",
         {"kernel": "memcpy_barrier", "grid": blocks, "block": 64, "dynamic_shared_bytes": n * 4,
          "args": [{"buffer": "s32", "data": x}, {"buffer": "s32", "len": blocks * n},
                   {"type": "s32", "value": n}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 0, "abs": 0}]})

    # cuda::pipeline double buffer: 7 chunks of 96 floats.
    n, chunks = 96, 7
    x = [float(mrng.randint(-1000, 1000)) for _ in range(chunks * n)]
    want = [2 * x[k * n + t] + x[k * n + n - 1 - t] for k in range(chunks) for t in range(n)]
    case("mbarrier_pipeline", "mbarrier.ptx",
         {"kernel": "pipeline_double", "grid": 1, "block": n, "dynamic_shared_bytes": 2 * n * 4,
          "args": [buf(x), {"buffer": "f32", "len": chunks * n}, {"type": "s32", "value": chunks}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": want, "rel": 0, "abs": 0}]})

    # CUDA's SIMD intrinsics (simd.cu) on 300 pairs of words: edge elements (0, 1, the
    # signed and unsigned extremes) mixed with random ones.
    edges2 = [0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe]
    edges4 = [0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe]
    xs, ys = [], []
    for k in range(300):
        if k % 3 == 0:
            w = [rng.choice(edges2) for _ in range(4)]
            xs.append(w[0] | w[1] << 16)
            ys.append(w[2] | w[3] << 16)
        elif k % 3 == 1:
            w = [rng.choice(edges4) for _ in range(8)]
            xs.append(sum(v << (8 * i) for i, v in enumerate(w[:4])))
            ys.append(sum(v << (8 * i) for i, v in enumerate(w[4:])))
        else:
            xs.append(rng.getrandbits(32))
            ys.append(rng.getrandbits(32))
    want = []
    for x, y in zip(xs, ys):
        want += simd_intrinsics(x, y)
    case("simd", "simd.ptx",
         {"kernel": "simd", "grid": 3, "block": 128,
          "args": [{"buffer": "u32", "data": xs}, {"buffer": "u32", "data": ys},
                   {"buffer": "u32", "len": len(xs) * 82}, {"type": "s32", "value": len(xs)}]},
         {"exit": 0, "buffers": [{"arg": 2, "data": want, "rel": 0, "abs": 0}]})

    # stmatrix (tests/kernels/src/hopper.cu): the ISA's fragment layout (PTX ISA
    # 9.7.14.5.16, the same as ldmatrix's): lane 4g + t holds row g, columns 2t and
    # 2t + 1 of each matrix in the low and high half of its register (with .trans,
    # column g, rows 2t and 2t + 1). Row r of matrix m goes to the address lane 8m + r
    # gives: row 7 - r of tile[m], rows 16 halves apart. Then ldmatrix reads every
    # lane's registers back; registers past the matrices stay 0.
    for count in (1, 2, 4):
        for trans in (False, True):
            tile = [0xFFFF] * (4 * 8 * 16)
            for m in range(count):
                for lane in range(32):
                    g, t = lane // 4, lane % 4
                    for j in range(2):
                        value = 0x1000 * m + 2 * lane + j
                        row, col = (2 * t + j, g) if trans else (g, 2 * t + j)
                        tile[m * 128 + (7 - row) * 16 + col] = value
            regs = []
            for lane in range(32):
                regs += [0x1000 * m + 2 * lane | (0x1000 * m + 2 * lane + 1) << 16 if m < count else 0
                         for m in range(4)]
            halves = tile + [h for r in regs for h in (r & 0xFFFF, r >> 16)]
            name = f"stmatrix_x{count}" + ("_trans" if trans else "")
            case(name, "hopper.ptx",
                 {"kernel": name, "grid": 1, "block": 32, "args": [{"buffer": "u16", "len": len(halves)}]},
                 {"exit": 0, "buffers": [{"arg": 0, "data": halves, "rel": 0, "abs": 0}]})

    # mma.sync.m16n8k16.row.col.f16.f16.f16.f16 (tests/kernels/src/hopper.cu): the
    # ISA's fragments (PTX ISA 9.7.14.5.8): lane 4g + t holds A's a0..a7 at (g, 2t),
    # (g, 2t+1), (g+8, 2t), (g+8, 2t+1), then the same 8 columns on; B's b0..b3 at
    # (2t, g), (2t+1, g), (2t+8, g), (2t+9, g); C's and D's c0..c3 at (g, 2t), (g, 2t+1),
    # (g+8, 2t), (g+8, 2t+1); two halves to a register, the first in the low bits.
    # Small integers, so every product and partial sum is exact in f32 and D is the
    # exact sum rounded once to f16: the sums reach past 2048, where f16 steps by 2.
    def f16_bits(v):
        return struct.unpack("<H", struct.pack("<e", v))[0]

    def f16_value(bits):
        return struct.unpack("<e", struct.pack("<H", bits))[0]

    am = [[float(rng.randint(-8, 24)) for _ in range(16)] for _ in range(16)]
    bm = [[float(rng.randint(-8, 24)) for _ in range(8)] for _ in range(16)]
    cm = [[float(rng.randint(-300, 1200)) for _ in range(8)] for _ in range(16)]

    def a_at(g, t, i):
        return (g + 8 * (i // 2 % 2), 2 * t + i % 2 + 8 * (i // 4))

    def b_at(g, t, i):
        return (2 * t + i % 2 + 8 * (i // 2), g)

    def c_at(g, t, i):
        return (g + 8 * (i // 2), 2 * t + i % 2)

    def pack(values):
        return [f16_bits(values[k]) | f16_bits(values[k + 1]) << 16 for k in range(0, len(values), 2)]

    a_regs, b_regs, c_regs, d_regs = [], [], [], []
    for lane in range(32):
        g, t = lane // 4, lane % 4
        a_regs += pack([am[r][k] for r, k in (a_at(g, t, i) for i in range(8))])
        b_regs += pack([bm[k][col] for k, col in (b_at(g, t, i) for i in range(4))])
        c_regs += pack([cm[r][col] for r, col in (c_at(g, t, i) for i in range(4))])
        exact = [cm[r][col] + sum(am[r][k] * bm[k][col] for k in range(16))
                 for r, col in (c_at(g, t, i) for i in range(4))]
        d_regs += pack([f16_value(f16_bits(v)) for v in exact])
    assert any(abs(f16_value(f16_bits(v)) - v) > 0 for v in
               (cm[r][c] + sum(am[r][k] * bm[k][c] for k in range(16)) for r in range(16) for c in range(8)))
    case("mma_f16_f16", "hopper.ptx",
         {"kernel": "mma_f16_f16", "grid": 1, "block": 32,
          "args": [{"buffer": "u32", "data": a_regs}, {"buffer": "u32", "data": b_regs},
                   {"buffer": "u32", "data": c_regs}, {"buffer": "u32", "len": 64}]},
         {"exit": 0, "buffers": [{"arg": 3, "data": d_regs, "rel": 0, "abs": 0}]})

    # A __grid_constant__ struct {int n; float scale; float bias[6]} read through its
    # address: out[i] = bias[i % 6] * scale + 100 (it is a grid constant) for i < n.
    n, scale, bias = 7, 2.5, [1.0, -2.0, 3.5, 0.25, 8.0, -0.5]
    raw = struct.pack("<if6f", n, scale, *bias)
    case("grid_constant", "hopper.ptx",
         {"kernel": "grid_constant", "grid": 1, "block": 12,
          "args": [{"type": "bytes", "value": "0x" + raw.hex()}, {"buffer": "f32", "len": 12}]},
         {"exit": 0, "buffers": [{"arg": 1, "data": [f32(bias[i % 6] * scale + 100.0) if i < n else 0.0
                                                     for i in range(12)], "rel": 0, "abs": 0}]})

    # setmaxnreg: a hint; the producer warpgroup writes 1s, the consumer 2s.
    case("setmaxnreg_split", "hopper.ptx",
         {"kernel": "setmaxnreg_split", "grid": 1, "block": 256, "args": [{"buffer": "s32", "len": 256}]},
         {"exit": 0, "buffers": [{"arg": 0, "data": [1] * 128 + [2] * 128, "rel": 0, "abs": 0}]})

    # Half-precision atomics and a 16-bit compare-and-swap (atomics.cu): 64 threads add
    # t % 4, so every partial sum is a small integer, exact in f16 and bf16 alike.
    n = 64
    x = [float(t % 4) for t in range(n)]
    total = sum(x)
    case("atomics", "atomics.ptx",
         {"kernel": "half_atomics", "grid": 2, "block": 32,
          "args": [buf(x), {"buffer": "u16", "len": 1}, {"buffer": "u32", "len": 1},
                   {"buffer": "u16", "len": 1}, {"buffer": "u32", "len": 1},
                   {"buffer": "u16", "data": list(range(n))}, {"buffer": "u16", "len": n}]},
         {"exit": 0, "buffers": [
             {"arg": 1, "data": [half_bits(total)], "rel": 0, "abs": 0},
             {"arg": 2, "data": [half_bits(total) | half_bits(2 * total) << 16], "rel": 0, "abs": 0},
             {"arg": 3, "data": [bf16_bits(total)], "rel": 0, "abs": 0},
             {"arg": 4, "data": [bf16_bits(total) | bf16_bits(-total) << 16], "rel": 0, "abs": 0},
             {"arg": 5, "data": [t + 1000 for t in range(n)], "rel": 0, "abs": 0},
             {"arg": 6, "data": list(range(n)), "rel": 0, "abs": 0}]})


def bf16_bits(v):
    """bfloat16 bits of a value exactly representable in it: the f32's top half."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    assert bits & 0xffff == 0
    return bits >> 16


def simd_intrinsics(x, y):
    """The 82 results of simd.cu for one pair, from the CUDA Math API's definitions of
    the SIMD intrinsics ("SIMD Intrinsics"; the comments of crt/device_functions.h)."""
    out = []
    for bits in (16, 8):
        n, mask = 32 // bits, (1 << bits) - 1
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

        def parts(v, signed):
            ps = [(v >> (bits * i)) & mask for i in range(n)]
            return [p - (1 << bits) if signed and p > hi else p for p in ps]

        def each(f, signed=False, unary=False):
            pa, pb = parts(x, signed), parts(y, signed)
            r = 0
            for i in range(n):
                v = f(pa[i]) if unary else f(pa[i], pb[i])
                r |= (v & mask) << (bits * i)
            return r

        sat_s = lambda v: min(max(v, lo), hi)
        sat_u = lambda v: min(max(v, 0), mask)
        cmp = lambda rel, signed, one: each(lambda a, b: one if rel(a, b) else 0, signed)
        eq, ge, gt = (lambda a, b: a == b), (lambda a, b: a >= b), (lambda a, b: a > b)
        le, lt, ne = (lambda a, b: a <= b), (lambda a, b: a < b), (lambda a, b: a != b)

        def avg_away(a, b):
            # Ties (odd sums) rounded away from zero.
            s = a + b
            return (s + 1) // 2 if s >= 0 else -((-s + 1) // 2)

        out += [
            each(abs, True, True),                              # vabs
            each(lambda a, b: abs(a - b), True),                # vabsdiffs
            each(lambda a, b: abs(a - b)),                      # vabsdiffu
            each(lambda a: sat_s(abs(a)), True, True),          # vabsss
            each(lambda a, b: a + b),                           # vadd
            each(lambda a, b: sat_s(a + b), True),              # vaddss
            each(lambda a, b: sat_u(a + b)),                    # vaddus
            each(avg_away, True),                               # vavgs
            each(lambda a, b: (a + b + 1) // 2),                # vavgu
            cmp(eq, False, mask),                               # vcmpeq
            cmp(ge, True, mask), cmp(ge, False, mask),          # vcmpges, vcmpgeu
            cmp(gt, True, mask), cmp(gt, False, mask),          # vcmpgts, vcmpgtu
            cmp(le, True, mask), cmp(le, False, mask),          # vcmples, vcmpleu
            cmp(lt, True, mask), cmp(lt, False, mask),          # vcmplts, vcmpltu
            cmp(ne, False, mask),                               # vcmpne
            each(lambda a, b: (a + b) // 2),                    # vhaddu
            each(max, True), each(max),                         # vmaxs, vmaxu
            each(min, True), each(min),                         # vmins, vminu
            each(lambda a: -a, True, True),                     # vneg
            each(lambda a: sat_s(-a), True, True),              # vnegss
            sum(abs(a - b) for a, b in zip(parts(x, True), parts(y, True))),   # vsads
            sum(abs(a - b) for a, b in zip(parts(x, False), parts(y, False))), # vsadu
            cmp(eq, False, 1),                                  # vseteq
            cmp(ge, True, 1), cmp(ge, False, 1),                # vsetges, vsetgeu
            cmp(gt, True, 1), cmp(gt, False, 1),                # vsetgts, vsetgtu
            cmp(le, True, 1), cmp(le, False, 1),                # vsetles, vsetleu
            cmp(lt, True, 1), cmp(lt, False, 1),                # vsetlts, vsetltu
            cmp(ne, False, 1),                                  # vsetne
            each(lambda a, b: a - b),                           # vsub
            each(lambda a, b: sat_s(a - b), True),              # vsubss
            each(lambda a, b: sat_u(a - b)),                    # vsubus
        ]
    # The header's own examples hold.
    assert len(out) == 82
    return out


if __name__ == "__main__":
    main()
