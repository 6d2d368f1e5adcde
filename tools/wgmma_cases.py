#!/usr/bin/env python3
"""The wgmma cases of tests/kernels/ (tests/kernels.rs): a PTX module of one kernel
per case (tests/kernels/wgmma.ptx), launch specs, and expected results computed here,
independently of ptxvm, from the PTX ISA's description of wgmma.mma_async (9.7.15):

- the register fragments of D and of A (9.7.15.5.1.1): warp w of the warpgroup holds
  rows 16w..16w+15; lane (g, t) = (lane / 4, lane % 4);
- the shared-memory matrix descriptor (9.7.15.5.1.2.2) and the canonical layouts of
  K-major and MN-major operands for each swizzle mode, written as CuTe-style
  (shape):(stride) layouts in 16-byte units, with the swizzle as a function of the
  byte address (bits 4.. XOR bits 7..; one, two, three bits for 32, 64, 128 bytes).

Each case fills a shared-memory image with A and B laid out as its descriptors say
(with padding between core-matrix groups where the case asks for it, so that LBO and
SBO matter), gives the kernel C (or the A fragment) per thread, and expects D per
thread. Inputs are small integers, quarters, or values whose sums are exact in f32
(and in f16 where the case accumulates in f16), so the expected D does not depend on
the order or rounding of the tensor cores' additions; tf32 inputs carry low bits that
the instruction does not read.

The kernel copies the image to dynamic shared memory (1024-byte aligned), adds the
shared address of the image to each descriptor's start field, and runs
wgmma.fence / wgmma.mma_async / commit_group / wait_group 0.

Usage: python3 tools/wgmma_cases.py   (deterministic; standard library only)
       With PTXAS set to a ptxas binary, each generated module is also checked by it.
"""

import json
import os
import random
import struct
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "tests", "kernels")
PTX = "tests/kernels/wgmma.ptx"

# Element bits and K of each multiplicand type: a row of A (column of B) is 32 bytes.
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "b1": 1}


def k_of(ty):
    return 256 // BITS[ty]


# ---- number formats ----

def f16_bits(v):
    return struct.unpack("<H", struct.pack("<e", v))[0]


