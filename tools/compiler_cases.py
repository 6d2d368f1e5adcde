#!/usr/bin/env python3
"""Launch specs and independently computed expected results for real compiler kernels.

Writes tests/compilers/<case>.launch.json and tests/compilers/<case>.expected.json for
kernels of the corpus (nvcc 13.5 PTX for sm_90, llc 14 PTX for sm_80). Every expected
value is computed here from the semantics of the kernel's source (corpus/cuda/src/*.cu,
corpus/llvm/src/*.ll) in plain Python: integers with explicit wrap-around, floats with
exact rational arithmetic (fractions.Fraction) rounded once per operation to the
kernel's float format, fused multiply-adds rounded once where the PTX has `fma.rn`.
Nothing here comes from ptxvm's output.

Usage: python3 tools/compiler_cases.py [OUTDIR]   (default tests/compilers; deterministic)
Python 3.11, standard library only.

Expected-file fields (read by tests/compilers.rs):
  ptx          the PTX file the case runs, relative to the repository root
  source       the source and kernel it was compiled from
  enabled      false only while ptxvm cannot run an instruction the kernel needs
  waiting_for  (disabled cases) what ptxvm must learn first
  exit         0 (ran) or 2 (runtime fault)
  buffers      (exit 0) every buffer argument after the launch, as ptxvm prints them;
               a null element is not checked (its value depends on the order in which
               threads performed atomics, e.g. the winner of an atomicExch)
  stderr       (exit 2) substrings the diagnostic must contain
"""

import json
import math
import os
import random
import struct
import sys
from fractions import Fraction

NAN = float("nan")
INF = float("inf")

# ---------------------------------------------------------------------------
# Integers

def wrap(x, bits, signed):
    x &= (1 << bits) - 1
    if signed and x >> (bits - 1):
        x -= 1 << bits
    return x

def s8(x): return wrap(x, 8, True)
def u8(x): return wrap(x, 8, False)
def s16(x): return wrap(x, 16, True)
def u16(x): return wrap(x, 16, False)
def s32(x): return wrap(x, 32, True)
def u32(x): return wrap(x, 32, False)
def s64(x): return wrap(x, 64, True)
def u64(x): return wrap(x, 64, False)

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LL_MIN, LL_MAX = -(1 << 63), (1 << 63) - 1

def cdiv(a, b):
    """C division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q

def cmod(a, b):
    return a - b * cdiv(a, b)

def popc(x): return bin(x).count("1")

def clz(x, bits):
    return bits - x.bit_length()

def ffs(x):
    return (x & -x).bit_length() if x else 0

def brev(x, bits):
    return int(format(x, "0%db" % bits)[::-1], 2)

# ---------------------------------------------------------------------------
# Floats: values are Python floats holding values exact in their format.

FORMATS = {  # precision bits, smallest normal exponent, largest exponent
    "f16": (11, -14, 15),
    "bf16": (8, -126, 127),
    "f32": (24, -126, 127),
    "f64": (53, -1022, 1023),
}

def round_to(q, fmt):
    """Round the exact rational q to the nearest value of fmt (ties to even)."""
    p, emin, emax = FORMATS[fmt]
    if q == 0:
        return 0.0
    neg = q < 0
    a = -q if neg else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if a < Fraction(2) ** e:
        e -= 1
    elif a >= Fraction(2) ** (e + 1):
        e += 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - (p - 1))
    scaled = a / quantum
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    v = n * quantum
    if v >= Fraction(2) ** (emax + 1):
        return -INF if neg else INF
    r = float(v)
    return -r if neg else r

def sign_neg(x):
    return math.copysign(1.0, x) < 0

def fadd(a, b, fmt):
    if math.isnan(a) or math.isnan(b):
        return NAN
    if math.isinf(a) or math.isinf(b):
        return a + b  # inf - inf is nan in Python too
    s = Fraction(a) + Fraction(b)
    if s == 0:
        return -0.0 if (a == 0 and b == 0 and sign_neg(a) and sign_neg(b)) else 0.0
    return round_to(s, fmt)

def fsub(a, b, fmt):
    return fadd(a, -b, fmt)

def fmul(a, b, fmt):
    if math.isnan(a) or math.isnan(b):
        return NAN
    neg = sign_neg(a) != sign_neg(b)
    if math.isinf(a) or math.isinf(b):
        if a == 0 or b == 0:
            return NAN
        return -INF if neg else INF
    p = Fraction(a) * Fraction(b)
    if p == 0:
        return -0.0 if neg else 0.0
    return round_to(p, fmt)

def fdiv(a, b, fmt):
    if math.isnan(a) or math.isnan(b):
        return NAN
    neg = sign_neg(a) != sign_neg(b)
    if math.isinf(a):
        return NAN if math.isinf(b) else (-INF if neg else INF)
    if math.isinf(b):
        return -0.0 if neg else 0.0
    if b == 0:
        return NAN if a == 0 else (-INF if neg else INF)
    if a == 0:
        return -0.0 if neg else 0.0
    return round_to(Fraction(a) / Fraction(b), fmt)

def ffma(a, b, c, fmt):
    """a*b+c rounded once (fma.rn)."""
    if math.isnan(a) or math.isnan(b) or math.isnan(c):
        return NAN
    pneg = sign_neg(a) != sign_neg(b)
    if math.isinf(a) or math.isinf(b):
        if a == 0 or b == 0:
            return NAN
        pinf = -INF if pneg else INF
        return pinf + c
    if math.isinf(c):
        return c
    s = Fraction(a) * Fraction(b) + Fraction(c)
    if s == 0:
        pzero = a == 0 or b == 0
        if pzero and c == 0 and pneg and sign_neg(c):
            return -0.0
        return 0.0
    return round_to(s, fmt)

def fmin(a, b):
    """PTX min.f32/f16/bf16 (fminf): a NaN operand is ignored."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    assert not (a == 0 and b == 0 and sign_neg(a) != sign_neg(b)), "avoid min(+0,-0)"
    return a if a < b else b

def fmax(a, b):
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    assert not (a == 0 and b == 0 and sign_neg(a) != sign_neg(b)), "avoid max(+0,-0)"
    return a if a > b else b

def f32(x):
    """A double rounded to f32 (exact inputs given as Python floats)."""
    if math.isnan(x) or math.isinf(x):
        return x
    r = round_to(Fraction(x), "f32")
    return -0.0 if (r == 0 and sign_neg(x)) else r

def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]

def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]

def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]

def f16_from_bits(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]

def bf16_from_bits(b):
    return f32_from_bits(b << 16)

def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]

# float -> integer conversions (cvt.rni/rzi/rmi/rpi), PTX ISA 9.x: out-of-range values
# clamp to the destination's range; NaN gives 0 unless the source is f64 or the
# destination is 64-bit, in which case it gives 1 << (width - 1).

def f2i(x, mode, bits, signed, src64=False):
    if math.isnan(x):
        if src64 or bits == 64:
            return (-(1 << (bits - 1))) if signed else (1 << (bits - 1))
        return 0
    lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1))
    if math.isinf(x):
        return hi if x > 0 else lo
    q = Fraction(x)
    fl = math.floor(q)
    if mode == "rz":
        n = math.trunc(q)
    elif mode == "rm":
        n = fl
    elif mode == "rp":
        n = math.ceil(q)
    else:  # rn: nearest, ties to even
        r = q - fl
        n = fl + 1 if (r > Fraction(1, 2) or (r == Fraction(1, 2) and fl % 2 == 1)) else fl
    return min(max(n, lo), hi)

# ---------------------------------------------------------------------------
# Output

RNG = random.Random(20260217)

def rand_u32():
    return RNG.getrandbits(32)

def rand_u64():
    return RNG.getrandbits(64)

