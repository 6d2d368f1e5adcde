#!/usr/bin/env python3
"""Launch specs and independent expected results for the wmma cases of tests/kernels/
(tests/kernels.rs), in the format tools/kernel_cases.py documents.

The kernels: corpus/cuda/ptx/sm_{80,90}/wmma_gemm.ptx (nvcc output of
corpus/cuda/src/wmma_gemm.cu), tests/kernels/wmma.ptx (nvcc 13.5 output of
tests/kernels/src/wmma.cu; the command is in the source) and the hand-written
tests/kernels/wmma_f64_rnd.ptx. Each expected matrix is computed here from the
kernel's source, with plain Python integers and fractions, never from ptxvm:

- f16, bf16, tf32 and integer inputs are small integers or quarters, so every sum is
  exact in f32 (and in f16 where the kernel accumulates in f16) whatever the order
  and rounding of the tensor cores; the tf32 inputs carry a tail below tf32's
  precision that the kernel's __float_to_tf32 rounds away.
- s4, u4 and b1 elements are packed into 32-bit words, the first in the lowest bits
  (whatever order a GPU packs them in, A and B agree, so the sums are the same).
- f64 inputs are random doubles; the result is one fma per product in k order,
  starting from C, each rounded in the instruction's mode (what an H100's `mma.sync`
  f64 does, tests/hw/tensor). fractions.Fraction gives each exact value.
- A stride below the matrix's leading dimension, a misaligned row, an access past a
  buffer and a partial warp are faults.

Usage: python3 tools/wmma_cases.py   (deterministic; standard library only)
"""

import json
import math
import os
import random
from fractions import Fraction

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "kernels")


def case(name, ptx, launch, expected):
    with open(os.path.join(OUT, f"{name}.launch.json"), "w") as f:
        json.dump(launch, f)
        f.write("\n")
    with open(os.path.join(OUT, f"{name}.expected.json"), "w") as f:
        json.dump({"ptx": ptx, **expected}, f)
        f.write("\n")


def store(m, rows, cols, col=False, stride=None, fill=0, length=None):
    """Matrix m (a list of rows) laid out row- or column-major with a stride."""
    stride = stride or (rows if col else cols)
    n = length or ((cols - 1) * stride + rows if col else (rows - 1) * stride + cols)
    out = [fill] * n
    for r in range(rows):
        for c in range(cols):
            out[c * stride + r if col else r * stride + c] = m[r][c]
    return out


