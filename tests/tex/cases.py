#!/usr/bin/env python3
"""The texture and surface fetch cases: `cases.py OUT` writes the binary case file
that runtime/tests/programs/tex_fetch.cu reads (see the Case and Coord structs there).

Deterministic (seeded): the goldens a GPU recorded (tests/tex/gpu.bin) are of
exactly these cases. `cases()` gives them as dictionaries for reference.py."""
import struct
import sys

import numpy as np

# tex_fetch.cu's Kind.
(K_1D, K_2D, K_3D, K_A1D, K_A2D, K_CUBE, K_ACUBE, K_FETCH, K_1DLOD, K_2DLOD, K_3DLOD, K_2DGRAD,
 K_GATHER, K_TXQ, K_SULD1, K_SULD2, K_SULD3, K_SULDA2, K_SUST2, K_SURED2, K_SUQ, K_2DINT,
 K_ACUBELOD, K_CUBELOD, K_A2DLOD, K_3DGRAD) = range(26)
R_ARRAY, R_MIPMAP, R_LINEAR, R_PITCH2D = range(4)
WRAP, CLAMP, MIRROR, BORDER = range(4)
POINT, LINEAR = 0, 1
ELEMENT, NORMALIZED = 0, 1
SIGNED, UNSIGNED, FLOAT = 0, 1, 2
LAYERED, SURFACE, CUBEMAP, GATHER = 1, 2, 4, 8
B_ZERO, B_CLAMP, B_TRAP = 0, 1, 2
TXQ_COUNT, SUQ_COUNT = 16, 7

# Formats as (kind, bits): numpy element types of one channel.
FORMATS = [(UNSIGNED, 8), (SIGNED, 8), (UNSIGNED, 16), (SIGNED, 16), (UNSIGNED, 32), (SIGNED, 32),
           (FLOAT, 16), (FLOAT, 32)]


