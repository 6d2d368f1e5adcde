#!/usr/bin/env python3
"""Writes the conformance corpus of ptxvm under tests/conformance/.

Every case is a PTX module, a launch spec (../shared/launch-contract.md) and the
expected result: exit code, buffers after the launch and, for faults, substrings of
the message. Expected values come from the reference in this file, written from the
PTX ISA text (sections cited at each function), never from ptxvm. Python integers
are exact at any width and Python floats are IEEE binary64, which holds every
f16, bf16, f32 and f64 value exactly, so every comparison below is exact after the
bits are decoded by hand; roundings (cvt, float arithmetic) go through exact
rationals (fractions.Fraction) and one rounding to the target format.

    python3 tools/conformance.py           # (re)write every case, deterministically
    python3 tools/conformance.py --check   # run ptxas -arch=sm_90 on every case

Standard library only (no numpy). Re-running reproduces the files byte for byte.
"""

import json
import math
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "conformance"
HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"


# --------------------------------------------------------------------------------------
# Integers (PTX ISA 5.2.2: two's complement of 8, 16, 32, 64 bits)

def mask(w):
    return (1 << w) - 1


def sx(v, w):
    """v (any int) read as a signed w-bit integer."""
    v &= mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def ux(v, w):
    return v & mask(w)


def int_values(w):
    """Boundary values of width w as raw bits: 0, 1, 2, the signed and unsigned
    extremes and their neighbours, and two mixed bit patterns."""
    m = mask(w)
    smax = (1 << (w - 1)) - 1
    smin = 1 << (w - 1)
    return [0, 1, 2, smax - 1, smax, smin, smin + 1, m - 1, m,
            0x5A5A5A5A5A5A5A5A & m, 0xA5A5A5A5C3C3C3C3 & m]


class Lcg:
    """A fixed pseudo-random sequence (no global state, reproducible)."""

    def __init__(self, seed):
        self.x = seed & mask(64)

    def next(self):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & mask(64)
        return self.x >> 16

    def bits(self, w):
        return (self.next() ^ (self.next() << 40)) & mask(w)


# --------------------------------------------------------------------------------------
# Floats: decoding by fields (PTX ISA 5.2.3; IEEE 754 binary16/32/64 and bfloat16)

FMT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


def decode(bits, fmt, ftz=False):
    """The value of a float's bits as a Python float, or None for NaN. With ftz a
    subnormal is flushed to zero of the same sign (ISA 9.7.6: sign-preserving zero)."""
    e, m = FMT[fmt]
    sign = -1.0 if (bits >> (e + m)) & 1 else 1.0
    exp = (bits >> m) & mask(e)
    man = bits & mask(m)
    bias = (1 << (e - 1)) - 1
    if exp == mask(e):
        return None if man else sign * math.inf
    if exp == 0:
        if ftz:
            return sign * 0.0
        return sign * math.ldexp(man, 1 - bias - m)
    return sign * math.ldexp(man | (1 << m), exp - bias - m)


def is_nan(bits, fmt):
    return decode(bits, fmt) is None


def is_subnormal(bits, fmt):
    e, m = FMT[fmt]
    return (bits >> m) & mask(e) == 0 and bits & mask(m) != 0


def round_to(x, fmt, sign_neg=False):
    """Bits of the exact rational x (a Fraction or int) rounded to nearest even in
    format fmt (IEEE 754 roundTiesToEven; overflow gives infinity). sign_neg gives
    the sign of a zero result."""
    e, m = FMT[fmt]
    bias = (1 << (e - 1)) - 1
    sign = 0
    x = Fraction(x)
    if x < 0:
        sign, x = 1, -x
    elif x == 0:
        sign = 1 if sign_neg else 0
    sbit = sign << (e + m)
    if x == 0:
        return sbit
    # exponent k with 2^k <= x < 2^(k+1)
    k = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** k > x:
        k -= 1
    emin = 1 - bias
    q = max(k, emin) - m  # quantum: value of one unit in the last place
    scaled = x / (Fraction(2) ** q)
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n & 1):
        n += 1
    # n is the significand in units of 2^q; renormalise on carry
    if n >= 1 << (m + 1):
        n >>= 1
        q += 1
    if n < (1 << m):  # subnormal (or zero after rounding)
        return sbit | n
    exp = q + m + bias
    if exp >= mask(e):
        return sbit | (mask(e) << m)  # infinity
    return sbit | (exp << m) | (n - (1 << m))


F32_SPECIALS = [
    0x00000000, 0x80000000,  # +0, -0
    0x00000001, 0x80000001,  # smallest subnormals
    0x007FFFFF, 0x807FFFFF,  # largest subnormals
    0x00800000, 0x80800000,  # smallest normals
    0x7F7FFFFF, 0xFF7FFFFF,  # largest finite
    0x7F800000, 0xFF800000,  # infinities
    0x7FC00000, 0xFFC00000,  # quiet NaNs
    0x7F800001, 0xFFA00005,  # signalling NaNs with payloads
    0x7FFFFFFF,              # all-ones NaN
    0x3F800000, 0xBF800000, 0x3F800001,  # 1, -1, just above 1
]
F64_SPECIALS = [
    0, 1 << 63,
    1, (1 << 63) | 1,
    0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
    0x0010000000000000, 0x8010000000000000,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
    0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0xFFF8000000000000,
    0x7FF0000000000001, 0xFFF4000000000ABC,
    0x7FFFFFFFFFFFFFFF,
    0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001,
]
F16_SPECIALS = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF,
    0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x3C00, 0xBC00, 0x3C01,
]
BF16_SPECIALS = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F,
    0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFA5, 0x3F80, 0xBF80, 0x3F81,
]


# --------------------------------------------------------------------------------------
# Comparisons (ISA 9.3.1 tables 22-25, 9.7.6.2 setp, 9.7.7.2 half setp)

INT_OPS = {
    "u": ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"],
    "s": ["eq", "ne", "lt", "le", "gt", "ge"],
    "b": ["eq", "ne"],
}
FLOAT_OPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
             "geu", "num", "nan"]
UNORDERED = {"equ": "eq", "neu": "ne", "ltu": "lt", "leu": "le", "gtu": "gt", "geu": "ge"}
UNSIGNED_NAMES = {"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}


def relation(op, a, b):
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
            "ge": a >= b}[op]


def cmp_int(op, ty, a, b):
    """Table 22: signed types compare as signed, unsigned and bit-size as unsigned;
    lo ls hi hs are the unsigned lt le gt ge."""
    w = int(ty[1:])
    if ty[0] == "s":
        x, y = sx(a, w), sx(b, w)
    else:
        x, y = ux(a, w), ux(b, w)
    return relation(UNSIGNED_NAMES.get(op, op), x, y)


def cmp_float(op, fmt, a, b, ftz=False):
    """Tables 23-25: ordered operators are false on NaN, unordered ones true, num
    and nan test for NaN; +0 == -0; .ftz flushes subnormal inputs first."""
    x, y = decode(a, fmt, ftz), decode(b, fmt, ftz)
    nan = x is None or y is None
    if op == "num":
        return not nan
    if op == "nan":
        return nan
    if nan:
        return op in UNORDERED
    return relation(UNORDERED.get(op, op), x, y)


def boolop(op, t, c):
    return {"and": t and c, "or": t or c, "xor": t != c}[op]


# --------------------------------------------------------------------------------------
# Case writing

CASES = []


class Case:
    def __init__(self, group, name, ptx, launch, expected):
        self.group, self.name = group, name
        self.ptx, self.launch, self.expected = ptx, launch, expected