def rand_f32(lo, hi):
    """A random f32 in [lo, hi)."""
    return f32(RNG.uniform(lo, hi))

def jval(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v

def dumps(obj, indent=0):
    """JSON with lists of scalars on one line."""
    pad = "  " * indent
    if isinstance(obj, dict):
        items = ['%s  %s: %s' % (pad, json.dumps(k), dumps(v, indent + 1)) for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj):
            return "[" + ", ".join(json.dumps(jval(x)) for x in obj) + "]"
        return "[\n" + ",\n".join(pad + "  " + dumps(x, indent + 1) for x in obj) + "\n" + pad + "]"
    return json.dumps(jval(obj))

class Buf:
    """A buffer argument: element type, initial contents, contents after the kernel."""

    def __init__(self, elem, data):
        self.elem = elem
        self.data = list(data)
        self.out = list(data)
        for v in self.data:
            assert_exact(elem, v)

def assert_exact(elem, v):
    """Inputs must be exact in their element type, or the reference would see other values."""
    if elem in FORMATS and isinstance(v, float) and math.isfinite(v) and v != 0:
        assert round_to(Fraction(v), elem) == v, "%r is not exact in %s" % (v, elem)

def sc(ty, value):
    assert_exact(ty, value)
    return ("scalar", ty, value)

CASES = []

def case(name, ptx, source, kernel, grid, block, args, dyn_shared=0, exit_code=0, stderr=None,
         waiting_for=None):
    spec = {"kernel": kernel, "grid": grid, "block": block}
    if dyn_shared:
        spec["dynamic_shared_bytes"] = dyn_shared
    spec_args = []
    for a in args:
        if isinstance(a, Buf):
            spec_args.append({"buffer": a.elem, "data": a.data})
        else:
            spec_args.append({"type": a[1], "value": a[2]})
    spec["args"] = spec_args
    exp = {"ptx": ptx, "source": source, "enabled": waiting_for is None}
    if waiting_for is not None:
        exp["waiting_for"] = waiting_for
    exp["exit"] = exit_code
    if exit_code == 0:
        exp["buffers"] = [{"arg": k, "buffer": a.elem, "data": a.out}
                          for k, a in enumerate(args) if isinstance(a, Buf)]
    else:
        exp["stderr"] = stderr
    CASES.append((name, spec, exp))

def cuda(name):
    return "corpus/cuda/ptx/sm_90/%s.ptx" % name

def llvm(name):
    return "corpus/llvm/ptx/%s.sm_80.ptx" % name

SENT = 0x5EED  # sentinel in outputs that threads past n must leave alone

def threads(grid, block):
    """Global linear thread indices blockIdx.x * blockDim.x + threadIdx.x (1D)."""
    return range(grid * block)

# Which cases wait for an instruction ptxvm cannot run yet (case name -> what).
# Filled in from running the cases; see tests/compilers/README.md.
# The first thing ptxvm reports it cannot run is named first.
WAITING = {}

def waiting(name):
    return WAITING.get(name)

# ---------------------------------------------------------------------------
# Cases

def branch_nested_classify():
    lo, hi = 10, 50
    vals = [INT_MIN, -1001, -1000, -999, -1, 0, 1, 9, 10, 11, 12, 13, 20, 33, 49, 50, 51, 52,
            100, 101, 1024, 1 << 30, INT_MAX, INT_MAX - 1, -5, 7]
    vals += [s32(rand_u32()) >> RNG.randrange(0, 31) for _ in range(70 - len(vals))]
    n = len(vals)
    grid, block = 3, 32
    inp = Buf("s32", vals)
    out = Buf("s32", [SENT] * (grid * block))

    def ref(v):
        if v < lo:
            return (-3 if v < -1000 else -2) if v < 0 else -1
        if v > hi:
            if v & 1 == 0:
                r, k = 2, v
                while k > hi:
                    r += 1
                    k = cdiv(k, 2)
                return r
            return 3
        r, s = 0, v - lo
        while s > 0:
            if s % 3 == 0:
                r += 3; s -= 3
            elif s % 2 == 0:
                r += 2; s -= 2
            else:
                r += 1; s -= 1
            if r > 64:
                break
        return r

    for i in range(n):
        out.out[i] = ref(vals[i])
    case("branch_nested_classify", cuda("branch_nested"), "branch_nested.cu: classify",
         "_Z8classifyPKiPiiii", grid, block,
         [inp, out, sc("s32", n), sc("s32", lo), sc("s32", hi)])

def branch_nested_collatz():
    seeds = [0, 1, 2, 3, 6, 7, 9, 27, 97, 871, 77031, 837799, 1 << 63, (1 << 64) - 1,
             (1 << 64) - 3, 0x5555555555555555, 1 << 40, 63728127, 670617279, 12345678901234567]
    seeds += [rand_u64() >> RNG.randrange(0, 60) for _ in range(45 - len(seeds))]
    n, cap = len(seeds), 300
    grid, block = 2, 32
    steps = Buf("s32", [SENT] * (grid * block))

    def ref(s):
        if s == 0:
            return 0
        k = 0
        while s != 1:
            if k >= cap:
                return -1
            s = u64(3 * s + 1) if s & 1 else s >> 1
            k += 1
        return k

    for i in range(n):
        steps.out[i] = ref(seeds[i])
    case("branch_nested_collatz", cuda("branch_nested"), "branch_nested.cu: collatz",
         "_Z7collatzPKyPiii", grid, block,
         [Buf("u64", seeds), steps, sc("s32", n), sc("s32", cap)])

def select_heavy_int_selects():
    a = [INT_MIN, INT_MAX, -101, -100, -99, -1, 0, 1, 10, 11, 99, 100, 101, 3, -3, 7, INT_MIN, 5]
    b = [INT_MAX, INT_MIN, 5, -100, 200, -1, 0, 11, 10, 12, -7, 100, 3, 3, -5, 9, -1, INT_MIN]
    while len(a) < 50:
        a.append(s32(rand_u32()) >> RNG.randrange(0, 31))
        b.append(s32(rand_u32()) >> RNG.randrange(0, 31))
    n = len(a)
    grid, block = 2, 32
    out = Buf("s32", [SENT] * 64)
    uout = Buf("u32", [SENT] * 64)
    for i in range(n):
        x, y = a[i], b[i]
        mn, mx = min(x, y), max(x, y)
        clamp = -100 if x < -100 else (100 if x > 100 else x)
        sgn = (x > 0) - (x < 0)
        absx = s32(-x if x < 0 else x)
        ux, uy = u32(x), u32(y)
        umn = min(ux, uy)
        both = (x & 1) != 0 and (y & 1) != 0
        either = x > 10 or y > 10
        out.out[i] = s32(mn + mx * 3 + clamp * 5 + sgn * 7 + absx * 11 + (13 if both else 17)
                         + (19 if either else 23))
        uout.out[i] = umn ^ (0xFFFF if both != either else 0)
    case("select_heavy_int_selects", cuda("select_heavy"), "select_heavy.cu: int_selects",
         "_Z11int_selectsPKiS0_PiPji", grid, block,
         [Buf("s32", a), Buf("s32", b), out, uout, sc("s32", n)])

def float_nan_nan_checks():
    neg_nan = f32_from_bits(0xFFC00000)
    xs = [NAN, "0xffc00000", 1.0, -1.0, INF, -INF, INF, 0.0, -0.0, 1.0, 3.5, -2.25, 1e-45,
          -1e-45, 3.4028234663852886e38, 5.0, NAN, -7.0, 0.5, 2.0]
    ys = [1.0, 2.0, NAN, NAN, 1.0, 5.0, INF, 0.0, -0.0, 1.0, -3.5, -2.5, 0.0, 1e-45,
          -3.4028234663852886e38, -INF, NAN, INF, 0.25, 2.0]
    while len(xs) < 40:
        xs.append(rand_f32(-100, 100))
        ys.append(rand_f32(-100, 100))
    xs = [x if isinstance(x, str) else f32(x) for x in xs]
    ys = [f32(y) for y in ys]
    n = len(xs)
    grid, block = 2, 32
    flags = Buf("s32", [SENT] * 64)
    out = Buf("f32", [-9.0] * 64)
    for i in range(n):
        x = neg_nan if xs[i] == "0xffc00000" else xs[i]
        y = ys[i]
        nan_x, nan_y = math.isnan(x), math.isnan(y)
        f = 0
        if nan_x:
            f |= 1
        if math.isinf(y):
            f |= 2
        if math.isfinite(x) and math.isfinite(y):
            f |= 4
        if not (x >= y):
            f |= 8
        if not (x == y):
            f |= 16
        if x < y:
            f |= 32
        if nan_x or nan_y:
            f |= 64
        if not nan_x and not nan_y:
            f |= 128
        if not (x <= y):
            f |= 256
        if sign_neg(x):
            f |= 512
        flags.out[i] = f
        if x == 0 and y == 0:  # fminf(+-0, +-0): keep the pair same-signed
            assert sign_neg(x) == sign_neg(y)
        m, big = fmin(x, y), fmax(x, y)
        c = math.copysign(abs(fsub(big, m, "f32")), x)
        out.out[i] = 0.0 if math.isnan(c) else c
    case("float_nan_nan_checks", cuda("float_nan"), "float_nan.cu: nan_checks",
         "_Z10nan_checksPKfS0_PiPfi", grid, block,
         [Buf("f32", xs), Buf("f32", ys), flags, out, sc("s32", n)])

def intdiv_div_const():
    vals = [INT_MIN, INT_MIN + 1, INT_MAX, -1, 0, 1, 6, 7, 8, -7, -8, 15, 16, -16, -17, 999, 1000,
            -1000, -1001, 2, 3, -3, 10, 1023, 1024, -1024, 0x7FFF0000]
    while len(vals) < 60:
        vals.append(s32(rand_u32()) >> RNG.randrange(0, 31))
    n = len(vals)
    grid, block = 2, 32
    q = Buf("s32", [SENT] * 64)
    r = Buf("s32", [SENT] * 64)
    uq = Buf("u32", [SENT] * 64)
    for i, x in enumerate(vals):
        q.out[i] = s32(cdiv(x, 7) + cdiv(x, 16) + cdiv(x, -3))
        r.out[i] = s32(cmod(x, 7) + cmod(x, 16) + cmod(x, 1000))
        ux = u32(x)
        uq.out[i] = u32(ux // 10 + ux % 10 + ux // 1024 + ux % 3)
    case("intdiv_div_const", cuda("intdiv"), "intdiv.cu: div_const", "_Z9div_constPKiPiS1_Pji",
         grid, block, [Buf("s32", vals), q, r, uq, sc("s32", n)])

def intdiv_div64():
    a = [LL_MIN, LL_MAX, -1, 0, 1, 1000000007, -1000000007, 2000000014, LL_MIN + 1, 12345,
         -12345, 1 << 40, -(1 << 40), 0x10001, 0x10000, LL_MAX]
    b = [3, -3, 5, 7, LL_MIN, 1, 2, 999, -5, LL_MAX, 0, 0x10001, -(1 << 32), 0x10001, 4, LL_MIN + 1]
    while len(a) < 36:
        a.append(s64(rand_u64()) >> RNG.randrange(0, 63))
        b.append(s64(rand_u64()) >> RNG.randrange(0, 63))
    n = len(a)
    grid, block = 2, 32
    q = Buf("s64", [SENT] * 40)
    uq = Buf("u64", [SENT] * 40)
    for i in range(n):
        x = a[i]
        y = s64(b[i] | 1)
        assert not (x == LL_MIN and y == -1)
        q.out[i] = s64(cdiv(x, y) + cmod(x, y) + cdiv(x, 1000000007))
        ux, uy = u64(x), u64(y)
        uq.out[i] = u64(ux // uy + ux % uy + ux % 0x10001)
    case("intdiv_div64", cuda("intdiv"), "intdiv.cu: div64", "_Z5div64PKxS0_PxPyi", (2, 1, 1),
         [20, 1, 1], [Buf("s64", a), Buf("s64", b), q, uq, sc("s32", n)])

def int64_math_wide_ops():
    a = [LL_MIN, LL_MAX, -1, 0, 1, 1 << 62, -(1 << 62), 0x123456789ABCDEF, -5, 3]
    b = [-1, LL_MAX, LL_MIN, 63, 64, 31, 32, -0x123456789ABCDEF, 7, LL_MIN]
    while len(a) < 40:
        a.append(s64(rand_u64()))
        b.append(s64(rand_u64()) >> RNG.randrange(0, 63))
    n = len(a)
    out = Buf("s64", [SENT] * 48)
    hi = Buf("u64", [SENT] * 48)
    for i in range(n):
        x, y = a[i], b[i]
        s, d, p = s64(x + y), s64(x - y), s64(x * y)
        sh = s64(x << (y & 63)) ^ (x >> (y & 31))
        ush = u64(x) >> (y & 63)
        hi.out[i] = ((u64(x) * u64(y)) >> 64) ^ u64((x * y) >> 64)
        mx = max(x, y)
        ab = s64(abs(d))
        out.out[i] = s64(s ^ p ^ sh ^ ush ^ mx ^ ab)
    case("int64_math_wide_ops", cuda("int64_math"), "int64_math.cu: wide_ops",
         "_Z8wide_opsPKxS0_PxPyi", 3, 16, [Buf("s64", a), Buf("s64", b), out, hi, sc("s32", n)])

def grid_stride_saxpy():
    n = 300
    a = f32(1.0000001)
    x = [rand_f32(-1000, 1000) for _ in range(n)]
    y = [rand_f32(-1000, 1000) for _ in range(n)]
    x[:6] = [INF, 1.0, 3.4028234663852886e38, NAN, 1e-45, -0.0]
    y[:6] = [-INF, -1.0000001, 3.4028234663852886e38, 1.0, -1e-45, 0.0]
    x, y = [f32(v) for v in x], [f32(v) for v in y]
    yb = Buf("f32", y)
    for i in range(n):
        yb.out[i] = ffma(a, x[i], y[i], "f32")
    case("grid_stride_saxpy", cuda("grid_stride"), "grid_stride.cu: saxpy_grid_stride",
         "_Z17saxpy_grid_strideifPKfPf", 2, 64,
         [sc("s32", n), sc("f32", a), Buf("f32", x), yb])

def reduction_block_reduce_int():
    n = 1000
    vals = [s32(rand_u32()) >> RNG.randrange(0, 31) for _ in range(n)]
    vals[:4] = [INT_MAX, INT_MAX, INT_MIN, -1]
    grid, block = 3, 128
    out = Buf("s32", [SENT] * grid)
    for b in range(grid):
        acc = 0
        for t in range(block):
            i = b * block + t
            while i < n:
                acc += vals[i]
                i += block * grid
        out.out[b] = s32(acc)
    case("reduction_block_reduce_int", cuda("reduction"), "reduction.cu: block_reduce<int, SumOp<int>, 128>",
         "_Z12block_reduceIi5SumOpIiELi128EEvPKT_PS2_i", grid, block,
         [Buf("s32", vals), out, sc("s32", n)])

def reduction_argmin_packed():
    n = 90
    vals = [rand_f32(-50, 50) for _ in range(n)]
    vals[10] = -0.0
    vals[11] = 0.0
    vals[20] = NAN
    vals[30] = -INF
    vals[31] = -INF      # a tie: the lower index wins
    vals[40] = f32(1e-45)
    best = Buf("u64", [(1 << 64) - 1])

    def key(i):
        bits = f32_bits(vals[i])
        bits = (~bits & 0xFFFFFFFF) if bits & 0x80000000 else (bits | 0x80000000)
        return (bits << 32) | i

    best.out[0] = min(key(i) for i in range(n))
    case("reduction_argmin_packed", cuda("reduction"), "reduction.cu: argmin_packed",
         "_Z13argmin_packedPKfPyi", 3, 32, [Buf("f32", vals), best, sc("s32", n)])

def scan_blelloch():
    n = 300
    block, grid = 64, 3
    vals = [rand_f32(-100, 100) for _ in range(n)]
    vals[5] = 3.0e7
    vals[6] = 1.0
    out = Buf("f32", [-1.0] * 384)
    sums = Buf("f32", [-1.0] * grid)
    pad = lambda i: i >> 5
    m = 2 * block
    for b in range(grid):
        base = b * m
        tmp = [None] * (m + pad(m - 1))
        for t in range(block):
            for k in (t, t + block):
                tmp[k + pad(k)] = vals[base + k] if base + k < n else 0.0
        off = 1
        d = m >> 1
        while d > 0:
            for t in range(d):
                ai = off * (2 * t + 1) - 1
                bi = off * (2 * t + 2) - 1
                tmp[bi + pad(bi)] = fadd(tmp[bi + pad(bi)], tmp[ai + pad(ai)], "f32")
            off <<= 1
            d >>= 1
        last = m - 1 + pad(m - 1)
        sums.out[b] = tmp[last]
        tmp[last] = 0.0
        d = 1
        while d < m:
            off >>= 1
            for t in range(d):
                ai = off * (2 * t + 1) - 1
                bi = off * (2 * t + 2) - 1
                x = tmp[ai + pad(ai)]
                tmp[ai + pad(ai)] = tmp[bi + pad(bi)]
                tmp[bi + pad(bi)] = fadd(tmp[bi + pad(bi)], x, "f32")
            d <<= 1
        for k in range(m):
            if base + k < n:
                out.out[base + k] = tmp[k + pad(k)]
    dyn = 4 * (m + pad(m - 1))
    case("scan_blelloch", cuda("scan"), "scan.cu: scan_blelloch", "_Z13scan_blellochPKfPfS1_i",
         grid, block, [Buf("f32", vals), out, sums, sc("s32", n)], dyn_shared=dyn)

def shared_static_block_votes():
    grid, block = 4, 64
    vals = [RNG.randrange(1, 1000) for _ in range(grid * block)]
    # block 0: all positive, none above 1000; block 1: zeros and negatives;
    # block 2: one value above 1000; block 3: mixed, one zero.
    for t in range(0, 64, 7):
        vals[64 + t] = 0
    vals[64 + 3] = -5
    vals[64 + 40] = INT_MIN
    vals[128 + 63] = 1001
    vals[192 + 10] = 0
    vals[192 + 11] = -1
    vals[192 + 12] = INT_MAX
    out = Buf("s32", [SENT] * (4 * grid))
    for b in range(grid):
        v = vals[b * block:(b + 1) * block]
        out.out[4 * b:4 * b + 4] = [int(any(x < 0 for x in v)), sum(x > 0 for x in v),
                                    int(all(x != 0 for x in v)), int(any(x > 1000 for x in v))]
    case("shared_static_block_votes", cuda("shared_static"), "shared_static.cu: block_votes",
         "_Z11block_votesPKiPi", grid, block, [Buf("s32", vals), out])

def shared_dynamic_dyn_plus_static():
    grid, block, per = 3, 64, 3
    vals = [RNG.choice([0, 0, 1, -1, 7, INT_MIN]) for _ in range(grid * block * per)]
    out = Buf("s32", [SENT] * (grid * block))
    for b in range(grid):
        counts = []
        for t in range(block):
            g = b * block + t
            counts.append(sum(vals[g * per + k] != 0 for k in range(per)))
        total = sum(counts)
        for t in range(block):
            out.out[b * block + t] = counts[(t + 1) % block] * 1000 + total
    case("shared_dynamic_dyn_plus_static", cuda("shared_dynamic"), "shared_dynamic.cu: dyn_plus_static",
         "_Z15dyn_plus_staticPKiPii", grid, block, [Buf("s32", vals), out, sc("s32", per)],
         dyn_shared=4 * block)

def histogram_histo_shared():
    n = 1000
    data = [RNG.choice([0, 255, 1, 128, 127]) if RNG.random() < 0.3 else RNG.randrange(256)
            for _ in range(n)]
    bins = Buf("u32", [3 * b for b in range(256)])
    for x in data:
        bins.out[x] += 1
    case("histogram_histo_shared", cuda("histogram"), "histogram.cu: histo_shared",
         "_Z12histo_sharedPKhPji", 3, 64, [Buf("u8", data), bins, sc("s32", n)])

def histogram_histo_float():
    lo, hi, nb = -2.5, 7.25, 13
    # lo and hi themselves, their neighbours on both sides (bits - 1 moves toward zero),
    # NaN, infinities, zeros, a subnormal, bin edges.
    xs = [lo, hi, f32_from_bits(f32_bits(hi) - 1), f32_from_bits(f32_bits(hi) + 1),
          f32_from_bits(f32_bits(lo) - 1), f32_from_bits(f32_bits(lo) + 1),
          NAN, INF, -INF, 0.0, -0.0, 1e-45, 4.875, 2.375, 5.0, -1.75]
    xs = [f32(x) for x in xs]
    while len(xs) < 100:
        xs.append(rand_f32(-4, 9))
    n = len(xs)
    bins = Buf("s32", [100 * b for b in range(nb + 1)])
    width = fsub(hi, lo, "f32")
    for v in xs:
        if not (v >= lo and v < hi):
            bins.out[nb] += 1
            continue
        q = fmul(fdiv(fsub(v, lo, "f32"), width, "f32"), float(nb), "f32")
        b = f2i(q, "rz", 32, True)
        b = min(max(b, 0), nb - 1)
        bins.out[b] += 1
    case("histogram_histo_float", cuda("histogram"), "histogram.cu: histo_float",
         "_Z11histo_floatPKfPiiffi", 4, 32,
         [Buf("f32", xs), bins, sc("s32", n), sc("f32", lo), sc("f32", hi), sc("s32", nb)])

def atomics_atomic_mix():
    n = 40
    vals = RNG.sample(range(-3000, 3000), n)
    vals = [v if v != 0 else 4321 for v in vals]
    vals[0], vals[1] = 2047, -2048     # distinct and nonzero, so old == v never holds
    ires = Buf("s32", [100, 50, -5000, 5000, 0])
    ures = Buf("u32", [0xFFFFFFFF, 0, 0x12345678, 990, 3, 77])
    u64res = Buf("u64", [1 << 40, 0, LL_MAX])
    fres = Buf("f32", [0.25, f32(-1e30)])
    dres = Buf("f64", [0.5, 1.0])
    o = ires.out
    o[0] = s32(o[0] + sum(vals))
    o[1] = s32(o[1] - sum(v & 7 for v in vals))
    o[2] = max([o[2]] + vals)
    o[3] = min([o[3]] + vals)
    o[4] = None                          # whichever thread exchanged last
    u = ures.out
    for v in vals:
        u[0] &= u32(v) | 0xFFFF0000
        u[1] |= 1 << (v & 31)
        u[2] ^= u32(v)
        u[3] = 0 if u[3] >= 1000 else u[3] + 1
        u[4] = 1000 if (u[4] == 0 or u[4] > 1000) else u[4] - 1
    # u[5]: atomicCAS only when the exchanged-out value equals v: never with distinct v != 0
    w = u64res.out
    w[0] = u64(w[0] + sum(u32(v) for v in vals))
    w[1] = max([w[1]] + [u64(u64(v) * 3) for v in vals])
    w[2] = u64(min([s64(w[2])] + vals))
    f = fres.out
    halves = Fraction(f[0]) + sum(Fraction(v, 2) for v in vals)   # exact in f32 in any order
    f[0] = float(halves)
    assert round_to(halves, "f32") == f[0] and abs(halves) < 2 ** 20
    f[1] = max([f[1]] + [float(v) for v in vals])
    d = dres.out
    d[0] = d[0] + sum(vals)
    r = 1.0
    for _ in vals:
        r = fmul(r, 1.0000001, "f64")
    d[1] = r
    case("atomics_atomic_mix", cuda("atomics"), "atomics.cu: atomic_mix",
         "_Z10atomic_mixPKiPiPjPyPfPdi", 2, 32,
         [Buf("s32", vals), ires, ures, u64res, fres, dres, sc("s32", n)])

def funcptr_apply_unary():
    n = 56
    xs = [2.0, -3.0, 0.0, -0.0, NAN, INF, -INF, 1e-45, 3.0, 1.8446744073709552e19, 1e-40,
          3.4028234663852886e38, 0.1, -0.1, 7.0, 1.5]
    which = [0, 1, 2, 2, 2, 2, 2, 3, -1, 0, 2, 3, 2, 3, -2, 5]
    while len(xs) < n:
        xs.append(rand_f32(-1e4, 1e4))
        which.append(s32(rand_u32()))
    xs = [f32(x) for x in xs]
    out = Buf("f32", [-7.0] * 64)
    for i in range(n):
        x = xs[i]
        w = which[i] & 3
        if w == 0:
            r = fmul(x, x, "f32")
        elif w == 1:
            r = -x
        elif w == 2:
            r = fdiv(1.0, x, "f32") if x != 0 else 0.0
        else:
            r = fmul(0.5, x, "f32")
        out.out[i] = r
    case("funcptr_apply_unary", cuda("funcptr"), "funcptr.cu: apply_unary",
         "_Z11apply_unaryPKfPfPKii", 2, 32, [Buf("f32", xs), out, Buf("s32", which), sc("s32", n)])

def recursion_recursive_kernels():
    args = [0, 1, 2, 3, 7, 15, 16, 31, 63, 64, -1, -2, 20, 13, 14, 12, 5, 100, INT_MIN, INT_MAX]
    n = len(args)
    grid, block = 2, 16
    fact = Buf("u64", [SENT] * 32)
    fibs = Buf("s32", [SENT] * 32)
    ack = Buf("s32", [SENT] * 32)
    parity = Buf("s32", [SENT] * 32)

    def fib(k):
        a, b = 0, 1
        for _ in range(k):
            a, b = b, a + b
        return a

    def ackermann(m, k):
        if m == 0:
            return k + 1
        if k == 0:
            return ackermann(m - 1, 1)
        return ackermann(m - 1, ackermann(m, k - 1))

    for i, a in enumerate(args):
        fact.out[i] = u64(math.factorial(max(a & 15, 1)))
        fibs.out[i] = fib(a & 15)
        ack.out[i] = ackermann(a & 1, a & 3)
        parity.out[i] = 1 if (a & 63) % 2 == 0 else 0
    case("recursion_recursive_kernels", cuda("recursion"), "recursion.cu: recursive_kernels",
         "_Z17recursive_kernelsPKiPyPiS2_S2_i", grid, block,
         [Buf("s32", args), fact, fibs, ack, parity, sc("s32", n)])

def struct_return_wide_mul():
    a = [0, 1, (1 << 64) - 1, (1 << 64) - 1, 1 << 63, 0xDEADBEEFCAFEBABE, 3, 1 << 32]
    b = [5, (1 << 64) - 1, (1 << 64) - 1, 2, 2, 0x0123456789ABCDEF, 0, 1 << 32]
    while len(a) < 24:
        a.append(rand_u64())
        b.append(rand_u64())
    n = len(a)
    out = Buf("u64", [SENT] * (2 * 32))
    misc = Buf("s32", [SENT] * 32)
    for i in range(n):
        p = a[i] * b[i]
        out.out[2 * i] = u64(p)
        out.out[2 * i + 1] = p >> 64
        fa, fb = 1.5, f32(float(i))
        la = s64(a[i])
        misc.out[i] = s32(i + (i + 1) * (i + 2) - (i + 3) + ((i + 4) ^ (i + 5)) + ((i + 6) | (i + 7))
                          + f2i(fmul(fa, fb, "f32"), "rz", 32, True) + f2i(2.0 * i, "rz", 32, True)
                          + s32(la >> 7) + s16(i) + s8(i & 127))
    case("struct_return_wide_mul", cuda("struct_return"), "struct_return.cu: wide_mul",
         "_Z8wide_mulPKyS0_P6Pair64Pii", 2, 16,
         [Buf("u64", a), Buf("u64", b), out, misc, sc("s32", n)])

def local_memory_insertion_sort():
    n = 5
    data = []
    for t in range(n):
        row = [rand_f32(-10, 10) for _ in range(32)]
        if t == 1:
            row = [float(RNG.randrange(-3, 4)) for _ in range(32)]   # many ties
            row[4], row[9] = -0.0, 0.0
        if t == 2:
            row = list(range(32, 0, -1))                              # reversed
            row = [float(x) for x in row]
        if t == 3:
            row[0], row[5], row[31] = NAN, INF, -INF                  # NaN never compares
        data += row
    out = Buf("f32", [-99.0] * (n * 32))
    for t in range(n):
        a = data[t * 32:(t + 1) * 32]
        for k in range(1, 32):
            key = a[k]
            j = k - 1
            while j >= 0 and a[j] > key:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = key
        out.out[t * 32:(t + 1) * 32] = a
    case("local_memory_insertion_sort", cuda("local_memory"), "local_memory.cu: local_insertion_sort",
         "_Z20local_insertion_sortPKfPfi", 2, 4, [Buf("f32", data), out, sc("s32", n)])

def local_memory_dfs_reach():
    nverts = 24
    adj = [[] for _ in range(nverts)]
    for v in range(nverts):
        for _ in range(RNG.randrange(0, 4)):
            adj[v].append(RNG.randrange(-2, nverts + 3))   # some targets out of range
    adj[5] = [RNG.randrange(0, nverts) for _ in range(70)]  # more edges than the stack holds
    adj[7] = [7, 7, 8]
    row_ptr = [0]
    cols = []
    for v in range(nverts):
        cols += adj[v]
        row_ptr.append(len(cols))
    starts = list(range(-1, nverts + 2)) + [5, 7, 0]
    n = len(starts)
    mask = Buf("u32", [SENT] * 32)
    for i in range(n):
        stack = [starts[i]]
        visited = 0
        while stack:
            v = stack.pop()
            if v < 0 or v >= nverts or (visited >> v) & 1:
                continue
            visited |= 1 << v
            e = row_ptr[v]
            while e < row_ptr[v + 1] and len(stack) < 64:
                stack.append(cols[e])
                e += 1
        mask.out[i] = visited
    case("local_memory_dfs_reach", cuda("local_memory"), "local_memory.cu: dfs_reach",
         "_Z9dfs_reachPKiS0_iS0_Pji", 1, 32,
         [Buf("s32", row_ptr), Buf("s32", cols), sc("s32", nverts), Buf("s32", starts), mask,
          sc("s32", n)])

def switch_dense_dense_switch():
    codes = list(range(-2, 18)) * 3
    n = len(codes)
    a = [s32(rand_u32()) >> RNG.randrange(0, 31) for _ in range(n)]
    b = [s32(rand_u32()) >> RNG.randrange(0, 31) for _ in range(n)]
    a[5], b[5] = 17, 0           # code 3, divide by zero guarded
    a[6], b[6] = -17, 0          # code 4
    a[25], b[25] = -17, 5        # code 3
    a[26], b[26] = -17, 5        # code 4
    a[15], b[15] = INT_MIN, 7    # code 13: -INT_MIN wraps
    a[17], b[17] = 9, 9          # code 15: equal
    for i in range(n):
        if codes[i] in (3, 4) and a[i] == INT_MIN and b[i] == -1:
            b[i] = -2
    out = Buf("s32", [SENT] * 64)
    for i in range(n):
        c, x, y = codes[i], a[i], b[i]
        r = {
            0: lambda: x + y, 1: lambda: x - y, 2: lambda: x * y,
            3: lambda: cdiv(x, y) if y else 0, 4: lambda: cmod(x, y) if y else 0,
            5: lambda: x & y, 6: lambda: x | y, 7: lambda: x ^ y,
            8: lambda: x << (y & 31), 9: lambda: x >> (y & 31), 10: lambda: u32(x) >> (y & 31),
            11: lambda: min(x, y), 12: lambda: max(x, y), 13: lambda: -x, 14: lambda: ~x,
            15: lambda: int(x == y),
        }.get(c, lambda: 0x7FFFFFFF)()
        out.out[i] = s32(r)
    case("switch_dense_dense_switch", cuda("switch_dense"), "switch_dense.cu: dense_switch",
         "_Z12dense_switchPKiS0_S0_Pii", 2, 32,
         [Buf("s32", codes), Buf("s32", a), Buf("s32", b), out, sc("s32", n)])

def switch_sparse_sparse_switch64():
    keys = [-5, 0, 1000000007, 1 << 32, -0x7FFFFFFFFFFF, -4, -6, 1, 1000000006, (1 << 32) + 1,
            -0x7FFFFFFFFFFE, LL_MIN, LL_MAX, -1, 7, 8, 1000000008, (1 << 32) - 1]
    while len(keys) < 30:
        keys.append(s64(rand_u64()) >> RNG.randrange(0, 63))
    n = len(keys)
    out = Buf("s64", [SENT] * 32)
    table = {-5: 1, 0: 2, 1000000007: 3, 1 << 32: 4, -0x7FFFFFFFFFFF: 5}
    for i, k in enumerate(keys):
        out.out[i] = table.get(k, k >> 3)
    case("switch_sparse_sparse_switch64", cuda("switch_sparse"), "switch_sparse.cu: sparse_switch64",
         "_Z15sparse_switch64PKxPxi", 1, 32, [Buf("s64", keys), out, sc("s32", n)])

PARSE_RECORDS = "_Z13parse_recordsPK6HeaderPKiPii"

def trap_exit_parse_records():
    count, stride, cap = 50, 3, 60
    payload = [RNG.randrange(-500, 1000) for _ in range(count * stride)]
    payload[0], payload[3] = -1, 0
    out = Buf("s32", [SENT] * 64)
    for i in range(count):
        v = payload[i * stride]
        if v >= 0:
            out.out[i] = v * 2
    case("trap_exit_parse_records", cuda("trap_exit"), "trap_exit.cu: parse_records (valid header)",
         PARSE_RECORDS, 2, 32,
         [Buf("u32", [0x50545856, count, stride, 0]), Buf("s32", payload), out, sc("s32", cap)])

def trap_exit_parse_records_trap():
    # A wrong magic number: every thread calls fail_hard, which traps.
    out = Buf("s32", [SENT] * 64)
    case("trap_exit_parse_records_trap", cuda("trap_exit"), "trap_exit.cu: parse_records (bad magic)",
         PARSE_RECORDS, 2, 32,
         [Buf("u32", [0x50545857, 10, 1, 0]), Buf("s32", list(range(10))), out, sc("s32", 60)],
         exit_code=2, stderr=["trap", PARSE_RECORDS])

def trap_exit_checked_gather_trap():
    # Only global thread 37 (block 1, thread 5) reads an index past the source: it traps.
    n, srclen = 60, 20
    idx = [RNG.randrange(srclen) for _ in range(n)]
    idx[37] = srclen
    case("trap_exit_checked_gather_trap", cuda("trap_exit"), "trap_exit.cu: checked_gather (bad index)",
         "_Z14checked_gatherPKfPKiPfii", 2, 32,
         [Buf("f32", [float(k) for k in range(srclen)]), Buf("s32", idx), Buf("f32", [0.0] * n),
          sc("s32", n), sc("s32", srclen)],
         exit_code=2, stderr=["trap", "ctaid=(1,0,0)", "tid=(5,0,0)"])

def transpose_tiled():
    w, h = 45, 37
    src = [rand_f32(-1e3, 1e3) for _ in range(w * h)]
    out = Buf("f32", [-5.0] * (w * h))
    for y in range(h):
        for x in range(w):
            out.out[x * h + y] = src[y * w + x]
    case("transpose_tiled", cuda("transpose"), "transpose.cu: transpose_tiled",
         "_Z15transpose_tiledPKfPfii", [2, 2], [32, 8],
         [Buf("f32", src), out, sc("s32", w), sc("s32", h)])

def stencil_jacobi2d():
    nx, ny = 20, 18
    u = [rand_f32(-100, 100) for _ in range(nx * ny)]
    u[3 * nx + 4] = 3.4028234663852886e38    # overflows to inf in its neighbours' sums
    u[3 * nx + 6] = 3.4028234663852886e38
    u[10 * nx + 10] = f32(1e-45)
    v = Buf("f32", [-1.0] * (nx * ny))
    for y in range(ny):
        for x in range(nx):
            if x == 0 or y == 0 or x == nx - 1 or y == ny - 1:
                v.out[y * nx + x] = u[y * nx + x]
                continue
            s = fadd(u[y * nx + x - 1], u[y * nx + x + 1], "f32")
            s = fadd(s, u[(y - 1) * nx + x], "f32")
            s = fadd(s, u[(y + 1) * nx + x], "f32")
            v.out[y * nx + x] = fmul(s, 0.25, "f32")
    case("stencil_jacobi2d", cuda("stencil"), "stencil.cu: jacobi2d", "_Z8jacobi2dPKfPfii",
         [2, 2], [16, 16], [Buf("f32", u), v, sc("s32", nx), sc("s32", ny)])

def sort_bitonic_shared():
    grid = 2
    keys = [RNG.randrange(0, 200) if RNG.random() < 0.5 else rand_u32() for _ in range(1024 * grid)]
    keys[:4] = [0xFFFFFFFF, 0, 0xFFFFFFFF, 0]
    vals = list(range(1024 * grid))
    kb, vb = Buf("u32", keys), Buf("u32", vals)
    for blk in range(grid):
        sk = keys[blk * 1024:(blk + 1) * 1024]
        sv = vals[blk * 1024:(blk + 1) * 1024]
        size = 2
        while size <= 1024:
            stride = size >> 1
            while stride > 0:
                for t in range(512):
                    pos = 2 * t - (t & (stride - 1))
                    asc = (pos & size) == 0
                    a, b = sk[pos], sk[pos + stride]
                    if (a > b) == asc:
                        sk[pos], sk[pos + stride] = b, a
                        sv[pos], sv[pos + stride] = sv[pos + stride], sv[pos]
                stride >>= 1
            size <<= 1
        kb.out[blk * 1024:(blk + 1) * 1024] = sk
        vb.out[blk * 1024:(blk + 1) * 1024] = sv
    assert kb.out[:1024] == sorted(keys[:1024])
    case("sort_bitonic_shared", cuda("sort_bitonic"), "sort_bitonic.cu: bitonic_shared",
         "_Z14bitonic_sharedPjS_", grid, 512, [kb, vb])

def warp_intrinsics_warp_votes():
    grid, block = 2, 64
    n = 100      # lanes past n vote with v = 0
    vals = [RNG.randrange(1, 50) for _ in range(n)]
    vals[32:64] = [2 * RNG.randrange(1, 9) for _ in range(32)]   # warp 1: all even, positive
    vals[10] = -3                                                 # warp 0: one negative
    vals[70] = 0                                                  # warp 2: one zero
    ballots = Buf("u32", [SENT] * 4)
    flags = Buf("s32", [SENT] * 16)
    for w in range(grid * block // 32):
        v = [vals[i] if i < n else 0 for i in range(32 * w, 32 * w + 32)]
        b = sum(1 << l for l in range(32) if v[l] > 0)
        ballots.out[w] = b
        uni = len({x & 1 != 0 for x in v}) == 1
        flags.out[4 * w:4 * w + 4] = [int(any(x < 0 for x in v)), int(all(x != 0 for x in v)),
                                      popc(b), int(uni)]
    case("warp_intrinsics_warp_votes", cuda("warp_intrinsics"), "warp_intrinsics.cu: warp_votes",
         "_Z10warp_votesPKiPjPii", grid, block, [Buf("s32", vals), ballots, flags, sc("s32", n)])

def conversions_float_to_int():
    xs = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, 1e10, -1e10, 3e9, -3e9,
          2147483648.0, -2147483648.0, 2147483520.0, 4294967296.0, 4294967040.0, INF, -INF, NAN,
          1e20, -1e20, 1.7e19, 9.2233720368547758e18, -9.2233720368547758e18, 1e-45, -1e-45,
          0.0, -0.0, 8388607.5, -8388607.5, 16777216.0, 123.75, -123.75, 0.99999994, -0.99999994]
    xs = [f32(x) for x in xs]
    n = len(xs)
    ri = Buf("s32", [SENT] * 40)
    ru = Buf("u32", [SENT] * 40)
    rl = Buf("s64", [SENT] * 40)
    rul = Buf("u64", [SENT] * 40)
    for i, v in enumerate(xs):
        ri.out[i] = s32(sum(f2i(v, m, 32, True) for m in ("rn", "rz", "rp", "rm")))
        av = abs(v)
        ru.out[i] = u32(f2i(v, "rn", 32, False) + f2i(av, "rz", 32, False))
        rl.out[i] = s64(f2i(v, "rn", 64, True) + f2i(v, "rm", 64, True))
        rul.out[i] = f2i(av, "rp", 64, False)
    case("conversions_float_to_int", cuda("conversions"), "conversions.cu: float_to_int",
         "_Z12float_to_intPKfPiPjPxPyi", 2, 20,
         [Buf("f32", xs), ri, ru, rl, rul, sc("s32", n)])

def nanosleep_spin_locked_accumulate():
    grid, block, n = 4, 32, 100
    vals = [RNG.randrange(-4000, 4000) / 8 for _ in range(n)]   # eighths: every sum is exact
    total = Buf("f64", [0.25])
    s_all = Fraction(0.25)
    for b in range(grid):
        s = 0.0
        for k in range(block):
            if b * block + k < n:
                s = fadd(s, vals[b * block + k], "f64")
        s_all += Fraction(s)
    total.out[0] = float(s_all)
    case("nanosleep_spin_locked_accumulate", cuda("nanosleep_spin"), "nanosleep_spin.cu: locked_accumulate",
         "_Z17locked_accumulatePiPdPKdi", grid, block,
         [Buf("s32", [0]), total, Buf("f64", vals), sc("s32", n)])

def half_ops_half_scalar():
    H = lambda b: f16_from_bits(b)
    xs = [1.0, 2.0, -1.5, 65504.0, 65504.0, NAN, 1.0, INF, INF, H(0x0001), H(0x0001), H(0x03FF),
          0.0, -0.0, 0.1, 3.0, -2.0, 1000.0, 0.5, 7.0, H(0x3C01), -65504.0]
    ys = [2.0, 1.0, -1.5, 65504.0, -1.0, 1.0, NAN, 1.0, -INF, H(0x0001), -H(0x0001), H(0x0001),
          0.0, -0.0, 0.2, -3.0, -2.0, 0.001, 0.5, -7.0, H(0x3C01), 3.0]
    while len(xs) < 40:
        xs.append(H(RNG.choice([RNG.randrange(0x0000, 0x7C00), RNG.randrange(0x8000, 0xFC00)])))
        ys.append(H(RNG.choice([RNG.randrange(0x2000, 0x5800), RNG.randrange(0xA000, 0xD800)])))
    xs = [round_to(Fraction(x), "f16") if math.isfinite(x) and x != 0 else x for x in xs]
    ys = [round_to(Fraction(y), "f16") if math.isfinite(y) and y != 0 else y for y in ys]
    n = len(xs)
    out = Buf("f16", [-3.0] * 48)
    flags = Buf("s32", [SENT] * 48)
    for i in range(n):
        x, y = xs[i], ys[i]
        if x == 0 and y == 0:
            assert sign_neg(x) == sign_neg(y)
        s = fadd(x, y, "f16")
        d = fsub(x, y, "f16")
        m = fmul(x, y, "f16")
        f = ffma(x, y, s, "f16")
        lo, hi = fmin(x, y), fmax(x, y)
        fl = 0
        if x < y:
            fl |= 1
        if x > y:
            fl |= 2
        if x == y:
            fl |= 4
        if math.isnan(x):
            fl |= 8
        if not (x >= y):
            fl |= 16
        if x != y and not math.isnan(x) and not math.isnan(y):
            fl |= 32
        if d >= 0.0:
            fl |= 64
        flags.out[i] = fl
        out.out[i] = fadd(fadd(s, d, "f16"), fadd(fadd(m, f, "f16"), fsub(hi, lo, "f16"), "f16"), "f16")
    case("half_ops_half_scalar", cuda("half_ops"), "half_ops.cu: half_scalar",
         "_Z11half_scalarPK6__halfS1_PS_Pii", 3, 16,
         [Buf("f16", xs), Buf("f16", ys), out, flags, sc("s32", n)])

def bf16_ops_bf16_arith():
    B = lambda b: bf16_from_bits(b)
    xs = [1.0, 2.0, -1.5, B(0x7F7F), NAN, 1.0, INF, INF, 3.0, 0.1, 1.0078125, -4.0, 100.0, 0.0]
    ys = [2.0, 1.0, -1.5, B(0x7F7F), 1.0, NAN, 1.0, -INF, -3.0, 0.2, 1.0078125, 0.5, -0.01, 5.0]
    while len(xs) < 40:
        xs.append(B(RNG.choice([RNG.randrange(0x3000, 0x4B00), RNG.randrange(0xB000, 0xCB00)])))
        ys.append(B(RNG.choice([RNG.randrange(0x3000, 0x4B00), RNG.randrange(0xB000, 0xCB00)])))
    xs = [round_to(Fraction(x), "bf16") if math.isfinite(x) and x != 0 else x for x in xs]
    ys = [round_to(Fraction(y), "bf16") if math.isfinite(y) and y != 0 else y for y in ys]
    n = len(xs)
    out = Buf("bf16", [-3.0] * 48)
    for i in range(n):
        x, y = xs[i], ys[i]
        s = fadd(x, y, "bf16")
        p = fmul(x, y, "bf16")
        f = ffma(x, y, s, "bf16")
        for v in (s, p, f):   # stay clear of bf16 subnormals
            assert not (v != 0 and abs(v) < 2.0 ** -126)
        out.out[i] = fmax(f, p)
    case("bf16_ops_bf16_arith", cuda("bf16_ops"), "bf16_ops.cu: bf16_arith (sm_90 path)",
         "_Z10bf16_arithPK13__nv_bfloat16S1_PS_i", 3, 16,
         [Buf("bf16", xs), Buf("bf16", ys), out, sc("s32", n)])

def bits_ops_bit_intrinsics():
    n = 40
    vals = [0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x00010000, 0xDEADBEEF, 0x12345678, 3, 5]
    while len(vals) < n:
        vals.append(rand_u32() >> RNG.randrange(0, 32))
    out = Buf("u32", [SENT] * 64)

    def byte_perm(x, y, s):
        src = x | (y << 32)
        r = 0
        for k in range(4):
            sel = (s >> (4 * k)) & 7
            r |= ((src >> (8 * sel)) & 0xFF) << (8 * k)
        return r

    for i in range(n):
        v, w = vals[i], vals[(i + 1) % n]
        sv, sw = s32(v), s32(w)
        r = brev(v, 32)
        lz = clz(v, 32)
        fs = ffs(v)
        pc = popc(v)
        bp = byte_perm(v, w, 0x3210 ^ (i & 0x7777))
        k = i & 31
        fl = u32((w << k) | (v >> (32 - k))) if k else w             # __funnelshift_l(lo=v, hi=w)
        k = min(i, 32)
        fr = u32(((w << 32) | v) >> k)                                # __funnelshift_rc(lo=v, hi=w)
        sad = u32(abs(sv - sw) + 3)
        usad = u32(abs(v - w) + 7)
        hadd = u32(((v + w) >> 1) + ((v + w + 1) >> 1) + ((sv + sw) >> 1))
        out.out[i] = u32(r ^ lz ^ (fs << 8) ^ (pc << 16) ^ bp ^ fl ^ fr ^ sad ^ usad ^ hadd)
    case("bits_ops_bit_intrinsics", cuda("bits_ops"), "bits_ops.cu: bit_intrinsics",
         "_Z14bit_intrinsicsPKjPji", 2, 32, [Buf("u32", vals), out, sc("s32", n)])

def llvm_switch_dense_interp():
    # the bytecode interpreter of switch_dense.ll: every thread runs the same program on
    # its own register; ops 0..10, then 11 (halt); the 12 after it is never reached.
    code = [0, 2, 5, 8, 7, 9, 10, 3, 6, 4, 1, 10, 5, 8, 7, 2, 9, 3, 0, 11, 12]
    block = 32
    regs = [s32(rand_u32()) >> RNG.randrange(0, 31) for _ in range(block)]
    regs[:6] = [0, -1, INT_MIN, INT_MAX, 96, -97]
    out = Buf("s32", [SENT] * block)
    for t in range(block):
        acc = regs[t]
        res = None
        for pc in range(len(code)):
            op = code[pc]
            if op == 11:
                res = acc
                break
            if op > 11:
                res = -1
                break
            acc = s32({
                0: lambda: acc + 1, 1: lambda: acc - 1, 2: lambda: acc << 1, 3: lambda: acc >> 1,
                4: lambda: -acc, 5: lambda: acc * acc, 6: lambda: ~acc, 7: lambda: acc + t,
                8: lambda: cmod(acc, 97), 9: lambda: -acc if acc < 0 else acc,
                10: lambda: (u32(acc) << 5) | (u32(acc) >> 27),
            }[op]())
        out.out[t] = acc if res is None else res
    case("llvm_switch_dense_interp", llvm("switch_dense"), "switch_dense.ll: interp", "interp",
         1, block, [Buf("u8", code), sc("s32", len(code)), Buf("s32", regs), out])

def llvm_phi_loops_irreducible():
    block, n = 64, 1000
    p = Buf("s32", [SENT] * block)
    for t in range(block):
        side, v = ("left" if t & 1 else "right"), t
        while True:
            if side == "left":
                v = v * 3
            else:
                v = v + 7
            if v > n:
                break
            side = "right" if side == "left" else "left"
        p.out[t] = v
    case("llvm_phi_loops_irreducible", llvm("phi_loops"), "phi_loops.ll: irreducible", "irreducible",
         1, block, [p, sc("s32", n)])

def llvm_i128_math_wide():
    M = (1 << 128) - 1
    block = 8
    xs = [0, 1, M, 1 << 127, (1 << 64) + 5, 0x0123456789ABCDEF0FEDCBA987654321, rand_u64() << 64 | rand_u64(), 3]
    ys = [0, 1, (1 << 64) - 1, 2, 1 << 63, 0xDEADBEEFCAFEBABE, rand_u64(), 0]
    p = Buf("u64", [w for x in xs for w in (x & ((1 << 64) - 1), x >> 64)])
    q = Buf("u64", ys)
    sgn = lambda v: v - (1 << 128) if v >> 127 else v
    for t in range(block):
        x, y = xs[t], ys[t]
        z = (y << 64) | y
        r = (x * z + M) & M
        sh = r >> 71
        sa = (sgn(r) >> 3) & M
        sl = (x << 100) & M
        pick = sh if (sh > sa and sgn(sl) < 0) else sa
        fin = pick ^ sl
        p.out[2 * t] = fin & ((1 << 64) - 1)
        p.out[2 * t + 1] = fin >> 64
        q.out[t] = (fin >> 64) ^ (fin & ((1 << 64) - 1))
    case("llvm_i128_math_wide", llvm("i128_math"), "i128_math.ll: wide", "wide", 1, block, [p, q])

# ---------------------------------------------------------------------------

def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "compilers")
    for make in [branch_nested_classify, branch_nested_collatz, select_heavy_int_selects,
                 float_nan_nan_checks, intdiv_div_const, intdiv_div64, int64_math_wide_ops,
                 grid_stride_saxpy, reduction_block_reduce_int, reduction_argmin_packed,
                 scan_blelloch, shared_static_block_votes, shared_dynamic_dyn_plus_static,
                 histogram_histo_shared, histogram_histo_float, atomics_atomic_mix,
                 funcptr_apply_unary, recursion_recursive_kernels, struct_return_wide_mul,
                 local_memory_insertion_sort, local_memory_dfs_reach, switch_dense_dense_switch,
                 switch_sparse_sparse_switch64, trap_exit_parse_records,
                 trap_exit_parse_records_trap, trap_exit_checked_gather_trap, transpose_tiled,
                 stencil_jacobi2d, sort_bitonic_shared, warp_intrinsics_warp_votes,
                 conversions_float_to_int, nanosleep_spin_locked_accumulate,
                 half_ops_half_scalar, bf16_ops_bf16_arith, bits_ops_bit_intrinsics,
                 llvm_switch_dense_interp, llvm_phi_loops_irreducible, llvm_i128_math_wide]:
        make()
    os.makedirs(outdir, exist_ok=True)
    for name, spec, exp in CASES:
        w = waiting(name)
        if w is not None:
            exp["enabled"] = False
            exp = {k: exp[k] for k in ["ptx", "source", "enabled"]} | {"waiting_for": w} | {
                k: v for k, v in exp.items() if k not in ("ptx", "source", "enabled")}
        with open(os.path.join(outdir, name + ".launch.json"), "w") as f:
            f.write(dumps(spec) + "\n")
        with open(os.path.join(outdir, name + ".expected.json"), "w") as f:
            f.write(dumps(exp) + "\n")
    print("%d cases written to %s" % (len(CASES), os.path.normpath(outdir)))

if __name__ == "__main__":
    main()