def matmul(a, b, c):
    return [[c[i][j] + sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def rand(rng, rows, cols, lo, hi, scale=1):
    return [[Fraction(rng.randint(lo, hi), scale) for _ in range(cols)] for _ in range(rows)]


def num(x):
    return int(x) if x.denominator == 1 else float(x)


def nums(xs):
    return [num(x) if isinstance(x, Fraction) else x for x in xs]


def buf(kind, data):
    return {"buffer": kind, "data": nums(data)}


def exact(arg, data):
    return {"arg": arg, "data": nums(data), "rel": 0, "abs": 0}


def fault(*stderr):
    return {"exit": 2, "stderr": list(stderr)}


def pack(elements, bits):
    """Sub-byte elements packed into u32 words, the first in the lowest bits."""
    per = 32 // bits
    elements = elements + [0] * (-len(elements) % per)
    return [sum((int(e) & ((1 << bits) - 1)) << (bits * j) for j, e in enumerate(elements[w:w + per]))
            for w in range(0, len(elements), per)]


def round_f64(q, mode):
    """The f64 nearest the fraction q in rounding mode rn, rz, rm or rp."""
    x = float(q)  # to nearest, ties to even
    if mode == "rz" and abs(Fraction(x)) > abs(q):
        x = math.nextafter(x, 0.0)
    elif mode == "rm" and Fraction(x) > q:
        x = math.nextafter(x, -math.inf)
    elif mode == "rp" and Fraction(x) < q:
        x = math.nextafter(x, math.inf)
    return x


def fma_chain(a, b, c, mode):
    """D = A*B + C as fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, c)))), each rounded."""
    d = []
    for i in range(len(a)):
        row = []
        for j in range(len(b[0])):
            acc = c[i][j]
            for k in range(len(b)):
                acc = round_f64(Fraction(a[i][k]) * Fraction(b[k][j]) + Fraction(acc), mode)
            row.append(acc)
        d.append(row)
    return d


def rand_f64(rng, rows, cols):
    return [[rng.choice([-1, 1]) * rng.uniform(0.5, 2) * 2.0 ** rng.randint(-3, 3) for _ in range(cols)]
            for _ in range(rows)]


def corpus(rng, sm):
    ptx = f"corpus/cuda/ptx/sm_{sm}/wmma_gemm.ptx"
    # wmma_hgemm: C (MxN, f32) = A (MxK, row-major) * B (KxN, column-major: N rows of
    # K), one warp per 16x16 tile, K in steps of 16.
    m, n, k = 32, 48, 32
    a, b = rand(rng, m, k, -8, 8, 4), rand(rng, k, n, -8, 8, 4)
    zero = [[0] * n for _ in range(m)]
    hgemm = "_Z10wmma_hgemmPK6__halfS1_Pfiii"

    def hgemm_args(kk, a_len=None):
        return [buf("f16", store(a, m, k)[:a_len]), buf("f16", store(b, k, n, col=True)),
                {"buffer": "f32", "len": m * n}, {"type": "s32", "value": m}, {"type": "s32", "value": n},
                {"type": "s32", "value": kk}]

    case(f"wmma_corpus{sm}_hgemm", ptx,
         {"kernel": hgemm, "grid": [1, 3], "block": [64, 1], "args": hgemm_args(k)},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, zero), m, n))]})
    # K = 20: rows 40 bytes apart, not a multiple of 16.
    case(f"wmma_corpus{sm}_misaligned", ptx,
         {"kernel": hgemm, "grid": [1, 3], "block": [64, 1], "args": hgemm_args(20)},
         fault("wmma.load.a", "misaligned", "40 bytes apart"))

    # wmma_int8: 16x16x16 s8, A row-major, B column-major, C row-major.
    a, b = rand(rng, 16, 16, -128, 127), rand(rng, 16, 16, -128, 127)
    zero = [[0] * 16 for _ in range(16)]
    int8 = "_Z9wmma_int8PKaS0_Pi"

    def int8_args(a_len=256):
        return [buf("s8", store(a, 16, 16)[:a_len]), buf("s8", store(b, 16, 16, col=True)),
                {"buffer": "s32", "len": 256}]

    case(f"wmma_corpus{sm}_int8", ptx, {"kernel": int8, "grid": 1, "block": 32, "args": int8_args()},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, zero), 16, 16))]})
    case(f"wmma_corpus{sm}_out_of_bounds", ptx,
         {"kernel": int8, "grid": 1, "block": 32, "args": int8_args(200)},
         fault("wmma.load.a", "out of bounds", "args[0]"))
    case(f"wmma_corpus{sm}_partial_warp", ptx, {"kernel": int8, "grid": 1, "block": 16, "args": int8_args()},
         fault("wmma.load.sync.aligned needs all 32 threads"))

    # wmma_bf16: 16x16x16 bf16 into f32, A and B row-major.
    a, b = rand(rng, 16, 16, -16, 16, 4), rand(rng, 16, 16, -16, 16, 4)
    case(f"wmma_corpus{sm}_bf16", ptx,
         {"kernel": "_Z9wmma_bf16PK13__nv_bfloat16S1_Pf", "grid": 1, "block": 32,
          "args": [buf("bf16", store(a, 16, 16)), buf("bf16", store(b, 16, 16)), {"buffer": "f32", "len": 256}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, zero), 16, 16))]})

    # wmma_half_acc stores a 32x8 column-major matrix with stride 8, below its 32 rows:
    # undefined (columns overlap), a fault.
    case(f"wmma_corpus{sm}_half_acc_stride", ptx,
         {"kernel": "_Z13wmma_half_accPK6__halfS1_PS_", "grid": 1, "block": 32,
          "args": [buf("f16", [1] * 512), buf("f16", [1] * 128), {"buffer": "f16", "len": 256}]},
         fault("wmma.store", "the stride 8 is less than the matrix's 32 rows"))