def dtype(fkind, bits):
    if fkind == FLOAT:
        return np.float16 if bits == 16 else np.float32
    return np.dtype(("i" if fkind == SIGNED else "u") + str(bits // 8))


def dims_of(kind):
    """Coordinates a texture kind fetches with (not counting the layer)."""
    return {K_1D: 1, K_1DLOD: 1, K_A1D: 1, K_2D: 2, K_A2D: 2, K_2DLOD: 2, K_2DGRAD: 2, K_GATHER: 2,
            K_A2DLOD: 2, K_3D: 3, K_3DLOD: 3, K_3DGRAD: 3}.get(kind, 3)


class Gen:
    def __init__(self, seed=20261128):
        self.rng = np.random.default_rng(seed)
        self.out = []

    def texels(self, fkind, bits, count, special=False):
        dt = dtype(fkind, bits)
        if fkind == FLOAT:
            v = self.rng.uniform(-4, 4, count).astype(dt)
            if special and count > 8:
                v[:4] = np.array([0.0, -0.0, 1e-30 if bits == 32 else 6e-8, 65504], dtype=dt)
            return v.tobytes()
        info = np.iinfo(dt)
        v = self.rng.integers(int(info.min), int(info.max), count, endpoint=True, dtype=np.int64)
        if count > 4:
            v[:2] = [info.min, info.max]
        return v.astype(dt).tobytes()

    def axis(self, size, normalized, n):
        """n coordinates along an axis of `size` texels: inside, at texel edges and
        centres, between the 1/256 steps of the filter weights, and far outside."""
        r = self.rng
        picks = r.integers(0, 6, n)
        k = r.integers(-3, size + 3, n).astype(np.float64)
        v = np.where(picks == 0, r.uniform(-1.5 * size, 2.5 * size, n),
            np.where(picks == 1, k,
            np.where(picks == 2, k + 0.5,
            np.where(picks == 3, k + r.integers(0, 256, n) / 256.0,
            np.where(picks == 4, k + (r.integers(0, 256, n) + 0.5) / 256.0,
                     r.uniform(0, size, n))))))
        far = r.random(n) < 0.03
        v = np.where(far, r.choice([-1e6, 1e6, -3.5e9, 7e12, -40.25, 37.75], n), v)
        if normalized:
            v = v / size
        return v.astype(np.float32)

    def add(self, kind, res=R_ARRAY, fmt=(FLOAT, 32), ch=1, ext=(8, 0, 0), flags=0, levels=1,
            addr=(CLAMP, CLAMP, CLAMP), filt=POINT, read=ELEMENT, srgb=0, norm=0, mipf=POINT,
            border=(0, 0, 0, 0), bias=0.0, minl=0.0, maxl=0.0, comp=0, boundary=B_ZERO, n=256,
            seamless=0, data=None, coords=None):
        fkind, bits = fmt
        rtype = 0 if fkind == FLOAT or read == NORMALIZED else (1 if fkind == SIGNED else 2)
        w, h, d = ext
        if data is None:
            total = 0
            for lv in range(levels):
                lw, lh, ld = max(1, w >> lv), max(1, h >> lv) if h else 1, d if d else 1
                if not flags & (LAYERED | CUBEMAP):
                    ld = max(1, d >> lv) if d else 1
                total += lw * lh * ld
            data = self.texels(fkind, bits, total * ch, special=True)
        c = dict(kind=kind, res=res, fkind=fkind, bits=bits, channels=ch, w=w, h=h, d=d, flags=flags,
                 levels=levels, addr=addr, filter=filt, read_mode=read, srgb=srgb, normalized=norm,
                 mip_filter=mipf, border=border, lod_bias=bias, min_lod=minl, max_lod=maxl, comp=comp,
                 rtype=rtype, boundary=boundary, seamless=seamless, data=data)
        c["coords"] = coords if coords is not None else self.coords(c, n)
        self.out.append(c)
        return c

    def coords(self, c, n):
        r = self.rng
        kind = c["kind"]
        cs = np.zeros(n, dtype=COORD)
        if kind in (K_TXQ, K_SUQ):
            return np.zeros(TXQ_COUNT if kind == K_TXQ else SUQ_COUNT, dtype=COORD)
        w, h, d = c["w"], max(c["h"], 1), max(c["d"], 1)
        layers = d // 6 if c["flags"] & CUBEMAP else d
        if kind in (K_CUBE, K_ACUBE, K_CUBELOD, K_ACUBELOD):
            v = r.uniform(-1, 1, (n, 3))
            edge = r.random(n) < 0.2  # on a cube edge: two components of equal size
            a = r.integers(0, 3, n)
            b = (a + 1) % 3
            v[edge, b[edge]] = np.copysign(np.abs(v[edge, a[edge]]), v[edge, b[edge]])
            cs["x"], cs["y"], cs["z"] = v[:, 0], v[:, 1], v[:, 2]
        else:
            cs["x"] = self.axis(w, c["normalized"], n)
            if dims_of(kind) >= 2:
                cs["y"] = self.axis(h, c["normalized"], n)
            if dims_of(kind) >= 3:
                cs["z"] = self.axis(d, c["normalized"], n)
        cs["layer"] = np.where(r.random(n) < 0.85, r.integers(0, max(layers, 1), n),
                               r.choice([-1, -7, layers, layers + 3, 1 << 20], n))
        lod = r.uniform(-2, c["levels"] + 1.5, n)
        lod = np.where(r.random(n) < 0.3, np.round(lod * 2) / 2, lod)
        cs["lod"] = lod
        scale = (1.0 / w if c["normalized"] else 1.0) * 2.0 ** r.uniform(-3, 7, (n, 1))
        cs["dx"] = r.uniform(-1, 1, (n, 3)) * scale
        cs["dy"] = r.uniform(-1, 1, (n, 3)) * scale
        size = c["bits"] // 8 * c["channels"]
        ix = r.integers(-3, w + 3, n)
        ix = np.where(r.random(n) < 0.05, r.choice([-(1 << 20), 1 << 24, 0x7fffffff // size], n), ix)
        if kind in (K_SULD1, K_SULD2, K_SULD3, K_SULDA2, K_SUST2, K_SURED2):
            ix = ix * size  # surface x is in bytes
        if kind == K_FETCH:
            ix = np.where(r.random(n) < 0.8, r.integers(-2, w + 4, n), ix)
        cs["ix"] = ix
        cs["iy"] = r.integers(-2, h + 2, n)
        cs["iz"] = r.integers(-2, d + 2, n)
        cs["val"] = r.integers(0, 1 << 32, (n, 4), dtype=np.uint64).astype(np.uint32)
        if kind == K_SURED2:
            cs["val"][:, 0] = r.integers(0, 1000, n)
        return cs


COORD = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("layer", "<i4"), ("lod", "<f4"),
                  ("dx", "<f4", 3), ("dy", "<f4", 3), ("ix", "<i4"), ("iy", "<i4"), ("iz", "<i4"),
                  ("val", "<u4", 4), ("pad", "<i4", 2)])
assert COORD.itemsize == 80


def cases():
    g = Gen()
    f32 = (FLOAT, 32)
    # Every format and channel count: 2D, nearest, clamp, unnormalized.
    for fmt in FORMATS:
        for ch in (1, 2, 4):
            g.add(K_2D, fmt=fmt, ch=ch, ext=(7, 5, 0))
    # Normalized float reads of 8- and 16-bit formats, nearest and linear; sRGB.
    for fmt in FORMATS[:4]:
        for ch in (1, 4):
            for filt in (POINT, LINEAR):
                g.add(K_2D, fmt=fmt, ch=ch, ext=(6, 5, 0), read=NORMALIZED, filt=filt)
    for filt in (POINT, LINEAR):
        g.add(K_2D, fmt=(UNSIGNED, 8), ch=4, ext=(6, 5, 0), read=NORMALIZED, filt=filt, srgb=1)
        g.add(K_2D, fmt=(UNSIGNED, 8), ch=1, ext=(6, 5, 0), read=NORMALIZED, filt=filt, srgb=1)
    # Filter x address x normalized, in 1D, 2D and 3D, f32 and half.
    for kind, ext in ((K_1D, (9, 0, 0)), (K_2D, (7, 5, 0)), (K_3D, (5, 4, 3))):
        for fmt in (f32, (FLOAT, 16)):
            for filt in (POINT, LINEAR):
                for mode in (WRAP, CLAMP, MIRROR, BORDER):
                    for norm in (0, 1):
                        if fmt != f32 and (norm == 0 or kind == K_3D):
                            continue
                        modes = (mode, (mode + 1) % 4 if kind != K_1D else mode, mode)
                        g.add(kind, fmt=fmt, ch=2, ext=ext, filt=filt, addr=modes, norm=norm,
                              border=(0.25, -1.5, 7.0, 1e10))
    # Linear filtering of 8-bit textures read as normalized floats, in every mode.
    for mode in (WRAP, CLAMP, MIRROR, BORDER):
        g.add(K_2D, fmt=(SIGNED, 8), ch=4, ext=(5, 6, 0), filt=LINEAR, read=NORMALIZED, norm=1,
              addr=(mode, mode, mode), border=(0.5, -0.25, 1.0, 0.0))
    # Integer textures: border colours, and linear filtering refused or not.
    for fmt in ((UNSIGNED, 16), (SIGNED, 32)):
        g.add(K_2D, fmt=fmt, ch=4, ext=(5, 4, 0), addr=(BORDER, BORDER, BORDER), border=(3, -2, 0.5, 70000))
        g.add(K_2D, fmt=fmt, ch=1, ext=(5, 4, 0), filt=LINEAR)
    g.add(K_2D, fmt=(UNSIGNED, 32), ch=1, ext=(5, 4, 0), read=NORMALIZED)
    # Layered.
    for filt in (POINT, LINEAR):
        for mode, norm in ((CLAMP, 0), (WRAP, 1), (BORDER, 1)):
            g.add(K_A1D, fmt=f32, ch=1, ext=(6, 0, 4), flags=LAYERED, filt=filt, addr=(mode,) * 3,
                  norm=norm)
            g.add(K_A2D, fmt=(UNSIGNED, 8), ch=4, ext=(5, 4, 3), flags=LAYERED, filt=filt,
                  addr=(mode,) * 3, norm=norm, read=NORMALIZED)
    # Cubemaps, layered cubemaps, seamless or not.
    for filt in (POINT, LINEAR):
        for seamless in (0, 1):
            g.add(K_CUBE, fmt=f32, ch=1, ext=(4, 4, 6), flags=CUBEMAP, filt=filt, norm=1,
                  seamless=seamless)
            g.add(K_ACUBE, fmt=(UNSIGNED, 8), ch=4, ext=(3, 3, 12), flags=CUBEMAP | LAYERED, filt=filt,
                  norm=1, read=NORMALIZED, seamless=seamless)
    # Mipmaps: tex.level, tex.grad, filters between levels, bias and clamps.
    for mipf in (POINT, LINEAR):
        for filt in (POINT, LINEAR):
            g.add(K_2DLOD, res=R_MIPMAP, fmt=f32, ch=1, ext=(16, 8, 0), levels=5, filt=filt, mipf=mipf,
                  norm=1, addr=(WRAP, CLAMP, CLAMP), maxl=4)
            g.add(K_2DGRAD, res=R_MIPMAP, fmt=f32, ch=1, ext=(16, 8, 0), levels=5, filt=filt, mipf=mipf,
                  norm=1, addr=(CLAMP, WRAP, CLAMP), maxl=4)
        g.add(K_1DLOD, res=R_MIPMAP, fmt=(UNSIGNED, 8), ch=2, ext=(32, 0, 0), levels=6, filt=LINEAR,
              mipf=mipf, norm=1, read=NORMALIZED, maxl=5)
        g.add(K_3DLOD, res=R_MIPMAP, fmt=f32, ch=1, ext=(8, 4, 4), levels=4, filt=LINEAR, mipf=mipf,
              norm=1, maxl=3)
        g.add(K_3DGRAD, res=R_MIPMAP, fmt=f32, ch=1, ext=(8, 4, 4), levels=4, filt=POINT, mipf=mipf,
              norm=1, maxl=3)
        g.add(K_2DLOD, res=R_MIPMAP, fmt=f32, ch=1, ext=(16, 16, 0), levels=5, filt=LINEAR, mipf=mipf,
              norm=1, bias=0.75, minl=1.0, maxl=2.5)
        g.add(K_2DGRAD, res=R_MIPMAP, fmt=f32, ch=1, ext=(16, 16, 0), levels=5, filt=LINEAR, mipf=mipf,
              norm=1, bias=-0.5, minl=0.5, maxl=3.0)
        g.add(K_2DLOD, res=R_MIPMAP, fmt=(SIGNED, 16), ch=1, ext=(16, 16, 0), levels=5, mipf=mipf,
              norm=1, maxl=4)
    # Level fetches of plain (one-level) arrays.
    g.add(K_2DLOD, fmt=f32, ch=1, ext=(7, 5, 0), filt=LINEAR, norm=1)
    g.add(K_A2DLOD, fmt=f32, ch=1, ext=(5, 4, 3), flags=LAYERED, filt=LINEAR, norm=1)
    g.add(K_CUBELOD, fmt=f32, ch=1, ext=(4, 4, 6), flags=CUBEMAP, filt=LINEAR, norm=1)
    g.add(K_ACUBELOD, fmt=f32, ch=1, ext=(4, 4, 12), flags=CUBEMAP | LAYERED, norm=1)
    # Gathers.
    for comp in range(4):
        g.add(K_GATHER, fmt=(UNSIGNED, 8), ch=4, ext=(6, 5, 0), flags=GATHER, read=NORMALIZED, comp=comp,
              addr=(CLAMP, WRAP, BORDER)[comp % 3:] + (CLAMP, WRAP, BORDER)[:comp % 3], norm=comp & 1)
    g.add(K_GATHER, fmt=f32, ch=2, ext=(6, 5, 0), flags=GATHER, comp=1)
    g.add(K_GATHER, fmt=(SIGNED, 16), ch=4, ext=(6, 5, 0), flags=GATHER, comp=3, norm=1,
          addr=(WRAP, MIRROR, CLAMP))
    g.add(K_GATHER, fmt=(UNSIGNED, 32), ch=1, ext=(6, 5, 0), flags=GATHER, comp=0, addr=(BORDER,) * 3)
    g.add(K_GATHER, fmt=(UNSIGNED, 8), ch=1, ext=(6, 5, 0), flags=GATHER, comp=2, read=NORMALIZED)
    # Linear memory (tex1Dfetch) and pitched 2D memory.
    for fmt, ch, read in ((f32, 4, ELEMENT), ((UNSIGNED, 8), 1, NORMALIZED), ((SIGNED, 16), 2, ELEMENT),
                          ((FLOAT, 16), 1, ELEMENT)):
        g.add(K_FETCH, res=R_LINEAR, fmt=fmt, ch=ch, ext=(23, 0, 0), read=read)
    for filt in (POINT, LINEAR):
        for mode, norm in ((CLAMP, 0), (BORDER, 0), (WRAP, 1), (MIRROR, 1)):
            g.add(K_2D, res=R_PITCH2D, fmt=f32, ch=1, ext=(13, 6, 0), filt=filt, addr=(mode,) * 3, norm=norm)
        g.add(K_2D, res=R_PITCH2D, fmt=(UNSIGNED, 8), ch=4, ext=(9, 7, 0), filt=filt, read=NORMALIZED)
    # Integer coordinates.
    for fmt, read in ((f32, ELEMENT), ((SIGNED, 16), ELEMENT), ((UNSIGNED, 8), NORMALIZED), ((UNSIGNED, 8), ELEMENT)):
        for mode in (CLAMP, BORDER, WRAP):
            g.add(K_2DINT, fmt=fmt, ch=4, ext=(6, 5, 0), read=read, addr=(mode,) * 3, border=(1, 2, 3, 4))
    # Surfaces: loads in every shape at every texel size, stores, reductions, queries.
    for fmt, ch in (((UNSIGNED, 8), 1), ((SIGNED, 16), 1), (f32, 1), (f32, 2), (f32, 4), ((UNSIGNED, 8), 4)):
        for boundary in (B_ZERO, B_CLAMP):
            g.add(K_SULD2, fmt=fmt, ch=ch, ext=(6, 5, 0), flags=SURFACE, boundary=boundary)
    for boundary in (B_ZERO, B_CLAMP):
        g.add(K_SULD1, fmt=(UNSIGNED, 16), ch=2, ext=(9, 0, 0), flags=SURFACE, boundary=boundary)
        g.add(K_SULD3, fmt=(SIGNED, 32), ch=1, ext=(5, 4, 3), flags=SURFACE, boundary=boundary)
        g.add(K_SULDA2, fmt=f32, ch=1, ext=(5, 4, 3), flags=SURFACE | LAYERED, boundary=boundary)
        for fmt, ch in (((UNSIGNED, 8), 1), ((UNSIGNED, 16), 1), (f32, 1), (f32, 2), (f32, 4)):
            g.add(K_SUST2, fmt=fmt, ch=ch, ext=(6, 5, 0), flags=SURFACE, boundary=boundary, n=64)
        g.add(K_SURED2, fmt=(UNSIGNED, 32), ch=1, ext=(6, 5, 0), flags=SURFACE, boundary=boundary)
    probes(g)
    return g.out


def one_hot(taps, first):
    """f32x4 texels: tap k (k = x + 2y + 4z, by parity) is 1.0 in channel k - first."""
    out = np.zeros((len(taps), 4), dtype=np.float32)
    for t, k in enumerate(taps):
        if first <= k < first + 4:
            out[t, k - first] = 1.0
    return out


def probes(g):
    """Cases made to read the hardware's arithmetic off its results (recorded in a
    second GPU run): filter weights through one-hot texels, the sRGB and signed
    8-bit conversions at texel centres, and the level of detail of tex.grad
    through textures whose every texel holds its level."""
    f32 = (FLOAT, 32)
    r = g.rng
    n = 512
    # 2D and 3D weights: each tap's weight comes back in a channel of its own.
    co = np.zeros(n, dtype=COORD)
    co["x"], co["y"], co["z"] = r.random(n), r.random(n), r.random(n)
    k2 = [x + 2 * y for y in range(2) for x in range(2)]
    g.add(K_2D, fmt=f32, ch=4, ext=(2, 2, 0), filt=LINEAR, norm=1, addr=(WRAP,) * 3,
          data=one_hot(k2, 0).tobytes(), coords=co)
    k3 = [x + 2 * y + 4 * z for z in range(2) for y in range(2) for x in range(2)]
    for first in (0, 4):
        g.add(K_3D, fmt=f32, ch=4, ext=(2, 2, 2), filt=LINEAR, norm=1, addr=(WRAP,) * 3,
              data=one_hot(k3, first).tobytes(), coords=co)
    # Trilinear: a 4x4 level 0 and 2x2 level 1 (by parity), one of them one-hot.
    co = co.copy()
    co["lod"] = r.random(n) * 1.2 - 0.1
    for hot in (0, 1):
        lv0 = one_hot([(x % 2) + 2 * (y % 2) for y in range(4) for x in range(4)], 0) * (hot == 0)
        lv1 = one_hot([x + 2 * y for y in range(2) for x in range(2)], 0) * (hot == 1)
        lv2 = np.zeros((1, 4), dtype=np.float32)
        g.add(K_2DLOD, res=R_MIPMAP, fmt=f32, ch=4, ext=(4, 4, 0), levels=3, filt=LINEAR, mipf=LINEAR,
              norm=1, addr=(WRAP,) * 3, maxl=2, data=np.concatenate([lv0, lv1, lv2]).tobytes(), coords=co)
    # Every 8-bit value at its texel centre: unsigned with sRGB, signed, filtered or not.
    co = np.zeros(256, dtype=COORD)
    co["x"] = np.arange(256) + 0.5
    co["y"] = 0.5
    for filt in (POINT, LINEAR):
        g.add(K_2D, fmt=(UNSIGNED, 8), ch=4, ext=(256, 1, 0), read=NORMALIZED, filt=filt, srgb=1,
              data=np.repeat(np.arange(256, dtype=np.uint8), 4).tobytes(), coords=co)
        g.add(K_2D, fmt=(SIGNED, 8), ch=1, ext=(256, 1, 0), read=NORMALIZED, filt=filt,
              data=np.arange(-128, 128).astype(np.int8).tobytes(), coords=co)
    g.add(K_2D, fmt=(UNSIGNED, 8), ch=1, ext=(256, 1, 0), read=NORMALIZED, filt=LINEAR,
          data=np.arange(256, dtype=np.uint8).tobytes(), coords=co)
    # Level of detail from gradients: texels hold their level, levels blend linearly.
    for kind, ext, levels in ((K_2DGRAD, (16, 8, 0), 5), (K_2DGRAD, (16, 16, 0), 5), (K_2DGRAD, (32, 4, 0), 6),
                              (K_3DGRAD, (8, 4, 4), 4), (K_3DGRAD, (8, 8, 8), 4)):
        w, h, d = ext
        data = []
        for lv in range(levels):
            count = max(1, w >> lv) * max(1, h >> lv) * (max(1, d >> lv) if d else 1)
            data.append(np.full(count, lv, dtype=np.float32))
        co = np.zeros(n, dtype=COORD)
        co["x"], co["y"], co["z"] = r.random(n), r.random(n), r.random(n)
        mag = 2.0 ** r.uniform(-8, 2, (n, 1))
        co["dx"] = r.uniform(-1, 1, (n, 3)) * mag
        co["dy"] = r.uniform(-1, 1, (n, 3)) * mag * np.where(r.random((n, 1)) < 0.3, r.uniform(0, 4, (n, 1)), 1)
        axis = r.random(n) < 0.2  # gradients along one axis only
        co["dx"][axis, 1:] = 0
        co["dy"][axis, ::2] = 0
        for bias, minl, maxl in ((0.0, 0.0, levels - 1), (0.5, 0.75, 2.5)):
            g.add(kind, res=R_MIPMAP, fmt=f32, ch=1, ext=ext, levels=levels, filt=POINT, mipf=LINEAR, norm=1,
                  bias=bias, minl=minl, maxl=maxl, data=np.concatenate(data).tobytes(), coords=co)
    # Integer texels between levels: each level one value.
    co = np.zeros(n, dtype=COORD)
    co["x"], co["y"] = r.random(n), r.random(n)
    co["lod"] = r.uniform(-0.5, 4.5, n)
    for fmt in ((SIGNED, 16), (UNSIGNED, 8)):
        vals = [3, 250, 17, 128, 255] if fmt[0] == UNSIGNED else [-30000, 29999, -7, 1234, 32767]
        data = np.concatenate([np.full(max(1, 16 >> lv) ** 2, vals[lv]) for lv in range(5)])
        g.add(K_2DLOD, res=R_MIPMAP, fmt=fmt, ch=1, ext=(16, 16, 0), levels=5, mipf=LINEAR, norm=1, maxl=4,
              data=data.astype(dtype(*fmt)).tobytes(), coords=co)
    # tex.grad's level of detail in detail: a 256 x 256 texture whose texels hold
    # their level; x gradients alone over 8 levels in 1/64ths of a level, then both
    # axes of one gradient, then both gradients.
    size = 256
    data = np.concatenate([np.full((size >> lv) ** 2, lv, dtype=np.float32) for lv in range(9)])
    for which in range(3):
        co = np.zeros(n, dtype=COORD)
        co["x"], co["y"] = 0.5, 0.5
        if which == 0:
            grad = 2.0 ** (np.arange(n) / 64.0) / size
            co["dx"][:, 0] = np.where(np.arange(n) % 2 == 1, grad, -grad)
        else:
            co["dx"][:, :2] = r.uniform(-1, 1, (n, 2)) * 2.0 ** r.uniform(0, 8, (n, 1)) / size
            if which == 2:
                co["dy"][:, :2] = r.uniform(-1, 1, (n, 2)) * 2.0 ** r.uniform(0, 8, (n, 1)) / size
        g.add(K_2DGRAD, res=R_MIPMAP, fmt=f32, ch=1, ext=(size, size, 0), levels=9, filt=POINT, mipf=LINEAR,
              norm=1, maxl=8, data=data.tobytes(), coords=co)


def pack(c):
    head = struct.pack("<13i5i4f3f7i", c["kind"], c["res"], c["fkind"], c["bits"], c["channels"], c["w"],
                       c["h"], c["d"], c["flags"], c["levels"], *c["addr"], c["filter"], c["read_mode"],
                       c["srgb"], c["normalized"], c["mip_filter"], *c["border"], c["lod_bias"], c["min_lod"],
                       c["max_lod"], c["comp"], c["rtype"], c["boundary"], len(c["coords"]), len(c["data"]),
                       c["seamless"], 0)
    assert len(head) == 128
    return head + c["data"] + c["coords"].tobytes()


def main():
    with open(sys.argv[1], "wb") as f:
        for c in cases():
            f.write(pack(c))


if __name__ == "__main__":
    main()
