#!/usr/bin/env python3
"""Texture and surface fetches in numpy, written from the CUDA C++ Programming Guide
("Texture Fetching", and "Texture and Surface Memory" for address modes, read modes,
cubemaps and surfaces), independently of ptxvm's Rust code.

    reference.py CASES_RESULT   compares a tex_fetch output file with this reference

`expect(case)` gives the 16-byte results (or, for the writing kinds, the texels after
the writes) that tex_fetch.cu records for a case of cases.py. Where an H100 (H200,
the same GH100 texture unit: tests/tex/gpu.bin) departs from the Guide's text, the
hardware wins and the function says how."""
import struct
import sys
from fractions import Fraction

import numpy as np

import cases as C

f32 = np.float32


def texels(c):
    """The texels as float64 (or int64) arrays of shape (levels...) -> [layer][z][y][x][ch]."""
    dt = C.dtype(c["fkind"], c["bits"])
    raw = np.frombuffer(c["data"], dtype=dt)
    ch, w, h, d = c["channels"], c["w"], max(c["h"], 1), max(c["d"], 1)
    layered = c["flags"] & (C.LAYERED | C.CUBEMAP)
    levels, at = [], 0
    for lv in range(c["levels"]):
        lw = max(1, w >> lv)
        lh = max(1, h >> lv) if c["h"] else 1
        ld = d if layered else (max(1, d >> lv) if c["d"] else 1)
        count = lw * lh * ld * ch
        block = raw[at:at + count].reshape(ld, lh, lw, ch)
        at += count
        if layered:  # [layer or face][1][y][x]
            block = block.reshape(ld, 1, lh, lw, ch)
        else:
            block = block.reshape(1, ld, lh, lw, ch)
        levels.append(block)
    return levels


def read_values(c, v):
    """Texel values as the fetch returns them (read mode, sRGB): float64 or int64."""
    fkind, bits = c["fkind"], c["bits"]
    if fkind == C.FLOAT:
        return v.astype(np.float64)
    if c["read_mode"] == C.NORMALIZED:
        if fkind == C.UNSIGNED:
            if c["srgb"] and bits == 8:
                return srgb(v, c["channels"])
            x = v.astype(np.float64) / (2 ** bits - 1)
            return x.astype(f32).astype(np.float64)
        x = np.maximum(v.astype(np.float64) / (2 ** (bits - 1) - 1), -1.0)
        return x.astype(f32).astype(np.float64)
    return v.astype(np.int64)


_TABLES = {}


def hardware_tables():
    """What the GPU returned for every 8-bit value at its texel centre (the probe
    cases of cases.py, in gpu.bin): the sRGB table, as 65536ths. The Guide gives
    the sRGB curve; the hardware's own table is within 1/256 of it."""
    if not _TABLES:
        import os
        cs = C.cases()
        raw = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu.bin"), "rb").read()
        for c, (_, _, payload) in zip(cs, results(raw, cs)):
            if (c["w"], c["h"]) != (256, 1) or c["filter"] != C.LINEAR:
                continue
            got = np.frombuffer(payload, dtype=np.float32).reshape(-1, 4)[:, 0].astype(np.float64)
            if c["srgb"]:
                _TABLES["srgb"] = np.rint(got * 65536).astype(np.int64)
    return _TABLES


def srgb(v, channels):
    """sRGB texels (8-bit) to linear floats: colour channels through the table,
    alpha as v / 255."""
    x = (v.astype(np.float64) / 255).astype(f32).astype(np.float64)
    table = hardware_tables()["srgb"]
    k = min(channels, 3)
    x[..., :k] = table[v[..., :k].astype(np.int64)] / 65536
    return x


def address(k, n, mode):
    """Texel index k of an axis of n texels under an address mode; -1 for border."""
    if mode == C.WRAP:
        return np.mod(k, n)
    if mode == C.MIRROR:
        m = np.mod(k, 2 * n)
        return np.where(m >= n, 2 * n - 1 - m, m)
    if mode == C.BORDER:
        return np.where((k < 0) | (k >= n), -1, k)
    return np.clip(k, 0, n - 1)


def to_index(x):
    """floor of a coordinate as an integer (far values held in int64's range)."""
    return np.floor(np.clip(x, -2.0 ** 62, 2.0 ** 62)).astype(np.int64)


# Normalized coordinates keep 21 fractional bits (truncated) before they are scaled
# by the size: measured on the GPU (tests/tex/gpu.bin; the Guide is silent). With
# sizes 3 to 9 any of 16..22 bits fits some sizes, only 21 fits them all.
NORMALIZED_BITS = 21
QUANT = np.floor


def scaled(x, n, normalized):
    """A coordinate in texels (float64, exact)."""
    x = x.astype(np.float64)
    if normalized:
        return QUANT(x * 2.0 ** NORMALIZED_BITS) / 2.0 ** NORMALIZED_BITS * n
    return x


