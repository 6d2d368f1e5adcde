#!/usr/bin/env python3
"""ptxas syntax matrix: texture/surface instructions, vector `mov`, and 256-bit
(`.v8` / `.v4.b64`) loads and stores.

Generates small PTX modules, runs NVIDIA ptxas on each, records accept/reject.
Same record format as tools/ptxas_matrix.py (which this file does not import).

Regenerate the committed data (from the repository root):

    python3 tools/ptxas_syntax_matrix.py            # ~20 s with 2 ptxas processes

Options:
    --out FILE     output file (default tests/data/ptxas_matrix/syntax_cases.jsonl)
    --jobs N       parallel ptxas processes (default 2)
    --group G      only generate/run one group (tex, surf, vecmov, v8); prints, writes nothing
    --list         only print the generated case ids (runs ptxas only for the v8 probes)

ptxas is found on PATH or in the pip package `nvidia-cuda-nvcc` (CUDA 13):
<site-packages>/nvidia/cu13/bin/ptxas.

Every case runs as `ptxas -arch=<arch> case.ptx -o /dev/null`; exit status 0
means `accept: true`.  <arch> is the module's `.target` (its first `sm_` entry
for a `.target sm_XX, texmode_independent` list; sm_75 for targets below sm_75,
which this ptxas cannot generate code for -- feature checks still use .target).

Cases on which ptxas crashes (killed by a signal, e.g. SIGSEGV) are not
written; their ids are printed and listed in SYNTAX.md.

The generator is deterministic: the case list and its order depend only on this
file, and ptxas output is deterministic.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# --------------------------------------------------------------------------
# ptxas discovery
# --------------------------------------------------------------------------


def find_ptxas():
    p = shutil.which("ptxas")
    if p:
        return p
    try:
        import nvidia  # type: ignore

        for base in list(nvidia.__path__):
            cand = os.path.join(base, "cu13", "bin", "ptxas")
            if os.path.exists(cand):
                return cand
    except Exception:
        pass
    for cand in ["/usr/local/cuda/bin/ptxas"]:
        if os.path.exists(cand):
            return cand
    sys.exit("ptxas not found (put it on PATH or pip install nvidia-cuda-nvcc for CUDA 13)")


PTXAS_ARCHS = set(
    "sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a "
    "sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f sm_107 sm_107a sm_107f "
    "sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f sm_121 sm_121a sm_121f".split()
)


def arch_for(target):
    """-arch for `.target target`: the first sm_ entry of the list; sm_75 below sm_75."""
    parts = [p.strip() for p in target.split(",")]
    sms = [p for p in parts if p.startswith("sm_")]
    t = sms[0] if sms else parts[0]
    if t in PTXAS_ARCHS:
        return t
    m = re.match(r"^sm_(\d+)", t)
    if m and int(m.group(1)) < 75:
        return "sm_75"
    return "sm_75"


def vtuple(v):
    a, b = v.split(".")
    return int(a), int(b)


# --------------------------------------------------------------------------
# Module template
# --------------------------------------------------------------------------

MAIN = ("8.3", "sm_90")

# Registers declared in every module (unless a group passes its own list).
BASE_DECLS = [
    ".reg .b16 %h<9>;",
    ".reg .b32 %r<9>;",
    ".reg .b64 %rd<9>;",
    ".reg .f32 %f<9>;",
    ".reg .pred %p<3>;",
]
# typed registers, for "wrong register type" cases
TYPED_DECLS = [
    ".reg .u32 %u<9>;",
    ".reg .s32 %s<9>;",
    ".reg .f64 %fd<9>;",
    ".reg .u16 %uh<9>;",
    ".reg .f16 %hf<9>;",
    ".reg .u64 %ud<9>;",
]


def module(body, vt=MAIN, pre="", decls=None):
    version, target = vt
    if isinstance(body, str):
        body = [body]
    out = ".version %s\n.target %s\n.address_size 64\n" % (version, target)
    if pre:
        out += pre.rstrip("\n") + "\n"
    out += "\n.visible .entry k(.param .u64 p)\n{\n"
    for d in (decls if decls is not None else BASE_DECLS + TYPED_DECLS):
        out += "\t" + d + "\n"
    out += "\tld.param.u64 %rd1, [p];\n"
    for line in body:
        out += "\t" + line + "\n"
    out += "\tret;\n}\n"
    return out


# --------------------------------------------------------------------------
# Case collection
# --------------------------------------------------------------------------

CASES = []
_seen_ids = set()
_seen_ptx = {}
_counters = collections.Counter()


def slug(s):
    s = re.sub(r"(?<![A-Za-z0-9])_(?![A-Za-z0-9])", "sink", s)
    s = s.replace("|", "-or-").replace("%", "").replace("@", "at-")
    s = re.sub(r"[^A-Za-z0-9.]+", "-", s).strip("-").replace(".", "_")
    return s or "x"


def add(group, name, ptx, vt):
    """Add a case; an exact duplicate module text (same arch) is silently skipped."""
    arch = arch_for(vt[1])
    key = (ptx, arch)
    if key in _seen_ptx:
        return
    _counters[group] += 1
    cid = "%s-%s-%04d" % (group, slug(name), _counters[group])
    assert cid not in _seen_ids, cid
    _seen_ids.add(cid)
    _seen_ptx[key] = cid
    CASES.append({"id": cid, "group": group, "ptx": ptx, "arch": arch})


def add_body(group, name, body, vt=MAIN, pre="", decls=None):
    add(group, name, module(body, vt, pre, decls), vt)


def vec(regs):
    return "{" + ",".join(regs) + "}"


def regs(prefix, start, n):
    return ["%s%d" % (prefix, start + i) for i in range(n)]


# ---------------------------------------------------------------- tex
# coordinate element count each geometry needs (array index first for a*)
GEOM_NEED = collections.OrderedDict([
    ("1d", 1), ("2d", 2), ("3d", 3), ("a1d", 2), ("a2d", 3), ("cube", 3), ("acube", 4),
    ("2dms", 3), ("a2dms", 4),
])
TEX_GEOMS = ["1d", "2d", "3d", "a1d", "a2d", "cube", "acube"]
DST4 = {"f32": "{%f1,%f2,%f3,%f4}", "s32": "{%r1,%r2,%r3,%r4}", "u32": "{%r1,%r2,%r3,%r4}",
        "f16": "{%h1,%h2,%h3,%h4}"}
TEXREF = ".global .texref t;"
SAMPREF = ".global .samplerref s;"
TI = ("8.3", "sm_90, texmode_independent")


def tex_coords(geom, n, ctype, idx="%r5"):
    """n coordinate elements for geom: array geometries get `idx` first; the rest are
    %f (ctype f32) or %r (ctype s32) registers."""
    cr = "%f" if ctype == "f32" else "%r"
    array = geom.startswith("a")
    out = []
    for i in range(n):
        if array and i == 0:
            out.append(idx)
        else:
            out.append("%s%d" % (cr, 5 + i if i < 4 else 1 + (i - 4)))
    return vec(out)


def good_count(geom):
    n = GEOM_NEED[geom]
    return 4 if n == 3 else n


def tex_insn(geom, dtype="f32", ctype="f32", dst=None, coords=None, op="tex", vsz="v4", handle="%rd1", extra=""):
    dst = dst if dst is not None else DST4.get(dtype, "{%r1,%r2,%r3,%r4}")
    coords = coords if coords is not None else tex_coords(geom, good_count(geom), ctype)
    mods = ".".join(x for x in [op, geom, vsz, dtype, ctype] if x)
    return "%s %s, [%s, %s]%s;" % (mods, dst, handle, coords, extra)


def gen_tex():
    g = "tex"
    # (1) geometry x coordinate-vector size with the geometry's natural ctype (f32, or s32 for
    # multisample); the other ctype with a right-sized vector only
    for geom in GEOM_NEED:
        nat = "s32" if geom.endswith("ms") else "f32"
        for ctype in ("f32", "s32"):
            for n in (((1, 2, 3, 4, 5) if geom in ("1d", "2d") else (1, 2, 3, 4)) if ctype == nat else (good_count(geom),)):
                if geom == "a2dms" and n == 1:
                    continue  # ptxas 13.5 crashes (SIGSEGV) on tex.a2dms with a 1-element vector
                add_body(g, "coords-%s-%s-n%d" % (geom, ctype, n),
                         [tex_insn(geom, ctype=ctype, coords=tex_coords(geom, n, ctype))])
            # scalar coordinate (no braces); ptxas 13.5 crashes on it for array/multisample geometries
            if ctype == nat and not geom.startswith("a") and not geom.endswith("ms"):
                add_body(g, "coords-%s-%s-scalar" % (geom, ctype),
                         [tex_insn(geom, ctype=ctype, coords="%f5" if ctype == "f32" else "%r5")])
    add_body(g, "coords-2d-s32-scalar", [tex_insn("2d", ctype="s32", coords="%r5")])
    add_body(g, "coords-cube-s32-scalar", [tex_insn("cube", ctype="s32", coords="%r5")])
    # (2) dtype x ctype x geometry with a right-sized coordinate vector
    for geom in TEX_GEOMS + ["2dms", "a2dms"]:
        full = geom in ("2d", "cube", "2dms")
        for dtype in ("f32", "s32", "u32"):
            for ctype in ("f32", "s32"):
                if full or (dtype, ctype) in (("s32", "s32"), ("u32", "f32")):
                    add_body(g, "types-%s-%s-%s" % (geom, dtype, ctype), [tex_insn(geom, dtype, ctype)])
        if not geom.endswith("ms"):
            add_body(g, "types-%s-f16-f32" % geom, [tex_insn(geom, "f16", "f32")])
            add_body(g, "types-%s-v2-f16x2-f32" % geom, [tex_insn(geom, "f16x2", "f32", dst="{%r1,%r2}", vsz="v2")])
    add_body(g, "types-2dms-f16-s32", [tex_insn("2dms", "f16", "s32")])
    add_body(g, "types-2dms-v2-f16x2-s32", [tex_insn("2dms", "f16x2", "s32", dst="{%r1,%r2}", vsz="v2")])
    # invalid dtype / ctype spellings
    for dtype, dst in [("u16", "{%h1,%h2,%h3,%h4}"), ("s16", "{%h1,%h2,%h3,%h4}"), ("b32", "{%r1,%r2,%r3,%r4}"),
                       ("f64", "{%fd1,%fd2,%fd3,%fd4}"), ("u64", "{%rd1,%rd2,%rd3,%rd4}"), ("b16", "{%h1,%h2,%h3,%h4}"),
                       ("bf16", "{%h1,%h2,%h3,%h4}"), ("u8", "{%r1,%r2,%r3,%r4}")]:
        add_body(g, "dtype-bad-%s" % dtype, [tex_insn("2d", dtype, "f32", dst=dst)])
    for ctype, c in [("u32", "{%r5,%r6}"), ("b32", "{%r5,%r6}"), ("f16", "{%h5,%h6}"), ("f64", "{%fd5,%fd6}"),
                     ("s64", "{%rd5,%rd6}"), ("u16", "{%h5,%h6}")]:
        add_body(g, "ctype-bad-%s" % ctype, [tex_insn("2d", "f32", ctype, coords=c)])
    add_body(g, "types-missing-ctype", ["tex.2d.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "types-three", ["tex.2d.v4.f32.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "types-none", ["tex.2d.v4 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    # (3) destination shape: vector size modifier and destination vector
    for dtype in ("f32", "s32", "u32", "f16", "f16x2"):
        r = {"f32": "%f", "s32": "%r", "u32": "%r", "f16": "%h", "f16x2": "%r"}[dtype]
        for vsz in ("v4", "v2", "", "v8"):
            for n in (0, 1, 2, 3, 4):
                dst = "%s1" % r if n == 0 else vec(regs(r, 1, n))
                if vsz == "v8" and n != 4:
                    continue
                if dtype == "f16x2" and (vsz, n) in (("", 1), ("", 3), ("v4", 1), ("v4", 3)):
                    continue
                if dtype in ("s32", "u32", "f16") and (vsz, n) not in (("v4", 0), ("v4", 2), ("v2", 2), ("", 4), ("v8", 4)):
                    continue
                add_body(g, "dst-%s-%s-%s" % (dtype, vsz or "novec", "scalar" if n == 0 else "n%d" % n),
                         [tex_insn("2d", dtype, "f32", dst=dst, vsz=vsz)])
    add_body(g, "dst-v4-f32-sink", [tex_insn("2d", dst="{%f1,%f2,%f3,_}")])
    add_body(g, "dst-v4-f32-sink-first", [tex_insn("2d", dst="{_,%f2,%f3,%f4}")])
    add_body(g, "dst-v4-f32-all-sink", [tex_insn("2d", dst="{_,_,_,_}")])
    add_body(g, "dst-v4-f32-scalar-sink", [tex_insn("2d", dst="_")])
    add_body(g, "dst-v4-f32-imm", [tex_insn("2d", dst="{%f1,%f2,%f3,1.0}")])
    add_body(g, "dst-v4-f32-repeat", [tex_insn("2d", dst="{%f1,%f1,%f1,%f1}")])
    # (4) register types of destination / coordinates / array index / handle
    REGS = [("b32", "%r"), ("u32", "%u"), ("s32", "%s"), ("f32", "%f"), ("f64", "%fd"), ("b64", "%rd"),
            ("u64", "%ud"), ("b16", "%h"), ("u16", "%uh"), ("f16", "%hf")]
    for dtype in ("f32", "s32", "u32", "f16"):
        for rn, rp in REGS:
            if dtype != "f32" and rn in ("u64", "f64", "f16" if dtype != "f16" else "b32", "u16" if dtype != "f16" else "s32"):
                continue
            add_body(g, "dstreg-%s-%s" % (dtype, rn), [tex_insn("2d", dtype, "f32", dst=vec(regs(rp, 1, 4)))])
    for ctype in ("f32", "s32"):
        for rn, rp in REGS:
            for geom in ("2d",):
                n = GEOM_NEED[geom]
                add_body(g, "coordreg-%s-%s-%s" % (geom, ctype, rn), [tex_insn(geom, "f32", ctype, coords=vec(regs(rp, 5, n)))])
    for ctype in ("f32", "s32"):
        for rn, rp in REGS:
            if rn in ("u64", "f16"):
                continue
            add_body(g, "arrayidx-a1d-%s-%s" % (ctype, rn), [tex_insn("a1d", "f32", ctype, coords=tex_coords("a1d", 2, ctype, idx=rp + "5"))])
    add_body(g, "arrayidx-a1d-imm", [tex_insn("a1d", coords="{0,%f6}")])
    add_body(g, "arrayidx-a1d-imm-s32", [tex_insn("a1d", ctype="s32", coords="{0,%r6}")])
    for rn, rp in REGS:
        add_body(g, "handle-%s" % rn, [tex_insn("2d", handle=rp + "1")])
    add_body(g, "handle-imm", [tex_insn("2d", handle="0")])
    add_body(g, "handle-offset", [tex_insn("2d", handle="%rd1+8")])
    add_body(g, "handle-missing", ["tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [{%f5,%f6}];"])
    add_body(g, "coords-missing", ["tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1];"])
    add_body(g, "no-brackets", ["tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, %rd1, {%f5,%f6};"])
    add_body(g, "operands-swapped", ["tex.2d.v4.f32.f32 [%rd1, {%f5,%f6}], {%f1,%f2,%f3,%f4};"])
    # mixed / immediate coordinate vectors
    for c in ["{1.0,%f6}", "{%f5,0f3F800000}", "{1,%f6}", "{%f5,%r6}", "{%r5,%f6}", "{%f5,%s6}", "{%f5,%fd6}", "{%f5,%h6}", "{0f3F800000,0f3F800000}", "{1,2}"]:
        add_body(g, "coords-mixed-f32-%s" % c, [tex_insn("2d", coords=c)])
    for c in ["{1,%r6}", "{%r5,%s6}", "{%r5,%f6}", "{1,2}", "{1.0,%r6}"]:
        add_body(g, "coords-mixed-s32-%s" % c, [tex_insn("2d", ctype="s32", coords=c)])
    # (5) modifiers
    for mod in ["level", "grad", "base", "ftz", "sat", "rn", "nc", "clamp", "trap", "lod", "bias", "b", "p"]:
        add_body(g, "modifier-%s-plain" % mod, ["tex.%s.2d.v4.f32.f32 {%%f1,%%f2,%%f3,%%f4}, [%%rd1, {%%f5,%%f6}];" % mod])
    add_body(g, "modifier-ftz-after-types", ["tex.2d.v4.f32.f32.ftz {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "modifier-no-geom", ["tex.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "modifier-two-geoms", ["tex.2d.3d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "modifier-geom-after-vec", ["tex.v4.2d.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "modifier-geom-after-types", ["tex.v4.f32.f32.2d {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "modifier-component", ["tex.r.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    for geom in ["4d", "1d_buffer", "buf", "2d_array", "cubearray", "a3d"]:
        add_body(g, "geom-bad-%s" % geom, ["tex.%s.v4.f32.f32 {%%f1,%%f2,%%f3,%%f4}, [%%rd1, {%%f5,%%f6}];" % geom])
    # (6) tex.level / tex.grad / tex.base, per geometry
    for geom in TEX_GEOMS + ["2dms", "a2dms"]:
        ctype = "s32" if geom.endswith("ms") else "f32"
        add_body(g, "level-%s" % geom, [tex_insn(geom, ctype=ctype, op="tex.level", extra=", %f7")])
        add_body(g, "base-%s" % geom, [tex_insn(geom, ctype=ctype, op="tex.base")])
        gn = {"1d": 1, "2d": 2, "3d": 4, "a1d": 1, "a2d": 2, "cube": 4, "acube": 4, "2dms": 2, "a2dms": 2}[geom]
        for n in sorted({1, 2, 4, gn}):
            add_body(g, "grad-%s-n%d" % (geom, n),
                     [tex_insn(geom, ctype=ctype, op="tex.grad", extra=", %s, %s" % (vec(regs("%f", 1, n)), vec(regs("%f", 5, n))))])
    for extra, nm in [("", "none"), (", %r7", "b32"), (", %s7", "s32"), (", %u7", "u32"), (", %fd7", "f64"), (", %h7", "b16"),
                      (", 0f00000000", "f32imm"), (", 0", "intimm"), (", {%f7}", "vec1"), (", %f7, %f8", "two-scalars"),
                      (", {%s1,%s2}, %f7", "offset-then-lod"), (", %f7, {%s1,%s2}", "lod-then-offset"),
                      (", {%f1,%f2}, %f7", "f32-offset-then-lod"), (", {%s1,%s2}, %f7, %f1", "offset-lod-extra"),
                      (", %s7, %f1", "s32-then-f32"), (", %f7, %p1", "pred")]:
        add_body(g, "level-2d-lod-%s" % nm, [tex_insn("2d", op="tex.level", extra=extra)])
    for extra, nm in [("", "none"), (", {%f7,%f8}", "one-vector"), (", %f7, %f8", "scalars"),
                      (", {%r7,%r8}, {%r1,%r2}", "b32-vectors"), (", {%s7,%s8}, {%s1,%s2}", "s32-vectors"),
                      (", {%fd7,%fd8}, {%fd1,%fd2}", "f64-vectors"), (", {%f7,%f8}, {%f1,%f2}, {%s1,%s2}", "grads-then-offset"),
                      (", {%s1,%s2}, {%f7,%f8}, {%f1,%f2}", "offset-then-grads"), (", {%f7,%f8}, {%f1,%f2}, {%f3,%f4}", "three-f32-vectors"),
                      (", {%f7,%f8}, {%f1,%f2}, {%s1,%s2}, %f3", "grads-offset-dc"), (", {%f7,%f8}, {%f1,%f2}, %f3", "grads-scalar")]:
        add_body(g, "grad-2d-ops-%s" % nm, [tex_insn("2d", op="tex.grad", extra=extra)])
    add_body(g, "grad-level", [tex_insn("2d", op="tex.grad.level", extra=", %f7")])
    add_body(g, "level-grad", [tex_insn("2d", op="tex.level.grad", extra=", %f7")])
    add_body(g, "base-lod-operand", [tex_insn("2d", op="tex.base", extra=", %f7")])
    for dtype in ("s32", "u32", "f16"):
        add_body(g, "level-2d-%s" % dtype, [tex_insn("2d", dtype, op="tex.level", extra=", %f7")])
        add_body(g, "grad-2d-%s" % dtype, [tex_insn("2d", dtype, op="tex.grad", extra=", {%f7,%f8}, {%f1,%f2}")])
    add_body(g, "level-2d-ctype-s32", [tex_insn("2d", ctype="s32", op="tex.level", extra=", %f7")])
    add_body(g, "grad-2d-ctype-s32", [tex_insn("2d", ctype="s32", op="tex.grad", extra=", {%f7,%f8}, {%f1,%f2}")])
    # (7) offset / depth-compare / predicate destination on plain tex
    for geom in TEX_GEOMS:
        on = {"1d": 1, "2d": 2, "3d": 4, "a1d": 1, "a2d": 2, "cube": 4, "acube": 4}[geom]
        for n in sorted({1, 2, 4, on}):
            add_body(g, "offset-%s-n%d" % (geom, n), [tex_insn(geom, extra=", %s" % vec(regs("%s", 1, n)))])
    for extra, nm in [(", {%f1,%f2}", "f32-vector"), (", {%r1,%r2}", "b32-vector"), (", %s1", "s32-scalar"), (", %f1", "f32-scalar"),
                      (", %r1", "b32-scalar"), (", %fd1", "f64-scalar"), (", {%s1,%s2}, %f7", "offset-dc-f32"),
                      (", {%r1,%r2}, %f7", "b32offset-dc-f32"), (", {%s1,%s2}, %s7", "offset-dc-s32"),
                      (", %f7, {%s1,%s2}", "dc-then-offset"), (", {%s1,%s2}, %f7, %f8", "offset-dc-extra"), (", 1", "int-imm"),
                      (", 0f3F800000", "f32-imm"), (", {1,1}", "imm-vector")]:
        add_body(g, "extra-2d-%s" % nm, [tex_insn("2d", extra=extra)])
    for dst, nm in [("{%f1,%f2,%f3,%f4}|%p1", "pred"), ("{%f1,%f2,%f3,%f4}|%r5", "b32"), ("{%f1,%f2,%f3,%f4}|_", "sink"),
                    ("{%f1,%f2,%f3,%f4}|%p1|%p2", "two-preds"), ("%f1|%p1", "scalar-dst")]:
        add_body(g, "pred-dst-%s" % nm, [tex_insn("2d", dst=dst)])
    add_body(g, "pred-dst-level", [tex_insn("2d", dst="{%f1,%f2,%f3,%f4}|%p1", op="tex.level", extra=", %f7")])
    add_body(g, "pred-dst-grad", [tex_insn("2d", dst="{%f1,%f2,%f3,%f4}|%p1", op="tex.grad", extra=", {%f7,%f8}, {%f1,%f2}")])
    add_body(g, "pred-dst-f16x2", [tex_insn("2d", "f16x2", dst="{%r1,%r2}|%p1", vsz="v2")])
    # (8) tld4
    for comp in ("r", "g", "b", "a"):
        for geom in (("2d", "a2d", "cube", "acube") if comp == "r" else ("2d",)):
            add_body(g, "tld4-%s-%s" % (comp, geom), [tex_insn(geom, op="tld4.%s" % comp)])
        for dtype in (("s32", "u32") if comp in ("r", "a") else ()):
            add_body(g, "tld4-%s-2d-%s" % (comp, dtype), [tex_insn("2d", dtype, op="tld4.%s" % comp)])
    for geom in ("1d", "3d", "a1d", "2dms", "a2dms"):
        ctype = "s32" if geom.endswith("ms") else "f32"
        add_body(g, "tld4-r-%s" % geom, [tex_insn(geom, ctype=ctype, op="tld4.r")])
    for dtype, ctype, dst, vsz in [("f32", "s32", None, "v4"), ("s32", "s32", None, "v4"), ("f16", "f32", None, "v4"),
                                   ("f16x2", "f32", "{%r1,%r2}", "v2"), ("f32", "f32", "{%f1,%f2}", "v2"),
                                   ("f32", "f32", "%f1", ""), ("f32", "f32", None, "")]:
        add_body(g, "tld4-r-2d-%s-%s-%s" % (vsz or "novec", dtype, ctype), [tex_insn("2d", dtype, ctype, dst=dst, vsz=vsz, op="tld4.r")])
    for n in (1, 2, 4):
        add_body(g, "tld4-r-2d-coords-n%d" % n, [tex_insn("2d", op="tld4.r", coords=vec(regs("%f", 5, n)))])
    for extra, nm in [(", {%s1,%s2}", "offset"), (", {%s1,%s2}, %f7", "offset-dc"), (", %f7", "scalar"),
                      (", {%s1}", "offset-n1"), (", {%s1,%s2,%s3,%s4}", "offset-n4"), (", {%f1,%f2}", "f32-offset")]:
        add_body(g, "tld4-r-2d-extra-%s" % nm, [tex_insn("2d", op="tld4.r", extra=extra)])
    for op, nm in [("tld4", "no-component"), ("tld4.x", "component-x"), ("tld4.r.g", "two-components"),
                   ("tld4.level.r", "level"), ("tld4.grad.r", "grad"), ("tld4.base.r", "base")]:
        add_body(g, "tld4-%s" % nm, [tex_insn("2d", op=op)])
    add_body(g, "tld4-geom-before-component", ["tld4.2d.r.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];"])
    add_body(g, "tld4-pred-dst", [tex_insn("2d", op="tld4.r", dst="{%f1,%f2,%f3,%f4}|%p1")])
    add_body(g, "tld4-r-2d-texref", [tex_insn("2d", op="tld4.r", handle="t")], pre=TEXREF)
    add_body(g, "tld4-r-2d-sampler-indep", [tex_insn("2d", op="tld4.r", handle="t, s")], vt=TI, pre=TEXREF + "\n" + SAMPREF)
    add_body(g, "tld4-r-2d-unified-two-regs", [tex_insn("2d", op="tld4.r", handle="%rd1, %rd2")])
    # (9) texref / samplerref / texmode
    EU = ("8.3", "sm_90, texmode_unified")
    for vt, mode in [(MAIN, "unified"), (EU, "explicit-unified"), (TI, "independent")]:
        for pre, handle, nm in [(TEXREF, "t", "texref"),
                                (TEXREF + "\n" + SAMPREF, "t, s", "texref-samplerref"),
                                (TEXREF, "t, t", "texref-texref"),
                                (SAMPREF, "s", "samplerref-only"),
                                (SAMPREF, "s, s", "samplerref-samplerref"),
                                (TEXREF + "\n" + SAMPREF, "s, t", "swapped"),
                                ("", "%rd1", "reg"),
                                ("", "%rd1, %rd2", "reg-reg"),
                                (TEXREF, "t, %rd2", "texref-reg"),
                                (SAMPREF, "%rd1, s", "reg-samplerref"),
                                ("", "%rd1, %r2", "reg-b32"),
                                ("", "%r1, %rd2", "b32-reg"),
                                ("", "%rd1, %rd1, %rd2", "three-regs"),
                                (".global .surfref u;", "u", "surfref"),
                                (".global .b64 t;", "t", "global-b64"),
                                ("", "t", "undeclared"),
                                (TEXREF, "t+8", "texref-offset")]:
            if vt == EU and nm not in ("texref", "texref-samplerref", "reg", "reg-reg", "texref-texref"):
                continue
            if vt == TI and nm in ("three-regs", "texref-offset", "global-b64", "b32-reg"):
                continue
            add_body(g, "ref-%s-%s" % (mode, nm), [tex_insn("2d", handle=handle)], vt=vt, pre=pre)
        add_body(g, "ref-%s-samplerref-decl-unused" % mode, ["mov.u32 %r1, 0;"], vt=vt, pre=SAMPREF)
        add_body(g, "ref-%s-texref-decl-unused" % mode, ["mov.u32 %r1, 0;"], vt=vt, pre=TEXREF)
        if vt != EU:
            add_body(g, "ref-%s-level-texref-samplerref" % mode, [tex_insn("2d", handle="t, s", op="tex.level", extra=", %f7")], vt=vt, pre=TEXREF + "\n" + SAMPREF)
            add_body(g, "ref-%s-level-texref" % mode, [tex_insn("2d", handle="t", op="tex.level", extra=", %f7")], vt=vt, pre=TEXREF)
    for pre, nm in [(".global .texref t = { filter_mode = nearest };", "texref-init"),
                    (".visible .global .texref t;", "visible-texref"),
                    (".global .texref t, t2;", "texref-list"),
                    (".texref t;", "texref-no-space"),
                    (".const .texref t;", "const-texref"),
                    (".global .texref t[2];", "texref-array"),
                    (".tex .u64 t;", "tex-u64-deprecated"),
                    (".global .texref t;\n.global .texref t;", "texref-dup")]:
        add_body(g, "ref-decl-%s" % nm, [tex_insn("2d", handle="t")], pre=pre)
    add_body(g, "ref-decl-samplerref-init-indep", [tex_insn("2d", handle="t, s")], vt=TI,
             pre=TEXREF + "\n.global .samplerref s = { filter_mode = linear, addr_mode_0 = clamp_to_edge };")
    add_body(g, "ref-mov-texref-to-reg", ["mov.u64 %rd2, t;", tex_insn("2d", handle="%rd2")], pre=TEXREF)
    add_body(g, "ref-mov-texref-to-b32", ["mov.u32 %r2, t;"], pre=TEXREF)
    # (10) version / target gates: each feature at pairs around its gate, plus newer targets
    R = "{%s1,%s2}"
    feats = collections.OrderedDict([
        ("texobj-2d", (lambda: [tex_insn("2d")], "", [("3.0", "sm_30"), ("3.1", "sm_20")])),
        ("texref-2d", (lambda: [tex_insn("2d", handle="t")], TEXREF, [("2.3", "sm_20")])),
        ("level", (lambda: [tex_insn("2d", handle="t", op="tex.level", extra=", %f7")], TEXREF, [("3.0", "sm_20"), ("3.1", "sm_20")])),
        ("grad", (lambda: [tex_insn("2d", handle="t", op="tex.grad", extra=", {%f7,%f8}, {%f1,%f2}")], TEXREF, [("3.0", "sm_20"), ("3.1", "sm_20")])),
        ("base", (lambda: [tex_insn("2d", handle="t", op="tex.base")], TEXREF, [("3.0", "sm_20"), ("3.1", "sm_20")])),
        ("cube", (lambda: [tex_insn("cube", handle="t")], TEXREF, [("2.3", "sm_20"), ("3.0", "sm_20")])),
        ("acube", (lambda: [tex_insn("acube", handle="t")], TEXREF, [("2.3", "sm_20"), ("3.0", "sm_20")])),
        ("a2d", (lambda: [tex_insn("a2d", handle="t")], TEXREF, [("2.3", "sm_20")])),
        ("2dms", (lambda: [tex_insn("2dms", ctype="s32", handle="t")], TEXREF, [("3.1", "sm_30"), ("3.2", "sm_30"), ("4.3", "sm_20")])),
        ("a2dms", (lambda: [tex_insn("a2dms", ctype="s32", handle="t")], TEXREF, [("3.1", "sm_30"), ("3.2", "sm_30"), ("4.3", "sm_20")])),
        ("f16", (lambda: [tex_insn("2d", "f16", handle="t")], TEXREF, [("4.2", "sm_52"), ("4.2", "sm_53"), ("6.0", "sm_50")])),
        ("f16x2", (lambda: [tex_insn("2d", "f16x2", dst="{%r1,%r2}", vsz="v2", handle="t")], TEXREF, [("4.2", "sm_52"), ("4.2", "sm_53")])),
        ("offset", (lambda: [tex_insn("2d", handle="t", extra=", " + R)], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("depth-compare", (lambda: [tex_insn("2d", handle="t", extra=", %s, %%f7" % R)], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("pred-dst", (lambda: [tex_insn("2d", handle="t", dst="{%f1,%f2,%f3,%f4}|%p1")], TEXREF, [("7.0", "sm_70"), ("7.1", "sm_53"), ("7.1", "sm_60")])),
        ("tld4-2d", (lambda: [tex_insn("2d", handle="t", op="tld4.r")], TEXREF, [("2.3", "sm_20")])),
        ("tld4-a2d", (lambda: [tex_insn("a2d", handle="t", op="tld4.r")], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("tld4-cube", (lambda: [tex_insn("cube", handle="t", op="tld4.r")], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("tld4-acube", (lambda: [tex_insn("acube", handle="t", op="tld4.r")], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("tld4-offset", (lambda: [tex_insn("2d", handle="t", op="tld4.r", extra=", " + R)], TEXREF, [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("tld4-pred-dst", (lambda: [tex_insn("2d", handle="t", op="tld4.r", dst="{%f1,%f2,%f3,%f4}|%p1")], TEXREF, [("7.0", "sm_70"), ("7.1", "sm_53"), ("7.1", "sm_60")])),
    ])
    common = [("9.0", "sm_120")]
    for name, (body, pre, vts) in feats.items():
        for vt in vts + (common if name in ("texobj-2d", "level", "grad", "cube", "2dms", "f16", "offset", "pred-dst", "tld4-cube") else []):
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], name), body(), vt=vt, pre=pre)
    for vt in [("2.3", "sm_20"), ("4.2", "sm_53"), ("4.3", "sm_30"), ("9.0", "sm_120")]:
        add_body(g, "vt-%s-%s-indep" % vt, [tex_insn("2d", handle="t, s")], vt=(vt[0], vt[1] + ", texmode_independent"),
                 pre=TEXREF + "\n" + SAMPREF)
        add_body(g, "vt-%s-%s-indep-regs" % vt, [tex_insn("2d", handle="%rd1, %rd2")], vt=(vt[0], vt[1] + ", texmode_independent"))


# ---------------------------------------------------------------- surf
SURF_NEED = collections.OrderedDict([("1d", 1), ("2d", 2), ("3d", 3), ("a1d", 2), ("a2d", 3)])
SURFREF = ".global .surfref u;"
# destination/source register per data type and vector size
SU_REG = {"b8": "%r", "b16": "%h", "b32": "%r", "b64": "%rd"}


def su_coords(geom, n=None):
    n = n if n is not None else (4 if SURF_NEED[geom] == 3 else SURF_NEED[geom])
    return vec(regs("%r", 5, n)) if n <= 4 else vec(regs("%r", 5, 4) + regs("%r", 1, n - 4))


def su_data(dtype, vsz, start=1):
    r = SU_REG[dtype]
    n = {"": 1, "v2": 2, "v4": 4}[vsz]
    return "%s%d" % (r, start) if n == 1 else vec(regs(r, start, n))


def suld(geom="2d", dtype="b32", vsz="", clamp="trap", dst=None, coords=None, handle="%rd1", kind="b", extra=""):
    mods = ".".join(x for x in ["suld", kind, geom, vsz, dtype, clamp] if x) + extra
    dst = dst if dst is not None else su_data(dtype, vsz)
    coords = coords if coords is not None else su_coords(geom)
    return "%s %s, [%s, %s];" % (mods, dst, handle, coords)


def sust(geom="2d", dtype="b32", vsz="", clamp="trap", src=None, coords=None, handle="%rd1", kind="b", extra=""):
    mods = ".".join(x for x in ["sust", kind, geom, vsz, dtype, clamp] if x) + extra
    src = src if src is not None else su_data(dtype, vsz)
    coords = coords if coords is not None else su_coords(geom)
    return "%s [%s, %s], %s;" % (mods, handle, coords, src)


def sured(op="add", geom="2d", dtype="u32", clamp="trap", src=None, coords=None, handle="%rd1", kind="b"):
    mods = ".".join(x for x in ["sured", kind, op, geom, dtype, clamp] if x)
    src = src if src is not None else ("%rd2" if dtype.endswith("64") else "%r1")
    coords = coords if coords is not None else su_coords(geom)
    return "%s [%s, %s], %s;" % (mods, handle, coords, src)


TXQ_Q = ["width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords", "array_size",
         "num_mipmap_levels", "num_samples", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
         "force_unnormalized_coords", "memory_layout"]
SUQ_Q = ["width", "height", "depth", "channel_data_type", "channel_order", "array_size", "memory_layout",
         "normalized_coords", "num_mipmap_levels", "num_samples", "filter_mode"]


def gen_surf():
    g = "surf"
    # (1) suld / sust: geometry x coordinate-vector size
    for geom in SURF_NEED:
        for n in (1, 2, 3, 4, 5):
            add_body(g, "suld-coords-%s-n%d" % (geom, n), [suld(geom, coords=su_coords(geom, n))])
        add_body(g, "suld-coords-%s-scalar" % geom, [suld(geom, coords="%r5")])
        for n in (1, 2, 4):
            add_body(g, "sust-coords-%s-n%d" % (geom, n), [sust(geom, coords=su_coords(geom, n))])
    for geom in ("cube", "acube", "2dms", "a2dms", "3d_buffer", "buf"):
        add_body(g, "suld-geom-%s" % geom, [suld(geom, coords="{%r5,%r6,%r7,%r8}")])
    add_body(g, "suld-geom-missing", ["suld.b.b32.trap %r1, [%rd1, {%r5,%r6}];"])
    add_body(g, "suld-geom-two", ["suld.b.2d.3d.b32.trap %r1, [%rd1, {%r5,%r6,%r7,%r8}];"])
    add_body(g, "sust-geom-cube", [sust("cube", coords="{%r5,%r6,%r7,%r8}")])
    add_body(g, "sust-geom-missing", ["sust.b.b32.trap [%rd1, {%r5,%r6}], %r1;"])
    # (2) data type x vector x clamp mode
    for op in ("suld", "sust"):
        fn = suld if op == "suld" else sust
        for dtype in ("b8", "b16", "b32", "b64"):
            for vsz in ("", "v2", "v4"):
                for clamp in ("trap", "clamp", "zero", ""):
                    if clamp == "" and vsz != "":
                        continue
                    if clamp in ("clamp", "zero") and (dtype, vsz) not in (("b32", ""), ("b64", "v2"), ("b16", "v4"), ("b8", "")):
                        continue
                    add_body(g, "%s-%s-%s-%s" % (op, dtype, vsz or "scalar", clamp or "noclamp"), [fn("2d", dtype, vsz, clamp)])
        for geom in ("1d", "3d", "a1d", "a2d"):
            add_body(g, "%s-%s-v4-b32" % (op, geom), [fn(geom, "b32", "v4")])
            add_body(g, "%s-%s-v2-b64" % (op, geom), [fn(geom, "b64", "v2")])
        for dtype in ("u32", "s32", "f32", "u8", "f16", "b128", "f64", "u64", "b1"):
            reg = {"u32": "%r1", "s32": "%r1", "f32": "%f1", "u8": "%r1", "f16": "%h1", "b128": "%rd1",
                   "f64": "%fd1", "u64": "%rd2", "b1": "%p1"}[dtype]
            if op == "suld":
                add_body(g, "suld-type-%s" % dtype, [suld(dtype=dtype, dst=reg)])
            else:
                add_body(g, "sust-type-%s" % dtype, [sust(dtype=dtype, src=reg)])
        for clamp in ("wrap", "mirror", "clamp_to_edge", "trap.clamp", "clamp.zero"):
            add_body(g, "%s-clamp-%s" % (op, clamp), [fn(clamp=clamp)])
        for vsz, data in [("v3", "{%r1,%r2,%r3}"), ("v8", "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}")]:
            add_body(g, "%s-vec-%s" % (op, vsz), [fn(vsz=vsz, **({"dst": data} if op == "suld" else {"src": data}))])
        # vector size vs data vector
        for vsz, data, nm in [("v2", "%r1", "v2-scalar"), ("v2", "{%r1}", "v2-n1"), ("v2", "{%r1,%r2,%r3,%r4}", "v2-n4"),
                              ("v4", "{%r1,%r2}", "v4-n2"), ("", "{%r1,%r2}", "scalar-n2"), ("", "{%r1}", "scalar-n1"),
                              ("v2", "{%r1,_}", "v2-sink"), ("v4", "{%r1,_,_,%r4}", "v4-sinks")]:
            if op == "sust" and vsz == "v2" and data == "%r1":
                continue  # ptxas 13.5 crashes (SIGSEGV) on sust.b.*.v2 with a scalar source
            add_body(g, "%s-data-%s" % (op, nm), [fn(vsz=vsz, **({"dst": data} if op == "suld" else {"src": data}))])
    # (3) data register types per data type
    REGS = [("b16", "%h"), ("u16", "%uh"), ("b32", "%r"), ("u32", "%u"), ("s32", "%s"), ("f32", "%f"),
            ("b64", "%rd"), ("u64", "%ud"), ("f64", "%fd")]
    for op in ("suld", "sust"):
        fn = suld if op == "suld" else sust
        for dtype in ("b8", "b16", "b32", "b64"):
            for rn, rp in REGS:
                if dtype != "b32" and rn in ("u16", "u32", "s32", "u64"):
                    continue
                add_body(g, "%s-reg-%s-%s" % (op, dtype, rn), [fn(dtype=dtype, **({"dst": rp + "2"} if op == "suld" else {"src": rp + "2"}))])
        add_body(g, "%s-reg-v2-b32-f32" % op, [fn(vsz="v2", **({"dst": "{%f1,%f2}"} if op == "suld" else {"src": "{%f1,%f2}"}))])
        add_body(g, "%s-reg-v2-b32-b64" % op, [fn(vsz="v2", **({"dst": "{%rd1,%rd2}"} if op == "suld" else {"src": "{%rd1,%rd2}"}))])
        add_body(g, "%s-reg-v2-b32-mixed" % op, [fn(vsz="v2", **({"dst": "{%r1,%f2}"} if op == "suld" else {"src": "{%r1,%f2}"}))])
    add_body(g, "sust-src-imm", [sust(src="7")])
    add_body(g, "sust-src-imm-vector", [sust(vsz="v2", src="{1,2}")])
    add_body(g, "sust-src-f32-imm", [sust(src="0f3F800000")])
    add_body(g, "suld-dst-imm", [suld(dst="7")])
    add_body(g, "suld-dst-sink", [suld(dst="_")])
    # (4) coordinate / handle operand types
    for rn, rp in [("b32", "%r"), ("u32", "%u"), ("s32", "%s"), ("f32", "%f"), ("b64", "%rd"), ("b16", "%h"), ("f64", "%fd")]:
        add_body(g, "suld-coordreg-%s" % rn, [suld(coords=vec(regs(rp, 5, 2)))])
        add_body(g, "sust-coordreg-%s" % rn, [sust(coords=vec(regs(rp, 5, 2)))])
        add_body(g, "sured-coordreg-%s" % rn, [sured(coords=vec(regs(rp, 5, 2)))])
    add_body(g, "suld-coords-imm", [suld(coords="{1,2}")])
    add_body(g, "suld-coords-mixed-imm", [suld(coords="{%r5,0}")])
    for rn, rp in [("b32", "%r1"), ("u64", "%ud1"), ("f64", "%fd1"), ("imm", "0"), ("offset", "%rd1+8")]:
        add_body(g, "suld-handle-%s" % rn, [suld(handle=rp)])
        add_body(g, "sust-handle-%s" % rn, [sust(handle=rp)])
    add_body(g, "suld-surfref", [suld(handle="u")], pre=SURFREF)
    add_body(g, "sust-surfref", [sust(handle="u")], pre=SURFREF)
    add_body(g, "sured-surfref", [sured(handle="u")], pre=SURFREF)
    add_body(g, "suld-texref", [suld(handle="t")], pre=TEXREF)
    add_body(g, "sust-texref", [sust(handle="t")], pre=TEXREF)
    add_body(g, "suld-samplerref-indep", [suld(handle="s")], vt=TI, pre=SAMPREF)
    add_body(g, "suld-surfref-indep", [suld(handle="u")], vt=TI, pre=SURFREF)
    add_body(g, "suld-undeclared", [suld(handle="u")])
    add_body(g, "suld-global-b64", [suld(handle="u")], pre=".global .b64 u;")
    add_body(g, "suld-surfref-sampler", [suld(handle="u, %rd2")], pre=SURFREF)
    add_body(g, "suld-no-brackets", ["suld.b.2d.b32.trap %r1, %rd1, {%r5,%r6};"])
    add_body(g, "sust-operands-swapped", ["sust.b.2d.b32.trap %r1, [%rd1, {%r5,%r6}];"])
    add_body(g, "suld-operands-swapped", ["suld.b.2d.b32.trap [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "suld-coords-missing", ["suld.b.2d.b32.trap %r1, [%rd1];"])
    add_body(g, "sust-extra-operand", ["sust.b.2d.b32.trap [%rd1, {%r5,%r6}], %r1, %r2;"])
    # (5) kind (.b / .p), modifier order, cache operators
    add_body(g, "suld-kind-missing", [suld(kind="")])
    add_body(g, "suld-kind-p", [suld(kind="p")])
    add_body(g, "suld-kind-p-v4", [suld(kind="p", vsz="v4")])
    add_body(g, "sust-kind-missing", [sust(kind="")])
    for dtype, vsz in [("b32", ""), ("b32", "v2"), ("b32", "v4"), ("b8", ""), ("b16", ""), ("b64", ""), ("b16", "v4")]:
        for clamp in ("trap", "clamp", "zero"):
            if clamp != "trap" and (dtype, vsz) not in (("b32", ""), ("b32", "v4")):
                continue
            add_body(g, "sust-p-%s-%s-%s" % (dtype, vsz or "scalar", clamp), [sust(dtype=dtype, vsz=vsz, clamp=clamp, kind="p")])
    for dtype, reg in [("f32", "%f1"), ("u32", "%r1"), ("s32", "%r1")]:
        add_body(g, "sust-p-type-%s" % dtype, [sust(dtype=dtype, src=reg, kind="p")])
        add_body(g, "sust-p-type-%s-v4" % dtype, [sust(dtype=dtype, vsz="v4", src=vec(regs(reg[:-1], 1, 4)), kind="p")])
    for geom in ("1d", "3d", "a1d", "a2d"):
        add_body(g, "sust-p-%s" % geom, [sust(geom, kind="p")])
    add_body(g, "sust-p-noclamp", [sust(clamp="", kind="p")])
    for cop in ("ca", "cg", "cs", "cv", "lu", "wb", "wt", "nc", "volatile"):
        add_body(g, "suld-cop-%s" % cop, [suld(extra="." + cop)])
        add_body(g, "sust-cop-%s" % cop, [sust(extra="." + cop)])
    add_body(g, "suld-order-cop-before-type", ["suld.b.2d.ca.b32.trap %r1, [%rd1, {%r5,%r6}];"])
    add_body(g, "suld-order-clamp-before-type", ["suld.b.2d.trap.b32 %r1, [%rd1, {%r5,%r6}];"])
    add_body(g, "suld-order-geom-first", ["suld.2d.b.b32.trap %r1, [%rd1, {%r5,%r6}];"])
    add_body(g, "suld-order-vec-after-type", ["suld.b.2d.b32.v2.trap {%r1,%r2}, [%rd1, {%r5,%r6}];"])
    add_body(g, "sust-order-clamp-first", ["sust.b.trap.2d.b32 [%rd1, {%r5,%r6}], %r1;"])
    # (6) sured
    for op in ("add", "min", "max", "and", "or", "cas"):
        for dtype in (("u32", "b32") if op == "cas" else ("u32", "s32", "b32", "u64", "s64", "b64", "f32")):
            src = {"f32": "%f1", "f16": "%h1"}.get(dtype)
            add_body(g, "sured-b-%s-%s" % (op, dtype), [sured(op, dtype=dtype, src=src)])
    for op, dtype in [("add", "u64"), ("min", "s32"), ("and", "b32")]:
        src = "%r1" if dtype.endswith("64") else "%rd2"
        add_body(g, "sured-b-%s-%s-srcwidth" % (op, dtype), [sured(op, dtype=dtype, src=src)])
    for rn, rp in [("u32", "%u1"), ("s32", "%s1"), ("f32", "%f1"), ("b16", "%h1"), ("imm", "1"), ("vec", "{%r1,%r2}")]:
        add_body(g, "sured-b-add-u32-src-%s" % rn, [sured(src=rp)])
    for geom in SURF_NEED:
        for n in (1, 2, 4):
            add_body(g, "sured-coords-%s-n%d" % (geom, n), [sured(geom=geom, coords=su_coords(geom, n))])
    for clamp in ("clamp", "zero", ""):
        add_body(g, "sured-clamp-%s" % (clamp or "none"), [sured(clamp=clamp)])
    for op in ("add", "min", "max", "and", "or"):
        for dtype in ("b32", "u32", "b64"):
            add_body(g, "sured-p-%s-%s" % (op, dtype), [sured(op, dtype=dtype, kind="p")])
    add_body(g, "sured-missing-op", ["sured.b.2d.u32.trap [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "sured-missing-geom", ["sured.b.add.u32.trap [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "sured-missing-kind", ["sured.add.2d.u32.trap [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "sured-vector", ["sured.b.add.2d.v2.u32.trap [%rd1, {%r5,%r6}], {%r1,%r2};"])
    add_body(g, "sured-with-dst", ["sured.b.add.2d.u32.trap %r3, [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "sured-two-ops", ["sured.b.add.min.2d.u32.trap [%rd1, {%r5,%r6}], %r1;"])
    add_body(g, "sured-op-after-geom", ["sured.b.2d.add.u32.trap [%rd1, {%r5,%r6}], %r1;"])
    # (7) txq
    for q in TXQ_Q:
        add_body(g, "txq-%s" % q, ["txq.%s.b32 %%r1, [%%rd1];" % q])
    for q in ("width", "height", "depth", "num_mipmap_levels", "array_size", "num_samples", "channel_order"):
        add_body(g, "txq-level-%s" % q, ["txq.level.%s.b32 %%r1, [%%rd1], %%r2;" % q])
    for lod, nm in [("%r2", "b32"), ("%s2", "s32"), ("%u2", "u32"), ("%f2", "f32"), ("%rd2", "b64"), ("%h2", "b16"), ("0", "imm")]:
        add_body(g, "txq-level-width-lod-%s" % nm, ["txq.level.width.b32 %%r1, [%%rd1], %s;" % lod])
    add_body(g, "txq-level-no-lod", ["txq.level.width.b32 %r1, [%rd1];"])
    add_body(g, "txq-width-with-lod", ["txq.width.b32 %r1, [%rd1], %r2;"])
    add_body(g, "txq-level-texref", ["txq.level.width.b32 %r1, [t], %r2;"], pre=TEXREF)
    for ty, reg in [("u32", "%r1"), ("s32", "%r1"), ("b64", "%rd2"), ("u64", "%rd2"), ("f32", "%f1"), ("b16", "%h1")]:
        add_body(g, "txq-type-%s" % ty, ["txq.width.%s %s, [%%rd1];" % (ty, reg)])
    add_body(g, "txq-type-missing", ["txq.width %r1, [%rd1];"])
    for rn, rp in [("u32", "%u1"), ("s32", "%s1"), ("f32", "%f1"), ("b64", "%rd2"), ("u64", "%ud1"), ("b16", "%h1"), ("f64", "%fd1")]:
        add_body(g, "txq-dstreg-%s" % rn, ["txq.width.b32 %s, [%%rd1];" % rp])
    add_body(g, "txq-dst-imm", ["txq.width.b32 1, [%rd1];"])
    add_body(g, "txq-dst-vector", ["txq.width.b32 {%r1,%r2}, [%rd1];"])
    add_body(g, "txq-vector-modifier", ["txq.width.v2.b32 {%r1,%r2}, [%rd1];"])
    add_body(g, "txq-query-missing", ["txq.b32 %r1, [%rd1];"])
    add_body(g, "txq-two-queries", ["txq.width.height.b32 %r1, [%rd1];"])
    add_body(g, "txq-query-unknown", ["txq.size.b32 %r1, [%rd1];"])
    add_body(g, "txq-query-after-type", ["txq.b32.width %r1, [%rd1];"])
    for rn, rp in [("b32", "%r2"), ("f64", "%fd1"), ("u64", "%ud1"), ("offset", "%rd1+4")]:
        add_body(g, "txq-handle-%s" % rn, ["txq.width.b32 %%r1, [%s];" % rp])
    add_body(g, "txq-no-brackets", ["txq.width.b32 %r1, %rd1;"])
    add_body(g, "txq-with-coords", ["txq.width.b32 %r1, [%rd1, {%r5,%r6}];"])
    for vt, mode in [(MAIN, "unified"), (TI, "independent")]:
        for q, h, pre, nm in [("width", "t", TEXREF, "texref"), ("width", "s", SAMPREF, "samplerref"),
                              ("filter_mode", "t", TEXREF, "filter-texref"), ("filter_mode", "s", SAMPREF, "filter-samplerref"),
                              ("addr_mode_0", "s", SAMPREF, "addr-mode-samplerref"), ("normalized_coords", "t", TEXREF, "normcoords-texref"),
                              ("normalized_coords", "s", SAMPREF, "normcoords-samplerref"),
                              ("force_unnormalized_coords", "s", SAMPREF, "force-unnorm-samplerref"),
                              ("width", "u", SURFREF, "surfref"), ("filter_mode", "%rd1", "", "filter-reg")]:
            add_body(g, "txq-%s-%s" % (mode, nm), ["txq.%s.b32 %%r1, [%s];" % (q, h)], vt=vt, pre=pre)
    # (8) suq
    for q in SUQ_Q:
        add_body(g, "suq-%s" % q, ["suq.%s.b32 %%r1, [%%rd1];" % q])
    for ty, reg in [("u32", "%r1"), ("b64", "%rd2"), ("f32", "%f1")]:
        add_body(g, "suq-type-%s" % ty, ["suq.width.%s %s, [%%rd1];" % (ty, reg)])
    add_body(g, "suq-type-missing", ["suq.width %r1, [%rd1];"])
    for rn, rp in [("u32", "%u1"), ("s32", "%s1"), ("f32", "%f1"), ("b64", "%rd2"), ("b16", "%h1")]:
        add_body(g, "suq-dstreg-%s" % rn, ["suq.width.b32 %s, [%%rd1];" % rp])
    add_body(g, "suq-query-missing", ["suq.b32 %r1, [%rd1];"])
    add_body(g, "suq-two-queries", ["suq.width.height.b32 %r1, [%rd1];"])
    add_body(g, "suq-level", ["suq.level.width.b32 %r1, [%rd1], %r2;"])
    add_body(g, "suq-extra-operand", ["suq.width.b32 %r1, [%rd1], %r2;"])
    add_body(g, "suq-handle-b32", ["suq.width.b32 %r1, [%r2];"])
    add_body(g, "suq-surfref", ["suq.width.b32 %r1, [u];"], pre=SURFREF)
    add_body(g, "suq-texref", ["suq.width.b32 %r1, [t];"], pre=TEXREF)
    add_body(g, "suq-surfref-indep", ["suq.width.b32 %r1, [u];"], vt=TI, pre=SURFREF)
    # (9) version / target gates
    feats = collections.OrderedDict([
        ("suld-surfref", ([suld(handle="u")], SURFREF, [("2.3", "sm_20")])),
        ("suld-obj", ([suld()], "", [("3.0", "sm_30"), ("3.1", "sm_20")])),
        ("suld-a2d", ([suld("a2d", handle="u")], SURFREF, [("2.3", "sm_20"), ("3.0", "sm_20")])),
        ("suld-a1d", ([suld("a1d", handle="u")], SURFREF, [("2.3", "sm_20"), ("3.0", "sm_20")])),
        ("suld-b64-v2", ([suld(dtype="b64", vsz="v2", handle="u")], SURFREF, [("2.3", "sm_20")])),
        ("sust-obj", ([sust()], "", [("3.0", "sm_30"), ("3.1", "sm_20")])),
        ("sust-p", ([sust(kind="p", handle="u")], SURFREF, [("2.3", "sm_20"), ("7.0", "sm_70")])),
        ("sured-add-u64", ([sured(dtype="u64", handle="u")], SURFREF, [("2.3", "sm_20")])),
        ("sured-min-s64", ([sured("min", dtype="s64")], "", [("8.0", "sm_80"), ("8.1", "sm_80"), ("8.1", "sm_50")])),
        ("sured-max-u64", ([sured("max", dtype="u64")], "", [("8.0", "sm_80"), ("8.1", "sm_80")])),
        ("txq-obj", (["txq.width.b32 %r1, [%rd1];"], "", [("3.0", "sm_30"), ("3.1", "sm_20")])),
        ("txq-level", (["txq.level.width.b32 %r1, [%rd1], %r2;"], "", [("4.2", "sm_53"), ("4.3", "sm_20"), ("4.3", "sm_30")])),
        ("txq-num-samples", (["txq.num_samples.b32 %r1, [%rd1];"], "", [("4.0", "sm_30"), ("4.1", "sm_20"), ("4.1", "sm_30")])),
        ("txq-num-mipmap-levels", (["txq.num_mipmap_levels.b32 %r1, [%rd1];"], "", [("4.0", "sm_30"), ("4.1", "sm_20")])),
        ("txq-array-size", (["txq.array_size.b32 %r1, [%rd1];"], "", [("4.0", "sm_30"), ("4.1", "sm_20")])),
        ("txq-memory-layout", (["txq.memory_layout.b32 %r1, [%rd1];"], "", [("4.1", "sm_30"), ("4.2", "sm_20")])),
        ("suq-obj", (["suq.width.b32 %r1, [%rd1];"], "", [("3.0", "sm_30"), ("3.1", "sm_20")])),
        ("suq-array-size", (["suq.array_size.b32 %r1, [%rd1];"], "", [("4.0", "sm_30"), ("4.1", "sm_20")])),
        ("suq-memory-layout", (["suq.memory_layout.b32 %r1, [%rd1];"], "", [("4.1", "sm_30"), ("4.2", "sm_20")])),
    ])
    for name, (body, pre, vts) in feats.items():
        for vt in vts + ([("9.0", "sm_120")] if name in ("suld-obj", "suld-a2d", "sust-p", "sured-min-s64", "txq-level", "txq-num-samples", "suq-memory-layout") else []):
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], name), body, vt=vt, pre=pre)


# ---------------------------------------------------------------- vecmov
VM_DECLS = BASE_DECLS + TYPED_DECLS + [
    ".reg .s16 %sh<9>;",
    ".reg .b8 %b<9>;",
    ".reg .u8 %ub<9>;",
    ".reg .s8 %sb<9>;",
    ".reg .s64 %sd<9>;",
]
Q_DECL = ".reg .b128 %q<3>;"
# register prefix per mov type
VM_REG = collections.OrderedDict([
    ("b8", "%b"), ("u8", "%ub"), ("s8", "%sb"),
    ("b16", "%h"), ("u16", "%uh"), ("s16", "%sh"), ("f16", "%hf"),
    ("b32", "%r"), ("u32", "%u"), ("s32", "%s"), ("f32", "%f"),
    ("b64", "%rd"), ("u64", "%ud"), ("s64", "%sd"), ("f64", "%fd"),
    ("pred", "%p"),
])
VM_VTS = [("6.0", "sm_50"), ("7.0", "sm_70"), ("8.3", "sm_90")]


def has_b128(vt):
    return vtuple(vt[0]) >= (8, 3) and int(re.match(r"sm_(\d+)", vt[1]).group(1)) >= 70


def vm(g, name, body, vt=MAIN, b128=False):
    decls = VM_DECLS + ([Q_DECL] if b128 else [])
    add_body(g, name, body if isinstance(body, list) else [body], vt=vt, decls=decls)


def gen_vecmov():
    g = "vecmov"
    # (1) vector <- vector for every type, .v2 / .v4 (and .v8 / .v3), at the main pair
    for ty, rp in VM_REG.items():
        for vsz, n in (("v2", 2), ("v4", 4)):
            if ty == "pred" and n == 4:
                continue  # only %p1, %p2 declared
            a = vec(regs(rp, 1, n))
            b = vec(regs(rp, 5, n)) if ty != "pred" else "{%p2,%p1}"
            vm(g, "vv-%s-%s" % (vsz, ty), "mov.%s.%s %s, %s;" % (vsz, ty, a, b))
    for ty in ("b16", "b32", "f32"):
        rp = VM_REG[ty]
        vm(g, "vv-v8-%s" % ty, "mov.v8.%s %s, %s;" % (ty, vec(regs(rp, 1, 8)), vec(regs(rp, 1, 8))))
        vm(g, "vv-v3-%s" % ty, "mov.v3.%s %s, %s;" % (ty, vec(regs(rp, 1, 3)), vec(regs(rp, 5, 3))))
    for ty, a, b in [("f16x2", "{%r1,%r2}", "{%r3,%r4}"), ("bf16", "{%h1,%h2}", "{%h3,%h4}"), ("bf16x2", "{%r1,%r2}", "{%r3,%r4}"),
                     ("b128", "{%q1,%q2}", "{%q1,%q2}")]:
        vm(g, "vv-v2-%s" % ty, "mov.v2.%s %s, %s;" % (ty, a, b), b128=(ty == "b128"))
    # the same at older versions / targets for the common types
    for vt in VM_VTS[:2]:
        for ty in ("u16", "b32", "u32", "f32", "b64", "u64", "f64"):
            rp = VM_REG[ty]
            for vsz, n in (("v2", 2), ("v4", 4)):
                vm(g, "vt-%s-%s-vv-%s-%s" % (vt[0], vt[1], vsz, ty), "mov.%s.%s %s, %s;" % (vsz, ty, vec(regs(rp, 1, n)), vec(regs(rp, 5, n))), vt=vt)
    # (2) vector mov shapes
    for ty in ("u16", "u32", "f32", "u64"):
        rp = VM_REG[ty]
        V2, V4 = vec(regs(rp, 1, 2)), vec(regs(rp, 1, 4))
        S2, S4 = vec(regs(rp, 5, 2)), vec(regs(rp, 5, 4))
        imm = {"u16": "1", "u32": "1", "f32": "0f3F800000", "u64": "1"}[ty]
        cases = [
            ("v2-src-n4", "v2", V2, S4), ("v2-src-n1", "v2", V2, "{%s5}" % rp), ("v2-dst-n1", "v2", "{%s1}" % rp, S2),
            ("v4-src-n2", "v4", V4, S2), ("v2-dst-n3", "v2", vec(regs(rp, 1, 3)), S2),
            ("v2-src-scalar", "v2", V2, rp + "5"), ("v4-src-scalar", "v4", V4, rp + "5"),
            ("v2-dst-scalar", "v2", rp + "1", S2), ("v2-both-scalar", "v2", rp + "1", rp + "5"),
            ("v2-src-imm", "v2", V2, imm), ("v2-src-imm-vector", "v2", V2, "{%s,%s}" % (imm, imm)),
            ("v2-src-imm-mixed", "v2", V2, "{%s5,%s}" % (rp, imm)),
            ("v2-dst-sink", "v2", "{%s1,_}" % rp, S2), ("v2-dst-sink-first", "v2", "{_,%s2}" % rp, S2),
            ("v2-dst-all-sink", "v2", "{_,_}", S2), ("v2-src-sink", "v2", V2, "{%s5,_}" % rp),
            ("v4-dst-sinks", "v4", "{%s1,_,%s3,_}" % (rp, rp), S4),
            ("v2-same-regs", "v2", V2, V2), ("v2-swap", "v2", V2, vec([rp + "2", rp + "1"])),
            ("novec-vector", "", V2, S2), ("novec-vector-n4", "", V4, S4),
        ]
        for nm, vsz, d, s_ in cases:
            mods = "mov." + (vsz + "." if vsz else "") + ty
            vm(g, "shape-%s-%s" % (ty, nm), "%s %s, %s;" % (mods, d, s_))
    # (3) vector mov register types (element register of another type / width)
    for ty in ("u16", "b32", "u32", "s32", "f32", "b64", "u64", "f64"):
        for rn, rp in VM_REG.items():
            if rn in ("pred", "s8", "u8", "s16", "s64"):
                continue
            if ty not in ("b32", "u32", "f32") and rn in ("b8", "f16", "u16", "b16"):
                continue
            vm(g, "vreg-%s-src-%s" % (ty, rn), "mov.v2.%s %s, %s;" % (ty, vec(regs(VM_REG[ty], 1, 2)), vec(regs(rp, 5, 2))))
        for rn in ("s32", "f32", "b64", "b16"):
            rp = VM_REG[rn]
            vm(g, "vreg-%s-dst-%s" % (ty, rn), "mov.v2.%s %s, %s;" % (ty, vec(regs(rp, 1, 2)), vec(regs(VM_REG[ty], 5, 2))))
    for ty, d, s_, nm in [("u32", "{%r1,%r2}", "{%r3,%f4}", "src-b32-f32"), ("u32", "{%r1,%r2}", "{%f3,%r4}", "src-f32-b32"),
                          ("u32", "{%r1,%r2}", "{%s3,%u4}", "src-s32-u32"), ("u32", "{%r1,%r2}", "{%r3,%rd4}", "src-b32-b64"),
                          ("u32", "{%r1,%r2}", "{%r3,%h4}", "src-b32-b16"), ("u32", "{%r1,%f2}", "{%r3,%r4}", "dst-b32-f32"),
                          ("u32", "{%f1,%r2}", "{%r3,%r4}", "dst-f32-b32"), ("u32", "{%r1,%rd2}", "{%r3,%r4}", "dst-b32-b64"),
                          ("f32", "{%f1,%f2}", "{%f3,%s4}", "src-f32-s32"), ("f32", "{%f1,%f2}", "{%s3,%f4}", "src-s32-f32"),
                          ("f32", "{%f1,%f2}", "{%fd3,%fd4}", "src-f64"), ("u64", "{%rd1,%rd2}", "{%rd3,%fd4}", "src-b64-f64")]:
        vm(g, "vmixed-%s-%s" % (ty, nm), "mov.v2.%s %s, %s;" % (ty, d, s_))
    # (4) packing / unpacking with mov.bN
    PK = [  # (type, element reg prefix, element count)
        ("b16", "%b", 2), ("b32", "%h", 2), ("b32", "%b", 4), ("b64", "%r", 2), ("b64", "%h", 4), ("b64", "%b", 8),
        ("b128", "%rd", 2), ("b128", "%r", 4),
    ]
    SCAL = {"b16": "%h1", "b32": "%r1", "b64": "%rd1", "b128": "%q1"}
    for vt in VM_VTS:
        for ty, ep, n in PK:
            b128 = ty == "b128"
            if b128 and not has_b128(vt):
                continue
            v = vec(regs(ep, 1, n))
            s_ = SCAL[ty].replace("1", "2") if ty != "b128" else "%q2"
            tag = "" if vt == MAIN else "vt-%s-%s-" % vt
            vm(g, "%sunpack-%s-%s-x%d" % (tag, ty, ep[1:], n), "mov.%s %s, %s;" % (ty, v, s_), vt=vt, b128=b128)
            vm(g, "%spack-%s-%s-x%d" % (tag, ty, ep[1:], n), "mov.%s %s, %s;" % (ty, s_, v), vt=vt, b128=b128)
            # sinks
            sv = vec([ep + "1"] + ["_"] * (n - 1))
            vm(g, "%sunpack-%s-%s-x%d-sink" % (tag, ty, ep[1:], n), "mov.%s %s, %s;" % (ty, sv, s_), vt=vt, b128=b128)
            if vt == MAIN:
                vm(g, "unpack-%s-%s-x%d-sink-first" % (ty, ep[1:], n), "mov.%s %s, %s;" % (ty, vec(["_"] + regs(ep, 2, n - 1)), s_), b128=b128)
                vm(g, "unpack-%s-%s-x%d-all-sink" % (ty, ep[1:], n), "mov.%s %s, %s;" % (ty, vec(["_"] * n), s_), b128=b128)
                vm(g, "pack-%s-%s-x%d-sink" % (ty, ep[1:], n), "mov.%s %s, %s;" % (ty, s_, sv), b128=b128)
    # wrong element widths / counts
    WRONG = [
        ("b16", "{%h1,%h2}"), ("b16", "{%r1,%r2}"), ("b16", "{%b1,%b2,%b3,%b4}"), ("b16", "{%b1}"),
        ("b32", "{%r1,%r2}"), ("b32", "{%h1,%h2,%h3,%h4}"), ("b32", "{%h1}"), ("b32", "{%h1,%h2,%h3}"), ("b32", "{%b1,%b2}"),
        ("b32", "{%rd1,%rd2}"), ("b32", "{%h1,%r2}"), ("b32", "{%b1,%b2,%h3}"),
        ("b64", "{%rd1,%rd2}"), ("b64", "{%h1,%h2}"), ("b64", "{%r1,%r2,%r3,%r4}"), ("b64", "{%r1}"), ("b64", "{%r1,%r2,%r3}"),
        ("b64", "{%r1,%h2}"), ("b64", "{%h1,%h2,%r3}"), ("b64", "{%b1,%b2,%b3,%b4}"),
    ]
    for ty, v in WRONG:
        s_ = SCAL[ty].replace("1", "2")
        nm = slug(v)
        vm(g, "unpack-bad-%s-%s" % (ty, nm), "mov.%s %s, %s;" % (ty, v, s_))
        vm(g, "pack-bad-%s-%s" % (ty, nm), "mov.%s %s, %s;" % (ty, s_, v))
    for v, nm in [("{%q1,%q2}", "q-q"), ("{%rd1,%rd2,%rd3,%rd4}", "rd-x4"), ("{%h1,%h2,%h3,%h4}", "h-x4"), ("{%rd1,%r2}", "rd-r")]:
        vm(g, "unpack-bad-b128-%s" % nm, "mov.b128 %s, %%q2;" % v, b128=True)
    # typed element registers
    for ty, v, s_ in [("b32", "{%uh1,%uh2}", "%r2"), ("b32", "{%hf1,%hf2}", "%r2"), ("b32", "{%sh1,%sh2}", "%r2"),
                      ("b32", "{%h1,%hf2}", "%r2"), ("b32", "{%ub1,%ub2,%ub3,%ub4}", "%r2"),
                      ("b64", "{%u1,%s2}", "%rd2"), ("b64", "{%f1,%f2}", "%rd2"), ("b64", "{%u1,%u2}", "%rd2"),
                      ("b64", "{%uh1,%uh2,%uh3,%uh4}", "%rd2"), ("b16", "{%ub1,%sb2}", "%h2")]:
        vm(g, "unpack-typed-%s-%s" % (ty, slug(v)), "mov.%s %s, %s;" % (ty, v, s_))
        vm(g, "pack-typed-%s-%s" % (ty, slug(v)), "mov.%s %s, %s;" % (ty, s_, v))
    # typed scalar side
    for ty, v, s_ in [("b32", "{%h1,%h2}", "%f2"), ("b32", "{%h1,%h2}", "%u2"), ("b32", "{%h1,%h2}", "%s2"),
                      ("b64", "{%r1,%r2}", "%fd2"), ("b64", "{%r1,%r2}", "%ud2"), ("b64", "{%r1,%r2}", "%sd2"),
                      ("b32", "{%h1,%h2}", "%rd2"), ("b32", "{%h1,%h2}", "%h3"), ("b64", "{%r1,%r2}", "%r3"), ("b16", "{%b1,%b2}", "%r3")]:
        vm(g, "unpack-scalar-%s-%s" % (ty, slug(s_)), "mov.%s %s, %s;" % (ty, v, s_))
        vm(g, "pack-scalar-%s-%s" % (ty, slug(s_)), "mov.%s %s, %s;" % (ty, s_, v))
    # non-.b types
    for ty, v, s_ in [("u32", "{%h1,%h2}", "%r2"), ("s32", "{%h1,%h2}", "%r2"), ("f32", "{%h1,%h2}", "%f2"),
                      ("u64", "{%r1,%r2}", "%rd2"), ("s64", "{%r1,%r2}", "%rd2"), ("f64", "{%r1,%r2}", "%fd2"),
                      ("u16", "{%b1,%b2}", "%h2"), ("f16", "{%b1,%b2}", "%h2"), ("f16x2", "{%h1,%h2}", "%r2"),
                      ("bf16x2", "{%h1,%h2}", "%r2"), ("u32", "{%uh1,%uh2}", "%u2"), ("f64", "{%f1,%f2}", "%fd2"),
                      ("pred", "{%p1,%p2}", "%p1")]:
        vm(g, "unpack-type-%s-%s" % (ty, slug(v)), "mov.%s %s, %s;" % (ty, v, s_))
        vm(g, "pack-type-%s-%s" % (ty, slug(v)), "mov.%s %s, %s;" % (ty, s_, v))
    # other operand shapes
    for ins, nm in [("mov.b64 {%r1,%r2}, {%r3,%r4};", "vector-vector-b64"),
                    ("mov.b32 {%h1,%h2}, {%h3,%h4};", "vector-vector-b32"),
                    ("mov.v2.b32 {%h1,%h2}, %r1;", "v2-unpack"),
                    ("mov.v2.b64 {%r1,%r2}, %rd1;", "v2-b64-unpack"),
                    ("mov.b32 {%h1,%h2}, 5;", "unpack-imm"),
                    ("mov.b64 {%r1,%r2}, 0x100000001;", "unpack-imm64"),
                    ("mov.b32 {%h1,%h2}, 0f3F800000;", "unpack-f32-imm"),
                    ("mov.b32 %r1, {1,2};", "pack-imm-vector"),
                    ("mov.b32 %r1, {%h1,1};", "pack-imm-element"),
                    ("mov.b64 %rd1, {%r1,0};", "pack-imm-element-b64"),
                    ("mov.b32 {%h1,%h1}, %r1;", "unpack-same-reg"),
                    ("mov.b32 %r1, {%h1,%h1};", "pack-same-reg"),
                    ("mov.b32 _, {%h1,%h2};", "pack-sink-dst"),
                    ("mov.b32 {%h1,%h2}, _;", "unpack-sink-src"),
                    ("mov.b32 {%h1, %h2}, %r1;", "unpack-spaces"),
                    ("mov.b32 { %h1 , %h2 }, %r1;", "unpack-more-spaces"),
                    ("mov.b32 {%h1,%h2,}, %r1;", "unpack-trailing-comma"),
                    ("mov.b32 {}, %r1;", "unpack-empty"),
                    ("mov.b32 (%h1,%h2), %r1;", "unpack-parens"),
                    ("mov.b64 {%r1,%r2}, p;", "unpack-param-symbol"),
                    ("mov.b64 %rd2, {%r1,%r2}; mov.b64 {%r3,%r4}, %rd2;", "roundtrip"),
                    ("@%p1 mov.b64 {%r1,%r2}, %rd1;", "guarded-unpack")]:
        vm(g, "misc-%s" % nm, ins)
    # (5) version / target pairs for selected forms
    for vt in VM_VTS[:2] + [("2.3", "sm_20"), ("4.0", "sm_30")]:
        tag = "vt-%s-%s-" % vt
        for ins, nm in [("mov.v2.u32 {%r1,_}, {%r3,%r4};", "vv-sink"),
                        ("mov.v2.u32 {%r1,%r2}, %r3;", "vv-scalar-src"),
                        ("mov.b32 {_,_}, %r1;", "unpack-all-sink"),
                        ("mov.b64 {%r1,%r2}, {%r3,%r4};", "vector-vector-b64"),
                        ("mov.v4.b64 {%rd1,%rd2,%rd3,%rd4}, {%rd5,%rd6,%rd7,%rd8};", "v4-b64"),
                        ("mov.v2.f16 {%hf1,%hf2}, {%hf3,%hf4};", "v2-f16"),
                        ("mov.v4.b8 {%b1,%b2,%b3,%b4}, {%b5,%b6,%b7,%b8};", "v4-b8"),
                        ("mov.u32 {%h1,%h2}, %r1;", "unpack-u32")]:
            vm(g, tag + nm, ins, vt=vt)
    for vt in [("8.2", "sm_90"), ("8.3", "sm_60"), ("8.3", "sm_70"), ("9.0", "sm_100")]:
        tag = "vt-%s-%s-" % vt
        vm(g, tag + "b128-unpack", "mov.b128 {%rd1,%rd2}, %q1;", vt=vt, b128=True)
        vm(g, tag + "b128-pack", "mov.b128 %q1, {%rd1,%rd2};", vt=vt, b128=True)
        vm(g, tag + "b128-unpack-x4", "mov.b128 {%r1,%r2,%r3,%r4}, %q1;", vt=vt, b128=True)
        vm(g, tag + "b128-scalar", "mov.b128 %q1, %q2;", vt=vt, b128=True)
        vm(g, tag + "b128-decl-only", "mov.b32 %r1, %r2;", vt=vt, b128=True)


# ---------------------------------------------------------------- v8
V8_DECLS = BASE_DECLS + TYPED_DECLS + [
    ".reg .s64 %sd<9>;",
    ".reg .s32 %si<9>;",
    ".reg .b8 %b<9>;",
]
V8_VERSIONS = ["8.3", "8.6", "8.8", "9.0"]
V8_TARGETS = ["sm_90", "sm_100", "sm_100a"]
V8_EXTRA_PAIRS = [("9.0", "sm_120"), ("8.8", "sm_103"), ("8.7", "sm_100")]
_module_ok_cache = {}


def module_ok(vt):
    """Whether ptxas accepts a plain `ret;` module with this version/target (pairs it
    rejects are skipped, per the group's definition)."""
    if vt not in _module_ok_cache:
        ptxas = PTXAS or find_ptxas()
        text = ".version %s\n.target %s\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n" % vt
        with tempfile.TemporaryDirectory(prefix="ptxas_syntax_chk_") as tmp:
            path = os.path.join(tmp, "m.ptx")
            with open(path, "w") as f:
                f.write(text)
            p = subprocess.run([ptxas, "-arch=" + arch_for(vt[1]), path, "-o", "/dev/null"], capture_output=True, text=True)
        _module_ok_cache[vt] = p.returncode == 0
    return _module_ok_cache[vt]


V8REG = {"b32": "%r", "u32": "%u", "s32": "%s", "f32": "%f", "b64": "%rd", "u64": "%ud", "s64": "%sd", "f64": "%fd",
         "b16": "%h", "u16": "%uh", "f16": "%hf", "b8": "%b"}


def v8(g, name, body, vt, pre=""):
    add_body(g, name, body if isinstance(body, list) else [body], vt=vt, pre=pre, decls=V8_DECLS)


def ldv(space, vsz, ty, n=None, reg=None, addr="[%rd1]", quals=""):
    n = n if n is not None else int(vsz[1:])
    rp = reg or V8REG[ty]
    d = vec([rp + str(1 + i % 8) for i in range(n)]) if n > 1 else rp + "1"
    mods = ".".join(x for x in ["ld", quals, space, vsz, ty] if x)
    return "%s %s, %s;" % (mods, d, addr)


def stv(space, vsz, ty, n=None, reg=None, addr="[%rd1]", quals=""):
    n = n if n is not None else int(vsz[1:])
    rp = reg or V8REG[ty]
    s_ = vec(regs(rp, 1, n)) if n > 1 else rp + "1"
    mods = ".".join(x for x in ["st", quals, space, vsz, ty] if x)
    return "%s %s, %s;" % (mods, addr, s_)


def gen_v8():
    g = "v8"
    pairs = [(v, t) for v in V8_VERSIONS for t in V8_TARGETS] + V8_EXTRA_PAIRS
    pairs = [vt for vt in pairs if module_ok(vt)]
    # (1) the core 256-bit forms at every accepted version/target pair
    for vt in pairs:
        tag = "%s-%s-" % vt
        for ty in ("b32", "s32", "f32"):
            v8(g, tag + "ld-global-v8-" + ty, ldv("global", "v8", ty), vt)
        for ty in ("b64", "u64", "f64"):
            v8(g, tag + "ld-global-v4-" + ty, ldv("global", "v4", ty), vt)
        v8(g, tag + "st-global-v8-b32", stv("global", "v8", "b32"), vt)
        v8(g, tag + "st-global-v4-b64", stv("global", "v4", "b64"), vt)
        v8(g, tag + "ld-generic-v8-b32", ldv("", "v8", "b32"), vt)
        v8(g, tag + "st-generic-v8-b32", stv("", "v8", "b32"), vt)
        v8(g, tag + "ld-generic-v4-b64", ldv("", "v4", "b64"), vt)
        v8(g, tag + "ld-shared-v8-b32", ldv("shared", "v8", "b32"), vt)
        v8(g, tag + "ld-local-v8-b32", ldv("local", "v8", "b32"), vt)
        v8(g, tag + "ld-global-nc-v8-b32", ldv("global", "v8", "b32", quals="", addr="[%rd1]").replace("ld.global", "ld.global.nc"), vt)
        v8(g, tag + "ld-global-v8-b64", ldv("global", "v8", "b64"), vt)
        v8(g, tag + "ld-global-v4-b32", ldv("global", "v4", "b32"), vt)
    # (2) details at one pair that has the feature (and the same at one that does not)
    for vt in [("9.0", "sm_100"), ("9.0", "sm_90")]:
        if not module_ok(vt):
            continue
        tag = "%s-%s-" % vt
        # element types
        # (.v8 with 8- or 16-bit integer types -- .b8/.u8/.b16/.u16/.s16 -- makes ptxas 13.5 crash with
        # SIGSEGV, so those are not generated)
        for ty, vsz in [("f16", "v8"), ("b32", "v4"), ("u32", "v4"), ("f32", "v2"), ("b64", "v8"), ("u64", "v8"), ("f64", "v8"),
                        ("b32", "v16"), ("b16", "v16"), ("b128", "v2"), ("b128", "v4"), ("f16x2", "v8"), ("bf16x2", "v8"),
                        ("bf16", "v8"), ("pred", "v8"), ("b32", "v6"), ("b64", "v3")]:
            if ty == "b16" and vsz == "v16":
                continue
            reg = {"b128": "%rd", "f16x2": "%r", "bf16x2": "%r", "bf16": "%h", "pred": "%p"}.get(ty)
            n = int(vsz[1:])
            if ty == "pred":
                n = 2
            v8(g, tag + "type-ld-%s-%s" % (vsz, ty), ldv("global", vsz, ty, n=n, reg=reg), vt)
        # destination / source vector shape
        for n, nm in [(4, "n4"), (7, "n7"), (9, "n9"), (1, "scalar"), (2, "n2")]:
            v8(g, tag + "shape-ld-v8-b32-" + nm, ldv("global", "v8", "b32", n=n), vt)
        v8(g, tag + "shape-st-v8-b32-n4", stv("global", "v8", "b32", n=4), vt)
        v8(g, tag + "shape-ld-v4-b64-n2", ldv("global", "v4", "b64", n=2), vt)
        v8(g, tag + "shape-ld-v4-b64-n8", ldv("global", "v4", "b64", n=8, reg="%rd"), vt)
        v8(g, tag + "shape-ld-v8-b32-sinks", "ld.global.v8.b32 {%r1,_,%r3,_,%r5,_,%r7,_}, [%rd1];", vt)
        v8(g, tag + "shape-ld-v4-b64-sinks", "ld.global.v4.b64 {%rd1,_,_,%rd4}, [%rd1];", vt)
        v8(g, tag + "shape-st-v8-b32-sink", "st.global.v8.b32 [%rd1], {%r1,_,%r3,%r4,%r5,%r6,%r7,%r8};", vt)
        v8(g, tag + "shape-st-v8-b32-imm", "st.global.v8.b32 [%rd1], {%r1,0,%r3,%r4,%r5,%r6,%r7,1};", vt)
        v8(g, tag + "shape-ld-v8-b32-repeat", "ld.global.v8.b32 {%r1,%r1,%r1,%r1,%r1,%r1,%r1,%r1}, [%rd1];", vt)
        # register types
        # (ld.global.v8.b32 with 64-bit destination registers makes ptxas 13.5 crash; only the st form is generated)
        for ty, rp in [("b32", "%f"), ("b32", "%u"), ("b32", "%rd"), ("b32", "%h"), ("f32", "%r"), ("f32", "%s"), ("u32", "%f"),
                       ("s32", "%u"), ("b64", "%fd"), ("b64", "%r"), ("u64", "%rd"), ("f64", "%rd"), ("f64", "%ud"), ("s64", "%ud")]:
            n = 8 if ty.endswith("32") else 4
            vsz = "v8" if n == 8 else "v4"
            if not (ty == "b32" and rp == "%rd"):
                v8(g, tag + "reg-ld-%s-%s-%s" % (vsz, ty, rp[1:]), ldv("global", vsz, ty, reg=rp), vt)
            v8(g, tag + "reg-st-%s-%s-%s" % (vsz, ty, rp[1:]), stv("global", vsz, ty, reg=rp), vt)
        v8(g, tag + "reg-ld-v8-b32-mixed", "ld.global.v8.b32 {%r1,%r2,%r3,%r4,%f5,%f6,%f7,%f8}, [%rd1];", vt)
        v8(g, tag + "reg-ld-v8-f32-mixed-s32", "ld.global.v8.f32 {%f1,%f2,%f3,%f4,%s5,%s6,%s7,%s8}, [%rd1];", vt)
        # state spaces
        for sp in ("shared::cta", "shared::cluster", "const", "local", "param", "global"):
            v8(g, tag + "space-ld-%s" % slug(sp), ldv(sp, "v8", "b32"), vt)
            v8(g, tag + "space-st-%s" % slug(sp), stv(sp, "v8", "b32"), vt)
            v8(g, tag + "space-ld-v4-b64-%s" % slug(sp), ldv(sp, "v4", "b64"), vt)
        v8(g, tag + "space-ld-param-symbol", ldv("param", "v8", "b32", addr="[p]"), vt)
        v8(g, tag + "space-ld-global-symbol", ldv("global", "v8", "b32", addr="[gbuf]"), vt, pre=".global .align 32 .b32 gbuf[8];")
        # addresses
        for addr, nm in [("[%rd1+32]", "offset"), ("[%rd1+4]", "offset-unaligned"), ("[%rd1+-32]", "neg-offset"),
                         ("[64]", "immediate")]:
            v8(g, tag + "addr-ld-%s" % nm, ldv("global", "v8", "b32", addr=addr), vt)
        # qualifiers on ld
        for q in ("weak", "volatile", "relaxed.gpu", "acquire.gpu", "relaxed.sys", "acquire.cta", "relaxed", "ca", "cg", "cs",
                  "lu", "cv", "L1::evict_last", "L1::evict_first", "L1::no_allocate", "L2::64B", "L2::128B", "L2::256B",
                  "L1::evict_normal.L2::256B", "nc", "nc.L1::no_allocate", "nc.L2::256B", "mmio.relaxed.sys", "unified"):
            body = ldv("global", "v8", "b32", quals="")
            body = body.replace("ld.global", "ld.%s.global" % q) if not q.startswith("nc") else body.replace("ld.global", "ld.global.%s" % q)
            v8(g, tag + "qual-ld-%s" % slug(q), body, vt)
        v8(g, tag + "qual-ld-L2-cache-hint", "ld.global.L2::cache_hint.v8.b32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], %rd2;", vt)
        v8(g, tag + "qual-ld-v4-b64-L2-256B", "ld.global.L2::256B.v4.b64 {%rd1,%rd2,%rd3,%rd4}, [%rd1];", vt)
        for q in ("weak", "volatile", "relaxed.gpu", "release.gpu", "release.sys", "wb", "cg", "cs", "wt", "L1::no_allocate",
                  "L1::evict_last", "L2::256B", "mmio.relaxed.sys"):
            v8(g, tag + "qual-st-%s" % slug(q), stv("global", "v8", "b32").replace("st.global", "st.%s.global" % q), vt)
        v8(g, tag + "qual-st-L2-cache-hint", "st.global.L2::cache_hint.v8.b32 [%rd1], {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, %rd2;", vt)
        # other instructions with .v8
        v8(g, tag + "other-ldu-v8", "ldu.global.v8.b32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];", vt)
        v8(g, tag + "other-ldu-v4-b64", "ldu.global.v4.b64 {%rd1,%rd2,%rd3,%rd4}, [%rd1];", vt)
        v8(g, tag + "other-mov-v8", "mov.v8.b32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};", vt)
        v8(g, tag + "other-guarded-ld", "@%p1 ld.global.v8.b32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];", vt)
        v8(g, tag + "other-ld-v8-ftz", "ld.global.v8.f32.ftz {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1];", vt)
        v8(g, tag + "other-st-v8-order", "st.global.b32.v8 [%rd1], {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};", vt)


GROUPS = collections.OrderedDict([("tex", gen_tex), ("surf", gen_surf), ("vecmov", gen_vecmov), ("v8", gen_v8)])
# GROUPS_END


# --------------------------------------------------------------------------
# Running ptxas
# --------------------------------------------------------------------------

# ptxas messages are normalised exactly as for the main matrix.
from ptxas_matrix import normalize  # noqa: E402

PTXAS = None


def run_case(args):
    idx, case, tmpdir = args
    path = os.path.join(tmpdir, "case%05d.ptx" % idx)
    with open(path, "w") as f:
        f.write(case["ptx"])
    p = subprocess.run([PTXAS, "-arch=" + case["arch"], path, "-o", "/dev/null"], capture_output=True, text=True)
    os.unlink(path)
    p.stdout, p.stderr = (x.replace(path, "input.ptx") for x in (p.stdout, p.stderr))
    errors, warnings = [], []
    for line in (p.stdout + p.stderr).splitlines():
        if not line.strip():
            continue
        sev, ln, msg = normalize(line)
        if msg == "fatal: Ptx assembly aborted due to errors":
            continue
        entry = msg if ln is None else "line %d: %s" % (ln, msg)
        if sev in ("error", "fatal") or sev is None:
            errors.append(entry)
        else:
            warnings.append(entry)
    out = collections.OrderedDict()
    out["id"] = case["id"]
    out["group"] = case["group"]
    out["ptx"] = case["ptx"]
    out["accept"] = p.returncode == 0
    first = ""
    if p.returncode != 0 and errors:
        first = re.sub(r"^line \d+: ", "", errors[0])
    out["ptxas"] = first
    out["arch"] = case["arch"]
    if p.returncode != 0:
        out["errors"] = errors
    if warnings:
        out["warnings"] = warnings
    out["_rc"] = p.returncode
    return out


def generate(only=None):
    for name, fn in GROUPS.items():
        if only and name != only:
            continue
        fn()
    return CASES


def main():
    global PTXAS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.normpath(os.path.join(here, "..", "tests", "data", "ptxas_matrix", "syntax_cases.jsonl")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--group", default=None)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    cases = generate(args.group)
    if args.list:
        for c in cases:
            print(c["id"], c["arch"])
        print(len(cases), "cases", file=sys.stderr)
        return
    PTXAS = find_ptxas()
    with tempfile.TemporaryDirectory(prefix="ptxas_syntax_") as tmp:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(run_case, [(i, c, tmp) for i, c in enumerate(cases)]))
    crashed = [r_ for r_ in results if r_["_rc"] < 0]
    results = [r_ for r_ in results if r_["_rc"] >= 0]
    for r_ in crashed:
        print("CRASH (rc %d, not written) %s" % (r_["_rc"], r_["id"]), file=sys.stderr)
    for r_ in results:
        del r_["_rc"]
    if args.group:
        for res in results:
            body = res["ptx"].split("ld.param.u64 %rd1, [p];\n")[1].replace("\tret;\n}\n", "").strip().replace("\n\t", " ")
            print(("ACC " if res["accept"] else "REJ ") + res["id"] + " | " + body + " | " + res["ptxas"])
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        for res in results:
            f.write(json.dumps(res, ensure_ascii=True) + "\n")
    c = collections.Counter((r_["group"], r_["accept"]) for r_ in results)
    print("%d cases written to %s" % (len(results), args.out))
    for (gname, acc), n in sorted(c.items()):
        print("  %-8s %-6s %d" % (gname, acc, n))


if __name__ == "__main__":
    main()