def f16_value(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def f32_value(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def bf16_bits(v):
    # Values used here are exact in bf16: the top half of the f32.
    b = f32_bits(v)
    assert b & 0xffff == 0, v
    return b >> 16


def fp8_value(ty, b):
    """An e4m3 (bias 7, 3 fraction bits) or e5m2 (bias 15, 2 fraction bits) value."""
    sign = -1.0 if b & 0x80 else 1.0
    if ty == "e4m3":
        e, f = (b >> 3) & 15, b & 7
        return sign * (f / 8 * 2.0 ** -6 if e == 0 else (1 + f / 8) * 2.0 ** (e - 7))
    e, f = (b >> 2) & 31, b & 3
    return sign * (f / 4 * 2.0 ** -14 if e == 0 else (1 + f / 4) * 2.0 ** (e - 15))


def element(ty, rng):
    """A random element of `ty` as (bits, value)."""
    if ty in ("f16", "bf16"):
        v = rng.randint(-16, 16) / 4
        return (f16_bits(v) if ty == "f16" else bf16_bits(v)), v
    if ty == "tf32":
        v = rng.randint(-16, 16) / 4
        # Low 13 bits the instruction does not read.
        return f32_bits(v) | (rng.getrandbits(13) if v != 0 else 0), v
    if ty in ("e4m3", "e5m2"):
        while True:
            b = rng.getrandbits(8)
            v = fp8_value(ty, b)
            # Halves from 1/2 to 4, their negatives, and zero: sums exact in f16.
            if v == 0 or 0.5 <= abs(v) <= 4 and v * 2 == int(v * 2):
                return b, v
    if ty == "s8":
        v = rng.randint(-128, 127)
        return v & 0xff, v
    if ty == "u8":
        v = rng.randint(0, 255)
        return v, v
    v = rng.getrandbits(1)
    return v, v


# ---- layouts (PTX ISA 9.7.15.5.1.2, in units of 16 bytes unless said) ----

def swizzle(addr, width):
    if width == 0:
        return addr
    bits = {32: 1, 64: 2, 128: 3}[width]
    mask = (1 << bits) - 1
    return addr ^ (((addr >> 7) & mask) << 4)


def layout_offset(shape, stride, coord):
    """The offset of coordinate `coord` (a pair of flat indices) in a layout whose
    modes are nested (shape, stride) tuples, column-major within each mode."""
    off = 0
    for mode_shape, mode_stride, x in zip(shape, stride, coord):
        for s, d in zip(mode_shape, mode_stride):
            off += (x % s) * d
            x //= s
        assert x == 0
    return off


def address(major, width, lbo, sbo, size_bits, mn, k):
    """Byte address (before the swizzle, relative to the start) of element (mn, k) of
    an operand with `size_bits`-bit elements; for single bits, of its byte."""
    T = 128 // size_bits  # elements per 16 bytes
    L, S = lbo * 8 // size_bits, sbo * 8 // size_bits  # the byte offsets in elements
    if major == "K":
        x = {0: 1, 32: 2, 64: 4, 128: 8}[width]
        # K runs on past 32 bytes only in sparse B (64 bytes of K).
        if width == 0:
            shape, stride = ((8, 1 << 20), (T, 1 << 20)), ((T, S), (1, L))
        else:
            shape, stride = ((8, 1 << 20), (T, 1 << 20)), ((x * T, S), (1, T))
        off = layout_offset(shape, stride, (mn, k))
    else:
        if width == 0:
            shape, stride = ((T, 1 << 20), (8, 1 << 20)), ((1, S), (T, L))
        else:
            x = width // 16
            shape, stride = ((T, x, 1 << 20), (8, 1 << 20)), ((1, T, L), (x * T, S))
        off = layout_offset(shape, stride, (mn, k))
    return off * size_bits // 8


def place(image, base, major, width, lbo, sbo, ty, mat):
    """Writes `mat` (rows of MN, each K elements of (bits, value)) into the image at
    byte `base`, swizzled by absolute offset (the image starts 1024-aligned)."""
    bits = BITS[ty]
    seen = set()
    for mn, row in enumerate(mat):
        for k, (b, _) in enumerate(row):
            a = swizzle(base + address(major, width, lbo, sbo, bits, mn, k), width)
            where = (a, k % 8) if bits == 1 else a
            assert where not in seen, f"two elements at byte {a}: the case's layout overlaps"
            seen.add(where)
            if bits == 1:
                image[a] |= b << (k % 8)
            else:
                for j in range(bits // 8):
                    image[a + j] = (b >> (8 * j)) & 0xff


def footprint(major, width, lbo, sbo, ty, rows, k=None):
    bits = BITS[ty]
    top = 0
    for mn in range(rows):
        for k in range(k or k_of(ty)):
            top = max(top, address(major, width, lbo, sbo, bits, mn, k) + max(bits // 8, 1))
    return top


def descriptor(start, lbo, sbo, width):
    mode = {0: 0, 128: 1, 64: 2, 32: 3}[width]
    return (start >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (mode << 62)


# ---- fragments (PTX ISA 9.7.15.5.1.1) ----

def d_place(thread, i):
    w, lane = thread // 32, thread % 32
    g, t = lane // 4, lane % 4
    return 16 * w + g + 8 * ((i // 2) % 2), 8 * (i // 4) + 2 * t + i % 2


def a_place(bits, thread, i):
    """(row, k, register, bit offset) of element i of a thread's A fragment."""
    w, lane = thread // 32, thread % 32
    g, t = lane // 4, lane % 4
    if bits == 16:
        return 16 * w + g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4), i // 2, 16 * (i % 2)
    if bits == 32:
        return 16 * w + g + 8 * (i % 2), t + 4 * (i // 2), i, 0
    if bits == 8:
        return 16 * w + g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8), i // 4, 8 * (i % 4)
    r, j = i // 32, i % 32
    return 16 * w + g + 8 * (r % 2), 32 * t + j + 128 * (r // 2), r, j


# ---- the kernel ----

def kernel(name, c):
    n, dty, aty, bty = c["n"], c["dtype"], c["atype"], c["btype"]
    nd = n // 4 if dty == "f16" else n // 2
    k = k_of(aty)
    f32 = dty == "f32"
    reg = "%f" if f32 else "%r"
    lines = [f".visible .entry {name}(.param .u64 img, .param .u32 words, .param .u64 desc_a,",
             "    .param .u64 desc_b, .param .u64 cin, .param .u64 ain, .param .u64 out, .param .u32 scale)",
             "{",
             "    .reg .pred %p<4>;",
             f"    .reg .b32 %r<{nd + 16}>;",
             f"    .reg .f32 %f<{nd + 1}>;" if f32 else "",
             "    .reg .b64 %rd<24>;",
             "    ld.param.u64 %rd1, [img];",
             "    ld.param.u32 %r1, [words];",
             "    mov.u32 %r2, %tid.x;",
             "    mov.u32 %r3, wg_smem;",
             "COPY:",
             "    setp.ge.u32 %p1, %r2, %r1;",
             "    @%p1 bra COPIED;",
             "    mul.wide.u32 %rd2, %r2, 4;",
             "    add.s64 %rd3, %rd1, %rd2;",
             "    ld.global.u32 %r4, [%rd3];",
             "    shl.b32 %r5, %r2, 2;",
             "    add.s32 %r5, %r5, %r3;",
             "    st.shared.u32 [%r5], %r4;",
             "    add.s32 %r2, %r2, 128;",
             "    bra.uni COPY;",
             "COPIED:",
             "    bar.sync 0;",
             "    fence.proxy.async.shared::cta;",
             # Descriptors: the image's shared address >> 4 added to the start field.
             "    cvt.u64.u32 %rd4, %r3;",
             "    shr.u64 %rd4, %rd4, 4;",
             "    ld.param.u64 %rd5, [desc_a];",
             "    add.s64 %rd5, %rd5, %rd4;",
             "    ld.param.u64 %rd6, [desc_b];",
             "    add.s64 %rd6, %rd6, %rd4;",
             "    mov.u32 %r2, %tid.x;",
             "    ld.param.u32 %r6, [scale];",
             "    setp.ne.u32 %p2, %r6, 0;",
             # This thread's C: nd words at cin[tid * nd].
             "    ld.param.u64 %rd7, [cin];",
             f"    mul.wide.u32 %rd8, %r2, {4 * nd};",
             "    add.s64 %rd9, %rd7, %rd8;",
             "    ld.param.u64 %rd10, [out];",
             "    add.s64 %rd11, %rd10, %rd8;",
             "    ld.param.u64 %rd12, [ain];",
             # Four A words a thread, and for a sparse wgmma the metadata word.
             f"    mul.wide.u32 %rd13, %r2, {20 if c.get('sparse') is not None else 16};",
             "    add.s64 %rd14, %rd12, %rd13;"]
    ld = "ld.global.f32" if f32 else "ld.global.b32"
    st = "st.global.f32" if f32 else "st.global.b32"
    dregs = [f"{reg}{16 + i if not f32 else 1 + i}" for i in range(nd)]
    for i, r in enumerate(dregs):
        lines.append(f"    {ld} {r}, [%rd9+{4 * i}];")
    for i in range(5 if c.get("sparse") is not None else 4):
        lines.append(f"    ld.global.b32 %r{8 + i}, [%rd14+{4 * i}];")
    types = f".{dty}.{aty}.{bty}" if aty not in ("s8", "u8", "b1") else \
        (".satfinite" if c.get("satfinite") else "") + f".s32.{aty}.{bty}" + (".and.popc" if aty == "b1" else "")
    a_op = "{%r8, %r9, %r10, %r11}" if c["a_regs"] else "%rd5"
    imms = []
    if aty not in ("s8", "u8", "b1"):
        imms += [str(c.get("scale_a", 1)), str(c.get("scale_b", 1))]
    if aty in ("f16", "bf16"):
        if not c["a_regs"]:
            imms.append(str(int(c["trans_a"])))
        imms.append(str(int(c["trans_b"])))
    sparse = c.get("sparse")
    meta = [] if sparse is None else ["%r12", str(sparse)]
    ops = ", ".join([f"{{{', '.join(dregs)}}}", a_op, "%rd6"] + meta + ["%p2"] + imms)
    sp, kk = ("", k) if sparse is None else (".sp", 2 * k)
    lines += ["    wgmma.fence.sync.aligned;",
              f"    wgmma.mma_async{sp}.sync.aligned.m64n{n}k{kk}{types} {ops};",
              "    wgmma.commit_group.sync.aligned;",
              "    wgmma.wait_group.sync.aligned 0;"]
    for i, r in enumerate(dregs):
        lines.append(f"    {st} [%rd11+{4 * i}], {r};")
    lines += ["    ret;", "}", ""]
    return "\n".join(line for line in lines if line != "")


# ---- the cases ----

def sparsify(aty, a, sel, rng):
    """A sparse A from a compressed one (`a`: 64 rows of K/2 elements): the logical
    rows (K elements, zero where dropped) and each thread's metadata word, per
    PTX ISA 9.7.15.6 (each warp's 16 rows in mma.sp's layout, tools/mma_sp_cases.py)."""
    from mma_sp_cases import field_place
    half = len(a[0])
    k = 2 * half
    tf32 = aty == "tf32"
    logical = [[(0, 0)] * k for _ in range(64)]
    meta = [rng.getrandbits(32) for _ in range(128)]
    for r in range(64):
        for grp in range(k // (2 if tf32 else 4)):
            if tf32:
                p = rng.randint(0, 1)
                logical[r][2 * grp + p] = a[r][grp]
                f = 0b0100 if p == 0 else 0b1110
            else:
                i0, i1 = rng.sample(range(4), 2)
                logical[r][4 * grp + i0] = a[r][2 * grp]
                logical[r][4 * grp + i1] = a[r][2 * grp + 1]
                f = i0 | i1 << 2
            lane, at = field_place(aty, k, sel, r % 16, grp)
            th = 32 * (r // 16) + lane
            meta[th] = meta[th] & ~(0xf << at) | f << at
    return logical, meta


def build(name, c, rng):
    n, aty, bty, dty = c["n"], c["atype"], c["btype"], c["dtype"]
    k = k_of(aty)
    sparse = c.get("sparse")
    kb = k if sparse is None else 2 * k
    a = [[element(aty, rng) for _ in range(k)] for _ in range(64)]
    b = [[element(bty, rng) for _ in range(kb)] for _ in range(n)]  # B by column: b[n][k]
    a_logical, meta = (a, None) if sparse is None else sparsify(aty, a, sparse, rng)
    ints = aty in ("s8", "u8", "b1")
    # C per element.
    if ints:
        big = c.get("satfinite")
        cm = [[rng.randint(-2**31, 2**31 - 1) if big else rng.randint(-1000, 1000) for _ in range(n)]
              for _ in range(64)]
    else:
        cm = [[rng.randint(-64, 64) / 4 for _ in range(n)] for _ in range(64)]
    # The image: A at 0 (unless from registers), B after it, each 1024-aligned.
    wa, la, sa = c["a_layout"]
    wb, lb, sb = c["b_layout"]
    amaj = "MN" if c["trans_a"] else "K"
    bmaj = "MN" if c["trans_b"] else "K"
    a_at = 0
    a_size = 0 if c["a_regs"] else footprint(amaj, wa, la, sa, aty, 64)
    b_at = (a_size + 1023) // 1024 * 1024
    size = b_at + footprint(bmaj, wb, lb, sb, bty, n, kb)
    size = (size + 1023) // 1024 * 1024
    image = bytearray(size)
    if not c["a_regs"]:
        place(image, a_at, amaj, wa, la, sa, aty, a)
    place(image, b_at, bmaj, wb, lb, sb, bty, b)
    words = list(struct.unpack(f"<{size // 4}I", bytes(image)))
    # The expected D.
    sa_, sb_ = c.get("scale_a", 1), c.get("scale_b", 1)
    keep = c.get("scale_d", True)
    d = []
    for r in range(64):
        row = []
        for col in range(n):
            if aty == "b1":
                s = sum(a[r][kk][1] & b[col][kk][1] for kk in range(k))
            else:
                s = sum(a_logical[r][kk][1] * b[col][kk][1] for kk in range(kb)) * sa_ * sb_
            if keep:
                s += cm[r][col]
            row.append(s)
        d.append(row)
    # Per-thread C and D words.
    nd = n // 4 if dty == "f16" else n // 2

    def words_of(m, exact_int=False):
        out = []
        for th in range(128):
            vals = []
            for i in range(n // 2):
                r, col = d_place(th, i)
                vals.append(m[r][col])
            if dty == "f16":
                for j in range(nd):
                    out.append(f16_bits(vals[2 * j]) | f16_bits(vals[2 * j + 1]) << 16)
            elif dty == "f32":
                out += vals
            else:
                out += [v & 0xffffffff for v in vals]
        return out

    if ints:
        lo, hi = -2**31, 2**31 - 1
        d = [[min(max(v, lo), hi) if c.get("satfinite") else ((v + 2**31) % 2**32 - 2**31) for v in row]
             for row in d]
    else:
        for row in d:
            for v in row:
                # Exact in the accumulator type.
                assert (f16_value(f16_bits(v)) if dty == "f16" else f32_value(f32_bits(v))) == v, v
    c_words, d_words = words_of(cm), words_of(d)
    # A fragments in registers (4 words a thread).
    bits = BITS[aty]
    per = 4 if sparse is None else 5
    ain = [0] * (128 * per)
    if c["a_regs"]:
        for th in range(128):
            for i in range(128 // bits):
                r, kk, reg, shift = a_place(bits, th, i)
                ain[per * th + reg] |= a[r][kk][0] << shift
    if sparse is not None:
        for th in range(128):
            ain[per * th + 4] = meta[th]
    desc_a = descriptor(a_at, la, sa, wa) if not c["a_regs"] else 0
    desc_b = descriptor(b_at, lb, sb, wb)
    el = "f32" if dty == "f32" else "u32"
    launch = {"kernel": name, "grid": 1, "block": 128, "dynamic_shared_bytes": size,
              "args": [{"buffer": "u32", "data": words}, {"type": "u32", "value": len(words)},
                       {"type": "u64", "value": desc_a}, {"type": "u64", "value": desc_b},
                       {"buffer": el, "data": c_words}, {"buffer": "u32", "data": ain},
                       {"buffer": el, "len": len(d_words)}, {"type": "u32", "value": int(keep)}]}
    expected = {"ptx": PTX, "exit": 0, "buffers": [{"arg": 6, "data": d_words, "rel": 0, "abs": 0}]}
    return launch, expected


def cases():
    """(name, description): layouts are (swizzle width, LBO, SBO) in bytes."""
    out = []

    def add(name, n, dtype, atype, btype=None, a_regs=False, trans_a=False, trans_b=False,
            a_layout=(128, 16, 1024), b_layout=(128, 16, 1024), **extra):
        out.append((f"wgmma_{name}", dict(n=n, dtype=dtype, atype=atype, btype=btype or atype, a_regs=a_regs,
                                          trans_a=trans_a, trans_b=trans_b, a_layout=a_layout,
                                          b_layout=b_layout, **extra)))

    # f16 K-major in each swizzle mode, dense and padded (SBO past the atom; LBO for
    # no swizzle between the K halves).
    add("f16_sw128", 64, "f32", "f16")
    add("f16_sw64", 32, "f32", "f16", a_layout=(64, 16, 512), b_layout=(64, 16, 512 + 256))
    add("f16_sw32", 24, "f32", "f16", a_layout=(32, 16, 256 + 64), b_layout=(32, 16, 256))
    add("f16_none", 16, "f32", "f16", a_layout=(0, 128, 256), b_layout=(0, 2048, 128 + 16))
    add("f16_n256", 256, "f32", "f16")
    add("f16_n8", 8, "f32", "f16", a_layout=(0, 1024, 128), b_layout=(32, 16, 256))
    # Transposes: MN-major A and B in each mode.
    add("f16_trans_sw128", 64, "f32", "f16", trans_a=True, trans_b=True,
        a_layout=(128, 1024 * 2, 1024), b_layout=(128, 2048, 1024))
    add("f16_trans_sw64", 32, "f32", "f16", trans_a=True, trans_b=True,
        a_layout=(64, 1024, 512), b_layout=(64, 1024, 512))
    add("f16_trans_sw32", 16, "f32", "f16", trans_a=True, trans_b=True,
        a_layout=(32, 512, 256), b_layout=(32, 512, 256 + 32))
    add("f16_trans_none", 16, "f32", "f16", trans_a=False, trans_b=True,
        a_layout=(128, 16, 1024), b_layout=(0, 512, 128))
    add("f16_trans_a_none", 8, "f32", "f16", trans_a=True, a_layout=(0, 1024, 128))
    # f16 accumulators, negation, scale-d false, A from registers.
    add("f16_f16acc", 64, "f16", "f16", scale_a=-1)
    add("f16_regs", 40, "f32", "f16", a_regs=True, trans_b=True, b_layout=(64, 1024, 512), scale_b=-1)
    add("f16_no_c", 16, "f32", "f16", scale_d=False)
    add("bf16_sw128", 128, "f32", "bf16", trans_b=True, b_layout=(128, 8192, 1024))
    add("bf16_regs", 24, "f32", "bf16", a_regs=True, b_layout=(32, 16, 256))
    # tf32, fp8, integers, single bits (K-major only).
    add("tf32_sw128", 64, "f32", "tf32")
    add("tf32_regs", 16, "f32", "tf32", a_regs=True, b_layout=(0, 128, 256), scale_a=-1)
    add("e4m3_sw64", 48, "f32", "e4m3", a_layout=(64, 16, 512), b_layout=(64, 16, 512))
    add("e5m2_e4m3_f16acc", 32, "f16", "e5m2", "e4m3")
    add("e4m3_e5m2_regs", 8, "f32", "e4m3", "e5m2", a_regs=True, b_layout=(32, 16, 256), scale_b=-1)
    add("s8_sw128", 224, "s32", "s8")
    add("u8_s8_none", 32, "s32", "u8", "s8", a_layout=(0, 128, 256), b_layout=(0, 512, 128))
    add("s8_u8_regs_sat", 16, "s32", "s8", "u8", a_regs=True, satfinite=True)
    add("u8_sat", 48, "s32", "u8", satfinite=True, b_layout=(32, 16, 256))
    add("b1_sw128", 256, "s32", "b1")
    add("b1_regs", 16, "s32", "b1", a_regs=True, b_layout=(0, 128, 256))
    # wgmma.mma_async.sp (9.7.15.6): A compressed (K/2), B with the whole K (64 bytes
    # of it: K-major in the 64- and 128-byte swizzles or none, or MN-major), the
    # metadata of each warp's 16 rows from the threads the selector names.
    add("sp_f16_sw128", 16, "f32", "f16", sparse=0)
    add("sp_bf16_regs_none", 8, "f32", "bf16", a_regs=True, b_layout=(0, 256, 128 + 16), sparse=1)
    add("sp_f16_f16acc_sw64", 32, "f16", "f16", a_layout=(64, 16, 512), b_layout=(64, 16, 512), sparse=1,
        scale_a=-1)
    add("sp_f16_trans_b", 64, "f32", "f16", trans_b=True, b_layout=(128, 8192, 1024), sparse=0)
    add("sp_tf32_sw128", 16, "f32", "tf32", sparse=1)
    add("sp_e4m3_e5m2", 24, "f32", "e4m3", "e5m2", sparse=0, scale_b=-1)
    add("sp_s8_u8_sat", 16, "s32", "s8", "u8", satfinite=True, sparse=0)
    add("sp_u8_regs", 8, "s32", "u8", a_regs=True, b_layout=(0, 512, 128), sparse=0)
    return out


def main():
    rng = random.Random(90)
    header = [
        "// The wgmma cases of tests/kernels.rs, generated by tools/wgmma_cases.py (do not edit).",
        ".version 8.4",
        ".target sm_90a",
        ".address_size 64",
        "",
        ".extern .shared .align 1024 .b8 wg_smem[];",
        "",
    ]
    body = []
    for name, c in cases():
        launch, expected = build(name, c, rng)
        body.append(kernel(name, c))
        with open(os.path.join(OUT, f"{name}.launch.json"), "w") as f:
            json.dump(launch, f)
            f.write("\n")
        with open(os.path.join(OUT, f"{name}.expected.json"), "w") as f:
            json.dump(expected, f)
            f.write("\n")
    path = os.path.join(ROOT, PTX)
    with open(path, "w") as f:
        f.write("\n".join(header + body))
    ptxas = os.environ.get("PTXAS")
    if ptxas:
        subprocess.run([ptxas, "-arch=sm_90a", path, "-o", os.devnull], check=True)
        print("ptxas accepts", PTX, file=sys.stderr)


if __name__ == "__main__":
    main()