def taps(x, n, normalized, mode, linear):
    """For one axis: [(index, weight)] of the texels a fetch reads (weight f32 or None).

    The Guide: nearest is texel floor(x); linear reads texels i = floor(x - 0.5) and
    i + 1 with weights 1 - a and a, a = frac(x - 0.5) in 9-bit fixed point with 8
    fractional bits (GPU: rounded to nearest, halves up)."""
    if not normalized and mode in (C.WRAP, C.MIRROR):
        mode = C.CLAMP  # the Guide: unnormalized coordinates take clamp and border only
    xs = scaled(x, n, normalized)
    if not linear:
        return [(address(to_index(xs), n, mode), None)]
    # GPU: x - 0.5 is rounded to 1/256 (halves up) before it is split into the
    # texel i and the weight a, so a is 0..255 (tld4 shows which i).
    q = np.floor(np.clip(xs - 0.5, -2.0 ** 52, 2.0 ** 52) * 256.0 + 0.5).astype(np.int64)
    i, a = q >> 8, q & 255
    i0, i1 = address(i, n, mode), address(i + 1, n, mode)
    if mode == C.CLAMP:
        # GPU: past an edge, where both taps are the edge texel, the first takes
        # all the weight (3D weights show it: the other axes' splits round by it).
        a = np.where(i0 == i1, 0, a)
    return [(i0, 256 - a), (i1, a)]


def plane(s, a, b):
    """GPU: the integer weights of a plane's four taps, (x0,y0), (x0,y1), (x1,y0),
    (x1,y1), out of s (256, or a slice's or a level's share): s is split by x, its
    x1 part rounded to nearest (halves up); then each column by y, the x0 column
    rounding its y0 part and the x1 column its y1 part (tests/tex/gpu_probes.bin:
    every one of 4,096 3D and 4,096 trilinear weight vectors on the 1/256 grid).
    With s = 256, w11 = a*b/256 rounded and the others what makes each row and
    column add up."""
    x1 = (s * a + 128) >> 8
    x0 = s - x1
    y00 = (x0 * (256 - b) + 128) >> 8
    y11 = (x1 * b + 128) >> 8
    return [y00, x0 - y00, x1 - y11, y11]


def weights(axes):
    """The integer weights (out of 256) of each combination of taps, in the order
    of `sample`'s combinations. GPU: 3D weights split 256 by z exactly, then each
    slice as a plane."""
    if len(axes) == 1:
        return [axes[0][0][1], axes[0][1][1]]
    a, b = axes[0][1][1], axes[1][1][1]
    if len(axes) == 2:
        return plane(256, a, b)
    c = axes[2][1][1]
    return volume(256, a, b, c)


def border(c, shape):
    """The border colour, in the channels the format has (GPU: the others are 0);
    read as integers, the low bits of each float's encoding (GPU)."""
    b = np.array(c["border"], dtype=np.float64)
    b[c["channels"]:] = 0
    if c["fkind"] != C.FLOAT and c["read_mode"] == C.ELEMENT:
        raw = b.astype(f32).view(np.uint32).astype(np.int64) & ((1 << c["bits"]) - 1)
        if c["fkind"] == C.SIGNED:
            raw = np.where(raw >= 1 << (c["bits"] - 1), raw - (1 << c["bits"]), raw)
        return np.broadcast_to(raw, shape)
    return np.broadcast_to(b.astype(f32).astype(np.float64), shape)


def sample(c, level, layer, coords, dims, normalized, linear, modes):
    """Fetches from one level: coords is a list of per-axis float32 arrays.

    GPU: a 1D texture is fetched as a 2D one of one row at y = 0, so that linear
    filtering in border mode (address mode 1) blends the row above, the border
    colour, in at half weight."""
    unorm16 = linear and c["fkind"] != C.FLOAT and c["read_mode"] == C.NORMALIZED
    vals = expand16(c, level) if unorm16 else read_values(c, level)  # [layer][z][y][x][ch]
    n = len(coords[0])
    sizes = [vals.shape[3], vals.shape[2], vals.shape[1]][:dims]
    axes = [taps(coords[k], sizes[k], normalized, modes[k], linear) for k in range(dims)]
    is_int = vals.dtype == np.int64
    acc = np.zeros((n, 4), dtype=np.float64 if not is_int else np.int64)
    acc32 = np.zeros((n, 4), dtype=f32)
    bord = border16(c, (n, 4)) if unorm16 else border(c, (n, 4))
    combos = [[]]
    for ax in axes[:2]:
        combos = [cb + [t] for cb in combos for t in ax]
    if dims == 3:
        combos = [cb + [t] for t in axes[2] for cb in combos]
    ws = weights(axes) if linear else None
    terms = []
    for nth, combo in enumerate(combos):
        idx = [t[0] for t in combo]
        out = np.zeros(n, dtype=bool)
        for k in idx:
            out |= k < 0
        sel = [np.where(k < 0, 0, k) for k in idx]
        while len(sel) < 3:
            sel.append(np.zeros(n, dtype=np.int64))
        v = vals[layer, sel[2], sel[1], sel[0]]  # (n, ch)
        full = fill_channels(c, v, is_int)
        full = np.where(out[:, None], bord, full)
        if not linear:
            acc = full
        else:
            terms.append((ws[nth], full if unorm16 else full.astype(f32)))
    if not linear:
        return acc
    scale = 256
    if unorm16:
        return filtered16(c, terms, scale)
    return filtered(terms, scale, half=c["bits"] == 16)


