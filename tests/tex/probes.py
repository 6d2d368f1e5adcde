#!/usr/bin/env python3
"""Probes of the texture unit's arithmetic where tests/tex/known.json lists the GPU
departing from reference.py: `probes.py OUT` writes a case file for
runtime/tests/programs/tex_fetch.cu (the format of cases.py), whose GPU results are
tests/tex/gpu_probes.bin (record_probes.sh).

Every coordinate here sits exactly on the 1/256 grid the filter weights are cut to,
so a result reads the weights and the arithmetic alone, not the coordinate rounding
that cases.py's probes already pinned down:
- snorm8, unorm8, snorm16 and sRGB textures filtered along one axis and in 2D;
- f32 and f16 textures of widely spread values, filtered along one axis and in 2D;
- 3D and trilinear weights through one-hot texels;
- tex.grad's level of detail: one gradient swept in angle and length, two gradients
  at random angles and lengths, and 3D gradients;
- seamless cubemap filtering: one-hot texels of a 2x2 cube, and random texels of a
  4x4 one, at directions near edges and corners.
Deterministic (seeded), like cases.py."""
import sys

import numpy as np

import cases as C

GRID = 256  # the filter's weight steps per texel


def on_grid(r, n, size, margin=0):
    """n unnormalized coordinates between texel centres 0..size-1, on the weight grid."""
    i = r.integers(-margin, size - 1 + margin, n)
    return (i + 0.5 + r.integers(0, GRID, n) / GRID).astype(np.float32)


def sweep(n_pairs):
    """Every grid step between each pair of neighbouring texels along x."""
    x = np.arange(n_pairs)[:, None] + 0.5 + np.arange(GRID)[None, :] / GRID
    return x.reshape(-1).astype(np.float32)


def spread_floats(r, count, bits):
    """Floats of random sign, mantissa and exponent (wide for f32, all of f16's range)."""
    e = r.integers(-24, 25, count) if bits == 32 else r.integers(-14, 15, count)
    v = r.choice([-1.0, 1.0], count) * (1 + r.random(count)) * 2.0 ** e
    near = r.random(count) < 0.25  # neighbours within a few ulps of each other
    ulp = 2.0 ** (-23 if bits == 32 else -10)
    v[1:][near[1:]] = v[:-1][near[1:]] * (1 + r.integers(-4, 5, near[1:].sum()) * ulp)
    return v.astype(np.float16 if bits == 16 else np.float32)


