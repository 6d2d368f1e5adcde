#!/usr/bin/env python3
"""The mma.sp cases of tests/kernels/ (tests/kernels.rs): a PTX module of one kernel
per case (tests/kernels/mma_sp.ptx), launch specs, and expected results computed
here, independently of ptxvm, from the PTX ISA's description of mma.sp (9.7.14.6):

- A is 16 x K, 2:4 sparse (.tf32: 1:2); its registers hold the compressed 16 x K/2
  matrix in the fragment of the dense shape of half its K (9.7.14.5.x's tables:
  register r, element j of lane (g, t) is row g + 8 (r & 1), column
  (32 / bits) t + j + 4 (32 / bits) (r >> 1));
- B's fragment is the dense one of K: element j of register r is row
  (32 / bits) t + j + 4 (32 / bits) r, column g;
- C and D: register i is row g (+ 8 for i >= 2), column 2t + (i & 1);
- metadata: a 4-bit field for each group of A's row (four elements; .tf32 two),
  going up in K from the low bits; its low 2 bits place the group's first stored
  element, the next 2 its second (.tf32: 0b0100 first, 0b1110 second). The threads
  the sparsity selector names hold it, as CUTLASS's CuTe metadata layouts read the
  ISA's figures (see src/exec/sparse.rs for the table).

Besides random cases (values whose sums are exact, so the order of the tensor cores'
additions does not matter; descending index pairs in plain mma.sp, which only equal
pairs make undefined), the case f16_k32_mlir is MLIR's sparse mma integration test
(mlir/test/Integration/GPU/CUDA/sm80, mma_sp_sync_f16_16832), whose first row of D
came from a GPU: the generator checks the reference against it. Four cases are
undefined behaviour that ptxvm must report.

Usage: python3 tools/mma_sp_cases.py   (deterministic; standard library only)
       With PTXAS set to a ptxas binary, the generated module is also checked by it.
"""

import json
import os
import random
import subprocess
import sys

# The number formats of the wgmma cases (run as a script, tools/ is on the path).
from wgmma_cases import bf16_bits, f16_bits, f32_bits, fp8_value

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "tests", "kernels")
PTX = "tests/kernels/mma_sp.ptx"

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8}


def element(ty, rng, halves=False):
    """A random element of `ty` as (bits, value)."""
    if ty in ("f16", "bf16"):
        v = rng.randint(-8, 8) / 2 if halves else rng.randint(-16, 16) / 4
        return (f16_bits(v) if ty == "f16" else bf16_bits(v)), v
    if ty == "tf32":
        v = rng.randint(-16, 16) / 4
        return f32_bits(v) | (rng.getrandbits(13) if v != 0 else 0), v
    if ty in ("e4m3", "e5m2"):
        while True:
            b = rng.getrandbits(8)
            v = fp8_value(ty, b)
            if v == 0 or 0.5 <= abs(v) <= 4 and v * 2 == int(v * 2):
                return b, v
    if ty == "s8":
        v = rng.randint(-128, 127)
        return v & 0xff, v
    v = rng.randint(0, 255)
    return v, v


def acc_bits(dty, v):
    if dty == "f32":
        return f32_bits(v)
    if dty == "f16":
        return f16_bits(v)
    return v & 0xffffffff


