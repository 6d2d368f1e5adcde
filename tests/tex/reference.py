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
            x = v.astype(np.float64) / (2 ** bits - 1)
            x = x.astype(f32).astype(np.float64)
            if c["srgb"]:
                x = srgb(x, c["channels"])
            return x
        x = np.maximum(v.astype(np.float64) / (2 ** (bits - 1) - 1), -1.0)
        return x.astype(f32).astype(np.float64)
    return v.astype(np.int64)


def srgb(x, channels):
    """sRGB to linear (the Guide: on the colour channels; alpha is linear)."""
    lin = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(f32).astype(np.float64)
    out = x.copy()
    k = min(channels, 3)
    out[..., :k] = lin[..., :k]
    return out


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
    return [(address(i, n, mode), 256 - a), (address(i + 1, n, mode), a)]


def weights(axes):
    """The integer weights (out of 256) of each combination of taps.

    GPU: in 2D the four weights are themselves 8-bit: w11 = a*b/256 rounded to
    nearest (halves up), and the others are what makes each row and column add up
    (w01 = a - w11, w10 = b - w11, w00 = 256 - a - b + w11)."""
    if len(axes) == 1:
        return [axes[0][0][1], axes[0][1][1]]
    a, b = axes[0][1][1], axes[1][1][1]
    w11 = (a * b + 128) >> 8
    ws = [256 - a - b + w11, b - w11, a - w11, w11]  # (x0,y0), (x0,y1), (x1,y0), (x1,y1)
    if len(axes) == 2:
        return ws
    c = axes[2][1][1]
    return [w * (256 - c) for w in ws] + [w * c for w in ws]


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
    scale = 256 ** (1 if dims < 3 else 2)
    if unorm16:
        return filtered16(c, terms, scale)
    return filtered(terms, scale, half=c["bits"] == 16)


def expand16(c, level):
    """GPU: 8- and 16-bit normalized texels are filtered as 16-bit integers: an
    unsigned 8-bit v as v * 257 (of 65535), a signed one as v * 32767 / 127 rounded
    to nearest (of 32767)."""
    v = level.astype(np.int64)
    if c["bits"] == 8:
        v = v * 257 if c["fkind"] == C.UNSIGNED else (v * 32767 * 2 + 127) // 254
    return v


def border16(c, shape):
    b = np.array(c["border"], dtype=np.float64)
    b[c["channels"]:] = 0
    den = 65535 if c["fkind"] == C.UNSIGNED else 32767
    return np.broadcast_to(np.floor(b.astype(f32).astype(np.float64) * den + 0.5).astype(np.int64), shape)


def filtered16(c, terms, scale):
    """GPU: the weighted sum of 16-bit texels, rounded to an integer (halves up),
    signed results held at -32767, divided by 65535 or 32767 in f32."""
    total = sum(w[:, None].astype(np.int64) * t for w, t in terms)
    q = (total + scale // 2) // scale
    if c["fkind"] == C.UNSIGNED:
        return (q.astype(np.float64) / 65535).astype(f32).astype(np.float64)
    q = np.maximum(q, -32767)
    return (q.astype(np.float64) / 32767).astype(f32).astype(np.float64)


def filtered(terms, scale, half=False):
    """The weighted sum of the taps, (weight, texel) with integer weights out of
    `scale`: exact, then rounded once to f32 with ties away from zero (GPU; a sum of
    taps that are all -0 is -0)."""
    n = len(terms[0][1])
    out = np.zeros((n, 4), dtype=f32)
    for j in range(n):
        for ch in range(4):
            vals = [(int(w[j]), float(t[j, ch])) for w, t in terms]
            if all(v == 0 for _, v in vals):
                neg = all(np.signbit(v) or w == 0 and False for w, v in vals)
                out[j, ch] = -0.0 if all(np.signbit(v) for _, v in vals) else 0.0
                continue
            exact = sum(Fraction(w) * Fraction(v) for w, v in vals) / scale
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
    cands = [c for c in (np.nextafter(lo, ty(-np.inf)), lo, np.nextafter(lo, ty(np.inf))) if np.isfinite(c)]
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
    if k in (C.K_1D, C.K_2D, C.K_3D) and c["res"] in (C.R_ARRAY, C.R_PITCH2D):
        dims = max(C.dims_of(k), 2)
        coords = [cs["x"], cs["y"] if k != C.K_1D else zero, cs["z"]][:dims]
        return bits(sample(c, levels[0], 0, coords, dims, norm, lin, modes), c)
    if k in (C.K_A1D, C.K_A2D):
        layer = layer_index(cs["layer"], layers)
        if k == C.K_A1D:  # GPU: no row above here
            return bits(sample(c, levels[0], layer, [cs["x"]], 1, norm, lin, modes), c)
        return bits(sample(c, levels[0], layer, [cs["x"], cs["y"]], 2, norm, lin, modes), c)
    if k in (C.K_CUBE, C.K_ACUBE):
        layer = layer_index(cs["layer"], layers // 6) if k == C.K_ACUBE else np.zeros(len(cs), np.int64)
        face, u, v = cube_face(cs["x"], cs["y"], cs["z"])
        return bits(sample(c, levels[0], layer * 6 + face, [u, v], 2, 1, lin, (C.CLAMP,) * 3), c)
    if k == C.K_FETCH:
        return bits(fetch_linear(c, levels[0], cs["ix"]), c)
    if k == C.K_2DINT:
        return bits(fetch_int(c, levels[0], cs["ix"], cs["iy"]), c)
    if k == C.K_GATHER:
        return bits(gather(c, levels[0], cs["x"], cs["y"]), c)
    return None


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