def dump_json(obj):
    """Stable JSON: one key per line at the top, one buffer or argument per line."""
    lines = ["{"]
    items = list(obj.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(v, list) and v and isinstance(v[0], dict):
            lines.append(f"  {json.dumps(k)}: [")
            for j, x in enumerate(v):
                c2 = "," if j + 1 < len(v) else ""
                lines.append(f"    {json.dumps(x, separators=(', ', ': '))}{c2}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def add_case(group, name, ptx, launch, expected):
    assert all(c.isalnum() or c == "_" for c in name), name
    CASES.append(Case(group, name, ptx, launch, expected))


def pad(rows, block):
    """Repeats rows from the start until their count is a multiple of block."""
    rows = list(rows)
    i = 0
    while len(rows) % block:
        rows.append(rows[i])
        i += 1
    return rows


REGS = """\t.reg .pred %p<40>;
\t.reg .b16 %h<24>;
\t.reg .b32 %r<72>;
\t.reg .b64 %rd<40>;
\t.reg .f32 %f<16>;
\t.reg .f64 %fd<16>;
\t.reg .b64 %ad<24>;
"""

SIZES = {"u8": 1, "s8": 1, "u16": 2, "s16": 2, "f16": 2, "bf16": 2, "u32": 4, "s32": 4,
         "f32": 4, "u64": 8, "s64": 8, "f64": 8}


class Buf:
    """A buffer argument: element type, initial data (or None for zeros of n), and
    the expected contents afterwards (None: unchanged)."""

    def __init__(self, name, etype, data=None, expect=None, n=None):
        self.name, self.etype = name, etype
        self.data = data
        self.n = n if data is None else len(data)
        self.expect = expect

    def arg(self):
        if self.data is None:
            return {"buffer": self.etype, "len": self.n}
        return {"buffer": self.etype, "data": self.data}

    def result(self, index):
        after = self.expect
        if after is None:
            after = self.data if self.data is not None else [0] * self.n
        assert len(after) == self.n, (self.name, len(after), self.n)
        return {"arg": index, "buffer": self.etype, "data": after}


def entry(kernel, params, body, prologue=True, decls=REGS, comment=""):
    """A module with one kernel. params: list of (name, ptx type). With prologue,
    %r3 is the global thread id (x only) and %ad<i> is &param_i[gid] for each
    buffer parameter i (element size from its Buf)."""
    lines = []
    if comment:
        lines += ["// " + c for c in comment.strip().split("\n")]
    lines.append(HEADER)
    plist = ", ".join(f".param .{t} {n}" for n, t in params)
    lines.append(f".visible .entry {kernel}({plist})")
    lines.append("{")
    lines.append(decls.rstrip("\n"))
    lines.extend(prologue_lines(params) if prologue else [])
    lines.extend("\t" + b if not b.endswith(":") else b for b in body)
    lines.append("\tret;")
    lines.append("}")
    return "\n".join(lines) + "\n"


PARAM_SIZES = {}


def prologue_lines(params):
    out = ["\tmov.u32 %r0, %ctaid.x;", "\tmov.u32 %r1, %ntid.x;", "\tmov.u32 %r2, %tid.x;",
           "\tmad.lo.u32 %r3, %r0, %r1, %r2;"]
    for i, (n, t) in enumerate(params):
        size = PARAM_SIZES.get(n)
        if size is None:
            continue
        out.append(f"\tld.param.u64 %rd{30 + i % 8}, [{n}];")
        out.append(f"\tmul.wide.u32 %rd38, %r3, {size};")
        out.append(f"\tadd.u64 %ad{i}, %rd{30 + i % 8}, %rd38;")
    return out


def elementwise(group, name, bufs, body, block, comment="", scalars=(), kernel=None,
                grid=None, decls_extra="", no_index=()):
    """A kernel over len(bufs[0]) threads (a multiple of block), thread gid taking
    element gid of every buffer. scalars: (name, type, value) after the buffers."""
    n = bufs[0].n
    assert n % block == 0, (name, n, block)
    kernel = kernel or name
    PARAM_SIZES.clear()
    params = []
    for b in bufs:
        if b.name not in no_index:
            PARAM_SIZES[b.name] = SIZES[b.etype]
        params.append((b.name, "u64"))
    for s in scalars:
        params.append((s[0], s[1]))
    decls = REGS + (decls_extra + "\n" if decls_extra else "")
    ptx = entry(kernel, params, body, comment=comment, decls=decls)
    args = [b.arg() for b in bufs] + [{"type": s[1], "value": s[2]} for s in scalars]
    launch = {"kernel": kernel, "grid": grid or n // block, "block": block, "args": args}
    expected = {"exit": 0, "buffers": [b.result(i) for i, b in enumerate(bufs)]}
    add_case(group, name, ptx, launch, expected)


def pack_bits(preds, reg="%r60", tmp=("%r61", "%r62")):
    """Lines that OR (1 << k) for each true predicate preds[k] into reg."""
    out = [f"mov.u32 {reg}, 0;"]
    for k, p in enumerate(preds):
        out.append(f"selp.u32 {tmp[0]}, {1 << k}, 0, {p};")
        out.append(f"or.b32 {reg}, {reg}, {tmp[0]};")
    return out


# --------------------------------------------------------------------------------------
# setp on integer and float types (ISA 9.7.6.2)

INT_REG = {16: "%h", 32: "%r", 64: "%rd"}


def int_load(ty, reg, addr):
    """A load of an integer operand; 16-bit operands of unsigned and bit-size types
    are loaded sign-extending and signed ones zero-extending, so the comparison
    must read exactly 16 bits of the register."""
    w = int(ty[1:])
    if w == 16:
        return f"ld.global.{'u16' if ty[0] == 's' else 's16'} {reg}, [{addr}];"
    return f"ld.global.u{w} {reg}, [{addr}];"


def setp_forms(op, ty, A, B, imm):
    """The setp forms each case checks, and how each result bit follows from
    t = a CmpOp b, c, and t_imm = a CmpOp imm (ISA: p = BoolOp(t, c), q = BoolOp(!t, c))."""
    lines = [
        f"setp.{op}.{ty} %p2, {A}, {B};",
        f"setp.{op}.{ty} %p3|%p4, {A}, {B};",
        f"setp.{op}.and.{ty} %p5|%p6, {A}, {B}, %p1;",
        f"setp.{op}.or.{ty} %p7|%p8, {A}, {B}, !%p1;",
        f"setp.{op}.xor.{ty} _|%p9, {A}, {B}, %p1;",
        f"setp.{op}.{ty} %p10|_, {A}, {imm};",
    ]
    preds = ["%p2", "%p3", "%p4", "%p5", "%p6", "%p7", "%p8", "%p9", "%p10"]

    def bits(t, c, ti):
        r = [t, t, not t, t and c, (not t) and c, t or not c, (not t) or not c,
             (not t) != c, ti]
        return sum(1 << k for k, v in enumerate(r) if v)
    return lines, preds, bits


def gen_setp_int():
    for ty in ["u16", "s16", "b16", "u32", "s32", "b32", "u64", "s64", "b64"]:
        w = int(ty[1:])
        vals = int_values(w)
        rows = [(a, b, c) for c in (0, 1) for a in vals for b in vals]
        imm_text = "-1" if ty[0] == "s" else "1"
        imm = mask(w) if ty[0] == "s" else 1
        R = INT_REG[w]
        for op in INT_OPS[ty[0]]:
            A, B = f"{R}10", f"{R}11"
            lines, preds, bits = setp_forms(op, ty, A, B, imm_text)
            body = [int_load(ty, A, "%ad0"), int_load(ty, B, "%ad1"),
                    "ld.global.u32 %r20, [%ad2];", "setp.ne.u32 %p1, %r20, 0;"]
            body += lines + pack_bits(preds) + ["st.global.u32 [%ad3], %r60;"]
            out = [bits(cmp_int(op, ty, a, b), c == 1, cmp_int(op, ty, a, imm))
                   for a, b, c in rows]
            et = f"u{w}"
            bufs = [Buf("a", et, [r[0] for r in rows]), Buf("b", et, [r[1] for r in rows]),
                    Buf("c", "u32", [r[2] for r in rows]), Buf("out", "u32", n=len(rows), expect=out)]
            comment = (f"setp.{op}.{ty} over every pair of boundary values of {w} bits, with c = 0 and 1:\n"
                       f"out bits: p | p|q | .and p|q with c | .or p|q with !c | .xor _|q with c | p|_ against {imm_text}")
            elementwise("setp_int", f"{op}_{ty}", bufs, body, block=121, comment=comment)


def float_rows(specials, seed):
    rng = Lcg(seed)
    return [(a, b, rng.next() & 1) for a in specials for b in specials]


def gen_setp_float():
    for ty, ftz in [("f32", False), ("f32", True), ("f64", False)]:
        specials = F32_SPECIALS if ty == "f32" else F64_SPECIALS
        w = 32 if ty == "f32" else 64
        one = "0f3F800000" if ty == "f32" else "0d3FF0000000000000"
        one_bits = 0x3F800000 if ty == "f32" else 0x3FF0000000000000
        tyname = (".ftz" if ftz else "") + "." + ty
        R = "%f" if ty == "f32" else "%fd"
        for op in FLOAT_OPS:
            rows = pad(float_rows(specials, hash_name(op + tyname)), 80)
            A, B = f"{R}1", f"{R}2"
            lines, preds, bits = setp_forms(op, tyname[1:], A, B, one)
            body = [f"ld.global.{ty} {A}, [%ad0];", f"ld.global.{ty} {B}, [%ad1];",
                    "ld.global.u32 %r20, [%ad2];", "setp.ne.u32 %p1, %r20, 0;"]
            body += lines + pack_bits(preds) + ["st.global.u32 [%ad3], %r60;"]
            out = [bits(cmp_float(op, ty, a, b, ftz), c == 1, cmp_float(op, ty, a, one_bits, ftz))
                   for a, b, c in rows]
            et = f"u{w}"
            bufs = [Buf("a", et, [r[0] for r in rows]), Buf("b", et, [r[1] for r in rows]),
                    Buf("c", "u32", [r[2] for r in rows]), Buf("out", "u32", n=len(rows), expect=out)]
            comment = (f"setp.{op}{tyname} over every pair of special values (zeros, subnormals, normals,\n"
                       "infinities, quiet and signalling NaNs with payloads), inputs given as raw bits;\n"
                       "out bits: p | p|q | .and p|q with c | .or p|q with !c | .xor _|q with c | p|_ against 1.0")
            name = f"{op}_{ty}" + ("_ftz" if ftz else "")
            elementwise("setp_float", name, bufs, body, block=80, comment=comment)


def hash_name(s):
    h = 1469598103934665603
    for ch in s.encode():
        h = ((h ^ ch) * 1099511628211) & mask(64)
    return h


def gen_setp_half():
    """Half setp (ISA 9.7.7.2): scalar .f16/.bf16 on the low halves, packed
    .f16x2/.bf16x2 with the low halves' result in p and the high halves' in q."""
    for fam in ["f16", "bf16"]:
        specials = F16_SPECIALS if fam == "f16" else BF16_SPECIALS
        for op in FLOAT_OPS:
            rng = Lcg(hash_name(fam + op))
            lo = [(a, b) for a in specials for b in specials]
            rows = []
            for i, (a, b) in enumerate(lo):
                ha, hb = lo[(i * 7 + 3) % len(lo)]
                rows.append((a | ha << 16, b | hb << 16, rng.next() & 1))
            rows = pad(rows, 76)
            body = ["ld.global.u32 %r10, [%ad0];", "ld.global.u32 %r11, [%ad1];",
                    "ld.global.u16 %h1, [%ad0];", "ld.global.u16 %h2, [%ad1];",
                    "ld.global.u32 %r20, [%ad2];", "setp.ne.u32 %p1, %r20, 0;"]
            if fam == "f16":
                body += [
                    f"setp.{op}.f16 %p2, %h1, %h2;",
                    f"setp.{op}.ftz.f16 %p3, %h1, %h2;",
                    f"setp.{op}.and.f16 %p4, %h1, %h2, %p1;",
                    f"setp.{op}.f16x2 %p5|%p6, %r10, %r11;",
                    f"setp.{op}.ftz.f16x2 %p7|%p8, %r10, %r11;",
                    f"setp.{op}.xor.f16x2 %p9|%p10, %r10, %r11, !%p1;",
                    f"setp.{op}.or.ftz.f16 %p11|_, %h1, %h2, %p1;",
                    f"setp.{op}.f16x2 %p12, %r10, %r11;",
                ]
            else:
                body += [
                    f"setp.{op}.bf16 %p2, %h1, %h2;",
                    f"setp.{op}.or.bf16 %p3, %h1, %h2, !%p1;",
                    f"setp.{op}.and.bf16 %p4, %h1, %h2, %p1;",
                    f"setp.{op}.bf16x2 %p5|%p6, %r10, %r11;",
                    f"setp.{op}.and.bf16x2 %p7|%p8, %r10, %r11, %p1;",
                    f"setp.{op}.xor.bf16x2 %p9|%p10, %r10, %r11, !%p1;",
                    f"setp.{op}.bf16 %p11|_, %h1, %h2;",
                    f"setp.{op}.bf16x2 _|%p12, %r10, %r11;",
                ]
            preds = [f"%p{k}" for k in range(2, 13)]
            body += pack_bits(preds) + ["st.global.u32 [%ad3], %r60;"]
            out = []
            for a, b, c in rows:
                c = c == 1

                def t(ftz, hi):
                    s = 16 if hi else 0
                    return cmp_float(op, fam, (a >> s) & 0xFFFF, (b >> s) & 0xFFFF, ftz)
                if fam == "f16":
                    r = [t(False, 0), t(True, 0), t(False, 0) and c, t(False, 0), t(False, 1),
                         t(True, 0), t(True, 1), t(False, 0) != (not c), t(False, 1) != (not c),
                         t(True, 0) or c, t(False, 0)]
                else:
                    r = [t(False, 0), t(False, 0) or not c, t(False, 0) and c, t(False, 0),
                         t(False, 1), t(False, 0) and c, t(False, 1) and c,
                         t(False, 0) != (not c), t(False, 1) != (not c), t(False, 0), t(False, 1)]
                out.append(sum(1 << k for k, v in enumerate(r) if v))
            bufs = [Buf("a", "u32", [r[0] for r in rows]), Buf("b", "u32", [r[1] for r in rows]),
                    Buf("c", "u32", [r[2] for r in rows]), Buf("out", "u32", n=len(rows), expect=out)]
            comment = (f"setp.{op} on .{fam} and .{fam}x2 over pairs of special values (raw bits, low\n"
                       "half = scalar operand); packed forms put the low halves' result in p and the\n"
                       "high halves' in q, each combined with c by the BoolOp.")
            elementwise("setp_half", f"{op}_{fam}", bufs, body, block=76, comment=comment)


# --------------------------------------------------------------------------------------
# set, selp, slct (ISA 9.7.6.1, 9.7.6.3, 9.7.6.4)

SRC_TYPES = ["u16", "s16", "b16", "u32", "s32", "b32", "u64", "s64", "b64", "f32", "f32_ftz", "f64"]


def operand_setup(st, seed, block):
    """Rows (a, b, c), registers, load lines, buffer type and comparison for a
    source type of set (integers: boundary pairs; floats: special pairs)."""
    rng = Lcg(seed)
    if st.startswith("f"):
        ty, ftz = st[:3], st.endswith("ftz")
        specials = F32_SPECIALS if ty == "f32" else F64_SPECIALS
        rows = pad([(a, b, rng.next() & 1) for a in specials for b in specials], block)
        R = "%f" if ty == "f32" else "%fd"
        loads = [f"ld.global.{ty} {R}1, [%ad0];", f"ld.global.{ty} {R}2, [%ad1];"]
        return rows, (f"{R}1", f"{R}2"), loads, f"u{ty[1:]}", \
            (lambda op, a, b: cmp_float(op, ty, a, b, ftz)), FLOAT_OPS, ty, ftz
    w = int(st[1:])
    vals = int_values(w)
    rows = pad([(a, b, rng.next() & 1) for a in vals for b in vals], block)
    R = INT_REG[w]
    loads = [int_load(st, f"{R}1", "%ad0"), int_load(st, f"{R}2", "%ad1")]
    return rows, (f"{R}1", f"{R}2"), loads, f"u{w}", \
        (lambda op, a, b: cmp_int(op, st, a, b)), INT_OPS[st[0]], st, False


def gen_set():
    for i, st in enumerate(SRC_TYPES):
        rows, (A, B), loads, et, cmp, ops, ty, ftz = operand_setup(st, hash_name("set" + st), 44)
        f = ".ftz" if ftz else ""
        o = [ops[(i * 3 + k) % len(ops)] for k in range(4)]
        body = loads + ["ld.global.u32 %r20, [%ad2];", "setp.ne.u32 %p1, %r20, 0;",
                        f"set.{o[0]}{f}.u32.{ty} %r30, {A}, {B};",
                        f"set.{o[1]}.and{f}.s32.{ty} %r31, {A}, {B}, %p1;",
                        f"set.{o[2]}.or{f}.f32.{ty} %r32, {A}, {B}, !%p1;",
                        f"set.{o[3]}.xor{f}.u32.{ty} %r33, {A}, {B}, %p1;",
                        "st.global.u32 [%ad3], %r30;", "st.global.u32 [%ad4], %r31;",
                        "st.global.u32 [%ad5], %r32;", "st.global.u32 [%ad6], %r33;"]
        ones, fone = 0xFFFFFFFF, 0x3F800000
        outs = [[], [], [], []]
        for a, b, c in rows:
            c = c == 1
            outs[0].append(ones if cmp(o[0], a, b) else 0)
            outs[1].append(ones if cmp(o[1], a, b) and c else 0)
            outs[2].append(fone if cmp(o[2], a, b) or not c else 0)
            outs[3].append(ones if cmp(o[3], a, b) != c else 0)
        n = len(rows)
        bufs = [Buf("a", et, [r[0] for r in rows]), Buf("b", et, [r[1] for r in rows]),
                Buf("c", "u32", [r[2] for r in rows])]
        bufs += [Buf(f"d{k}", "u32", n=n, expect=outs[k]) for k in range(4)]
        comment = (f"set with source type .{ty}{' and .ftz' if ftz else ''}: d = BoolOp(a CmpOp b, c) ?\n"
                   "(0xffffffff for .u32/.s32, 1.0f for .f32) : 0, over boundary or special pairs")
        elementwise("set", st, bufs, body, block=44, comment=comment)


SEL_TYPES = ["b16", "u16", "s16", "b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64"]


def sel_values(ty, rng, n):
    """n raw operand values of type ty: boundary values and, for floats, NaNs with
    payloads, infinities, zeros and subnormals, then pseudo-random bits."""
    w = int(ty[1:])
    base = {"f32": F32_SPECIALS, "f64": F64_SPECIALS}.get(ty, int_values(w))
    return [base[i] if i < len(base) else rng.bits(w) for i in range(n)]


def sel_reg(ty, k):
    w = int(ty[1:])
    if ty == "f32":
        return f"%f{k}"
    if ty == "f64":
        return f"%fd{k}"
    return f"{INT_REG[w]}{k}"


def gen_selp():
    for ty in SEL_TYPES:
        w = int(ty[1:])
        rng = Lcg(hash_name("selp" + ty))
        n = 96
        a = sel_values(ty, rng, n)
        b = list(reversed(sel_values(ty, rng, n)))
        c = [rng.next() & 1 for _ in range(n)]
        imm, imm_bits = {"f32": ("0fBF800000", 0xBF800000),
                         "f64": ("0dFFF0000000000000", 0xFFF0000000000000)}.get(ty, ("-2", mask(w) - 1))
        et = f"u{w}"
        A, B, D1, D2, D3 = (sel_reg(ty, k) for k in (1, 2, 3, 4, 5))
        ldt = ty if ty[0] == "f" else f"u{w}"
        body = [f"ld.global.{ldt} {A}, [%ad0];", f"ld.global.{ldt} {B}, [%ad1];",
                "ld.global.u32 %r20, [%ad2];", "setp.ne.u32 %p1, %r20, 0;",
                f"selp.{ty} {D1}, {A}, {B}, %p1;",
                f"selp.{ty} {D2}, {A}, {imm}, !%p1;",
                f"selp.{ty} {D3}, {B}, {A}, !%p1;",
                f"st.global.{ldt} [%ad3], {D1};", f"st.global.{ldt} [%ad4], {D2};",
                f"st.global.{ldt} [%ad5], {D3};"]
        bufs = [Buf("a", et, a), Buf("b", et, b), Buf("c", "u32", c),
                Buf("d1", et, n=n, expect=[x if p else y for x, y, p in zip(a, b, c)]),
                Buf("d2", et, n=n, expect=[imm_bits if p else x for x, p in zip(a, c)]),
                Buf("d3", et, n=n, expect=[y if not p else x for x, y, p in zip(a, b, c)])]
        comment = (f"selp.{ty}: d = c ? a : b, bits copied unchanged (NaN payloads included);\n"
                   f"d1 = selp(a, b, c), d2 = selp(a, {imm}, !c), d3 = selp(b, a, !c)")
        elementwise("selp", ty, bufs, body, block=48, comment=comment)


S32_SELECTORS = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x80000001, 2, 0xFFFFFFFE]


def slct_takes_a_s32(c):
    return sx(c, 32) >= 0


def slct_takes_a_f32(c, ftz):
    """ISA 9.7.6.4: a when c >= 0 (-0 equals zero); NaN is ordered and selects b;
    .ftz flushes a subnormal c to sign-preserving zero, which selects a."""
    v = decode(c, "f32", ftz)
    return v is not None and v >= 0


def gen_slct():
    for ty in SEL_TYPES:
        w = int(ty[1:])
        rng = Lcg(hash_name("slct" + ty))
        n = 100
        a = sel_values(ty, rng, n)
        b = list(reversed(sel_values(ty, rng, n)))
        cs = [S32_SELECTORS[i % len(S32_SELECTORS)] if i < 40 else rng.bits(32) for i in range(n)]
        cf = [F32_SPECIALS[i % len(F32_SPECIALS)] if i < 60 else rng.bits(32) for i in range(n)]
        et = f"u{w}"
        A, B, D1, D2, D3 = (sel_reg(ty, k) for k in (1, 2, 3, 4, 5))
        ldt = ty if ty[0] == "f" else f"u{w}"
        body = [f"ld.global.{ldt} {A}, [%ad0];", f"ld.global.{ldt} {B}, [%ad1];",
                "ld.global.s32 %r20, [%ad2];", "ld.global.f32 %f10, [%ad3];",
                f"slct.{ty}.s32 {D1}, {A}, {B}, %r20;",
                f"slct.{ty}.f32 {D2}, {A}, {B}, %f10;",
                f"slct.ftz.{ty}.f32 {D3}, {A}, {B}, %f10;",
                f"st.global.{ldt} [%ad4], {D1};", f"st.global.{ldt} [%ad5], {D2};",
                f"st.global.{ldt} [%ad6], {D3};"]
        bufs = [Buf("a", et, a), Buf("b", et, b), Buf("cs", "u32", cs), Buf("cf", "u32", cf),
                Buf("d1", et, n=n, expect=[x if slct_takes_a_s32(c) else y for x, y, c in zip(a, b, cs)]),
                Buf("d2", et, n=n, expect=[x if slct_takes_a_f32(c, False) else y
                                          for x, y, c in zip(a, b, cf)]),
                Buf("d3", et, n=n, expect=[x if slct_takes_a_f32(c, True) else y
                                          for x, y, c in zip(a, b, cf)])]
        comment = (f"slct.{ty}: d = (c >= 0) ? a : b with an .s32 selector, an .f32 selector (-0 selects a,\n"
                   "NaN selects b) and .ftz.f32 (a subnormal selector is zero, so selects a)")
        elementwise("slct", ty, bufs, body, block=50, comment=comment)


# --------------------------------------------------------------------------------------
# Predicate logic and guards (ISA 9.3 predicated execution, 9.7.6 and/or/xor/not/mov.pred)

def bit_preds(src="%r20", n=4):
    """Lines setting %p1..%pn to bits 0..n-1 of src."""
    out = []
    for k in range(n):
        out += [f"and.b32 %r{21 + k}, {src}, {1 << k};", f"setp.ne.u32 %p{k + 1}, %r{21 + k}, 0;"]
    return out


def gen_pred():
    n = 120
    xs = [(i * 37 + i // 16) % 16 for i in range(n)]

    def case(name, lines, preds, ref, comment):
        body = ["ld.global.u32 %r20, [%ad0];"] + bit_preds() + lines + pack_bits(preds) + \
               ["st.global.u32 [%ad1], %r60;"]
        out = []
        for x in xs:
            p = [None] + [bool(x >> k & 1) for k in range(4)]
            out.append(sum(1 << k for k, v in enumerate(ref(p)) if v))
        bufs = [Buf("x", "u32", xs), Buf("out", "u32", n=n, expect=out)]
        elementwise("pred", name, bufs, body, block=40, comment=comment)

    case("and_or_xor", [
        "and.pred %p5, %p1, %p2;", "and.pred %p6, !%p1, %p2;", "and.pred %p7, %p3, !%p4;",
        "or.pred %p8, %p1, %p3;", "or.pred %p9, !%p2, %p4;", "or.pred %p10, !%p3, !%p4;",
        "xor.pred %p11, %p1, %p4;", "xor.pred %p12, !%p2, %p3;", "xor.pred %p13, !%p1, !%p3;"],
        [f"%p{k}" for k in range(5, 14)],
        lambda p: [p[1] and p[2], (not p[1]) and p[2], p[3] and not p[4], p[1] or p[3],
                   (not p[2]) or p[4], (not p[3]) or not p[4], p[1] != p[4], (not p[2]) != p[3],
                   (not p[1]) != (not p[3])],
        "and/or/xor.pred with every placement of a negated operand; p1..p4 = bits of x")
    case("not_mov_const", [
        "not.pred %p5, %p1;", "not.pred %p6, !%p2;", "mov.pred %p7, %p3;", "mov.pred %p8, !%p4;",
        "and.pred %p9, %p1, 1;", "or.pred %p10, %p2, 0;", "xor.pred %p11, %p3, 1;",
        "mov.pred %p12, 0;", "not.pred %p13, 0;", "and.pred %p14, !%p4, !0;"],
        [f"%p{k}" for k in range(5, 15)],
        lambda p: [not p[1], p[2], p[3], not p[4], p[1], p[2], not p[3], False, True, not p[4]],
        "not.pred and mov.pred with negated sources, and predicate logic with constant operands")
    case("in_place", [
        "mov.pred %p5, %p1;", "and.pred %p5, %p5, %p2;", "or.pred %p5, %p5, %p3;",
        "xor.pred %p6, %p4, %p4;", "not.pred %p7, %p1;", "not.pred %p7, %p7;",
        "xor.pred %p8, %p2, %p3;", "xor.pred %p8, %p8, %p3;", "or.pred %p9, !%p1, %p1;"],
        ["%p5", "%p6", "%p7", "%p8", "%p9"],
        lambda p: [(p[1] and p[2]) or p[3], False, p[1], p[2], True],
        "predicate logic whose destination is also a source")
    case("guarded", [
        "mov.pred %p5, %p3;", "@%p1 and.pred %p5, %p2, %p4;",
        "mov.pred %p6, %p4;", "@!%p2 or.pred %p6, %p1, %p3;",
        "mov.pred %p7, %p1;", "@%p3 not.pred %p7, %p7;",
        "mov.pred %p8, %p2;", "@!%p4 xor.pred %p8, %p8, 1;",
        "mov.pred %p9, 0;", "@%p1 mov.pred %p9, !%p4;"],
        ["%p5", "%p6", "%p7", "%p8", "%p9"],
        lambda p: [(p[2] and p[4]) if p[1] else p[3], (p[1] or p[3]) if not p[2] else p[4],
                   (not p[1]) if p[3] else p[1], (not p[2]) if not p[4] else p[2],
                   (not p[4]) if p[1] else False],
        "guarded predicate logic: lanes whose guard is false keep the old destination")
    # setp with a guard, including a guard that names the destination.
    body_setp = [
        "ld.global.u32 %r10, [%ad1];", "ld.global.u32 %r11, [%ad2];",
        "mov.pred %p5, %p4;", "@%p1 setp.lt.u32 %p5, %r10, %r11;",
        "mov.pred %p6, %p3;", "mov.pred %p7, %p2;", "@!%p2 setp.eq.and.u32 %p6|%p7, %r10, %r11, %p4;",
        "mov.pred %p8, %p1;", "@%p8 setp.gt.s32 %p8, %r10, %r11;",
        "mov.pred %p9, 1;", "@%p3 setp.ne.u32 %p9|_, %r10, %r11;"]
    av = [int_values(32)[i % 11] for i in range(n)]
    bv = [int_values(32)[(i * 5 + 3) % 11] if i % 4 else av[i] for i in range(n)]
    out = []
    for x, a, b in zip(xs, av, bv):
        p = [None] + [bool(x >> k & 1) for k in range(4)]
        r5 = (a < b) if p[1] else p[4]
        t = a == b
        r6, r7 = ((t and p[4]), ((not t) and p[4])) if not p[2] else (p[3], p[2])
        r8 = (sx(a, 32) > sx(b, 32)) if p[1] else p[1]
        r9 = (a != b) if p[3] else True
        out.append(sum(1 << k for k, v in enumerate([r5, r6, r7, r8, r9]) if v))
    body = ["ld.global.u32 %r20, [%ad0];"] + bit_preds() + body_setp + \
        pack_bits(["%p5", "%p6", "%p7", "%p8", "%p9"]) + ["st.global.u32 [%ad3], %r60;"]
    bufs = [Buf("x", "u32", xs), Buf("a", "u32", av), Buf("b", "u32", bv),
            Buf("out", "u32", n=n, expect=out)]
    elementwise("guard", "setp", bufs, body, block=40,
                comment="@p / @!p on setp: lanes whose guard is false keep both destinations;\n"
                        "a guard may name the destination it writes (@%p8 setp ... %p8)")


def gen_guard():
    n = 120
    xs = [(i * 11 + (i >> 3)) % 16 for i in range(n)]
    rng = Lcg(99)
    av = [rng.bits(32) for _ in range(n)]
    bv = [rng.bits(32) for _ in range(n)]
    SENT = 0xDEADBEEF
    # Stores, moves and arithmetic under guards.
    body = ["ld.global.u32 %r20, [%ad0];"] + bit_preds() + [
        "ld.global.u32 %r10, [%ad1];", "ld.global.u32 %r11, [%ad2];",
        "@%p1 st.global.u32 [%ad3], %r10;",
        "@!%p2 st.global.u16 [%ad4], %r11;",
        "mov.u32 %r30, 1000;", "@%p3 mov.u32 %r30, %r10;",
        "mov.u32 %r31, 7;", "@!%p4 add.u32 %r31, %r10, %r11;",
        "mov.u32 %r32, 9;", "@%p1 mul.lo.u32 %r32, %r10, %r11;",
        "@%p2 xor.b32 %r32, %r32, %r10;",
        "mov.u32 %r33, 5;", "@!%p3 selp.u32 %r33, %r10, %r11, %p4;",
        "mov.u32 %r34, 6;", "@%p4 set.hi.u32.u32 %r34, %r10, %r11;",
        "mov.u32 %r35, 8;", "@!%p1 ld.global.u32 %r35, [%ad2];",
        "mov.u32 %r36, 4;", "@%p2 slct.u32.s32 %r36, %r10, %r11, %r10;",
        "mov.u32 %r37, 3;", "@%p3 cvt.u16.u32 %h5, %r10;", "@%p3 cvt.u32.u16 %r37, %h5;",
        "st.global.u32 [%ad5], %r30;", "st.global.u32 [%ad6], %r31;", "st.global.u32 [%ad7], %r32;",
        "st.global.u32 [%ad8], %r33;", "st.global.u32 [%ad9], %r34;", "st.global.u32 [%ad10], %r35;",
        "st.global.u32 [%ad11], %r36;", "st.global.u32 [%ad12], %r37;"]
    P = [[bool(x >> k & 1) for k in range(4)] for x in xs]
    e = {k: [] for k in range(3, 13)}
    for p, a, b in zip(P, av, bv):
        e[3].append(a if p[0] else SENT)
        e[4].append(b & 0xFFFF if not p[1] else 0xBEEF)
        e[5].append(a if p[2] else 1000)
        e[6].append((a + b) & mask(32) if not p[3] else 7)
        r = (a * b) & mask(32) if p[0] else 9
        e[7].append(r ^ a if p[1] else r)
        e[8].append((a if p[3] else b) if not p[2] else 5)
        e[9].append((0xFFFFFFFF if a > b else 0) if p[3] else 6)
        e[10].append(b if not p[0] else 8)
        e[11].append((a if sx(a, 32) >= 0 else b) if p[1] else 4)
        e[12].append(a & 0xFFFF if p[2] else 3)
    bufs = [Buf("x", "u32", xs), Buf("a", "u32", av), Buf("b", "u32", bv),
            Buf("s32", "u32", [SENT] * n, expect=e[3]), Buf("s16", "u16", [0xBEEF] * n, expect=e[4])]
    bufs += [Buf(f"o{k}", "u32", n=n, expect=e[k]) for k in range(5, 13)]
    elementwise("guard", "st_mov_arith", bufs, body, block=40,
                comment="@p / @!p on st, mov, add, mul, xor, selp, set, ld, slct and cvt:\n"
                        "a lane whose guard is false leaves memory and the destination unchanged")

    # Guarded branches, ret and exit.
    body = ["ld.global.u32 %r20, [%ad0];"] + bit_preds() + [
        "mov.u32 %r30, 0;",
        "@%p1 bra L1;",
        "add.u32 %r30, %r30, 1;",
        "L1:",
        "@!%p2 bra L2;",
        "add.u32 %r30, %r30, 10;",
        "L2:",
        "@%p3 bra L3;",
        "add.u32 %r30, %r30, 100;",
        "bra L4;",
        "L3:",
        "add.u32 %r30, %r30, 1000;",
        "L4:",
        "st.global.u32 [%ad1], %r30;",
        "and.pred %p5, %p1, %p4;",
        "@%p5 ret;",
        "add.u32 %r30, %r30, 20000;",
        "st.global.u32 [%ad2], %r30;",
        "@!%p4 exit;",
        "add.u32 %r30, %r30, 300000;",
        "st.global.u32 [%ad3], %r30;"]
    o1, o2, o3 = [], [], []
    for p in P:
        v = (0 if p[0] else 1) + (10 if p[1] else 0) + (1000 if p[2] else 100)
        o1.append(v)
        if p[0] and p[3]:
            o2.append(SENT)
            o3.append(SENT)
            continue
        v += 20000
        o2.append(v)
        o3.append(v + 300000 if p[3] else SENT)
    bufs = [Buf("x", "u32", xs), Buf("o1", "u32", [SENT] * n, expect=o1),
            Buf("o2", "u32", [SENT] * n, expect=o2), Buf("o3", "u32", [SENT] * n, expect=o3)]
    elementwise("guard", "bra_ret_exit", bufs, body, block=40,
                comment="@p / @!p on bra, ret and exit: lanes that branch skip code, lanes that\n"
                        "return or exit store nothing more")


# --------------------------------------------------------------------------------------
# Integer arithmetic at the boundaries of every width (ISA 9.7.1, 9.7.8 logic and shift)

def int_rows(w, kind, seed):
    vals = int_values(w)
    rng = Lcg(seed)
    if kind == "shift":
        amounts = sorted({0, 1, w - 1, w, w + 1, 31, 32, 33, 63, 64, 65, 1000, 0xFFFFFFFF})
        return [(a, s, 0) for a in vals for s in amounts]
    rows = [(a, b, vals[rng.next() % len(vals)] if rng.next() & 1 else rng.bits(2 * w))
            for a in vals for b in vals]
    if kind == "div":
        rows = [r for r in rows if r[1] != 0]
    return rows


def int_ops(w):
    """name -> (lines of PTX, outputs: (buffer type, function of (a, b, c))). Operands:
    unsigned in R1, R2 (c in R3); signed (loaded sign-extending where 16-bit) in R4, R5, R6."""
    R = INT_REG[w]
    W = INT_REG.get(2 * w)
    u, s = f"u{w}", f"s{w}"
    m = mask(w)

    def S(x):
        return sx(x, w)
    ops = {
        "add": ([f"add.{u} {R}10, {R}1, {R}2;", f"add.{s} {R}11, {R}4, {R}5;"],
                [(u, lambda a, b, c: (a + b) & m), (u, lambda a, b, c: (S(a) + S(b)) & m)]),
        "sub": ([f"sub.{u} {R}10, {R}1, {R}2;", f"sub.{s} {R}11, {R}4, {R}5;"],
                [(u, lambda a, b, c: (a - b) & m), (u, lambda a, b, c: (S(a) - S(b)) & m)]),
        "mul_lo": ([f"mul.lo.{u} {R}10, {R}1, {R}2;", f"mul.lo.{s} {R}11, {R}4, {R}5;"],
                   [(u, lambda a, b, c: (a * b) & m), (u, lambda a, b, c: (S(a) * S(b)) & m)]),
        "mul_hi": ([f"mul.hi.{u} {R}10, {R}1, {R}2;", f"mul.hi.{s} {R}11, {R}4, {R}5;"],
                   [(u, lambda a, b, c: (a * b) >> w & m), (u, lambda a, b, c: (S(a) * S(b)) >> w & m)]),
        "mad_lo": ([f"mad.lo.{u} {R}10, {R}1, {R}2, {R}3;", f"mad.lo.{s} {R}11, {R}4, {R}5, {R}6;"],
                   [(u, lambda a, b, c: (a * b + (c & m)) & m),
                    (u, lambda a, b, c: (S(a) * S(b) + S(c)) & m)]),
        "mad_hi": ([f"mad.hi.{u} {R}10, {R}1, {R}2, {R}3;", f"mad.hi.{s} {R}11, {R}4, {R}5, {R}6;"],
                   [(u, lambda a, b, c: ((a * b >> w) + (c & m)) & m),
                    (u, lambda a, b, c: ((S(a) * S(b) >> w) + S(c)) & m)]),
        "min_max": ([f"min.{u} {R}10, {R}1, {R}2;", f"min.{s} {R}11, {R}4, {R}5;",
                     f"max.{u} {R}12, {R}1, {R}2;", f"max.{s} {R}13, {R}4, {R}5;"],
                    [(u, lambda a, b, c: min(a, b)), (u, lambda a, b, c: min(S(a), S(b)) & m),
                     (u, lambda a, b, c: max(a, b)), (u, lambda a, b, c: max(S(a), S(b)) & m)]),
        "bitwise": ([f"and.b{w} {R}10, {R}1, {R}2;", f"or.b{w} {R}11, {R}1, {R}2;",
                     f"xor.b{w} {R}12, {R}1, {R}2;", f"not.b{w} {R}13, {R}1;"],
                    [(u, lambda a, b, c: a & b), (u, lambda a, b, c: a | b),
                     (u, lambda a, b, c: a ^ b), (u, lambda a, b, c: ~a & m)]),
        "div": ([f"div.{u} {R}10, {R}1, {R}2;", f"div.{s} {R}11, {R}4, {R}5;"],
                [(u, lambda a, b, c: a // b), (u, lambda a, b, c: trunc_div(S(a), S(b)) & m)]),
        "rem": ([f"rem.{u} {R}10, {R}1, {R}2;", f"rem.{s} {R}11, {R}4, {R}5;"],
                [(u, lambda a, b, c: a % b),
                 (u, lambda a, b, c: (S(a) - trunc_div(S(a), S(b)) * S(b)) & m)]),
        "neg_abs": ([f"neg.{s} {R}10, {R}4;", f"abs.{s} {R}11, {R}4;"],
                    [(u, lambda a, b, c: -S(a) & m), (u, lambda a, b, c: abs(S(a)) & m)]),
        "shl_shr": ([f"shl.b{w} {R}10, {R}1, %r7;", f"shr.u{w} {R}11, {R}1, %r7;",
                     f"shr.s{w} {R}12, {R}4, %r7;", f"shr.b{w} {R}13, {R}1, %r7;"],
                    [(u, lambda a, b, c: (a << min(b, w)) & m),
                     (u, lambda a, b, c: a >> min(b, w)),
                     (u, lambda a, b, c: (S(a) >> min(b, w)) & m),
                     (u, lambda a, b, c: a >> min(b, w))]),
    }
    if W:
        U2, M2 = f"u{2 * w}", mask(2 * w)
        ops["mul_wide"] = ([f"mul.wide.{u} {W}10, {R}1, {R}2;", f"mul.wide.{s} {W}11, {R}4, {R}5;"],
                           [(U2, lambda a, b, c: a * b), (U2, lambda a, b, c: (S(a) * S(b)) & M2)])
        ops["mad_wide"] = ([f"mad.wide.{u} {W}10, {R}1, {R}2, {W}3;",
                            f"mad.wide.{s} {W}11, {R}4, {R}5, {W}6;"],
                           [(U2, lambda a, b, c: (a * b + c) & M2),
                            (U2, lambda a, b, c: (S(a) * S(b) + sx(c, 2 * w)) & M2)])
    return ops


def trunc_div(x, y):
    """Integer division truncating toward zero (ISA div)."""
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def gen_int():
    for w in (16, 32, 64):
        R = INT_REG[w]
        W = INT_REG.get(2 * w)
        for name, (lines, outs) in int_ops(w).items():
            kind = "shift" if name == "shl_shr" else "div" if name in ("div", "rem") else "plain"
            rows = pad(int_rows(w, kind, hash_name(name + str(w))), 44)
            wide_c = name == "mad_wide"
            u = f"u{w}"
            body = [f"ld.global.{u} {R}1, [%ad0];", f"ld.global.{u} {R}4, [%ad0];"]
            if w == 16:
                body[1] = f"ld.global.s16 {R}4, [%ad0];"
            if kind == "shift":
                body += ["ld.global.u32 %r7, [%ad1];"]
            else:
                body += [f"ld.global.{u} {R}2, [%ad1];",
                         f"ld.global.{'s16' if w == 16 else u} {R}5, [%ad1];"]
            if wide_c:
                body += [f"ld.global.u{2 * w} {W}3, [%ad2];", f"ld.global.u{2 * w} {W}6, [%ad2];"]
            else:
                body += [f"ld.global.{u} {R}3, [%ad2];",
                         f"ld.global.{'s16' if w == 16 else u} {R}6, [%ad2];"]
            body += lines
            cw = 2 * w if wide_c else w
            bufs = [Buf("a", u, [r[0] for r in rows]),
                    Buf("b", "u32" if kind == "shift" else u, [r[1] for r in rows]),
                    Buf("c", f"u{cw}", [r[2] & mask(cw) for r in rows])]
            for k, (et, f) in enumerate(outs):
                dst = lines[k].split()[1].rstrip(",")
                body.append(f"st.global.{et} [%ad{3 + k}], {dst};")
                bufs.append(Buf(f"d{k}", et, n=len(rows),
                                expect=[f(a, b, c & mask(cw)) for a, b, c in rows]))
            ptx_names = ", ".join(sorted({ln.split()[0] for ln in lines}))
            comment = (f"{ptx_names} over every pair of {w}-bit boundary values\n"
                       "(16-bit signed operands are loaded sign-extending: only 16 bits may count)")
            if kind == "shift":
                comment = f"{ptx_names}: shift amounts 0 .. 2^32-1; amounts >= {w} clamp to {w}"
            if kind == "div":
                comment += "\n(no zero divisor; MIN / -1 wraps to MIN, MIN rem -1 is 0)"
            elementwise("int", f"{name}_{w}", bufs, body, block=44, comment=comment)


# --------------------------------------------------------------------------------------
# cvt (ISA 9.7.9.21): integer widths, float <-> integer, f32 <-> f64

INT_TYPES = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]


def int_range(t):
    w = int(t[1:])
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if t[0] == "s" else (0, mask(w))


def int_value(t, bits):
    w = int(t[1:])
    return sx(bits, w) if t[0] == "s" else ux(bits, w)


def reg_for(t, k):
    """A register holding type t: 8- and 16-bit in .b16, 32 in .b32, 64 in .b64."""
    w = int(t[1:]) if t[1:].isdigit() else 32
    return f"{'%h' if w <= 16 else '%r' if w == 32 else '%rd'}{k}"


def store_type(t):
    return f"u{t[1:]}"


def gen_cvt_int():
    for src in INT_TYPES:
        sw = int(src[1:])
        rng = Lcg(hash_name("cvt" + src))
        vals = int_values(sw) + [rng.bits(sw) for _ in range(21)]
        for k in (8, 16, 32):  # values at the edges of narrower types
            if k < sw:
                vals += [(1 << (k - 1)) - 1, 1 << (k - 1), mask(k), 1 << k, mask(sw) - mask(k)]
        vals = pad(vals, 48)
        n = len(vals)
        A = reg_for(src, 1)
        body = [f"ld.global.{src} {A}, [%ad0];"]
        bufs = [Buf("a", store_type(src), vals)]
        slo, shi = int_range(src)
        k = 0
        for dst in INT_TYPES:
            dlo, dhi = int_range(dst)
            forms = [False] + ([True] if not (dlo <= slo and shi <= dhi) else [])
            for sat in forms:
                D = reg_for(dst, 10 + k)
                body.append(f"cvt{'.sat' if sat else ''}.{dst}.{src} {D}, {A};")
                body.append(f"st.global.{store_type(dst)} [%ad{1 + k}], {D};")

                def conv(bits, dst=dst, sat=sat):
                    v = int_value(src, bits)
                    if sat:
                        v = min(max(v, dlo), dhi)
                    return v & mask(int(dst[1:]))
                bufs.append(Buf(f"{dst}{'_sat' if sat else ''}", store_type(dst), n=n,
                                expect=[conv(v) for v in vals]))
                k += 1
        comment = (f"cvt from .{src} to every integer type: extend by the source type, then truncate,\n"
                   "or with .sat (where the destination range is not a superset) clamp")
        elementwise("cvt", f"int_from_{src}", bufs, body, block=48, comment=comment)


def round_int(x, mode):
    """An exact rational rounded to an integer (ISA: .rni nearest even, .rzi toward
    zero, .rmi toward -inf, .rpi toward +inf)."""
    fl = x.numerator // x.denominator
    if mode == "rmi":
        return fl
    ce = -((-x.numerator) // x.denominator)
    if mode == "rpi":
        return ce
    if mode == "rzi":
        return fl if x >= 0 else ce
    d = x - fl
    if d > Fraction(1, 2) or (d == Fraction(1, 2) and fl & 1):
        return fl + 1
    return fl


def float_to_int_values(fmt):
    """Finite and infinite values around every integer range and rounding tie,
    as raw bits of fmt (NaN is handled in its own case)."""
    halves = [0, 0.5, 1, 1.5, 2.5, 3.5, 0.49999997, 0.50000006, 126.5, 127.5, 128, 128.5,
              255.5, 256, 32767.5, 32768, 65535.5, 65536, 2147483520.0, 2147483648.0,
              4294967040.0, 4294967296.0, 9.2233715e18, 9.223372036854775807e18,
              1.8446743e19, 1.8446744073709552e19, 1e30]
    vals = []
    for h in halves:
        for sgn in (1, -1):
            vals.append(round_to(Fraction(sgn * h), fmt, sign_neg=sgn < 0))
    specials = F32_SPECIALS if fmt == "f32" else F64_SPECIALS
    vals += [v for v in specials if not is_nan(v, fmt)]
    if fmt == "f64":
        vals += [round_to(Fraction(x), "f64") for x in
                 (2147483647.5, -2147483648.5, 4294967295.5, 9007199254740993, (1 << 63) - 1024,
                  -(1 << 63) - 2048, (1 << 64) - 2048, -2147483647.5)]
    return vals


def gen_cvt_float_int():
    for fmt in ("f32", "f64"):
        w = int(fmt[1:])
        for mode in ("rni", "rzi", "rmi", "rpi"):
            vals = pad(float_to_int_values(fmt), 40)
            n = len(vals)
            A = "%f1" if fmt == "f32" else "%fd1"
            body = [f"ld.global.{fmt} {A}, [%ad0];"]
            bufs = [Buf("a", f"u{w}", vals)]
            for k, dst in enumerate(INT_TYPES):
                D = reg_for(dst, 10 + k)
                body += [f"cvt.{mode}.{dst}.{fmt} {D}, {A};",
                         f"st.global.{store_type(dst)} [%ad{1 + k}], {D};"]
                lo, hi = int_range(dst)

                def conv(bits, lo=lo, hi=hi, dst=dst):
                    v = decode(bits, fmt)
                    if v == math.inf:
                        r = hi
                    elif v == -math.inf:
                        r = lo
                    else:
                        r = min(max(round_int(Fraction(v), mode), lo), hi)
                    return r & mask(int(dst[1:]))
                bufs.append(Buf(dst, store_type(dst), n=n, expect=[conv(v) for v in vals]))
            comment = (f"cvt.{mode} from .{fmt} to every integer type: rounded to an integer, then clamped\n"
                       "to the destination range (ISA: float-to-integer conversions saturate)")
            elementwise("cvt", f"{mode}_from_{fmt}", bufs, body, block=40, comment=comment)
    # NaN: zero for an f32 source and a destination narrower than 64 bits (ISA 9.0).
    nans = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00005, 0x7FFFFFFF, 0x3FC00000] * 8
    body = ["ld.global.f32 %f1, [%ad0];"]
    bufs = [Buf("a", "u32", nans)]
    k = 0
    for mode in ("rni", "rzi"):
        for dst in ("u8", "s8", "u16", "s16", "u32", "s32"):
            D = reg_for(dst, 10 + k)
            body += [f"cvt.{mode}.{dst}.f32 {D}, %f1;", f"st.global.{store_type(dst)} [%ad{1 + k}], {D};"]
            bufs.append(Buf(f"{dst}_{mode}", store_type(dst), n=len(nans),
                            expect=[0 if is_nan(v, "f32") else 2 if mode == "rni" else 1 for v in nans]))
            k += 1
    elementwise("cvt", "nan_from_f32", bufs, body, block=48,
                comment="cvt of f32 NaNs (quiet, signalling, payloads) to integers narrower than 64 bits\n"
                        "gives 0 (ISA 9.0, cvt: 'Zero if source is not .f64 and destination is not\n"
                        ".s64, .u64'); 1.5 checks the same lanes otherwise convert")


def int_to_float_values(t):
    w = int(t[1:])
    rng = Lcg(hash_name("i2f" + t))
    vals = int_values(w) + [rng.bits(w) for _ in range(20)]
    extra = [(1 << 24) + 1, (1 << 24) + 3, (1 << 25) + 2, (1 << 25) + 6, (1 << 53) + 1, (1 << 53) + 3,
             (1 << 54) + 2, mask(w) - 0x7F, mask(w) - 0x80, 0x7FFFFFBF, 0x7FFFFFC0, 0xFFFFFF7F,
             0xFFFFFF80, 0xFFFFFFFF7FFFFDFF, (1 << 63) + (1 << 39), (1 << 63) + (1 << 40) + (1 << 39)]
    vals += [x for x in extra if x <= mask(w)]
    return pad(vals, 40)


def gen_cvt_int_float():
    for src in INT_TYPES:
        vals = int_to_float_values(src)
        n = len(vals)
        A = reg_for(src, 1)
        body = [f"ld.global.{src} {A}, [%ad0];",
                f"cvt.rn.f32.{src} %f2, {A};", "st.global.f32 [%ad1], %f2;",
                f"cvt.rn.f64.{src} %fd2, {A};", "st.global.f64 [%ad2], %fd2;"]
        bufs = [Buf("a", store_type(src), vals),
                Buf("f32", "u32", n=n, expect=[round_to(int_value(src, v), "f32") for v in vals]),
                Buf("f64", "u64", n=n, expect=[round_to(int_value(src, v), "f64") for v in vals])]
        elementwise("cvt", f"rn_float_from_{src}", bufs, body, block=40,
                    comment=f"cvt.rn.f32.{src} and cvt.rn.f64.{src}: the exact integer rounded to nearest even\n"
                            "(ties such as 2^24+1 and 2^53+1 included); results as raw bits")


def convert_float(bits, src, dst):
    """A non-NaN float converted to another format, rounded to nearest even."""
    e, m = FMT[src]
    neg = bits >> (e + m) & 1
    v = decode(bits, src)
    if math.isinf(v):
        de, dm = FMT[dst]
        return (neg << (de + dm)) | (mask(de) << dm)
    return round_to(Fraction(v), dst, neg)


def gen_cvt_float_float():
    rng = Lcg(5)
    f32v = [v for v in F32_SPECIALS if not is_nan(v, "f32")] + [rng.bits(32) for _ in range(40)]
    f32v = pad([v for v in f32v if not is_nan(v, "f32")], 32)
    bufs = [Buf("a", "u32", f32v),
            Buf("d", "u64", n=len(f32v), expect=[convert_float(v, "f32", "f64") for v in f32v])]
    elementwise("cvt", "f64_from_f32", bufs, ["ld.global.f32 %f1, [%ad0];", "cvt.f64.f32 %fd1, %f1;",
                                              "st.global.f64 [%ad1], %fd1;"], block=32,
                comment="cvt.f64.f32 is exact: every f32 (subnormals, zeros, infinities) widens unchanged",
                grid=None)
    f64v = [v for v in F64_SPECIALS if not is_nan(v, "f64")]
    # f32 boundaries seen from f64: min subnormal halves, max finite and the overflow tie.
    for x in (Fraction(1, 2 ** 149), Fraction(1, 2 ** 150), Fraction(3, 2 ** 151), Fraction(1, 2 ** 151),
              Fraction(2 ** 24 - 1, 2 ** 150), Fraction(2 ** 24 + 1, 2 ** 150),
              Fraction(2 ** 128) - Fraction(2 ** 104), Fraction(2 ** 128) - Fraction(2 ** 103),
              Fraction(2 ** 128) - Fraction(2 ** 103) - Fraction(2 ** 80), Fraction(2 ** 128),
              1 + Fraction(1, 2 ** 24), 1 + Fraction(3, 2 ** 24), 1 + Fraction(1, 2 ** 24) + Fraction(1, 2 ** 52)):
        for sgn in (1, -1):
            f64v.append(round_to(sgn * x, "f64"))
    f64v += [rng.bits(64) for _ in range(30)]
    f64v = pad([v for v in f64v if not is_nan(v, "f64")], 36)

    bufs = [Buf("a", "u64", f64v), Buf("d", "u32", n=len(f64v), expect=[convert_float(v, "f64", "f32")
                                                                       for v in f64v])]
    elementwise("cvt", "rn_f32_from_f64", bufs, ["ld.global.f64 %fd1, [%ad0];", "cvt.rn.f32.f64 %f1, %fd1;",
                                                 "st.global.f32 [%ad1], %f1;"], block=36,
                comment="cvt.rn.f32.f64: rounded to nearest even, including to f32 subnormals, to zero\n"
                        "(sign kept) and to infinity past the largest f32")


def gen_cvt_nan():
    """NaN to an integer where the result is not zero. ISA 9.0, cvt: 'In float-to-integer conversions, depending upon
    conversion types, NaN input results in following value: Zero if source is not .f64
    and destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)'."""
    for fmt, dsts in (("f32", ("u64", "s64")), ("f64", INT_TYPES)):
        w = int(fmt[1:])
        nans = ([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00005, 0x7FFFFFFF] if fmt == "f32" else
                [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF4000000000ABC,
                 0x7FFFFFFFFFFFFFFF])
        vals = nans * 8
        A = "%f1" if fmt == "f32" else "%fd1"
        body = [f"ld.global.{fmt} {A}, [%ad0];"]
        bufs = [Buf("a", f"u{w}", vals)]
        for k, dst in enumerate(dsts):
            D = reg_for(dst, 10 + k)
            body += [f"cvt.rzi.{dst}.{fmt} {D}, {A};", f"st.global.{store_type(dst)} [%ad{1 + k}], {D};"]
            bufs.append(Buf(dst, store_type(dst), n=len(vals), expect=[1 << (int(dst[1:]) - 1)] * len(vals)))
        elementwise("cvt", f"nan_from_{fmt}_is_min", bufs, body, block=40,
                    comment=f"cvt.rzi of {fmt} NaNs to {', '.join(dsts)}: 1 << (width - 1) (ISA 9.0, cvt)")


def gen_cvt():
    gen_cvt_int()
    gen_cvt_float_int()
    gen_cvt_int_float()
    gen_cvt_float_float()


# --------------------------------------------------------------------------------------
# Float arithmetic with the default round-to-nearest-even (ISA 9.7.3: add, sub, mul, fma;
# .ftz flushes subnormal inputs and results to sign-preserving zero; .sat clamps to
# [0.0, 1.0]). Rows whose result is NaN (bits unspecified) are left out, and so are
# rows where the ISA text leaves the outcome open: a result that rounds up to the
# smallest normal under .ftz, and -0 under .sat.

F32_ARITH = [0x00000000, 0x80000000, 0x00000001, 0x80000003, 0x007FFFFF, 0x00800000, 0x80800001,
             0x7F7FFFFF, 0xFF7FFFFE, 0x7F800000, 0xFF800000, 0x3F800000, 0xBF800000, 0x3F800001,
             0x3FC00000, 0xC0100000, 0x3DCCCCCD, 0x33800000, 0x34000000, 0x3F000000, 0x4B800000,
             0x3F7FFFFF]
F64_ARITH = [0, 1 << 63, 1, (1 << 63) | 3, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
             0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFE, 0x7FF0000000000000, 0xFFF0000000000000,
             0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001, 0x3FB999999999999A,
             0x3CA0000000000000, 0x3CB0000000000000, 0x3FE0000000000000, 0x4340000000000000,
             0x3FEFFFFFFFFFFFFF, 0xC002000000000000]


def arith_exact(op, fmt, xs, ftz):
    """(exact rational or +-inf, sign of a zero result) of op on bits xs, or None for NaN."""
    v = [decode(x, fmt, ftz) for x in xs]
    neg = [math.copysign(1.0, x) < 0 for x in v]
    if op in ("add", "sub"):
        a, b = v
        nb = neg[1]
        if op == "sub":
            b, nb = -b, not nb
        if math.isinf(a) or math.isinf(b):
            if math.isinf(a) and math.isinf(b) and (a > 0) != (b > 0):
                return None
            return (a if math.isinf(a) else b), False
        s = Fraction(a) + Fraction(b)
        return s, (s == 0 and a == 0 and b == 0 and neg[0] and nb)
    if op == "mul":
        a, b = v
        sign = neg[0] != neg[1]
        if math.isinf(a) or math.isinf(b):
            if a == 0 or b == 0:
                return None
            return (-math.inf if sign else math.inf), False
        return Fraction(a) * Fraction(b), sign
    a, b, c = v  # fma
    if any(math.isinf(x) for x in v):
        return None  # kept simple: infinite fma operands are not generated
    p = Fraction(a) * Fraction(b)
    s = p + Fraction(c)
    return s, (s == 0 and p == 0 and c == 0 and (neg[0] != neg[1]) and neg[2])


def arith_result(op, fmt, xs, ftz, sat):
    """Bits of the result, or None where the ISA leaves it open (see above)."""
    r = arith_exact(op, fmt, xs, ftz)
    if r is None:
        return None
    x, zneg = r
    e, m = FMT[fmt]
    inf = mask(e) << m
    if isinstance(x, float):  # infinity
        bits = inf | ((1 << (e + m)) if x < 0 else 0)
    else:
        bits = round_to(x, fmt, zneg)
        tiny = Fraction(1, 2 ** 126)
        if ftz and x != 0 and abs(x) < tiny and bits & ~(1 << (e + m)) == tiny_bits(fmt):
            return None  # rounds up to the smallest normal: flush before or after rounding?
        if ftz and is_subnormal(bits, fmt):
            bits &= 1 << (e + m)
    if sat:
        if bits == 1 << (e + m):
            return None  # -0 under .sat
        val = decode(bits, fmt)
        if val < 0:
            bits = 0
        elif val > 1:
            bits = round_to(1, fmt)
    return bits


def tiny_bits(fmt):
    return 1 << FMT[fmt][1]


def gen_float():
    for fmt in ("f32", "f64"):
        vals = F32_ARITH if fmt == "f32" else F64_ARITH
        w = int(fmt[1:])
        R = "%f" if fmt == "f32" else "%fd"
        for op in ("add", "sub", "mul", "fma"):
            rng = Lcg(hash_name(fmt + op))
            if op == "fma":
                cands = [(vals[rng.next() % len(vals)], vals[rng.next() % len(vals)],
                          vals[rng.next() % len(vals)]) for _ in range(400)]
                one = round_to(1, fmt)
                x = round_to(1 + Fraction(1, 2 ** (12 if fmt == "f32" else 27)), fmt)
                cands += [(x, x, one | (1 << (w - 1))), (x, x | (1 << (w - 1)), one)]
            else:
                cands = [(a, b, 0) for a in vals for b in vals]
            variants = [(False, False)] + ([(True, False), (False, True), (True, True)] if fmt == "f32" else [])
            rows = []
            for r in cands:
                xs = r if op == "fma" else r[:2]
                res = [arith_result(op, fmt, xs, ftz, sat) for ftz, sat in variants]
                if all(v is not None for v in res):
                    rows.append((r, res))
            rows = pad(rows, 40)
            n = len(rows)
            body = [f"ld.global.{fmt} {R}1, [%ad0];", f"ld.global.{fmt} {R}2, [%ad1];",
                    f"ld.global.{fmt} {R}3, [%ad2];"]
            bufs = [Buf(nm, f"u{w}", [r[0][k] for r in rows]) for k, nm in enumerate("abc")]
            for k, (ftz, sat) in enumerate(variants):
                mods = ".rn" + (".ftz" if ftz else "") + (".sat" if sat else "")
                srcs = f"{R}1, {R}2, {R}3" if op == "fma" else f"{R}1, {R}2"
                body += [f"{op}{mods}.{fmt} {R}{10 + k}, {srcs};", f"st.global.{fmt} [%ad{3 + k}], {R}{10 + k};"]
                bufs.append(Buf(f"d{mods.replace('.', '_')}", f"u{w}", n=n, expect=[r[1][k] for r in rows]))
            comment = (f"{op}.rn.{fmt}{' with .ftz, .sat and both' if fmt == 'f32' else ''} over special and boundary\n"
                       "values, results as raw bits: one rounding to nearest even of the exact result")
            elementwise("float", f"{op}_{fmt}", bufs, body, block=40, comment=comment)


# --------------------------------------------------------------------------------------
# Control flow (ISA 9.7.12: bra, brx.idx, ret, exit, nanosleep; 9.7.13 bar.sync,
# vote.sync, activemask): the reference runs each thread's program in Python; warp
# masks follow from which threads of a warp are alive at the join.

SENT = 0xDEADBEEF


def warp_masks(n_threads, block, alive=lambda g: True):
    """activemask at a point every live thread of a warp reaches: the live lanes of
    each warp (warps are cut from each CTA's linear thread ids)."""
    out = []
    for g in range(n_threads):
        cta, t = divmod(g, block)
        w0 = cta * block + (t // 32) * 32
        lanes = [g2 for g2 in range(w0, min(w0 + 32, (cta + 1) * block)) if alive(g2)]
        out.append(sum(1 << (g2 - w0) for g2 in lanes))
    return out


def gen_control():
    # Nested divergent if/else, joined, then activemask.
    n, block = 144, 72
    rng = Lcg(11)
    xs = [rng.next() & 0xFF for _ in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];",
            "and.b32 %r11, %r10, 1;", "setp.eq.u32 %p1, %r11, 0;", "@%p1 bra ELSE;",
            "and.b32 %r12, %r10, 2;", "setp.eq.u32 %p2, %r12, 0;", "@%p2 bra IN_ELSE1;",
            "mul.lo.u32 %r20, %r10, 3;", "bra IN_END1;",
            "IN_ELSE1:", "add.u32 %r20, %r10, 1000;",
            "IN_END1:", "add.u32 %r20, %r20, 7;", "bra END;",
            "ELSE:", "and.b32 %r12, %r10, 4;", "setp.ne.u32 %p3, %r12, 0;", "@%p3 bra IN_THEN2;",
            "mov.u32 %r20, 50;", "and.b32 %r13, %r10, 8;", "setp.eq.u32 %p4, %r13, 0;", "@%p4 bra IN_END2;",
            "add.u32 %r20, %r20, 100;", "bra IN_END2;",
            "IN_THEN2:", "shl.b32 %r20, %r10, 4;",
            "IN_END2:", "xor.b32 %r20, %r20, 0x55;",
            "END:", "activemask.b32 %r21;",
            "st.global.u32 [%ad1], %r20;", "st.global.u32 [%ad2], %r21;"]

    def nested(x):
        if x & 1:
            return ((x * 3) if x & 2 else x + 1000) + 7
        r = (x << 4) if x & 4 else 50 + (100 if x & 8 else 0)
        return r ^ 0x55
    bufs = [Buf("x", "u32", xs), Buf("out", "u32", n=n, expect=[nested(x) for x in xs]),
            Buf("mask", "u32", n=n, expect=warp_masks(n, block))]
    elementwise("control", "nested_if_else", bufs, body, block=block,
                comment="nested divergent if/else on bits of x; after the join activemask is every\n"
                        "lane of the warp again (the last warp of each CTA has 8 lanes)")

    # Loops with lane-dependent trip counts.
    n, block = 160, 80
    xs = [(i * 29 + 7) % 41 for i in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "mov.u32 %r20, 0;", "mov.u32 %r21, 0;",
            "LOOP:", "setp.ge.u32 %p1, %r20, %r10;", "@%p1 bra DONE;",
            "mad.lo.u32 %r21, %r20, %r20, %r21;", "add.u32 %r21, %r21, %r10;",
            "add.u32 %r20, %r20, 1;", "bra LOOP;",
            "DONE:", "activemask.b32 %r22;",
            "st.global.u32 [%ad1], %r21;", "st.global.u32 [%ad2], %r20;", "st.global.u32 [%ad3], %r22;"]
    bufs = [Buf("trip", "u32", xs),
            Buf("acc", "u32", n=n, expect=[sum(i * i + x for i in range(x)) for x in xs]),
            Buf("i", "u32", n=n, expect=list(xs)), Buf("mask", "u32", n=n, expect=warp_masks(n, block))]
    elementwise("control", "loop_lane_trip", bufs, body, block=block,
                comment="a loop run x[t] times (0 to 40) by each lane; lanes leave it one by one and\n"
                        "all meet again after it")

    # Nested loops with continue and break.
    n, block = 96, 48
    xs = [(i * 5) % 9 for i in range(n)]
    ys = [(i * 7 + 3) % 11 for i in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "ld.global.u32 %r11, [%ad1];", "mov.u32 %r20, 0;",
            "mov.u32 %r21, 0;",
            "OUTER:", "setp.ge.u32 %p1, %r20, %r10;", "@%p1 bra OUT_DONE;",
            "rem.u32 %r22, %r20, 3;", "setp.eq.u32 %p2, %r22, 2;", "@%p2 bra NEXT_I;",
            "mov.u32 %r23, 0;",
            "INNER:", "setp.ge.u32 %p3, %r23, %r11;", "@%p3 bra NEXT_I;",
            "mul.lo.u32 %r24, %r20, %r23;", "setp.gt.u32 %p4, %r24, 20;", "@%p4 bra NEXT_I;",
            "xor.b32 %r25, %r20, %r23;", "add.u32 %r21, %r21, %r25;", "add.u32 %r23, %r23, 1;",
            "bra INNER;",
            "NEXT_I:", "add.u32 %r20, %r20, 1;", "bra OUTER;",
            "OUT_DONE:", "st.global.u32 [%ad2], %r21;"]

    def loops(a, b):
        acc = 0
        for i in range(a):
            if i % 3 == 2:
                continue
            for j in range(b):
                if i * j > 20:
                    break
                acc += i ^ j
        return acc
    bufs = [Buf("a", "u32", xs), Buf("b", "u32", ys),
            Buf("out", "u32", n=n, expect=[loops(a, b) for a, b in zip(xs, ys)])]
    elementwise("control", "nested_loops_break_continue", bufs, body, block=block,
                comment="for i < a: if i % 3 == 2 continue; for j < b: if i*j > 20 break; acc += i ^ j")

    # A loop some lanes leave with ret.
    n, block = 100, 50
    xs = [(i * 13) % 17 for i in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "mov.u32 %r20, 0;", "mov.u32 %r21, 1;",
            "TOP:", "setp.ge.u32 %p1, %r20, 12;", "@%p1 bra FIN;",
            "mul.lo.u32 %r21, %r21, 3;", "add.u32 %r21, %r21, %r20;",
            "setp.eq.u32 %p2, %r20, %r10;", "@%p2 st.global.u32 [%ad1], %r21;", "@%p2 ret;",
            "add.u32 %r20, %r20, 1;", "bra TOP;",
            "FIN:", "st.global.u32 [%ad2], %r21;"]

    def retloop(x):
        v = 1
        for i in range(12):
            v = (v * 3 + i) & mask(32)
            if i == x:
                return v, SENT
        return SENT, v
    r = [retloop(x) for x in xs]
    bufs = [Buf("x", "u32", xs), Buf("early", "u32", [SENT] * n, expect=[a for a, _ in r]),
            Buf("late", "u32", [SENT] * n, expect=[b for _, b in r])]
    elementwise("control", "ret_in_loop", bufs, body, block=block,
                comment="lanes return from inside a loop at iteration x (x < 12), the rest finish it")

    # Early exit, then bar.sync with the survivors, exchanging through shared memory.
    n, block = 194, 97
    body = ["rem.u32 %r10, %r2, 3;", "setp.eq.u32 %p1, %r10, 0;", "@%p1 exit;",
            "mov.u32 %r11, sh;", "mad.lo.u32 %r12, %r2, 4, %r11;", "mad.lo.u32 %r13, %r3, 5, 1;",
            "st.shared.u32 [%r12], %r13;", "bar.sync 0;",
            "sub.u32 %r14, 96, %r2;", "mad.lo.u32 %r15, %r14, 4, %r11;", "ld.shared.u32 %r16, [%r15];",
            "activemask.b32 %r17;",
            "st.global.u32 [%ad0], %r16;", "st.global.u32 [%ad1], %r17;"]
    outv, masks = [], []
    alive = lambda g: (g % block) % 3 != 0  # noqa: E731
    wm = warp_masks(n, block, alive)
    for g in range(n):
        cta, t = divmod(g, block)
        if not alive(g):
            outv.append(SENT)
            masks.append(SENT)
        else:
            outv.append((cta * block + 96 - t) * 5 + 1)
            masks.append(wm[g])
    bufs = [Buf("out", "u32", [SENT] * n, expect=outv), Buf("mask", "u32", [SENT] * n, expect=masks)]
    elementwise("control", "exit_then_bar_sync", bufs, body, block=block,
                decls_extra="\t.shared .align 4 .u32 sh[97];",
                comment="threads with tid % 3 == 0 exit; bar.sync then waits only for the others (exited\n"
                        "threads do not count), which read a surviving partner's shared slot (96 - tid)")

    # brx.idx over every target, guarded for some lanes.
    n, block = 150, 75
    idx = [(g * 7 + g // 5) % 5 for g in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "rem.u32 %r11, %r3, 11;", "setp.ne.u32 %p1, %r11, 0;",
            "mov.u32 %r20, 1;",
            "ts: .branchtargets T0, T1, T2, T3, T4;",
            "@%p1 brx.idx %r10, ts;",
            "mov.u32 %r20, 999;", "bra JOIN;",
            "T0:", "mov.u32 %r20, 10;", "bra JOIN;",
            "T1:", "mul.lo.u32 %r20, %r3, 3;", "bra JOIN;",
            "T2:", "add.u32 %r20, %r3, 200;", "bra JOIN;",
            "T3:", "mov.u32 %r20, 30;",
            "T4:", "add.u32 %r20, %r20, 4;",
            "JOIN:", "activemask.b32 %r21;", "st.global.u32 [%ad1], %r20;", "st.global.u32 [%ad2], %r21;"]

    def brx(g, k):
        if g % 11 == 0:
            return 999
        return [10, g * 3, g + 200, 34, 5][k]
    bufs = [Buf("idx", "u32", idx), Buf("out", "u32", n=n, expect=[brx(g, k) for g, k in enumerate(idx)]),
            Buf("mask", "u32", n=n, expect=warp_masks(n, block))]
    elementwise("control", "brx_idx_all_targets", bufs, body, block=block,
                comment="brx.idx with lanes spread over all 5 targets (T3 falls through into T4); lanes\n"
                        "with gid % 11 == 0 have a false guard and fall through; all join again")

    # bra.uni on a uniform condition, and a uniform loop.
    n, block = 96, 48
    xs = [(i * 3) & 0xFF for i in range(n)]
    body = ["ld.param.u32 %r10, [mode];", "ld.param.u32 %r11, [count];", "ld.global.u32 %r12, [%ad0];",
            "setp.eq.u32 %p1, %r10, 1;", "@%p1 bra.uni ONE;", "mov.u32 %r20, 5;", "bra.uni GO;",
            "ONE:", "mov.u32 %r20, 9;",
            "GO:", "mov.u32 %r21, 0;",
            "ULOOP:", "mad.lo.u32 %r20, %r20, 3, %r12;", "add.u32 %r21, %r21, 1;",
            "setp.lt.u32 %p2, %r21, %r11;", "@%p2 bra.uni ULOOP;",
            "st.global.u32 [%ad1], %r20;"]

    def uni(x):
        v = 9
        for _ in range(6):
            v = (v * 3 + x) & mask(32)
        return v
    bufs = [Buf("x", "u32", xs), Buf("out", "u32", n=n, expect=[uni(x) for x in xs])]
    elementwise("control", "bra_uni", bufs, body, block=block, scalars=[("mode", "u32", 1), ("count", "u32", 6)],
                comment="bra.uni on a condition from kernel parameters (the same in every thread), and a\n"
                        "uniform loop closed by @p bra.uni")

    # vote.sync and activemask after a reconverged if/else, over warps of every kind.
    n, block = 224, 112
    rng = Lcg(3)
    xs = []
    for g in range(n):
        kind = [["mixed", "true", "false", "mixed"], ["true", "mixed", "mixed", "false"]][g // block][(g % block) // 32]
        xs.append({"true": 3 * (rng.next() % 50), "false": 3 * (rng.next() % 50) + 1}.get(kind, rng.next() % 1000))
    body = ["ld.global.u32 %r10, [%ad0];", "and.b32 %r11, %r10, 1;", "setp.eq.u32 %p5, %r11, 0;",
            "@%p5 bra EVEN;", "add.u32 %r10, %r10, 0;", "bra JOIN;", "EVEN:", "add.u32 %r10, %r10, 0;",
            "JOIN:", "activemask.b32 %r30;",
            "rem.u32 %r12, %r10, 3;", "setp.eq.u32 %p1, %r12, 0;",
            "vote.sync.ballot.b32 %r31, %p1, %r30;",
            "vote.sync.all.pred %p2, %p1, %r30;",
            "vote.sync.any.pred %p3, %p1, %r30;",
            "vote.sync.uni.pred %p4, %p1, %r30;",
            "vote.sync.ballot.b32 %r32, !%p1, %r30;",
            "vote.sync.any.pred %p6, !%p1, %r30;"]
    body += pack_bits(["%p2", "%p3", "%p4", "%p6"]) + [
        "st.global.u32 [%ad1], %r30;", "st.global.u32 [%ad2], %r31;", "st.global.u32 [%ad3], %r32;",
        "st.global.u32 [%ad4], %r60;"]
    masks = warp_masks(n, block)
    ball, nball, flags = [], [], []
    for g in range(n):
        cta, t = divmod(g, block)
        w0 = cta * block + (t // 32) * 32
        lanes = range(w0, min(w0 + 32, (cta + 1) * block))
        b = sum(1 << (l - w0) for l in lanes if xs[l] % 3 == 0)
        m = masks[g]
        ball.append(b)
        nball.append(m & ~b)
        f = [b == m, b != 0, b == 0 or b == m, (m & ~b) != 0]
        flags.append(sum(1 << k for k, v in enumerate(f) if v))
    bufs = [Buf("x", "u32", xs), Buf("mask", "u32", n=n, expect=masks), Buf("ballot", "u32", n=n, expect=ball),
            Buf("nballot", "u32", n=n, expect=nball), Buf("flags", "u32", n=n, expect=flags)]
    elementwise("control", "vote_after_join", bufs, body, block=block,
                comment="vote.sync ballot/all/any/uni (also on !p) with activemask as the member mask,\n"
                        "after a divergent if/else joined; warps where p is mixed, all true, all false,\n"
                        "and a partial last warp; flags = all | any<<1 | uni<<2 | any(!p)<<3")

    # Exits in both sides of an if/else; the survivors go on and store.
    n, block = 128, 64
    xs = [(g * 37) % 23 for g in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "setp.lt.u32 %p1, %r10, 12;", "@%p1 bra LOW;",
            "and.b32 %r11, %r10, 1;", "setp.eq.u32 %p2, %r11, 1;", "@%p2 exit;",
            "add.u32 %r10, %r10, 100;", "bra JOIN;",
            "LOW:", "setp.eq.u32 %p3, %r10, 3;", "@%p3 exit;", "add.u32 %r10, %r10, 200;",
            "JOIN:", "mul.lo.u32 %r12, %r10, 3;", "st.global.u32 [%ad1], %r12;"]

    def surv(x):
        if x < 12:
            return None if x == 3 else (x + 200) * 3
        return None if x & 1 else (x + 100) * 3
    bufs = [Buf("x", "u32", xs),
            Buf("out", "u32", [SENT] * n, expect=[SENT if surv(x) is None else surv(x) for x in xs])]
    elementwise("control", "exit_in_branches", bufs, body, block=block,
                comment="lanes exit inside both sides of an if/else; the others go on past the join")

    # nanosleep (time is virtual: results do not depend on it).
    n, block = 64, 64
    xs = [(g * 11) % 7 for g in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "nanosleep.u32 100;", "mov.u32 %r20, 0;", "mov.u32 %r21, 0;",
            "NS:", "setp.ge.u32 %p1, %r21, %r10;", "@%p1 bra NS_DONE;", "mul.lo.u32 %r22, %r21, 50;",
            "nanosleep.u32 %r22;", "setp.eq.u32 %p2, %r21, 2;", "@%p2 nanosleep.u32 1000000;",
            "add.u32 %r20, %r20, %r21;", "add.u32 %r21, %r21, 1;", "bra NS;",
            "NS_DONE:", "st.global.u32 [%ad1], %r20;"]
    bufs = [Buf("x", "u32", xs), Buf("out", "u32", n=n, expect=[x * (x - 1) // 2 for x in xs])]
    elementwise("control", "nanosleep", bufs, body, block=block,
                comment="nanosleep with an immediate, a register, and a guard, inside a divergent loop")

    # Tree reduction in shared memory across warps, with bar.sync in a uniform loop.
    n, block = 384, 128
    rng = Lcg(17)
    xs = [rng.bits(32) for _ in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "mov.u32 %r11, red;", "mad.lo.u32 %r12, %r2, 4, %r11;",
            "st.shared.u32 [%r12], %r10;", "bar.sync 0;",
            "add.u32 %r13, %r2, 33;", "rem.u32 %r13, %r13, 128;", "mad.lo.u32 %r14, %r13, 4, %r11;",
            "ld.shared.u32 %r15, [%r14];", "st.global.u32 [%ad1], %r15;", "bar.sync 0;",
            "mov.u32 %r16, 64;",
            "RED:", "setp.ge.u32 %p1, %r2, %r16;", "@%p1 bra SKIP;",
            "add.u32 %r17, %r2, %r16;", "mad.lo.u32 %r18, %r17, 4, %r11;", "ld.shared.u32 %r19, [%r18];",
            "ld.shared.u32 %r20, [%r12];", "add.u32 %r20, %r20, %r19;", "st.shared.u32 [%r12], %r20;",
            "SKIP:", "bar.sync 0;", "shr.u32 %r16, %r16, 1;", "setp.ne.u32 %p2, %r16, 0;", "@%p2 bra RED;",
            "setp.ne.u32 %p3, %r2, 0;", "@%p3 bra END;",
            "ld.shared.u32 %r21, [red];", "ld.param.u64 %rd20, [sums];", "mul.wide.u32 %rd21, %r0, 4;",
            "add.u64 %rd22, %rd20, %rd21;", "st.global.u32 [%rd22], %r21;",
            "END:"]
    nb = n // block
    neighbor = [xs[(g // block) * block + ((g % block) + 33) % 128] for g in range(n)]
    sums = [sum(xs[c * block:(c + 1) * block]) & mask(32) for c in range(nb)]
    bufs = [Buf("x", "u32", xs), Buf("neighbor", "u32", n=n, expect=neighbor)]
    elementwise("control", "shared_reduction", bufs + [Buf("sums", "u32", n=nb, expect=sums)], body,
                block=block, decls_extra="\t.shared .align 4 .u32 red[128];", no_index=["sums"],
                comment="each CTA of 4 warps: shared exchange across warps after bar.sync, then a tree\n"
                        "sum in shared memory with bar.sync in a uniform loop; thread 0 writes sums[ctaid]")

    # Ping-pong through shared memory for several rounds (barrier.sync and bar.sync).
    n, block = 128, 64
    xs = [(g * 2654435761) & mask(32) for g in range(n)]
    body = ["ld.global.u32 %r10, [%ad0];", "mov.u32 %r11, pp;", "mad.lo.u32 %r12, %r2, 4, %r11;",
            "mov.u32 %r13, 0;",
            "ROUND:", "st.shared.u32 [%r12], %r10;", "barrier.sync 0;",
            "add.u32 %r14, %r2, 1;", "add.u32 %r14, %r14, %r13;", "rem.u32 %r14, %r14, 64;",
            "mad.lo.u32 %r15, %r14, 4, %r11;", "ld.shared.u32 %r16, [%r15];",
            "xor.b32 %r10, %r10, %r16;", "add.u32 %r10, %r10, %r13;", "bar.sync 0;",
            "add.u32 %r13, %r13, 1;", "setp.lt.u32 %p1, %r13, 4;", "@%p1 bra ROUND;",
            "st.global.u32 [%ad1], %r10;"]
    vals = list(xs)
    for rnd in range(4):
        new = []
        for g in range(n):
            c, t = divmod(g, block)
            other = vals[c * block + (t + 1 + rnd) % 64]
            new.append(((vals[g] ^ other) + rnd) & mask(32))
        vals = new
    bufs = [Buf("x", "u32", xs), Buf("out", "u32", n=n, expect=vals)]
    elementwise("control", "shared_rounds", bufs, body, block=block,
                decls_extra="\t.shared .align 4 .u32 pp[64];",
                comment="4 rounds of: write shared, barrier.sync, read a neighbour in the other warp,\n"
                        "bar.sync (so the next round's writes wait for every read)")

    gen_control_shapes()


def gen_control_pending():
    """Cases ptxvm does not pass yet (reported, not committed): see README.md."""
    # Exits in both sides of an if/else, then vote.sync over the surviving lanes of each
    # warp. The member mask (an input, from the reference) names exactly the lanes that
    # reach the vote; vote.sync waits for all of them (ISA 9.7.13.x vote.sync), so the
    # result is defined whatever order the paths run in.
    n, block = 128, 64
    xs = [(g * 37) % 23 for g in range(n)]

    def surv(x):
        if x < 12:
            return None if x == 3 else x + 200
        return None if x & 1 else x + 100
    alive = lambda g: surv(xs[g]) is not None  # noqa: E731
    wm = warp_masks(n, block, alive)
    body = ["ld.global.u32 %r10, [%ad0];", "ld.global.u32 %r20, [%ad1];",
            "setp.lt.u32 %p1, %r10, 12;", "@%p1 bra LOW;",
            "and.b32 %r11, %r10, 1;", "setp.eq.u32 %p2, %r11, 1;", "@%p2 exit;",
            "add.u32 %r10, %r10, 100;", "bra JOIN;",
            "LOW:", "setp.eq.u32 %p3, %r10, 3;", "@%p3 exit;", "add.u32 %r10, %r10, 200;",
            "JOIN:", "setp.gt.u32 %p4, %r10, 205;",
            "vote.sync.ballot.b32 %r21, %p4, %r20;",
            "st.global.u32 [%ad2], %r10;", "st.global.u32 [%ad3], %r21;"]
    o1, o3 = [], []
    for g in range(n):
        cta, t = divmod(g, block)
        w0 = cta * block + (t // 32) * 32
        b = sum(1 << (lane - w0) for lane in range(w0, w0 + 32) if alive(lane) and surv(xs[lane]) > 205)
        v = surv(xs[g])
        o1.append(SENT if v is None else v)
        o3.append(SENT if v is None else b)
    bufs = [Buf("x", "u32", xs), Buf("members", "u32", wm), Buf("out", "u32", [SENT] * n, expect=o1),
            Buf("ballot", "u32", [SENT] * n, expect=o3)]
    elementwise("control", "exit_in_branches_then_vote", bufs, body, block=block,
                comment="lanes exit inside both sides of an if/else; the survivors meet at a\n"
                        "vote.sync.ballot whose member mask is exactly the surviving lanes of the warp")


def gen_control_shapes():
    """2-D and 3-D blocks and grids: special registers and the linear thread order."""
    for name, block, grid in [("block_2d_grid_2d", (8, 6, 1), (2, 3, 1)),
                              ("block_3d_grid_3d", (4, 4, 3), (2, 1, 2))]:
        bx, by, bz = block
        gx, gy, gz = grid
        nb = bx * by * bz
        n = nb * gx * gy * gz
        body = ["mov.u32 %r1, %tid.x;", "mov.u32 %r2, %tid.y;", "mov.u32 %r3, %tid.z;",
                "mov.u32 %r4, %ntid.x;", "mov.u32 %r5, %ntid.y;", "mov.u32 %r6, %ntid.z;",
                "mov.u32 %r7, %ctaid.x;", "mov.u32 %r8, %ctaid.y;", "mov.u32 %r9, %ctaid.z;",
                "mov.u32 %r10, %nctaid.x;", "mov.u32 %r11, %nctaid.y;", "mov.u32 %r12, %laneid;",
                # linear tid = x + y*nx + z*nx*ny ; cta = cx + cy*gx + cz*gx*gy
                "mul.lo.u32 %r13, %r4, %r5;", "mad.lo.u32 %r14, %r3, %r5, %r2;", "mad.lo.u32 %r14, %r14, %r4, %r1;",
                "mad.lo.u32 %r15, %r9, %r11, %r8;", "mad.lo.u32 %r15, %r15, %r10, %r7;",
                "mul.lo.u32 %r16, %r13, %r6;", "mad.lo.u32 %r17, %r15, %r16, %r14;",
                "mul.wide.u32 %rd1, %r17, 4;",
                "ld.param.u64 %rd2, [ids];", "add.u64 %rd3, %rd2, %rd1;",
                "shl.b32 %r18, %r2, 8;", "or.b32 %r18, %r18, %r1;", "shl.b32 %r19, %r3, 16;",
                "or.b32 %r18, %r18, %r19;", "shl.b32 %r19, %r7, 20;", "or.b32 %r18, %r18, %r19;",
                "shl.b32 %r19, %r8, 24;", "or.b32 %r18, %r18, %r19;", "shl.b32 %r19, %r9, 28;",
                "or.b32 %r18, %r18, %r19;", "st.global.u32 [%rd3], %r18;",
                "ld.param.u64 %rd4, [lanes];", "add.u64 %rd5, %rd4, %rd1;", "st.global.u32 [%rd5], %r12;",
                "ld.param.u64 %rd6, [dims];", "add.u64 %rd7, %rd6, %rd1;",
                "shl.b32 %r20, %r5, 8;", "or.b32 %r20, %r20, %r4;", "shl.b32 %r21, %r6, 16;",
                "or.b32 %r20, %r20, %r21;", "shl.b32 %r21, %r10, 20;", "or.b32 %r20, %r20, %r21;",
                "shl.b32 %r21, %r11, 26;", "or.b32 %r20, %r20, %r21;", "st.global.u32 [%rd7], %r20;"]
        ids, lanes, dims = [], [], []
        for cz in range(gz):
            for cy in range(gy):
                for cx in range(gx):
                    for tz in range(bz):
                        for ty in range(by):
                            for tx in range(bx):
                                lin = tx + ty * bx + tz * bx * by
                                ids.append(tx | ty << 8 | tz << 16 | cx << 20 | cy << 24 | cz << 28)
                                lanes.append(lin % 32)
                                dims.append(bx | by << 8 | bz << 16 | gx << 20 | gy << 26)
        params = [("ids", "u64"), ("lanes", "u64"), ("dims", "u64")]
        ptx = entry(name, params, body, prologue=False,
                    comment=f"block {block}, grid {grid}: %tid, %ntid, %ctaid, %nctaid and %laneid; threads are\n"
                            "numbered x + y*nx + z*nx*ny, cut into warps of 32 (laneid = that number % 32)")
        launch = {"kernel": name, "grid": list(grid), "block": list(block),
                  "args": [{"buffer": "u32", "len": n}] * 3}
        expected = {"exit": 0, "buffers": [{"arg": k, "buffer": "u32", "data": d}
                                           for k, d in enumerate([ids, lanes, dims])]}
        add_case("control", name, ptx, launch, expected)


# --------------------------------------------------------------------------------------
# Runtime faults (DESIGN.md principle 5; launch-contract.md: exit 2, the message names
# the kernel, ctaid, tid, instruction, line and cause, and buffers keep what was
# written before the fault). Every case stores first, then waits at a uniform bar.sync,
# so what was written before the fault does not depend on the order warps run in; only
# one thread faults, so the thread named is determined.

def fault_case(name, bufs, body, block, fault_inst, cause, tid=None, ctaid=(0, 0, 0), grid=None,
               cli_args=None, decls_extra="", comment="", scalars=()):
    elementwise("fault", name, bufs, body, block=block, grid=grid, decls_extra=decls_extra,
                comment=comment, scalars=scalars)
    c = CASES[-1]
    lines = c.ptx.split("\n")
    hits = [i for i, ln in enumerate(lines) if ln.strip().endswith(fault_inst)]
    assert len(hits) == 1, (name, fault_inst)
    stderr = [f"{name}.ptx:{hits[0] + 1}:", f"fault: kernel `{name}`", fault_inst, cause]
    if tid is not None:
        stderr.append(f"ctaid=({ctaid[0]},{ctaid[1]},{ctaid[2]}) tid=({tid},0,0)")
    else:
        stderr.append(f"ctaid=({ctaid[0]},{ctaid[1]},{ctaid[2]})")
    c.expected = {"exit": 2, "stderr": stderr, "buffers": c.expected["buffers"]}
    if cli_args:
        c.expected["cli_args"] = cli_args


def stored(n, f=lambda g: g * 3 + 1):
    return [f(g) for g in range(n)]


def gen_fault():
    pre = ["mad.lo.u32 %r10, %r3, 3, 1;", "st.global.u32 [%ad0], %r10;", "bar.sync 0;"]
    n = 80
    # Out-of-bounds load: one past the end of the last buffer.
    inst = "ld.global.u32 %r11, [%ad1+140];"
    fault_case("oob_load", [Buf("out", "u32", n=n, expect=stored(n)), Buf("in", "u32", list(range(n)))],
               pre + ["setp.eq.u32 %p1, %r2, 45;", "@%p1 " + inst],
               block=n, fault_inst=inst, cause="reaches 4 bytes past the end of args[1] (320 bytes", tid=45,
               comment="thread 45 loads in[80], one past the end of the last buffer")
    # Out-of-bounds store in CTA (1,1) of a 2x2 grid; the other CTAs do nothing.
    inst = "st.global.u32 [%rd12+256], %r10;"
    body = ["mov.u32 %r20, %ctaid.y;", "and.b32 %r21, %r0, %r20;", "setp.eq.u32 %p1, %r21, 0;", "@%p1 exit;",
            "ld.param.u64 %rd10, [out];", "mul.wide.u32 %rd11, %r2, 4;", "add.u64 %rd12, %rd10, %rd11;",
            "mad.lo.u32 %r10, %r2, 7, 2;", "st.global.u32 [%rd12], %r10;", "bar.sync 0;",
            "setp.eq.u32 %p2, %r2, 63;", "@%p2 " + inst]
    fault_case("oob_store_cta_1_1", [Buf("out", "u32", n=64, expect=[t * 7 + 2 for t in range(64)])], body,
               # out + 63 * 4 + 256 = byte 508 of the 256-byte buffer: its 4 bytes end 256 past it.
               block=64, grid=[2, 2], fault_inst=inst, cause="reaches 256 bytes past the end of args[0] (256 bytes",
               tid=63, ctaid=(1, 1, 0),
               comment="a 2x2 grid; only CTA (1,1) stores, then its thread 63 stores past the end")
    # Misaligned accesses.
    inst = "ld.global.u32 %r11, [%ad1+2];"
    fault_case("misaligned_load", [Buf("out", "u32", n=n, expect=stored(n)), Buf("in", "u32", list(range(n)))],
               pre + ["setp.eq.u32 %p1, %r2, 7;", "@%p1 " + inst],
               block=n, fault_inst=inst, cause="not aligned to the 4-byte access", tid=7,
               comment="thread 7 loads a u32 two bytes into its element")
    inst = "st.global.u64 [%ad1+4], %rd10;"
    fault_case("misaligned_store", [Buf("out", "u32", n=n, expect=stored(n)), Buf("wide", "u64", n=n)],
               pre + ["setp.eq.u32 %p1, %r2, 66;", "mov.u64 %rd10, 5;", "@%p1 " + inst],
               block=n, fault_inst=inst, cause="not aligned to the 8-byte access", tid=66,
               comment="thread 66 stores a u64 four bytes into its element")
    # Shared memory.
    inst = "st.shared.u32 [%r13+256], %r10;"
    fault_case("oob_shared", [Buf("out", "u32", n=n, expect=stored(n))],
               pre + ["mov.u32 %r12, sh;", "mad.lo.u32 %r13, %r2, 4, %r12;", "st.shared.u32 [%r13], %r10;",
                      "setp.eq.u32 %p1, %r2, 50;", "@%p1 " + inst],
               block=n, fault_inst=inst, cause="outside the CTA's", tid=50,
               decls_extra="\t.shared .align 4 .u32 sh[80];",
               comment="thread 50 stores to sh[114] of a 80-element shared array (the CTA's only one)")
    inst = "ld.shared.u32 %r14, [%r13+2];"
    fault_case("misaligned_shared", [Buf("out", "u32", n=n, expect=stored(n))],
               pre + ["mov.u32 %r12, sh;", "mad.lo.u32 %r13, %r2, 4, %r12;",
                      "setp.eq.u32 %p1, %r2, 31;", "@%p1 " + inst],
               block=n, fault_inst=inst, cause="not aligned to the 4-byte access", tid=31,
               decls_extra="\t.shared .align 4 .u32 sh[80];",
               comment="thread 31 loads a u32 from a shared address two bytes into an element")
    # brx.idx past its table.
    inst = "brx.idx %r11, tbl;"
    idx = [g % 3 if g != 37 else 3 for g in range(n)]
    fault_case("brx_past_table", [Buf("out", "u32", n=n, expect=stored(n)), Buf("idx", "u32", idx)],
               pre + ["ld.global.u32 %r11, [%ad1];", "tbl: .branchtargets A, B, C;", inst,
                      "A:", "bra END;", "B:", "bra END;", "C:", "END:"],
               block=n, fault_inst=inst, cause="brx.idx index 3 is past the 3 targets", tid=37,
               comment="thread 37 takes index 3 of a 3-entry .branchtargets list (the others 0..2)")
    # trap.
    inst = "trap;"
    fault_case("trap", [Buf("out", "u32", n=96, expect=stored(96))],
               pre + ["setp.eq.u32 %p1, %r2, 77;", "@%p1 " + inst],
               block=96, fault_inst=inst, cause="trap", tid=77, comment="thread 77 executes trap")
    # Integer division and remainder by zero.
    inst = "div.u32 %r12, %r10, %r11;"
    divs = [g + 1 if g != 20 else 0 for g in range(n)]
    fault_case("div_by_zero", [Buf("out", "u32", n=n, expect=stored(n)), Buf("d", "u32", divs)],
               pre + ["ld.global.u32 %r11, [%ad1];", inst],
               block=n, fault_inst=inst, cause="integer division by zero", tid=20, cli_args=["--check", "div0"],
               comment="thread 20 divides by zero; the ISA leaves the result machine-specific (an H100 writes "
                       "all ones), and --check div0 reports it")
    inst = "rem.s64 %rd12, %rd10, %rd11;"
    divs = [g + 1 if g != 61 else 0 for g in range(n)]
    fault_case("rem_by_zero", [Buf("out", "u32", n=n, expect=stored(n)), Buf("d", "u64", divs)],
               pre + ["cvt.u64.u32 %rd10, %r10;", "ld.global.u64 %rd11, [%ad1];", inst],
               block=n, fault_inst=inst, cause="integer remainder by zero", tid=61, cli_args=["--check", "div0"],
               comment="thread 61 takes a remainder by zero, which --check div0 reports")
    # A barrier that cannot complete: the lanes of a warp wait at two different bar.sync.
    inst = "bar.sync 1;"
    body = pre + ["and.b32 %r11, %r2, 1;", "setp.eq.u32 %p1, %r11, 0;", "@%p1 bra EVEN;",
                  "add.u32 %r12, %r10, 1;", "bar.sync 0;", "bra JOIN;", "EVEN:",
                  "add.u32 %r12, %r10, 2;", inst, "JOIN:", "st.global.u32 [%ad0], %r12;"]
    fault_case("barrier_divergent", [Buf("out", "u32", n=64, expect=stored(64))], body, block=64,
               fault_inst=inst, cause="barrier that cannot complete",
               comment="odd and even lanes of each warp wait at different barriers, which cannot both\n"
                       "complete; ptxvm reports it whichever path it runs first (so no line or tid is checked)")
    c = CASES[-1]
    c.expected["stderr"] = [s for s in c.expected["stderr"] if not s.endswith(":") and s != inst]
    # The step budget.
    inst = "bra SPIN;"
    fault_case("step_budget", [Buf("out", "u32", n=64, expect=stored(64))],
               pre + ["SPIN:", "add.u32 %r10, %r10, 1;", inst], block=64, fault_inst=inst,
               cause="instruction budget exhausted", cli_args=["--max-steps", "10000"],
               comment="an endless loop after the stores; --max-steps 10000 turns it into a fault")
    c = CASES[-1]
    c.expected["stderr"] = [s for s in c.expected["stderr"] if not s.endswith(":") and s != inst]
    # A faulting access whose guard is false in every lane is not a fault.
    body = pre + ["setp.eq.u32 %p1, %r2, 1000;", "@%p1 ld.global.u32 %r11, [%ad1+4096];",
                  "@%p1 trap;", "@%p1 div.u32 %r12, %r10, 0;"]
    elementwise("fault", "guarded_off", [Buf("out", "u32", n=n, expect=stored(n)), Buf("in", "u32", n=n)],
                body, block=n, comment="out-of-bounds load, trap and division by zero under a guard that\n"
                                       "is false in every lane: nothing faults (exit 0)")


# --------------------------------------------------------------------------------------
# Driver

GENERATORS = []  # filled at the end of the file


def write_all():
    CASES.clear()
    for g in GENERATORS:
        g()
    names = set()
    for c in CASES:
        key = (c.group, c.name)
        assert key not in names, key
        names.add(key)
    for d in sorted(OUT.iterdir()) if OUT.exists() else []:
        if d.is_dir():
            shutil.rmtree(d)
    for c in CASES:
        d = OUT / c.group
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{c.name}.ptx").write_text(c.ptx)
        (d / f"{c.name}.launch.json").write_text(dump_json(c.launch))
        (d / f"{c.name}.expected.json").write_text(dump_json(c.expected))
    groups = {}
    for c in CASES:
        groups[c.group] = groups.get(c.group, 0) + 1
    for g, n in groups.items():
        print(f"{g:14} {n:4}")
    print(f"{'total':14} {len(CASES):4}")


def find_ptxas():
    p = shutil.which("ptxas")
    if p:
        return p
    try:
        import nvidia  # noqa: F401  (the pip package nvidia-cuda-nvcc)
        for base in nvidia.__path__:
            for cand in sorted(Path(base).glob("*/bin/ptxas")):
                return str(cand)
    except ImportError:
        pass
    sys.exit("ptxas not found: pip install nvidia-cuda-nvcc")


def check_all():
    """ptxas must accept every case (the oracle of validity, DESIGN.md)."""
    ptxas = find_ptxas()
    files = sorted(OUT.glob("*/*.ptx"))
    bad = 0
    for f in files:
        r = subprocess.run([ptxas, "-arch=sm_90", str(f), "-o", os.devnull],
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad += 1
            print(f"{f.relative_to(ROOT)}: ptxas rejects it:\n{r.stderr}")
    print(f"ptxas ({ptxas}): {len(files) - bad} of {len(files)} accepted")
    return bad == 0


def run_all(binary):
    """Development aid: runs every case through a ptxvm binary and compares, as
    tests/conformance.rs does (that test is the real runner)."""
    bad = 0
    files = sorted(OUT.glob("*/*.ptx"))
    for f in files:
        stem = str(f)[:-4]
        exp = json.loads(Path(stem + ".expected.json").read_text())
        r = subprocess.run([binary, "run", str(f.relative_to(ROOT)), "--launch",
                            stem + ".launch.json"] + exp.get("cli_args", []),
                           capture_output=True, text=True, cwd=ROOT)
        problems = []
        if r.returncode != exp["exit"]:
            problems.append(f"exit {r.returncode}, expected {exp['exit']}: {r.stderr.strip()}")
        for s in exp.get("stderr", []):
            if s not in r.stderr:
                problems.append(f"stderr lacks {s!r}: {r.stderr.strip()}")
        try:
            got = json.loads(r.stdout)["buffers"]
        except (json.JSONDecodeError, KeyError):
            got = None
        if got != exp["buffers"]:
            if got is None:
                problems.append("no result JSON")
            else:
                for g, e in zip(got, exp["buffers"]):
                    diffs = [i for i, (x, y) in enumerate(zip(g["data"], e["data"])) if x != y]
                    if diffs or len(g["data"]) != len(e["data"]):
                        i = diffs[0] if diffs else -1
                        problems.append(f"arg {e['arg']}: {len(diffs)} differ, first [{i}] got "
                                        f"{g['data'][i]} expected {e['data'][i]}")
        if problems:
            bad += 1
            print(f"FAIL {f.relative_to(OUT)}: " + "; ".join(problems)[:600])
    print(f"{len(files) - bad} of {len(files)} pass")


def main():
    if "--pending" in sys.argv:
        GENERATORS.extend(PENDING)
    if "--check" in sys.argv:
        sys.exit(0 if check_all() else 1)
    if "--run" in sys.argv:
        run_all(sys.argv[sys.argv.index("--run") + 1])
        return
    write_all()


GENERATORS += [gen_setp_int, gen_setp_float, gen_setp_half, gen_set, gen_selp, gen_slct, gen_pred,
               gen_guard, gen_int, gen_cvt, gen_cvt_nan, gen_float, gen_control, gen_fault]

# Cases ptxvm fails today for reasons outside src/sem (see README.md); written only
# with --pending, into the same tree, to try a fix.
PENDING = [gen_control_pending]

if __name__ == "__main__":
    main()