def shapes(rng):
    ptx = "tests/kernels/wmma.ptx"

    # m8n32k16: D = 2 * (A*B + C); B inside a 16x40 array whose other columns the
    # kernel must not read (they hold 99).
    a, b, c = rand(rng, 8, 16, -3, 3), rand(rng, 16, 32, -3, 3), rand(rng, 8, 32, -5, 5)
    d = [[2 * x for x in row] for row in matmul(a, b, c)]
    case("wmma_m8n32k16", ptx,
         {"kernel": "m8n32k16", "grid": 1, "block": 32,
          "args": [buf("f16", store(a, 8, 16, col=True)), buf("f16", store(b, 16, 32, stride=40, fill=99)),
                   buf("f32", store(c, 8, 32, col=True)), {"buffer": "f32", "len": 256}]},
         {"exit": 0, "buffers": [exact(3, store(d, 8, 32))]})

    # tf32: quarters plus 2^-14, which rounding to tf32 (10 fraction bits) drops.
    def tail(m):
        return [[x + (Fraction(1, 2 ** 14) if x else 0) for x in row] for row in m]

    a, b = rand(rng, 16, 8, -16, 16, 4), rand(rng, 8, 16, -16, 16, 4)
    ones = [[1] * 16 for _ in range(16)]
    case("wmma_tf32", ptx,
         {"kernel": "tf32", "grid": 1, "block": 32,
          "args": [buf("f32", store(tail(a), 16, 8)), buf("f32", store(tail(b), 8, 16, col=True)),
                   {"buffer": "f32", "len": 24 * 16}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, ones), 16, 16, col=True, stride=24, length=384))]})

    # f64 m8n8k4, random doubles.
    a, b, c = rand_f64(rng, 8, 4), rand_f64(rng, 4, 8), rand_f64(rng, 8, 8)
    case("wmma_f64", ptx,
         {"kernel": "f64", "grid": 1, "block": 32,
          "args": [buf("f64", store(a, 8, 4, col=True)), buf("f64", store(b, 4, 8)), buf("f64", store(c, 8, 8)),
                   {"buffer": "f64", "len": 64}]},
         {"exit": 0, "buffers": [exact(3, store(fma_chain(a, b, c, "rn"), 8, 8, col=True))]})

    # u8 with .satfinite: C close to INT_MAX in half the rows, so some sums clamp.
    a, b = rand(rng, 32, 16, 0, 255), rand(rng, 16, 8, 0, 255)
    c = [[(2 ** 31 - 1 - rng.randint(0, 600000)) if r % 2 else rng.randint(-1000, 1000) for _ in range(8)]
         for r in range(32)]
    d = [[min(x, 2 ** 31 - 1) for x in row] for row in matmul(a, b, c)]
    assert any(x == 2 ** 31 - 1 for row in d for x in row) and any(2 ** 30 < x < 2 ** 31 - 1 for row in d for x in row)
    case("wmma_u8_satfinite", ptx,
         {"kernel": "u8_satfinite", "grid": 1, "block": 32,
          "args": [buf("u8", store(a, 32, 16)), buf("u8", store(b, 16, 8, col=True)), buf("s32", store(c, 32, 8)),
                   {"buffer": "s32", "len": 256}]},
         {"exit": 0, "buffers": [exact(3, store(d, 32, 8))]})

    # s8 m8n32k16, C = -7.
    a, b = rand(rng, 8, 16, -128, 127), rand(rng, 16, 32, -128, 127)
    c = [[-7] * 32 for _ in range(8)]
    case("wmma_s8_m8n32k16", ptx,
         {"kernel": "s8_m8n32k16", "grid": 1, "block": 32,
          "args": [buf("s8", store(a, 8, 16, col=True)), buf("s8", store(b, 16, 32)), {"buffer": "s32", "len": 256}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, c), 8, 32, col=True))]})

    # bf16 m32n8k16, C = 0.5.
    a, b = rand(rng, 32, 16, -16, 16, 4), rand(rng, 16, 8, -16, 16, 4)
    c = [[Fraction(1, 2)] * 8 for _ in range(32)]
    case("wmma_bf16_m32n8k16", ptx,
         {"kernel": "bf16_m32n8k16", "grid": 1, "block": 32,
          "args": [buf("bf16", store(a, 32, 16, col=True)), buf("bf16", store(b, 16, 8, col=True)),
                   {"buffer": "f32", "len": 256}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, c), 32, 8))]})

    # f16 accumulators through shared memory, halved element-wise.
    a, b, c = rand(rng, 16, 16, -3, 3), rand(rng, 16, 16, -3, 3), rand(rng, 16, 16, -8, 8)
    d = [[x / 2 for x in row] for row in matmul(a, b, c)]
    case("wmma_f16_shared", ptx,
         {"kernel": "f16_shared", "grid": 1, "block": 32,
          "args": [buf("f16", store(a, 16, 16, col=True)), buf("f16", store(b, 16, 16)),
                   buf("f16", store(c, 16, 16, col=True)), {"buffer": "f16", "len": 256}]},
         {"exit": 0, "buffers": [exact(3, store(d, 16, 16))]})

    # f64 in every rounding mode (hand-written PTX): products with tails below an
    # f64's precision, so the modes differ.
    a, b, c = rand_f64(rng, 8, 4), rand_f64(rng, 4, 8), rand_f64(rng, 8, 8)
    want = []
    for mode in ["rn", "rz", "rm", "rp"]:
        want += store(fma_chain(a, b, c, mode), 8, 8)
    assert len({tuple(want[i * 64:(i + 1) * 64]) for i in range(4)}) == 4
    case("wmma_f64_rnd", "tests/kernels/wmma_f64_rnd.ptx",
         {"kernel": "wmma_f64_rnd", "grid": 1, "block": 32,
          "args": [buf("f64", store(a, 8, 4)), buf("f64", store(b, 4, 8, col=True)), buf("f64", store(c, 8, 8)),
                   {"buffer": "f64", "len": 256}]},
         {"exit": 0, "buffers": [exact(3, want)]})