def probes():
    g = C.Gen(seed=20261129)
    r = g.rng
    n = 4096
    f32 = (C.FLOAT, 32)

    def coords(count):
        return np.zeros(count, dtype=C.COORD)

    # 1. Normalized integer and sRGB textures, one axis swept then 2D on the grid.
    for fmt, srgb in (((C.SIGNED, 8), 0), ((C.UNSIGNED, 8), 0), ((C.UNSIGNED, 8), 1), ((C.SIGNED, 16), 0)):
        w = 16
        data = g.texels(fmt[0], fmt[1], w * 4)
        co = coords(15 * GRID)
        co["x"], co["y"] = sweep(15), 0.5
        g.add(C.K_2D, fmt=fmt, ch=4, ext=(w, 1, 0), filt=C.LINEAR, read=C.NORMALIZED, srgb=srgb, data=data,
              coords=co)
        co = coords(n)
        co["x"], co["y"] = on_grid(r, n, 16), on_grid(r, n, 16)
        g.add(C.K_2D, fmt=fmt, ch=4, ext=(16, 16, 0), filt=C.LINEAR, read=C.NORMALIZED, srgb=srgb, coords=co)
    # 2. Float textures of spread values, swept then 2D.
    for bits in (32, 16):
        fmt = (C.FLOAT, bits)
        co = coords(15 * GRID)
        co["x"], co["y"] = sweep(15), 0.5
        g.add(C.K_2D, fmt=fmt, ch=4, ext=(16, 1, 0), filt=C.LINEAR,
              data=spread_floats(r, 16 * 4, bits).tobytes(), coords=co)
        co = coords(n)
        co["x"], co["y"] = on_grid(r, n, 32), on_grid(r, n, 32)
        g.add(C.K_2D, fmt=fmt, ch=1, ext=(32, 32, 0), filt=C.LINEAR,
              data=spread_floats(r, 32 * 32, bits).tobytes(), coords=co)
    # 3. 3D weights: tap k = x + 2y + 4z is 1.0 in channel k - first.
    co = coords(n)
    co["x"], co["y"], co["z"] = on_grid(r, n, 2), on_grid(r, n, 2), on_grid(r, n, 2)
    k3 = [x + 2 * y + 4 * z for z in range(2) for y in range(2) for x in range(2)]
    for first in (0, 4):
        g.add(C.K_3D, fmt=f32, ch=4, ext=(2, 2, 2), filt=C.LINEAR, addr=(C.CLAMP,) * 3,
              data=C.one_hot(k3, first).tobytes(), coords=co)
    # 4. Trilinear weights: a 4x4 level 0 and 2x2 level 1 (by parity), one of them
    # one-hot; x and y on level 0's grid, the level's fraction on its own.
    co = coords(n)
    co["x"], co["y"] = on_grid(r, n, 4) / 4, on_grid(r, n, 4) / 4
    co["lod"] = r.integers(0, GRID, n) / GRID
    for hot in (0, 1):
        lv0 = C.one_hot([(x % 2) + 2 * (y % 2) for y in range(4) for x in range(4)], 0) * (hot == 0)
        lv1 = C.one_hot([x + 2 * y for y in range(2) for x in range(2)], 0) * (hot == 1)
        lv2 = np.zeros((1, 4), dtype=np.float32)
        g.add(C.K_2DLOD, res=C.R_MIPMAP, fmt=f32, ch=4, ext=(4, 4, 0), levels=3, filt=C.LINEAR,
              mipf=C.LINEAR, norm=1, addr=(C.WRAP,) * 3, maxl=2,
              data=np.concatenate([lv0, lv1, lv2]).tobytes(), coords=co)
    # 5. tex.grad's level of detail on a 256 x 256 texture whose texels hold their level.
    size = 256
    data = np.concatenate([np.full((size >> lv) ** 2, lv, dtype=np.float32) for lv in range(9)]).tobytes()

    def grad_case(co):
        co["x"], co["y"] = 0.5, 0.5
        g.add(C.K_2DGRAD, res=C.R_MIPMAP, fmt=f32, ch=1, ext=(size, size, 0), levels=9, filt=C.POINT,
              mipf=C.LINEAR, norm=1, maxl=8, data=data, coords=co)

    # One gradient: 256 angles over a quarter turn at 16 lengths.
    co = coords(n)
    theta = np.tile(np.arange(256) / 256 * (np.pi / 2), 16)
    length = np.repeat(2.0 ** (0.5 + np.arange(16) * 0.45), 256) / size
    co["dx"][:, 0], co["dx"][:, 1] = np.cos(theta) * length, np.sin(theta) * length
    grad_case(co)
    # Two orthogonal gradients of random lengths, then two at random angles.
    co = coords(n)
    a = r.uniform(0, 2 * np.pi, n)
    l1, l2 = 2.0 ** r.uniform(0, 8, n) / size, 2.0 ** r.uniform(0, 8, n) / size
    co["dx"][:, 0], co["dx"][:, 1] = np.cos(a) * l1, np.sin(a) * l1
    co["dy"][:, 0], co["dy"][:, 1] = -np.sin(a) * l2, np.cos(a) * l2
    grad_case(co)
    co = coords(n)
    b = r.uniform(0, 2 * np.pi, n)
    l2 = l1 * 2.0 ** r.uniform(-1.5, 1.5, n)
    co["dx"][:, 0], co["dx"][:, 1] = np.cos(a) * l1, np.sin(a) * l1
    co["dy"][:, 0], co["dy"][:, 1] = np.cos(b) * l2, np.sin(b) * l2
    grad_case(co)
    # 3D gradients on a 32^3 texture of 6 levels.
    size3 = 32
    data3 = np.concatenate([np.full((size3 >> lv) ** 3, lv, dtype=np.float32) for lv in range(6)]).tobytes()
    for orth in (0, 1):
        co = coords(n)
        co["x"], co["y"], co["z"] = 0.5, 0.5, 0.5
        u = r.normal(size=(n, 3))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        v = r.normal(size=(n, 3))
        if orth:
            v -= (v * u).sum(axis=1, keepdims=True) * u
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        co["dx"] = u * (2.0 ** r.uniform(0, 5, (n, 1)) / size3)
        co["dy"] = v * (2.0 ** r.uniform(0, 5, (n, 1)) / size3)
        g.add(C.K_3DGRAD, res=C.R_MIPMAP, fmt=f32, ch=1, ext=(size3, size3, size3), levels=6, filt=C.POINT,
              mipf=C.LINEAR, norm=1, maxl=5, data=data3, coords=co)
    # 6. Seamless cubemaps: a 2x2 cube whose 24 texels are one-hot over six cases
    # (face f's four texels in case f), and a 4x4 cube of random texels.
    dirs = r.uniform(-1, 1, (n, 3))
    edge = r.random(n) < 0.5  # two components of nearly equal size
    a = r.integers(0, 3, n)
    b = (a + 1) % 3
    near = np.abs(dirs[np.arange(n), a]) * (1 + r.uniform(-0.02, 0.02, n))
    dirs[edge, b[edge]] = np.copysign(near[edge], dirs[edge, b[edge]])
    corner = r.random(n) < 0.2  # all three nearly equal
    m = np.abs(dirs[corner, 0:1]) * (1 + r.uniform(-0.02, 0.02, (corner.sum(), 3)))
    dirs[corner] = np.copysign(m, dirs[corner])
    co = coords(n)
    co["x"], co["y"], co["z"] = dirs[:, 0], dirs[:, 1], dirs[:, 2]
    for face in range(6):
        g.add(C.K_CUBE, fmt=f32, ch=4, ext=(2, 2, 6), flags=C.CUBEMAP, filt=C.LINEAR, norm=1, seamless=1,
              data=C.one_hot(range(24), 4 * face).tobytes(), coords=co)
    g.add(C.K_CUBE, fmt=f32, ch=1, ext=(4, 4, 6), flags=C.CUBEMAP, filt=C.LINEAR, norm=1, seamless=1,
          coords=co)
    second_round(g, grad_case, data3)
    return g.out