def field_place(ty, k, sel, row, grp):
    """(lane, bit) of the metadata field of `row`, group `grp`."""
    bits = BITS[ty]
    per_row = k // (2 if bits == 32 else 4)
    g, hi = row % 8, row >= 8
    if per_row == 4:
        return 4 * g + sel, 4 * grp + (16 if hi else 0)
    if per_row == 8 and bits in (16, 32):
        return 4 * g + 2 * sel + grp // 4, 4 * (grp % 4) + (16 if hi else 0)
    if per_row == 8:
        return 4 * g + 2 * sel + int(hi), 4 * grp
    return 4 * g + int(hi) + 2 * (grp // 8), 4 * (grp % 8)


def build(name, c, rng):
    aty, bty, dty, k, sel = c["a"], c["b"], c["d"], c["k"], c["sel"]
    bits = BITS[aty]
    per = 32 // bits
    tf32 = aty == "tf32"
    group = 2 if tf32 else 4
    halves = dty == "f16"
    # Logical A (values, bits) with its kept positions; metadata fields.
    a_val = [[0] * k for _ in range(16)]
    comp = [[0] * (k // 2) for _ in range(16)]  # compressed bits
    fields = {}
    for row in range(16):
        for grp in range(k // group):
            if tf32:
                p = rng.randint(0, 1)
                fields[(row, grp)] = 0b0100 if p == 0 else 0b1110
                b, v = element(aty, rng)
                comp[row][grp] = b
                a_val[row][2 * grp + p] = v
                continue
            i0, i1 = rng.sample(range(4), 2)
            if c.get("ordered") and i0 > i1:
                i0, i1 = i1, i0
            for slot, pos in ((0, i0), (1, i1)):
                b, v = element(aty, rng, halves)
                comp[row][2 * grp + slot] = b
                a_val[row][4 * grp + pos] = v
            fields[(row, grp)] = i0 | i1 << 2
    if c.get("mlir"):
        # A[i][j] = i + j + 1 compressed, 0x8888 (positions 0 and 2) everywhere.
        for row in range(16):
            a_val[row] = [0] * k
            for j in range(k // 2):
                comp[row][j] = f16_bits(row + j + 1)
                a_val[row][4 * (j // 2) + 2 * (j % 2)] = row + j + 1
            for grp in range(k // 4):
                fields[(row, grp)] = 0b1000
    for (row, grp), f in c.get("poke", {}).items():
        fields[(row, grp)] = f
    b_bits = [[0] * 8 for _ in range(k)]
    b_val = [[0] * 8 for _ in range(k)]
    for kk in range(k):
        for n in range(8):
            if c.get("mlir"):
                b_bits[kk][n], b_val[kk][n] = f16_bits(n - kk), n - kk
            else:
                b_bits[kk][n], b_val[kk][n] = element(bty, rng, halves)
    c_val = [[0] * 8 for _ in range(16)]
    for row in range(16):
        for n in range(8):
            if c.get("mlir"):
                continue
            if dty == "s32":
                c_val[row][n] = rng.choice([rng.randint(-1000, 1000), 2**31 - 5, -(2**31) + 3])
            else:
                c_val[row][n] = rng.randint(-16, 16) / (2 if halves else 4)
    # D = A B + C over the kept products (exact).
    d_val = [[c_val[r][n] + sum(a_val[r][kk] * b_val[kk][n] for kk in range(k)) for n in range(8)] for r in range(16)]
    if dty == "s32":
        sat = c.get("satfinite")
        for r in range(16):
            for n in range(8):
                v = d_val[r][n]
                d_val[r][n] = max(-(2**31), min(2**31 - 1, v)) if sat else (v + 2**31) % 2**32 - 2**31
    if c.get("mlir"):
        assert d_val[0] == [-2720, -2584, -2448, -2312, -2176, -2040, -1904, -1768], d_val[0]
    # Registers.
    na, nb = k * bits // 2 * 16 // 1024, k * bits * 8 // 1024
    nc = 2 if dty == "f16" else 4
    mask = (1 << bits) - 1 if bits < 32 else 0xffffffff
    regs_a, regs_b, regs_c, regs_e, regs_d = [], [], [], [], []
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for r in range(na):
            w = 0
            for j in range(per):
                row, col = g + 8 * (r & 1), per * t + j + 4 * per * (r >> 1)
                w |= (comp[row][col] & mask) << (bits * j)
            regs_a.append(w)
        for r in range(nb):
            w = 0
            for j in range(per):
                w |= (b_bits[per * t + j + 4 * per * r][g] & mask) << (bits * j)
            regs_b.append(w)

        def acc(m):
            vals = [acc_bits(dty, m[g + (8 if i >= 2 else 0)][2 * t + (i & 1)]) for i in range(4)]
            if dty == "f16":
                return [vals[0] | vals[1] << 16, vals[2] | vals[3] << 16]
            return vals

        regs_c += acc(c_val)
        regs_d += acc(d_val)
        # Metadata: garbage everywhere the selector does not look.
        regs_e.append(rng.getrandbits(32))
    for (row, grp), f in fields.items():
        # (A selector the ISA does not define names lanes past the warp: ub_selector.)
        lane, at = field_place(aty, k, sel % 2 if c.get("fault") else sel, row, grp)
        regs_e[lane] = regs_e[lane] & ~(0xf << at) | f << at
    launch = {
        "kernel": name,
        "grid": 1,
        "block": 32,
        "args": [
            {"buffer": "u32", "data": regs_a},
            {"buffer": "u32", "data": regs_b},
            {"buffer": "u32", "data": regs_c},
            {"buffer": "u32", "data": regs_e},
            {"buffer": "u32", "len": 32 * nc},
        ],
    }
    if c.get("fault"):
        expected = {"ptx": PTX, "exit": 2, "stderr": [c["fault"]]}
    else:
        expected = {"ptx": PTX, "exit": 0, "buffers": [{"arg": 4, "data": regs_d, "rel": 0, "abs": 0}]}
    return launch, expected


def kernel(name, c):
    aty, bty, dty, k, sel = c["a"], c["b"], c["d"], c["k"], c["sel"]
    bits = BITS[aty]
    na, nb = k * bits // 2 * 16 // 1024, k * bits * 8 // 1024
    nc = 2 if dty == "f16" else 4
    acc_reg = "%f" if dty == "f32" else "%s"
    lines = [f".visible .entry {name}(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pe, .param .u64 pd)", "{"]
    lines += ["    .reg .b32 %r<4>;", "    .reg .b32 %a<4>;", "    .reg .b32 %b<4>;", "    .reg .b32 %e;",
              "    .reg .b32 %s<8>;", "    .reg .f32 %f<8>;", "    .reg .b64 %rd<8>;", "    mov.u32 %r0, %tid.x;"]
    ld = "f32" if dty == "f32" else "b32"

    def load(param, n, reg, kind="b32"):
        out = [f"    ld.param.u64 %rd1, [{param}];", f"    mul.wide.u32 %rd2, %r0, {4 * n};", "    add.u64 %rd3, %rd1, %rd2;"]
        out += [f"    ld.global.{kind} {reg(i)}, [%rd3+{4 * i}];" for i in range(n)]
        return out

    lines += load("pa", na, lambda i: f"%a{i}")
    lines += load("pb", nb, lambda i: f"%b{i}")
    lines += load("pc", nc, lambda i: f"{acc_reg}{i + 4}", ld)
    lines += load("pe", 1, lambda i: "%e")
    op = "mma.sp::ordered_metadata" if c.get("ordered") else "mma.sp"
    sat = ".satfinite" if c.get("satfinite") else ""
    vec = lambda p, n, off=0: "{" + ", ".join(f"{p}{i + off}" for i in range(n)) + "}"
    lines.append(
        f"    {op}.sync.aligned.m16n8k{k}.row.col{sat}.{dty}.{aty}.{bty}.{dty} {vec(acc_reg, nc)}, {vec('%a', na)}, "
        f"{vec('%b', nb)}, {vec(acc_reg, nc, 4)}, %e, {sel};"
    )
    lines += ["    ld.param.u64 %rd1, [pd];", f"    mul.wide.u32 %rd2, %r0, {4 * nc};", "    add.u64 %rd3, %rd1, %rd2;"]
    lines += [f"    st.global.{ld} [%rd3+{4 * i}], {acc_reg}{i};" for i in range(nc)]
    lines += ["    ret;", "}", ""]
    return "\n".join(lines)


def cases():
    out = []

    def add(name, a, b, d, k, sel, **kw):
        out.append((f"mma_sp_{name}", dict(a=a, b=b, d=d, k=k, sel=sel, **kw)))

    add("f16_k16_sel1", "f16", "f16", "f32", 16, 1)
    add("f16_k16_sel3_f16acc", "f16", "f16", "f16", 16, 3)
    add("bf16_k16_sel2", "bf16", "bf16", "f32", 16, 2, ordered=True)
    add("f16_k32_sel0", "f16", "f16", "f32", 32, 0)
    add("f16_k32_sel1_f16acc", "f16", "f16", "f16", 32, 1, ordered=True)
    add("bf16_k32_sel1", "bf16", "bf16", "f32", 32, 1)
    add("f16_k32_mlir", "f16", "f16", "f32", 32, 0, mlir=True)
    add("tf32_k8_sel2", "tf32", "tf32", "f32", 8, 2)
    add("tf32_k16_sel1", "tf32", "tf32", "f32", 16, 1)
    add("s8_k32_sel0", "s8", "s8", "s32", 32, 0)
    add("u8_s8_k32_sel1_sat", "u8", "s8", "s32", 32, 1, satfinite=True, ordered=True)
    add("s8_u8_k64", "s8", "u8", "s32", 64, 0)
    add("u8_k64_sat", "u8", "u8", "s32", 64, 0, satfinite=True)
    add("e4m3_e5m2_k64", "e4m3", "e5m2", "f32", 64, 0)
    add("e5m2_e4m3_k64_ordered", "e5m2", "e4m3", "f32", 64, 0, ordered=True)
    # Undefined behaviour, reported.
    add("ub_equal", "f16", "f16", "f32", 16, 0, poke={(3, 1): 0b0101},
        fault="the sparsity metadata 0b0101 of row 3, elements 4..8 of A places both")
    add("ub_descending", "s8", "s8", "s32", 32, 1, ordered=True, poke={(12, 5): 0b0010},
        fault="gives its group's positions in descending order, which ::ordered_metadata forbids")
    add("ub_tf32", "tf32", "tf32", "f32", 8, 0, poke={(0, 0): 0b1000},
        fault="is neither 0b0100 nor 0b1110")
    add("ub_selector", "f16", "f16", "f32", 32, 2,
        fault="the sparsity selector 2 is not 0 or 1")
    return out


def main():
    rng = random.Random(214)
    header = [
        "// The mma.sp cases of tests/kernels.rs, generated by tools/mma_sp_cases.py (do not edit).",
        ".version 8.7",
        ".target sm_90a",
        ".address_size 64",
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