def expand16(c, level):
    """GPU: 8- and 16-bit normalized texels are filtered as 16-bit integers: an
    unsigned 8-bit v as v * 257 (of 65535), or its sRGB table entry (of 65536) in
    the colour channels; a signed 8-bit one as it is (`filtered16` scales the sum)."""
    v = level.astype(np.int64)
    if c["bits"] == 8 and c["fkind"] == C.UNSIGNED:
        w = v * 257
        if c["srgb"]:
            k = min(c["channels"], 3)
            w[..., :k] = hardware_tables()["srgb"][v[..., :k]]
        return w
    return v


def snorm8(c):
    return c["fkind"] == C.SIGNED and c["bits"] == 8


def border16(c, shape):
    b = np.array(c["border"], dtype=np.float32).astype(np.float64)
    b[c["channels"]:] = 0
    b = np.nan_to_num(np.clip(b, -65536, 65536))  # ptxvm's bound, so the sums stay in range
    if snorm8(c):
        return np.broadcast_to(np.floor(b.astype(f32).astype(np.float64) * 127), shape)
    den = 65535 if c["fkind"] == C.UNSIGNED else 32767
    return np.broadcast_to(np.floor(b.astype(f32).astype(np.float64) * den + 0.5).astype(np.int64), shape)


def filtered16(c, terms, scale):
    """GPU: the weighted sum of 16-bit texels, rounded to an integer (halves up),
    signed results held at -32767, divided by 65535 or 32767 in f32. A sum S of
    signed 8-bit texels becomes 32767ths as S * 32767 / (256 * 127), computed as
    S + floor(S / 16) / 8 + S / 2^15 and rounded halves up (gpu_probes.bin: every
    weight between 15 pairs of texels in four channels, and 4,096 2D fetches; the
    2^-7 term drops the sum's low 4 bits)."""
    total = sum(w[:, None].astype(np.int64) * t for w, t in terms)
    if snorm8(c):
        total = np.asarray(total, dtype=np.float64)
        q = np.floor(total + np.floor(total / 16) / 8 + total / 2 ** 15 + 0.5).astype(np.int64)
        q = np.maximum(q, -32767)
        return (q.astype(np.float64) / 32767).astype(f32).astype(np.float64)
    q = (total + scale // 2) // scale
    if c["fkind"] == C.UNSIGNED:
        den = np.full(4, 65535.0)
        out = (q.astype(np.float64) / den).astype(f32).astype(np.float64)
        if c["srgb"] and c["bits"] == 8:
            k = min(c["channels"], 3)
            out[:, :k] = filtered_srgb(terms, scale)[:, :k]
        return out
    q = np.maximum(q, -32767)
    return (q.astype(np.float64) / 32767).astype(f32).astype(np.float64)


# GPU: the sRGB codes whose linear value counts one binade higher when the taps are
# aligned (below). Read off probes 33-35 of probes.py (a fixed texel filtered with
# every code at five weights) and, for 64, 68 and 70, probes 4 and 5; the codes
# whose bit no probe shows are taken as 0.
SRGB_BUMP = (48, 49, 64, 68, 70, 136, 184, 185, 186, 187, 248, 249, 250, 251, 252, 253, 254)


def filtered_srgb(terms, scale):
    """GPU: linear filtering of sRGB colour channels. The taps' linear values (the
    table's, 65536ths) are aligned to the largest one's binade 2^E (one higher for
    the SRGB_BUMP codes) and cut to 7 bits below it, then summed exactly and
    rounded once to a half, ties away from zero (probes 33-35, 4 and 5 of
    probes.py)."""
    table = hardware_tables()["srgb"]
    bump = {int(table[v]): 1 for v in SRGB_BUMP}
    n = len(terms[0][1])
    out = np.zeros((n, 4))
    for j in range(n):
        for ch in range(3):
            vals = [(int(w[j]), int(t[j, ch])) for w, t in terms if int(w[j]) != 0]
            top = max((int(np.floor(np.log2(v))) + bump.get(v, 0) for _, v in vals if v > 0), default=None)
            if top is None:
                continue
            quantum = 2 ** max(top - 7, 0)
            cut = [(w, int(np.sign(v)) * (abs(v) // quantum * quantum)) for w, v in vals]  # toward zero
            exact = Fraction(sum(w * v for w, v in cut), scale * 65536)
            out[j, ch] = float(round_to(exact, np.float16))
    return out


ALIGN_BITS = 27  # the significand and 3 bits
ALIGN_BITS_HALF = 14


def aligned(v, vals, half):
    """GPU: a float tap as the filter sums it: cut toward zero to 2^(E - 27) (2^(E -
    14) in a half texture), E the binade of the largest tap of nonzero weight (probe
    36 of probes.py: 1.0 against values from 2^-40 to 2^40 of either sign, and
    neighbours ulps apart; no other number of bits fits, nor floor for toward zero)."""
    import math
    top = max(math.frexp(x)[1] - 1 for _, x in vals if x != 0 and math.isfinite(x))
    q = Fraction(2) ** (top - (ALIGN_BITS_HALF if half else ALIGN_BITS))
    return math.trunc(Fraction(v) / q) * q


def filtered(terms, scale, half=False):
    """The weighted sum of the taps, (weight, texel) with integer weights out of
    `scale`: each tap `aligned`, the sum exact, then rounded once to f32 (or a half)
    with ties away from zero (GPU; a sum of taps that are all -0 is -0)."""
    n = len(terms[0][1])
    out = np.zeros((n, 4), dtype=f32)
    for j in range(n):
        for ch in range(4):
            vals = [(int(w[j]), float(t[j, ch])) for w, t in terms if int(w[j]) != 0]
            if all(v == 0 for _, v in vals):  # GPU: taps of weight 0 take no part
                out[j, ch] = -0.0 if vals and all(np.signbit(v) for _, v in vals) else 0.0
                continue
            exact = sum(w * aligned(v, vals, half) for w, v in vals) / scale
            out[j, ch] = round_f16(exact) if half else round_f32(exact)
    return out.astype(np.float64)


def round_to(x, ty):
    """A rational to the nearest value of float type `ty`, ties away from zero;
    past the largest finite value by half an ulp or more, infinity."""
    info = np.finfo(ty)
    big = Fraction(float(info.max))
    half_ulp = Fraction(2) ** (info.maxexp - info.nmant - 2)
    if abs(x) >= big + half_ulp:
        return ty(np.inf) if x > 0 else ty(-np.inf)
    lo = ty(float(x))
    if not np.isfinite(lo):
        lo = ty(float(big)) if x > 0 else ty(-float(big))
    with np.errstate(over="ignore"):
        near = (np.nextafter(lo, ty(-np.inf)), lo, np.nextafter(lo, ty(np.inf)))
    cands = [c for c in near if np.isfinite(c)]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - x), -abs(float(c))))


def round_f16(x):
    """GPU: a half texture filters to a half."""
    return f32(round_to(x, np.float16))


def round_f32(x):
    return round_to(x, f32)


def fill_channels(c, v, is_int):
    """Four channels of a texel: those the format lacks are 0 (GPU; alpha too)."""
    n, ch = v.shape
    full = np.zeros((n, 4), dtype=v.dtype)
    full[:, :ch] = v
    return full


def bits(values, c):
    """The 32-bit words a fetch writes."""
    if values.dtype == np.int64:
        return values.astype(np.int64).astype(np.uint32)
    return values.astype(f32).view(np.uint32)


def layer_index(layer, layers):
    """GPU: the layer is an unsigned index held at the last layer (a negative one
    too); the Guide is silent."""
    return np.minimum(layer.astype(np.int64) & 0xFFFFFFFF, layers - 1)


def expect(c):
    k = c["kind"]
    cs = c["coords"]
    levels = texels(c)
    modes = c["addr"]
    lin = c["filter"] == C.LINEAR
    norm = c["normalized"]
    layers = levels[0].shape[0]
    zero = np.zeros(len(cs), dtype=f32)
    # A level fetch from an array of one level is a plain fetch.
    k = {C.K_2DLOD: C.K_2D, C.K_A2DLOD: C.K_A2D, C.K_CUBELOD: C.K_CUBE, C.K_ACUBELOD: C.K_ACUBE}.get(
        k, k) if c["res"] == C.R_ARRAY else k
    if k in (C.K_1D, C.K_2D, C.K_3D) and c["res"] in (C.R_ARRAY, C.R_PITCH2D):
        dims = max(C.dims_of(k), 2)
        coords = [cs["x"], cs["y"] if k != C.K_1D else zero, cs["z"]][:dims]
        return bits(sample(c, levels[0], 0, coords, dims, norm, lin, modes), c)
    if k in (C.K_A1D, C.K_A2D):
        layer = layer_index(cs["layer"], layers)
        if k == C.K_A1D:  # GPU: no row above here
            return bits(sample(c, levels[0], layer, [cs["x"]], 1, norm, lin, modes), c)
        return bits(sample(c, levels[0], layer, [cs["x"], cs["y"]], 2, norm, lin, modes), c)
    if k in (C.K_2DGRAD, C.K_3DGRAD) and c["res"] == C.R_MIPMAP:
        dims = C.dims_of(k)
        coords = [cs["x"], cs["y"], cs["z"]][:dims]
        return bits(mip_sample(c, levels, coords, dims, lin, grad_lod(c, levels[0], cs, dims)), c)
    if k in (C.K_1DLOD, C.K_2DLOD, C.K_3DLOD) and c["res"] == C.R_MIPMAP:
        dims = C.dims_of(k)
        coords = [cs["x"], cs["y"] if k != C.K_1DLOD else zero, cs["z"]][:max(dims, 2)]
        return bits(mip_sample(c, levels, coords, max(dims, 2), lin, cs["lod"]), c)
    if k in (C.K_CUBE, C.K_ACUBE):
        layer = layer_index(cs["layer"], layers // 6) if k == C.K_ACUBE else np.zeros(len(cs), np.int64)
        face, u, v = cube_face(cs["x"], cs["y"], cs["z"])
        if lin and c["seamless"]:
            return bits(seamless(c, levels[0], layer, face, u, v), c)
        return bits(sample(c, levels[0], layer * 6 + face, [u, v], 2, 1, lin, (C.CLAMP,) * 3), c)
    if k in (C.K_SULD1, C.K_SULD2, C.K_SULD3, C.K_SULDA2, C.K_SUST2, C.K_SURED2):
        return surface(c)
    if k == C.K_FETCH:
        return bits(fetch_linear(c, levels[0], cs["ix"]), c)
    if k == C.K_2DINT:
        return bits(fetch_int(c, levels[0], cs["ix"], cs["iy"]), c)
    if k == C.K_GATHER:
        return bits(gather(c, levels[0], cs["x"], cs["y"]), c)
    return None


def log2_table():
    """GPU: tex.grad's log2 of a length 2^e (1 + m/256 + ...) is e + T[m]/256, its
    mantissa cut to 8 bits and looked up in a table of the hardware's: T is read
    off probe 28 of probes.py (gpu_probes.bin), one length of each 8-bit mantissa
    8 times over. Rounding log2(1 + (m + 1/2)/256) to 256ths gives 242 of its 256
    entries; the others sit at a half, and the last is held at 255."""
    if "log2" not in _TABLES:
        import os
        import probes as P
        cs = P.probes()
        raw = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_probes.bin"), "rb").read()
        got = np.frombuffer(results(raw, cs)[28][2], dtype=np.float32).reshape(-1, 4)[:, 0]
        _TABLES["log2"] = np.rint(got[::8].astype(np.float64) * 256).astype(np.int64) - 512
    return _TABLES["log2"]


def grad_lod(c, level, cs, dims):
    """tex.grad's level of detail: log2 of the longer gradient in texels (the ISA).
    GPU: a vector's length is its largest component, cut to 9 fractional bits of
    mantissa, plus 11/32 of the second and 1/4 of the third (the Euclidean length
    within 6%); the length that counts is the longer gradient's, or 11/16 of the
    longer of dx + dy and dx - dy where that is longer still (gradients far from
    orthogonal); its log2 is the table's (`log2_table`), to 1/256 of a level."""
    sizes = np.array([level.shape[3], level.shape[2], level.shape[1]][:dims], dtype=np.float64)

    def length(d):
        a = np.sort(np.abs(d[:, :dims] * sizes), axis=1)[:, ::-1]
        with np.errstate(divide="ignore"):
            e = np.floor(np.log2(np.where(a[:, 0] > 0, a[:, 0], 1)))
        top = np.floor(a[:, 0] / 2 ** e * 512) / 512 * 2 ** e
        return top + 11 / 32 * a[:, 1] + (a[:, 2] / 4 if dims == 3 else 0)

    dx, dy = cs["dx"].astype(np.float64), cs["dy"].astype(np.float64)
    n = np.maximum(np.maximum(length(dx), length(dy)), 11 / 16 * np.maximum(length(dx + dy), length(dx - dy)))
    with np.errstate(divide="ignore"):
        e = np.floor(np.log2(np.where(n > 0, n, 1)))
    m = np.floor((n / 2 ** e - 1) * 256).astype(np.int64)
    lod = e + log2_table()[m] / 256
    return np.where(n > 0, lod, -np.inf)


def mip_sample(c, levels, coords, dims, lin, lod):
    """tex.level: the level of detail plus the bias, held in the clamps and in the
    levels there are; nearest level (halves up) or a blend of the two around it."""
    last = len(levels) - 1
    lod = lod.astype(np.float64) + float(f32(c["lod_bias"]))
    lod = np.clip(lod, float(f32(c["min_lod"])), float(f32(c["max_lod"])))
    lod = np.clip(lod, 0, last)
    per = [sample(c, lv, 0, coords, dims, 1, lin, c["addr"]) for lv in levels]
    n = len(lod)
    if c["mip_filter"] == C.POINT:
        pick = np.minimum(np.floor(lod + 0.5).astype(np.int64), last)
        return np.stack(per)[pick, np.arange(n)]
    q = np.floor(lod * 256).astype(np.int64)  # GPU: the fraction is truncated to 8 bits
    l0, f = np.minimum(q >> 8, last), q & 255
    l1 = np.minimum(l0 + 1, last)
    st = np.stack(per)
    a, b = st[l0, np.arange(n)], st[l1, np.arange(n)]
    if a.dtype == np.int64:
        # GPU: integer texels blend too, rounded to nearest (halves up).
        return (a * (256 - f)[:, None] + b * f[:, None] + 128) // 256
    if lin and dims >= 2:
        # At a level itself (fraction 0, or the last level), plain bilinear (GPU).
        at_level = (f == 0) | (l0 == last)
        return np.where(at_level[:, None], a, trilinear(c, levels, l0, l1, f, coords))
    terms = [(256 - f, a.astype(f32)), (f, b.astype(f32))]
    return filtered(terms, 256, half=c["bits"] == 16 and c["fkind"] == C.FLOAT)


def volume(s, a, b, c):
    """GPU: the integer weights of a volume's eight taps out of s: s is split by z,
    its z0 part rounded to nearest (halves up), then each part as a `plane` (the
    z0 plane's taps first). The rounded side shows only where s is a level's
    share (3D trilinear filtering)."""
    z0 = (s * (256 - c) + 128) >> 8
    return plane(z0, a, b) + plane(s - z0, a, b)


def trilinear(c, levels, l0, l1, f, coords):
    """GPU: linear filtering within and between two levels splits 256 by the level
    fraction exactly, then each level's share as a plane (or volume) of its own
    coordinates."""
    n = len(f)
    dims = len(coords)
    unorm16 = c["fkind"] != C.FLOAT and c["read_mode"] == C.NORMALIZED
    terms = []
    for r, lv in ((0, l0), (1, l1)):
        for L, level in enumerate(levels):
            sel = lv == L
            if not sel.any():
                continue
            vals = expand16(c, level) if unorm16 else read_values(c, level)
            sizes = [vals.shape[3], vals.shape[2], vals.shape[1]][:dims]
            ax = [taps(coords[k], sizes[k], 1, c["addr"][k], True) for k in range(dims)]
            bord = border16(c, (n, 4)) if unorm16 else border(c, (n, 4))
            share = 256 - f if r == 0 else f
            if dims == 2:
                ww = plane(share, ax[0][1][1], ax[1][1][1])
            else:
                ww = volume(share, ax[0][1][1], ax[1][1][1], ax[2][1][1])
            for k, wt in enumerate(ww):
                zq, p, q = k >> 2, (k >> 1) & 1, k & 1
                xi, yi = ax[0][p][0], ax[1][q][0]
                zi = ax[2][zq][0] if dims == 3 else np.zeros(n, dtype=np.int64)
                out = (xi < 0) | (yi < 0) | (zi < 0)
                v = vals[0, np.where(zi < 0, 0, zi), np.where(yi < 0, 0, yi), np.where(xi < 0, 0, xi)]
                full = np.where(out[:, None], bord, fill_channels(c, v, False))
                terms.append((np.where(sel, wt, 0), full if unorm16 else full.astype(f32)))
    if unorm16:
        return filtered16(c, terms, 256)
    return filtered(terms, 256, half=c["bits"] == 16 and c["fkind"] == C.FLOAT)


def cube_direction(face, s, t):
    """The direction of face coordinates s, t in [-1, 1] (`cube_face` undone)."""
    return {0: (1, -t, -s), 1: (-1, -t, s), 2: (s, 1, t), 3: (s, -1, -t), 4: (s, -t, 1), 5: (-s, -t, -1)}[face]


def across(face, i, j, n):
    """The texel (face, i, j) of n x n faces where one of i, j is one past an edge:
    the edge texel of the face beyond, found by pushing the texel centre's direction
    just past the edge and choosing its face again."""
    s, t = 2 * (i + 0.5) / n - 1, 2 * (j + 0.5) / n - 1
    past = 1 + 2.0 ** -20
    if not 0 <= i < n:
        s = np.copysign(past, s)
    if not 0 <= j < n:
        t = np.copysign(past, t)
    x, y, z = (np.array([q], dtype=f32) for q in cube_direction(face, s, t))
    f, u, v = cube_face(x, y, z)
    return int(f[0]), min(int(np.floor(float(u[0]) * n)), n - 1), min(int(np.floor(float(v[0]) * n)), n - 1)


def seamless(c, level, layer, face, u, v):
    """Seamless cubemap filtering (GPU, probes 21-27 of probes.py): the bilinear
    weights as on a face; a tap past an edge reads the edge texel of the face
    beyond; past a corner, where no texel is, its weight w goes to the other three:
    (w + 1) // 3 to each of the two beyond an edge, the rest to the one on the face."""
    unorm16 = c["fkind"] != C.FLOAT and c["read_mode"] == C.NORMALIZED
    vals = expand16(c, level) if unorm16 else read_values(c, level)  # [layer*6+face][1][y][x][ch]
    n = vals.shape[3]
    count = len(u)
    weights = [np.zeros(count, dtype=np.int64) for _ in range(4)]
    full = [np.zeros((count, 4), dtype=vals.dtype) for _ in range(4)]
    for m in range(count):
        qs = [int(np.floor(scaled(np.array([w[m]]), n, 1)[0] * 256 - 128 + 0.5)) for w in (u, v)]
        (i, a), (j, b) = [(q >> 8, q & 255) for q in qs]
        w = plane(256, a, b)
        taps = [((i, j), w[0]), ((i, j + 1), w[1]), ((i + 1, j), w[2]), ((i + 1, j + 1), w[3])]
        inside = [0 <= x < n and 0 <= y < n for (x, y), _ in taps]
        edge = [(0 <= x < n) != (0 <= y < n) for (x, y), _ in taps]
        wt = [int(w_) for _, w_ in taps]
        for k, ((x, y), w_) in enumerate(taps):
            if not inside[k] and not edge[k]:  # the corner
                third = (w_ + 1) // 3
                for k2 in range(4):
                    wt[k2] += third if edge[k2] else (w_ - 2 * third if inside[k2] else -w_)
        for k, ((x, y), _) in enumerate(taps):
            f, tx, ty = (int(face[m]), x, y) if inside[k] else across(int(face[m]), x, y, n)
            if not inside[k] and not edge[k]:
                continue
            weights[k][m] = wt[k]
            full[k][m] = fill_channels(c, vals[int(layer[m]) * 6 + f, 0, ty, tx][None, :], False)[0]
    terms = [(weights[k], full[k] if unorm16 else full[k].astype(f32)) for k in range(4)]
    if unorm16:
        return filtered16(c, terms, 256)
    return filtered(terms, 256, half=c["bits"] == 16 and c["fkind"] == C.FLOAT)


def cube_face(x, y, z):
    """The face and the normalized face coordinates of a direction (the Guide's
    cubemap table): the axis of largest magnitude picks the face."""
    # GPU: of equal magnitudes, z wins over y and x, and y over x.
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    zm = (az >= ay) & (az >= ax)
    ym = ~zm & (ay >= ax)
    xm = ~zm & ~ym
    face = np.where(xm, np.where(x >= 0, 0, 1), np.where(ym, np.where(y >= 0, 2, 3), np.where(z >= 0, 4, 5)))
    m = np.where(xm, ax, np.where(ym, ay, az)).astype(f32)
    sc = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [-z, z, x, x, x], -x).astype(f32)
    tc = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [-y, -y, z, -z, -y], -y).astype(f32)
    u = ((sc / m).astype(f32) + f32(1)).astype(f32) * f32(0.5)
    v = ((tc / m).astype(f32) + f32(1)).astype(f32) * f32(0.5)
    return face, u.astype(f32), v.astype(f32)