def second_round(g, grad_case, data3):
    """Cases 28 on: what the first round left open, each input swept on its own.

    - tex.grad's log2: one gradient along x of 2048 lengths in one octave, and
      random lengths in eight;
    - its length: (1, r) for r in 1024ths, at two octaves; two gradients, the second
      turned and scaled against the first; 3D gradients (1, r, s) on a 32 x 32 grid;
    - sRGB filtering between a fixed texel and every 8-bit value, at five weights;
    - f32 filtering between 1.0 and values 2^-40 to 2^40 of either sign, at six
      weights, and between neighbours a few ulps apart."""
    r = g.rng
    size = 256
    f32 = (C.FLOAT, 32)

    def coords(count):
        return np.zeros(count, dtype=C.COORD)

    # 28: the log2 of one length: 2^2 (1 + j/2048).
    co = coords(2048)
    co["dx"][:, 0] = 4 * (1 + np.arange(2048) / 2048) / size
    grad_case(co)
    # 29: random lengths over eight octaves.
    co = coords(2048)
    co["dx"][:, 0] = 2.0 ** r.uniform(0, 8, 2048) / size
    grad_case(co)
    # 30: (1, r) * 2^e, r = j/1024, e = 1 and 3.
    co = coords(2048)
    e = np.repeat([2.0, 8.0], 1024)
    co["dx"][:, 0] = e / size
    co["dx"][:, 1] = e * np.tile(np.arange(1024) / 1024, 2) / size
    grad_case(co)
    # 31: dx = 2^3 (1, 0); dy = 2^3 rho (cos phi, sin phi), phi over a half turn
    # in 64 steps, rho 1/4 to 2 in 32.
    co = coords(2048)
    phi = np.tile(np.arange(64) / 64 * np.pi, 32)
    rho = np.repeat(2.0 ** np.linspace(-2, 1, 32), 64)
    co["dx"][:, 0] = 8 / size
    co["dy"][:, 0], co["dy"][:, 1] = 8 * rho * np.cos(phi) / size, 8 * rho * np.sin(phi) / size
    grad_case(co)
    # 32: 3D, (1, r, s) * 2^2 on a 32 x 32 grid of r, s in [0, 1).
    size3 = 32
    co = coords(1024)
    co["x"], co["y"], co["z"] = 0.5, 0.5, 0.5
    rs = np.arange(32) / 32
    co["dx"][:, 0] = 4 / size3
    co["dx"][:, 1] = 4 * np.repeat(rs, 32) / size3
    co["dx"][:, 2] = 4 * np.tile(rs, 32) / size3
    g.add(C.K_3DGRAD, res=C.R_MIPMAP, fmt=f32, ch=1, ext=(size3, size3, size3), levels=6, filt=C.POINT,
          mipf=C.LINEAR, norm=1, maxl=5, data=data3, coords=co)
    # 33-35: sRGB between texel 2j (a fixed value) and 2j + 1 (= j), at 5 weights.
    weights = np.array([1, 64, 128, 192, 255])
    for fixed in (255, 128, 10):
        texels = np.zeros((512, 4), dtype=np.uint8)
        texels[0::2, :3] = fixed
        texels[1::2, :3] = np.arange(256)[:, None]
        texels[:, 3] = 255
        co = coords(256 * 5)
        co["x"] = (np.repeat(np.arange(256) * 2, 5) + 0.5 + np.tile(weights, 256) / GRID).astype(np.float32)
        co["y"] = 0.5
        g.add(C.K_2D, fmt=(C.UNSIGNED, 8), ch=4, ext=(512, 1, 0), filt=C.LINEAR, read=C.NORMALIZED, srgb=1,
              data=texels.tobytes(), coords=co)
    # 36: f32 between 1.0 (texel 2j) and +-2^k (1 + random) (texel 2j + 1), k = -40..40,
    # at 6 weights; then neighbours 1 + i ulp and 1 + j ulp.
    ks = np.arange(-40, 41)
    others = np.concatenate([2.0 ** ks * (1 + r.random(81)), -(2.0 ** ks) * (1 + r.random(81)),
                             1 + r.integers(-8, 9, 94) * 2.0 ** -23])
    pairs = len(others)  # 256
    texels = np.zeros(2 * pairs, dtype=np.float32)
    texels[0::2] = 1.0
    texels[0::2][-94:] = 1 + r.integers(-8, 9, 94) * 2.0 ** -23
    texels[1::2] = others
    weights = np.array([1, 2, 64, 128, 254, 255])
    co = coords(pairs * 6)
    co["x"] = (np.repeat(np.arange(pairs) * 2, 6) + 0.5 + np.tile(weights, pairs) / GRID).astype(np.float32)
    co["y"] = 0.5
    g.add(C.K_2D, fmt=f32, ch=1, ext=(2 * pairs, 1, 0), filt=C.LINEAR, data=texels.tobytes(), coords=co)


def main():
    with open(sys.argv[1], "wb") as f:
        for c in probes():
            f.write(C.pack(c))


if __name__ == "__main__":
    main()