def sub_byte(rng):
    ptx = "tests/kernels/wmma.ptx"

    # s4: C = 3.
    a, b = rand(rng, 8, 32, -8, 7), rand(rng, 32, 8, -8, 7)
    c = [[3] * 8 for _ in range(8)]
    case("wmma_s4", ptx,
         {"kernel": "s4", "grid": 1, "block": 32,
          "args": [buf("u32", pack(store(a, 8, 32), 4)), buf("u32", pack(store(b, 32, 8, col=True), 4)),
                   {"buffer": "s32", "len": 64}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, c), 8, 8))]})

    # u4 with .satfinite: A's rows 64 elements apart (the rest 15s it must not read).
    a, b = rand(rng, 8, 32, 0, 15), rand(rng, 32, 8, 0, 15)
    c = [[(2 ** 31 - 1 - rng.randint(0, 8000)) if (r + col) % 2 else rng.randint(-100, 100) for col in range(8)]
         for r in range(8)]
    d = [[min(x, 2 ** 31 - 1) for x in row] for row in matmul(a, b, c)]
    assert any(x == 2 ** 31 - 1 for row in d for x in row) and any(2 ** 30 < x < 2 ** 31 - 1 for row in d for x in row)
    case("wmma_u4_satfinite", ptx,
         {"kernel": "u4_satfinite", "grid": 1, "block": 32,
          "args": [buf("u32", pack(store(a, 8, 32, stride=64, fill=15, length=512), 4)),
                   buf("u32", pack(store(b, 32, 8, col=True), 4)), buf("s32", store(c, 8, 8, col=True)),
                   {"buffer": "s32", "len": 64}]},
         {"exit": 0, "buffers": [exact(3, store(d, 8, 8))]})

    # b1: popc(A & B) + 1, then popc(A ^ B) + 1.
    a, b = rand(rng, 8, 128, 0, 1), rand(rng, 128, 8, 0, 1)
    ones = [[1] * 8 for _ in range(8)]
    xor = [[1 + sum(int(a[i][k]) ^ int(b[k][j]) for k in range(128)) for j in range(8)] for i in range(8)]
    case("wmma_b1", ptx,
         {"kernel": "b1", "grid": 1, "block": 32,
          "args": [buf("u32", pack(store(a, 8, 128), 1)), buf("u32", pack(store(b, 128, 8, col=True), 1)),
                   {"buffer": "s32", "len": 128}]},
         {"exit": 0, "buffers": [exact(2, store(matmul(a, b, ones), 8, 8) + store(xor, 8, 8))]})


def main():
    rng = random.Random(16)
    for sm in [80, 90]:
        corpus(rng, sm)
    shapes(rng)
    sub_byte(rng)


if __name__ == "__main__":
    main()