def surface(c):
    """suld.b, sust.b and sured.b: x counts bytes, y and z texels (or the layer);
    out of range, .zero reads 0 and drops writes, .clamp moves to the nearest edge
    texel (PTX ISA, suld/sust/sured)."""
    k, cs = c["kind"], c["coords"]
    size = c["bits"] // 8 * c["channels"]
    w, h, d = c["w"], max(c["h"], 1), max(c["d"], 1)
    mem = bytearray(c["data"])
    dims = {C.K_SULD1: 1, C.K_SULD2: 2, C.K_SUST2: 2, C.K_SURED2: 2}.get(k, 3)
    out = np.zeros((len(cs), 4), dtype=np.uint32)
    for j, co in enumerate(cs):
        x, y, z = int(co["ix"]), int(co["iy"]) if dims > 1 else 0, int(co["iz"]) if dims > 2 else 0
        assert x % size == 0
        pos = [x // size, y, z]
        lim = [w, h, d]
        inside = all(0 <= p < n for p, n in zip(pos, lim))
        if not inside:
            if c["boundary"] == C.B_ZERO:
                continue
            pos = [min(max(p, 0), n - 1) for p, n in zip(pos, lim)]
            if k == C.K_SULDA2:  # GPU: the layer is unsigned, as in textures
                pos[2] = min(int(co["iz"]) & 0xFFFFFFFF, d - 1)
        at = ((pos[2] * h + pos[1]) * w + pos[0]) * size
        if k == C.K_SUST2:
            mem[at:at + size] = co["val"].astype("<u4").tobytes()[:size]
        elif k == C.K_SURED2:
            old = int.from_bytes(mem[at:at + 4], "little")
            mem[at:at + 4] = ((old + int(co["val"][0])) & 0xFFFFFFFF).to_bytes(4, "little")
        else:
            raw = bytes(mem[at:at + size])
            if size < 4:
                out[j, 0] = int.from_bytes(raw, "little")
            else:
                words = np.frombuffer(raw, dtype="<u4")
                out[j, :len(words)] = words
    if k in (C.K_SUST2, C.K_SURED2):
        return np.frombuffer(bytes(mem), dtype=np.uint8)
    return out


def fetch_linear(c, level, ix):
    """tex1Dfetch: texel ix of linear memory; outside it, zeros (the Guide)."""
    vals = read_values(c, level)[0, 0, 0]
    n = vals.shape[0]
    inside = (ix >= 0) & (ix < n)
    v = fill_channels(c, vals[np.where(inside, ix, 0)], vals.dtype == np.int64)
    return np.where(inside[:, None], v, 0)


def fetch_int(c, level, ix, iy):
    """tex.2d with integer coordinates: texel (ix, iy); outside the texture, zeros
    whatever the address mode (GPU)."""
    vals = read_values(c, level)[0, 0]
    h, w = vals.shape[:2]
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    v = fill_channels(c, vals[np.where(inside, iy, 0), np.where(inside, ix, 0)], vals.dtype == np.int64)
    return np.where(inside[:, None], v, 0)


def gather(c, level, x, y):
    """tld4: component `comp` of the four texels that bilinear filtering would read,
    in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) (PTX ISA, tld4)."""
    vals = read_values(c, level)[0, 0]
    h, w = vals.shape[:2]
    ax = [taps(x, w, c["normalized"], c["addr"][0], True), taps(y, h, c["normalized"], c["addr"][1], True)]
    n = len(x)
    bord = border(c, (n, 4))[:, c["comp"]]
    out = np.zeros((n, 4), dtype=vals.dtype)
    for k, (p, q) in enumerate(((0, 1), (1, 1), (1, 0), (0, 0))):
        xi, yi = ax[0][p][0], ax[1][q][0]
        o = (xi < 0) | (yi < 0)
        v = fill_channels(c, vals[np.where(yi < 0, 0, yi), np.where(xi < 0, 0, xi)], vals.dtype == np.int64)
        out[:, k] = np.where(o, bord, v[:, c["comp"]])
    return out


def results(raw, cs):
    """Splits a tex_fetch output into (make error, run error, payload) per case."""
    out, o = [], 0
    for c in cs:
        mk, ran = struct.unpack_from("<ii", raw, o)
        o += 8
        n = len(c["data"]) if c["kind"] in (C.K_SUST2, C.K_SURED2) else 16 * len(c["coords"])
        out.append((mk, ran, raw[o:o + n]))
        o += n
    assert o == len(raw), "the output does not match the cases"
    return out


def main():
    cs = C.cases()
    got = results(open(sys.argv[1], "rb").read(), cs)
    bad = 0
    checked = 0
    for i, (c, (mk, ran, payload)) in enumerate(zip(cs, got)):
        if mk or ran:
            continue
        want = expect(c)
        if want is None:
            continue
        checked += 1
        if c["kind"] in (C.K_SUST2, C.K_SURED2):
            have = np.frombuffer(payload, dtype=np.uint8).reshape(-1, 1)
            want = want.reshape(-1, 1)
        else:
            have = np.frombuffer(payload, dtype=np.uint32).reshape(-1, 4)
        wrong = np.nonzero((have != want).any(axis=1))[0]
        if len(wrong):
            bad += 1
            j = wrong[0]
            co = c["coords"][j]
            print(f"case {i} kind {c['kind']} fmt {c['fkind']}/{c['bits']}x{c['channels']} filt {c['filter']} "
                  f"addr {c['addr']} norm {c['normalized']} read {c['read_mode']}: {len(wrong)}/{len(have)} differ; "
                  f"first at ({co['x']!r}, {co['y']!r}, {co['z']!r}, layer {co['layer']}): "
                  f"got {have[j].view(np.float32) if c['rtype'] == 0 else have[j]} "
                  f"want {want[j].view(np.float32) if c['rtype'] == 0 else want[j]}")
    print(f"{checked} cases checked, {bad} differ")


if __name__ == "__main__":
    main()
