#!/usr/bin/env python3
"""ptxas agreement matrix: generate small PTX modules, run NVIDIA ptxas on each,
record accept/reject.

Regenerate the committed data (from the repository root):

    export PATH=$(python3 -c "import nvidia,os;print(os.path.dirname(nvidia.__path__[0]))")/nvidia/cu13/bin:$PATH
    python3 tools/ptxas_matrix.py

(The PATH export is optional when the pip package `nvidia-cuda-nvcc` for CUDA 13
is installed: the script adds its bin directory to PATH itself.)

Options:
    --out DIR      output directory (default tests/data/ptxas_matrix)
    --jobs N       parallel ptxas processes (default 3)
    --group G      only generate/run one group (writes nothing; prints a summary)
    --list         only print the generated case ids, do not run ptxas
    --readme-only  rewrite README.md from the existing cases.jsonl (no ptxas runs)

Outputs:
    tests/data/ptxas_matrix/cases.jsonl   one JSON object per case (see README.md)
    tests/data/ptxas_matrix/README.md     counts, ptxas version, version/target table

Every case is run as `ptxas -arch=<arch> case.ptx -o /dev/null`, where <arch>
is the module's own `.target` whenever ptxas accepts that name for -arch; see
`arch_for()` for the (documented) substitutions for targets that this ptxas
cannot generate code for (e.g. sm_30 -> sm_75).  ptxas checks instruction
feature requirements against the module's `.target`, not against -arch.

The generator is deterministic: the case list and its order depend only on this
file, and ptxas output is deterministic.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# --------------------------------------------------------------------------
# ptxas discovery
# --------------------------------------------------------------------------


def _setup_path():
    try:
        import nvidia  # type: ignore

        bindir = os.path.join(os.path.dirname(list(nvidia.__path__)[0]), "nvidia", "cu13", "bin")
        if os.path.isdir(bindir) and bindir not in os.environ.get("PATH", "").split(":"):
            os.environ["PATH"] = bindir + ":" + os.environ.get("PATH", "")
    except Exception:
        pass


_setup_path()

# -arch values accepted by this ptxas (ptxas --help, CUDA 13.5).
PTXAS_ARCHS = set(
    "sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a "
    "sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f sm_107 sm_107a sm_107f "
    "sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f sm_121 sm_121a sm_121f".split()
)


def arch_for(target):
    """The -arch used for a module with `.target target`.

    - a target ptxas can generate code for: itself;
    - sm_XY with XY < 75 (sm_10 .. sm_72): sm_75 (PTX for sm_XY may be compiled
      for any sm_MN with MN >= XY; feature checks still use the .target);
    - sm_101{,a,f} (renamed sm_110 in CUDA 13): sm_110{,a,f};
    - compute_XY: sm_XY (or sm_75 if XY < 75);
    - anything else (an unknown target): sm_75, so that ptxas reports the
      unknown `.target` itself.
    """
    if target in PTXAS_ARCHS:
        return target
    parts = [p.strip() for p in target.split(",")]
    sms = [p for p in parts if re.match(r"^(sm|compute)_", p)]
    # with several targets in one .target directive ptxas uses the last one
    t = sms[-1] if sms else parts[0]
    if t in PTXAS_ARCHS:
        return t
    m = re.match(r"^(sm|compute)_(\d+)([a-z]*)$", t)
    if not m:
        return "sm_75"
    n, suf = int(m.group(2)), m.group(3)
    if suf not in ("", "a", "f"):
        suf = ""  # e.g. sm_90x, which ptxas reads as sm_90
    if n < 75:
        return "sm_75"
    if n == 101:
        return "sm_110" + suf
    cand = "sm_%d%s" % (n, suf)
    return cand if cand in PTXAS_ARCHS else "sm_75"


# --------------------------------------------------------------------------
# Module template
# --------------------------------------------------------------------------

MAIN = ("9.0", "sm_90")  # version/target used unless a case says otherwise

# declared register name per register type, in the base module.
REG = collections.OrderedDict(
    [
        ("pred", "%p"),
        ("b8", "%rb"), ("u8", "%rub"), ("s8", "%rsb"),
        ("b16", "%rs"), ("u16", "%rus"), ("s16", "%rss"), ("f16", "%h"),
        ("b32", "%r"), ("u32", "%ru"), ("s32", "%ri"), ("f32", "%f"), ("f16x2", "%hh"),
        ("b64", "%rd"), ("u64", "%rdu"), ("s64", "%rdi"), ("f64", "%fd"),
    ]
)
REG_KINDS = list(REG.keys())

VALID_VERSIONS = [
    "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3",
    "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "5.1",
    "6.0", "6.1", "6.2", "6.3", "6.4", "6.5",
    "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8",
    "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8",
    "9.0", "9.1", "9.2", "9.3", "9.4", "9.5",
]
INVALID_VERSIONS = ["0.9", "1.6", "2.4", "3.3", "4.4", "5.2", "5.5", "6.6", "7.9", "8.9", "9.6", "10.0"]
VALID_TARGETS = (
    "sm_10 sm_11 sm_12 sm_13 sm_20 sm_21 sm_30 sm_32 sm_35 sm_37 sm_50 sm_52 sm_53 "
    "sm_60 sm_61 sm_62 sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a "
    "sm_100 sm_100a sm_100f sm_101 sm_101a sm_101f sm_103 sm_103a sm_103f "
    "sm_107 sm_107a sm_107f sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f "
    "sm_121 sm_121a sm_121f"
).split()
ODD_TARGETS = [
    "sm_99", "sm_22", "sm_31", "sm_75a", "sm_80a", "sm_89a", "sm_90f", "sm_100x", "sm_1000",
    "sm_foo", "SM_90", "sm90", "compute_90", "compute_75", "compute_30", "compute_90a",
]


def vtuple(v):
    a, b = v.split(".")
    return int(a), int(b)


def target_num(t):
    m = re.match(r"^(?:sm|compute)_(\d+)", t)
    return int(m.group(1)) if m else 0


def has_f16x2_regs(version, target):
    # `.reg .f16x2` needs PTX 4.2 and .target sm_53 (observed); `.reg .f16` is
    # accepted at every version/target.
    return vtuple(version) >= (4, 2) and target_num(target) >= 53


def decls(version, target):
    lines = [
        "\t.reg .pred %p<5>;",
        "\t.reg .b8 %rb<4>; .reg .u8 %rub<4>; .reg .s8 %rsb<4>;",
        "\t.reg .b16 %rs<4>; .reg .u16 %rus<4>; .reg .s16 %rss<4>; .reg .f16 %h<4>;",
        "\t.reg .b32 %r<4>; .reg .u32 %ru<4>; .reg .s32 %ri<4>; .reg .f32 %f<4>;",
        "\t.reg .b64 %rd<4>; .reg .u64 %rdu<4>; .reg .s64 %rdi<4>; .reg .f64 %fd<4>;",
    ]
    if has_f16x2_regs(version, target):
        lines.append("\t.reg .f16x2 %hh<4>;")
    return "\n".join(lines)


def module(body, vt=MAIN, pre="", tail_ret=True, address_size="auto", with_decls=True,
           extra_decls="", header=None, entry=".visible .entry k()"):
    """Build a module.  `body` is a string or list of lines (instructions get a tab,
    lines ending in ':' or starting with a label are emitted without one if they
    already start with a non-space)."""
    version, target = vt
    if isinstance(body, str):
        body = [body]
    if header is None:
        h = ".version %s\n.target %s\n" % (version, target)
        if address_size == "auto":
            if vtuple(version) >= (2, 3):
                h += ".address_size 64\n"
        elif address_size:
            h += ".address_size %s\n" % address_size
    else:
        h = header
    out = h
    if pre:
        out += pre.rstrip("\n") + "\n"
    out += entry + "\n{\n"
    if with_decls:
        out += decls(version, target) + "\n"
    if extra_decls:
        out += extra_decls.rstrip("\n") + "\n"
    for line in body:
        if line == "":
            continue
        if re.match(r"^[A-Za-z_$][\w$]*:", line):
            out += line + "\n"
        else:
            out += "\t" + line + "\n"
    if tail_ret:
        out += "\tret;\n"
    out += "}\n"
    return out


def r(kind, i=1):
    return "%s%d" % (REG[kind], i)


# --------------------------------------------------------------------------
# Case collection
# --------------------------------------------------------------------------

CASES = []
_seen_ids = set()
_counters = collections.Counter()


def slug(s):
    s = re.sub(r"(?<![A-Za-z0-9])_(?![A-Za-z0-9])", "sink", s)
    s = s.replace("|", "-or-").replace("!", "not-").replace("%", "").replace("@", "at-")
    s = re.sub(r"[^A-Za-z0-9.]+", "-", s).strip("-").replace(".", "_")
    return s or "x"


def add(group, name, ptx, vt):
    _counters[group] += 1
    cid = "%s-%s-%04d" % (group, slug(name), _counters[group])
    assert cid not in _seen_ids, cid
    _seen_ids.add(cid)
    target = vt[1]
    CASES.append({"id": cid, "group": group, "ptx": ptx, "arch": arch_for(target)})


def add_body(group, name, body, vt=MAIN, **kw):
    add(group, name, module(body, vt, **kw), vt)


CMPOPS = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
          "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
TYPES = ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"]
BOOLS = [None, "and", "or", "xor"]
BOOL_C = {"and": "%p3", "or": "!%p3", "xor": "%p3"}
HALF = ["f16", "f16x2", "bf16", "bf16x2"]
# register of the "bit" kind and the "declared half" kind for each half type
HALF_BREG = {"f16": "b16", "bf16": "b16", "f16x2": "b32", "bf16x2": "b32"}
HALF_FREG = {"f16": "f16", "bf16": "f16", "f16x2": "f16x2", "bf16x2": "f16x2"}

# immediates: name -> literal
IMMS = collections.OrderedDict(
    [
        ("int1", "1"), ("int0", "0"), ("neg1", "-1"), ("u-suffix", "1U"), ("hex", "0x3F800000"),
        ("hex33bit", "0x1FFFFFFFF"), ("big70000", "70000"), ("octal", "017"), ("binary", "0b101"),
        ("dec-float", "1.5"), ("dec-float-exp", "1.0e2"), ("f32hex", "0f3F800000"),
        ("F32hex-upper", "0F3F800000"), ("f64hex", "0d3FF0000000000000"),
        ("f16hex-0h", "0h3C00"), ("symbol-k", "k"),
    ]
)


def natural_cmp(t):
    return "lt" if t[0] in "sf" else ("lo" if t[0] == "u" else "eq")


# ---------------------------------------------------------------- module
def gen_module():
    g = "module"
    # (1) version/target pair table: minimal kernel, no .address_size.
    for v in VALID_VERSIONS:
        for t in VALID_TARGETS:
            add(g, "pair-%s-%s" % (v, t), ".version %s\n.target %s\n.visible .entry k()\n{\n\tret;\n}\n" % (v, t), (v, t))
    for v in INVALID_VERSIONS:
        for t in ["sm_75", "sm_90"]:
            add(g, "badversion-%s-%s" % (v, t), ".version %s\n.target %s\n.visible .entry k()\n{\n\tret;\n}\n" % (v, t), (v, t))
    for t in ODD_TARGETS:
        for v in ["7.0", "9.5"]:
            add(g, "badtarget-%s-%s" % (v, t), ".version %s\n.target %s\n.visible .entry k()\n{\n\tret;\n}\n" % (v, t), (v, t))
    # version spelling
    for vs in ["9", "9.00", "09.0", "9.0.0", "9.10", "9.05", " 9.0", "9 .0", "9.0a", "+9.0"]:
        add(g, "version-spelling-" + vs, ".version %s\n.target sm_90\n.visible .entry k()\n{\n\tret;\n}\n" % vs, ("9.0", "sm_90"))
    # .target options / lists
    for tgt in ["sm_90x", "sm_100x", "sm_75x", "sm_90, sm_80, sm_75", "sm_90, texmode_independent", "sm_90, texmode_unified", "sm_90, debug", "sm_90, map_f64_to_f32",
                "sm_75, map_f64_to_f32", "sm_20, map_f64_to_f32", "sm_13, map_f64_to_f32", "sm_90, sm_80", "sm_80, sm_90",
                "sm_90,debug", "sm_90 debug", "texmode_independent, sm_90", "sm_90, foo", "sm_90, sm_90"]:
        add(g, "target-options-" + tgt, ".version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n" % tgt, ("9.0", tgt))
    # which target of a list is used: the last one (nanosleep needs sm_70)
    for tgt in ["sm_80, sm_60", "sm_60, sm_80", "sm_60, texmode_independent", "texmode_independent, sm_80"]:
        add(g, "target-list-nanosleep-" + tgt, ".version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\n\tnanosleep.u32 1;\n\tret;\n}\n" % tgt, ("9.0", tgt))
    # .address_size variants
    for v, t in [("2.2", "sm_20"), ("2.3", "sm_20"), ("4.0", "sm_30"), ("6.0", "sm_70"), ("7.0", "sm_80"), ("9.0", "sm_90"), ("9.5", "sm_120")]:
        for asz in ["64", "32", "16", "128", "0x40"]:
            add(g, "address-size-%s-%s-%s" % (asz, v, t), ".version %s\n.target %s\n.address_size %s\n.visible .entry k()\n{\n\tret;\n}\n" % (v, t, asz), (v, t))
    # missing / misplaced directives
    add(g, "missing-version", ".target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "missing-target", ".version 9.0\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "missing-address-size", ".version 9.0\n.target sm_90\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "missing-address-size-full-decls", module([], MAIN, address_size=None), MAIN)
    add(g, "target-before-version", ".target sm_90\n.version 9.0\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "address-size-before-target", ".version 9.0\n.address_size 64\n.target sm_90\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "duplicate-version", ".version 9.0\n.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "duplicate-target", ".version 9.0\n.target sm_90\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "duplicate-address-size", ".version 9.0\n.target sm_90\n.address_size 64\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "empty-module", ".version 9.0\n.target sm_90\n.address_size 64\n", MAIN)
    add(g, "empty-kernel-body", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n}\n", MAIN)
    add(g, "kernel-without-visible", ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tret;\n}\n", MAIN)
    add(g, "duplicate-kernel", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    # the base module with all register declarations, at the pairs used elsewhere
    for vt in PAIRS_USED:
        add(g, "base-decls-%s-%s" % vt, module([], vt), vt)
    # register declaration rules
    for rt in ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "bf16", "f16x2", "bf16x2", "b32", "u32", "s32", "f32",
               "b64", "u64", "s64", "f64", "b128", "pred", "tf32", "e4m3", "e4m3x2", "f8", "u128", "s128", "f128", "b1", "b"]:
        for vt in [("4.1", "sm_52"), ("4.2", "sm_52"), ("4.2", "sm_53"), ("7.8", "sm_90"), ("8.2", "sm_90"), ("8.3", "sm_90"), ("9.0", "sm_90")]:
            add(g, "regdecl-%s-%s-%s" % (rt, vt[0], vt[1]), module([".reg .%s %%x<2>;" % rt], vt, with_decls=False), vt)
    add_body(g, "regdecl-scalar-and-range", [".reg .b32 %x, %y;", ".reg .b32 %z<2>;", "mov.b32 %x, %z1;"], with_decls=False)
    add_body(g, "regdecl-vector", [".reg .v2 .b32 %x;", "mov.b32 %x.x, 1;"], with_decls=False)
    add_body(g, "regdecl-array", [".reg .b32 %x[4];"], with_decls=False)
    add_body(g, "regdecl-zero-range", [".reg .b32 %x<0>;"], with_decls=False)
    add_body(g, "regdecl-no-percent", [".reg .b32 x;", "mov.b32 x, 1;"], with_decls=False)
    add_body(g, "regdecl-no-type", [".reg %x;"], with_decls=False)
    # duplicate register declarations
    add_body(g, "dup-reg-same-type", [".reg .b32 %x;", ".reg .b32 %x;"], with_decls=False)
    add_body(g, "dup-reg-other-type", [".reg .b32 %x;", ".reg .f32 %x;"], with_decls=False)
    add_body(g, "dup-reg-same-line", [".reg .b32 %x, %x;"], with_decls=False)
    add_body(g, "dup-reg-range-vs-scalar", [".reg .b32 %x<4>;", ".reg .b32 %x1;"], with_decls=False)
    add_body(g, "dup-reg-range-vs-range", [".reg .b32 %x<4>;", ".reg .b32 %x<4>;"], with_decls=False)
    add_body(g, "dup-reg-range-overlap-other-base", [".reg .b32 %x<20>;", ".reg .b32 %x1<2>;"], with_decls=False)
    add_body(g, "dup-reg-range-vs-range-other-size", [".reg .b32 %x<4>;", ".reg .b32 %x<8>;"], with_decls=False)
    add_body(g, "dup-reg-range-beyond", [".reg .b32 %x<4>;", ".reg .b32 %x4;"], with_decls=False)
    add_body(g, "dup-reg-pred-vs-b32", [".reg .pred %x;", ".reg .b32 %x;"], with_decls=False)
    add_body(g, "dup-reg-range-vs-scalar-in-range-2digit", [".reg .b32 %x<20>;", ".reg .b32 %x10;"], with_decls=False)
    add_body(g, "dup-reg-scalar-before-range", [".reg .b32 %x1;", ".reg .b32 %x<4>;"], with_decls=False)
    add_body(g, "dup-reg-range-other-base-vs-scalar", [".reg .b32 %x1<2>;", ".reg .b32 %x10;"], with_decls=False)
    add_body(g, "dup-reg-scalar-vs-range-other-base", [".reg .b32 %x10;", ".reg .b32 %x1<2>;"], with_decls=False)
    add_body(g, "dup-reg-range-other-base-use", [".reg .b32 %x<20>;", ".reg .b32 %x1<2>;", "mov.b32 %x10, 1;"], with_decls=False)
    add_body(g, "dup-reg-range-other-type", [".reg .b32 %x<2>;", ".reg .f32 %x<4>;"], with_decls=False)
    add_body(g, "reg-range-leading-zero-count", [".reg .b32 %x<02>;", "mov.b32 %x01, 1;"], with_decls=False)
    add_body(g, "reg-range-leading-zero-use", [".reg .b32 %x<2>;", "mov.b32 %x01, 1;"], with_decls=False)
    add_body(g, "reg-range-leading-zero-use-00", [".reg .b32 %x<2>;", "mov.b32 %x00, 1;"], with_decls=False)
    add_body(g, "reg-range-use-last", [".reg .b32 %x<2>;", "mov.b32 %x1, 1;"], with_decls=False)
    add_body(g, "reg-range-use-past-end", [".reg .b32 %x<2>;", "mov.b32 %x2, 1;"], with_decls=False)
    add_body(g, "reg-range-use-base", [".reg .b32 %x<2>;", "mov.b32 %x, 1;"], with_decls=False)
    add_body(g, "dup-reg-nested-scope", [".reg .b32 %x;", "{", ".reg .b32 %x;", "mov.b32 %x, 1;", "}"], with_decls=False)
    add_body(g, "dup-reg-vs-param", [".reg .b32 %x;", ".param .b32 %x;"], with_decls=False)
    add(g, "dup-reg-vs-kernel-param", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 a)\n{\n\t.reg .b32 a;\n\tret;\n}\n", MAIN)
    add(g, "reg-named-like-kernel", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 k;\n\tret;\n}\n", MAIN)
    add(g, "dup-reg-vs-global", ".version 9.0\n.target sm_90\n.address_size 64\n.global .b32 %x;\n.visible .entry k()\n{\n\t.reg .b32 %x;\n\tmov.b32 %x, 1;\n\tret;\n}\n", MAIN)
    add(g, "dup-global", ".version 9.0\n.target sm_90\n.address_size 64\n.global .b32 g;\n.global .b32 g;\n.visible .entry k()\n{\n\tret;\n}\n", MAIN)
    # undefined registers
    add_body(g, "undefined-reg-src", ["mov.b32 %r1, %zz1;"])
    add_body(g, "undefined-reg-dst", ["mov.b32 %zz1, %r1;"])
    add_body(g, "undefined-reg-out-of-range", ["mov.b32 %r1, %r4;"])
    add_body(g, "undefined-reg-range-base", ["mov.b32 %r1, %r;"])
    add_body(g, "undefined-pred-guard", ["@%q1 mov.b32 %r1, %r2;"])
    add_body(g, "reg-used-before-decl", ["mov.b32 %x, 1;", ".reg .b32 %x;"], with_decls=False)
    add_body(g, "reg-used-out-of-scope", ["{", ".reg .b32 %x;", "}", "mov.b32 %x, 1;"], with_decls=False)
    # duplicate labels
    add_body(g, "dup-label", ["L1:", "L1:"])
    add_body(g, "dup-label-with-insn", ["L1:", "mov.b32 %r1, 1;", "L1:", "mov.b32 %r1, 2;"])
    add_body(g, "dup-label-nested-scope", ["L1:", "{", "L1:", "mov.b32 %r1, 1;", "}"])
    add_body(g, "label-same-as-reg", ["%r1:", "mov.b32 %r1, 1;"])
    add_body(g, "label-same-as-kernel", ["k:", "mov.b32 %r1, 1;"])
    add_body(g, "label-unused", ["L1:", "mov.b32 %r1, 1;"])
    add_body(g, "label-dollar", ["$L__BB0_1:", "mov.b32 %r1, 1;"])
    add_body(g, "label-dup-across-functions", ["L1:"], pre=".func f()\n{\nL1:\n\tret;\n}")
    add_body(g, "label-same-as-function", ["f:"], pre=".func f()\n{\n\tret;\n}")


# ---------------------------------------------------------------- setp
def setp_insn(cmp, t, ftz=False, boolop=None, dest="%p1", a=None, b=None, c=None, reg=None):
    reg = reg or t
    a = a if a is not None else r(reg, 1)
    b = b if b is not None else r(reg, 2)
    mods = "setp." + cmp + ("." + boolop if boolop else "") + (".ftz" if ftz else "") + "." + t
    ops = [dest, a, b]
    if boolop and c is None:
        c = BOOL_C[boolop]
    if c is not None:
        ops.append(c)
    return mods + " " + ", ".join(ops) + ";"


def gen_setp():
    g = "setp"
    # (1) full cross product, single destination
    for t in TYPES:
        for cmp in CMPOPS:
            for ftz in (False, True):
                for bo in BOOLS:
                    add_body(g, "%s-%s-%s-%s" % (cmp, t, "ftz" if ftz else "noftz", bo or "nobool"),
                             [setp_insn(cmp, t, ftz, bo)])
    # (2) cross product with p|q destination (no ftz / BoolOp, then with .and)
    for t in TYPES:
        for cmp in CMPOPS:
            add_body(g, "pq-%s-%s" % (cmp, t), [setp_insn(cmp, t, dest="%p1|%p2")])
    for t in TYPES:
        add_body(g, "pq-and-%s" % t, [setp_insn(natural_cmp(t), t, boolop="and", dest="%p1|%p2")])
        if t == "f32":
            add_body(g, "pq-and-ftz-%s" % t, [setp_insn("lt", t, ftz=True, boolop="and", dest="%p1|%p2")])
    # (3) destination shapes
    shapes = collections.OrderedDict([
        ("p", "%p1"), ("p|q", "%p1|%p2"), ("_|q", "_|%p2"), ("p|_", "%p1|_"), ("_", "_"), ("_|_", "_|_"),
        ("p|p", "%p1|%p1"), ("p|q|r", "%p1|%p2|%p3"), ("p-space-q", "%p1 | %p2"), ("notp", "!%p1"),
        ("notp|q", "!%p1|%p2"), ("b32reg", "%r1"), ("u32reg", "%ru1"), ("f32reg", "%f1"), ("b16reg", "%rs1"),
        ("imm1", "1"), ("undeclared", "%p9"), ("label", "k"),
    ])
    for t in TYPES:
        for sn, d in shapes.items():
            add_body(g, "dest-%s-%s" % (sn, t), [setp_insn("eq", t, dest=d)])
    for sn in ["p|q", "_|q", "p|_", "_"]:
        for t in ["u32", "f32", "s64"]:
            add_body(g, "dest-%s-and-%s" % (sn, t), [setp_insn("eq", t, boolop="and", dest=shapes[sn])])
    # (4) immediates
    for t in TYPES:
        for iname, lit in IMMS.items():
            for pos in ("a", "b", "ab"):
                a = lit if "a" in pos else None
                b = lit if "b" in pos else None
                add_body(g, "imm-%s-%s-%s" % (iname, pos, t), [setp_insn("eq", t, a=a, b=b)])
    # (5) register type compatibility (declared register type vs instruction type)
    for t in TYPES:
        for rk in REG_KINDS:
            add_body(g, "regtype-%s-ab-%s" % (rk, t), [setp_insn("eq", t, reg=rk)])
            add_body(g, "regtype-%s-a-%s" % (rk, t), [setp_insn("eq", t, a=r(rk, 1))])
    for t in ["s32", "u32", "f32", "f64"]:  # ordered compare with mismatched regs
        for rk in ["b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64", "b16", "u16", "s16", "f16"]:
            add_body(g, "regtype-%s-ab-%s-%s" % (rk, natural_cmp(t), t), [setp_insn(natural_cmp(t), t, reg=rk)])
    # mixed signedness of a and b
    add_body(g, "regtype-mixed-s32-u32", ["setp.eq.s32 %p1, %ri1, %ru2;"])
    add_body(g, "regtype-mixed-b32-f32-for-f32", ["setp.lt.f32 %p1, %r1, %f2;"])
    add_body(g, "regtype-mixed-b32-f32-for-b32", ["setp.eq.b32 %p1, %f1, %r2;"])
    # (6) BoolOp / c operand
    for t in ["b16", "u32", "s64", "f32", "f64"]:
        cm = natural_cmp(t)
        add_body(g, "c-boolop-without-c-%s" % t, ["setp.%s.and.%s %%p1, %s, %s;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "c-without-boolop-%s" % t, ["setp.%s.%s %%p1, %s, %s, %%p3;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "c-without-boolop-neg-%s" % t, ["setp.%s.%s %%p1, %s, %s, !%%p3;" % (cm, t, r(t, 1), r(t, 2))])
        for cn, c in [("notp", "!%p3"), ("b32reg", "%r3"), ("u32reg", "%ru3"), ("f32reg", "%f3"), ("b16reg", "%rs3"),
                      ("imm1", "1"), ("imm0", "0"), ("imm2", "2"), ("not-imm1", "!1"), ("float-imm", "1.0"),
                      ("sink", "_"), ("undeclared", "%p9"), ("neg-reg", "!%r3"), ("pq", "%p3|%p4")]:
            add_body(g, "c-%s-and-%s" % (cn, t), [setp_insn(cm, t, boolop="and", c=c)])
        add_body(g, "count-5-operands-%s" % t, ["setp.%s.and.%s %%p1, %s, %s, %%p3, %%p4;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "count-2-operands-%s" % t, ["setp.%s.%s %%p1, %s;" % (cm, t, r(t, 1))])
        add_body(g, "count-1-operand-%s" % t, ["setp.%s.%s %%p1;" % (cm, t)])
        add_body(g, "count-0-operands-%s" % t, ["setp.%s.%s;" % (cm, t)])
        add_body(g, "count-trailing-comma-%s" % t, ["setp.%s.%s %%p1, %s, %s,;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "neg-source-a-%s" % t, ["setp.%s.%s %%p1, -%s, %s;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "not-source-a-%s" % t, ["setp.%s.%s %%p1, !%s, %s;" % (cm, t, r(t, 1), r(t, 2))])
        add_body(g, "pred-sources-%s" % t, ["setp.%s.%s %%p1, %%p2, %%p3;" % (cm, t)])
    # (7) modifier order / duplicates / unknown modifiers
    forms = [
        "setp.ftz.lt.f32 %p1, %f1, %f2;", "setp.lt.ftz.f32 %p1, %f1, %f2;", "setp.lt.f32.ftz %p1, %f1, %f2;",
        "setp.f32.lt %p1, %f1, %f2;", "setp.f32.ftz.lt %p1, %f1, %f2;", "setp.f32.lt.ftz %p1, %f1, %f2;",
        "setp.lt.and.ftz.f32 %p1, %f1, %f2, %p3;", "setp.lt.ftz.and.f32 %p1, %f1, %f2, %p3;",
        "setp.ftz.lt.and.f32 %p1, %f1, %f2, %p3;", "setp.and.lt.f32 %p1, %f1, %f2, %p3;",
        "setp.and.ftz.lt.f32 %p1, %f1, %f2, %p3;", "setp.lt.f32.and %p1, %f1, %f2, %p3;",
        "setp.f32.and.lt %p1, %f1, %f2, %p3;", "setp.f32.lt.and.ftz %p1, %f1, %f2, %p3;",
        "setp.ftz.f32.lt %p1, %f1, %f2;",
        "setp.and.eq.u32 %p1, %ru1, %ru2, %p3;", "setp.eq.u32.and %p1, %ru1, %ru2, %p3;", "setp.u32.eq %p1, %ru1, %ru2;",
        "setp.s32.lt %p1, %ri1, %ri2;", "setp.b16.ne.or %p1, %rs1, %rs2, %p3;",
        # duplicates
        "setp.lt.lt.f32 %p1, %f1, %f2;", "setp.lt.gt.f32 %p1, %f1, %f2;", "setp.lt.ftz.ftz.f32 %p1, %f1, %f2;",
        "setp.ftz.lt.ftz.f32 %p1, %f1, %f2;", "setp.lt.and.and.f32 %p1, %f1, %f2, %p3;",
        "setp.lt.and.or.f32 %p1, %f1, %f2, %p3;", "setp.lt.f32.f32 %p1, %f1, %f2;", "setp.lt.f32.f64 %p1, %f1, %f2;",
        "setp.eq.u32.s32 %p1, %ru1, %ru2;", "setp.eq.u32.u32 %p1, %ru1, %ru2;", "setp.eq.b32.u32 %p1, %r1, %r2;",
        # missing pieces
        "setp.lt %p1, %f1, %f2;", "setp.f32 %p1, %f1, %f2;", "setp %p1, %f1, %f2;", "setp.and.f32 %p1, %f1, %f2, %p3;",
        "setp.ftz.f32 %p1, %f1, %f2;", "setp.lt.and %p1, %f1, %f2, %p3;",
        # unknown or illegal modifiers
        "setp.foo.f32 %p1, %f1, %f2;", "setp.LT.f32 %p1, %f1, %f2;", "setp.lt.F32 %p1, %f1, %f2;", "setp.lte.f32 %p1, %f1, %f2;",
        "setp.neq.f32 %p1, %f1, %f2;", "setp.lt.AND.f32 %p1, %f1, %f2, %p3;", "setp.lt.nand.f32 %p1, %f1, %f2, %p3;",
        "setp.lt.not.f32 %p1, %f1, %f2, %p3;", "setp.lt.FTZ.f32 %p1, %f1, %f2;", "setp.lt.uni.f32 %p1, %f1, %f2;",
        "setp.lt.sat.f32 %p1, %f1, %f2;", "setp.lt.rn.f32 %p1, %f1, %f2;", "setp.lt.approx.f32 %p1, %f1, %f2;",
        "setp.lt.noftz.f32 %p1, %f1, %f2;", "setp.lt.sync.f32 %p1, %f1, %f2;",
        "setp.eq.pred %p1, %p2, %p3;", "setp.eq.b8 %p1, %rb1, %rb2;", "setp.eq.u8 %p1, %rub1, %rub2;",
        "setp.eq.s8 %p1, %rsb1, %rsb2;", "setp.eq.b128 %p1, %rd1, %rd2;", "setp.eq.tf32 %p1, %r1, %r2;",
        "setp.eq.e4m3 %p1, %rb1, %rb2;", "setp.eq.f8 %p1, %rb1, %rb2;", "setp.eq.u128 %p1, %rd1, %rd2;",
        "setp.eq..u32 %p1, %ru1, %ru2;", "setp. eq.u32 %p1, %ru1, %ru2;", "setp .eq.u32 %p1, %ru1, %ru2;",
        "SETP.eq.u32 %p1, %ru1, %ru2;", "setp.eq.u32 %p1, %ru1, %ru2", "setp.eq.u32 %p1 %ru1 %ru2;",
        "setp.eq.u32 %p1,%ru1,%ru2;",
    ]
    for i, f in enumerate(forms):
        add_body(g, "mods-" + f.split(",")[0].replace(" ", "~"), [f])
    # special registers and other operand kinds as sources
    for sreg in ["%tid.x", "%ntid.y", "%ctaid.z", "%laneid", "%warpid", "%clock", "%clock64", "%globaltimer", "%tid", "%lanemask_lt"]:
        for t in ["u32", "s32", "b32", "u64", "u16", "f32"]:
            add_body(g, "sreg-%s-%s" % (sreg, t), [setp_insn("eq", t, a=sreg, b="0" if t != "f32" else "0f00000000")])
    for nm, ins in [("addr-operand", "setp.eq.u32 %p1, [%rd1], %ru2;"), ("reg-plus-offset", "setp.eq.u32 %p1, %ru1+1, %ru2;"),
                    ("symbol-u64", "setp.eq.u64 %p1, k, %rdu1;"), ("global-var-u64", "setp.eq.u64 %p1, gv, %rdu1;"),
                    ("global-var-u32", "setp.eq.u32 %p1, gv, %ru1;"), ("vector-operand", "setp.eq.u32 %p1, {%ru1, %ru2}, %ru2;"),
                    ("imm-expr", "setp.eq.u32 %p1, %ru1, 1+2;"), ("imm-paren", "setp.eq.u32 %p1, %ru1, (1);"),
                    ("imm-neg-float", "setp.eq.f32 %p1, %f1, -1.5;"), ("imm-neg-hexfloat", "setp.eq.f32 %p1, %f1, -0f3F800000;"),
                    ("imm-char", "setp.eq.u32 %p1, %ru1, 'a';")]:
        add_body(g, "operand-" + nm, [ins], pre=".global .b32 gv;" if "gv" in ins else "")
    # (8) guards
    for gd in ["@%p1", "@!%p1", "@%p4", "@%r1", "@!%r1", "@%p9", "@1", "@_", "@!!%p1", "@%p1|%p2"]:
        add_body(g, "guard-%s" % gd, ["%s setp.lt.s32 %%p2, %%ri1, %%ri2;" % gd])
    add_body(g, "guard-self", ["@%p1 setp.lt.s32 %p1, %ri1, %ri2;"])
    # (9) version / target
    for vt in [("1.0", "sm_10"), ("1.2", "sm_12"), ("1.2", "sm_13"), ("1.4", "sm_13"), ("2.0", "sm_20"),
               ("2.3", "sm_12"), ("2.3", "sm_13"), ("4.0", "sm_30"), ("6.0", "sm_60"), ("6.3", "sm_75"),
               ("7.0", "sm_80"), ("8.0", "sm_90a"), ("9.5", "sm_120"), ("9.5", "sm_100a"), ("9.5", "sm_121f")]:
        for ins, nm in [("setp.lt.f64 %p1, %fd1, %fd2;", "lt-f64"), ("setp.lt.ftz.f32 %p1, %f1, %f2;", "lt-ftz-f32"),
                        ("setp.lt.s32 %p1|%p2, %ri1, %ri2;", "lt-s32-pq"), ("setp.eq.and.b64 %p1, %rd1, %rd2, %p3;", "eq-and-b64"),
                        ("setp.lt.s32 _, %ri1, %ri2;", "lt-s32-sink"), ("setp.lt.s32 _|%p2, %ri1, %ri2;", "lt-s32-sinkq"),
                        ("setp.lt.u16 %p1, %rus1, %rus2;", "lt-u16"), ("setp.eq.f32 %p1, %f1, 0d3FF0000000000000;", "f32-0d-imm"),
                        ("setp.eq.b16 %p1, %h1, %h2;", "eq-b16-f16regs"), ("setp.eq.and.u32 %p1, %ru1, %ru2, 1;", "c-imm")]:
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], nm), [ins], vt)


# ---------------------------------------------------------------- half setp
HALF_PAIRS = [("4.1", "sm_53"), ("4.2", "sm_50"), ("4.2", "sm_53"), ("6.5", "sm_75"), ("7.0", "sm_75"), ("7.0", "sm_80"),
              ("7.5", "sm_80"), ("7.7", "sm_80"), ("7.7", "sm_90"), ("7.8", "sm_80"), ("7.8", "sm_89"), ("7.8", "sm_90"),
              ("8.0", "sm_90a"), ("9.0", "sm_90"), ("9.5", "sm_100"), ("9.5", "sm_121")]


def half_insn(cmp, t, ftz=False, boolop=None, dest="%p1", regk="b", a=None, b=None, c=None):
    rk = HALF_BREG[t] if regk == "b" else HALF_FREG[t] if regk == "f" else regk
    return setp_insn(cmp, t, ftz, boolop, dest, a if a is not None else r(rk, 1), b if b is not None else r(rk, 2), c)


def gen_half():
    g = "half-setp"
    # (1) full cross product at the main pair
    for t in HALF:
        for cmp in CMPOPS:
            for ftz in (False, True):
                for bo in BOOLS:
                    for dn, d in (("p", "%p1"), ("pq", "%p1|%p2")):
                        for rk in ("b", "f"):
                            add_body(g, "%s-%s-%s-%s-%s-%sregs" % (cmp, t, "ftz" if ftz else "noftz", bo or "nobool", dn,
                                                                  HALF_BREG[t] if rk == "b" else HALF_FREG[t]),
                                     [half_insn(cmp, t, ftz, bo, d, rk)])
    # (2) reduced product over the version/target pairs
    for vt in HALF_PAIRS:
        if vt == MAIN:
            continue
        for t in HALF:
            add_body(g, "vt-%s-%s-lo-%s" % (vt[0], vt[1], t), [half_insn("lo", t)], vt)
            for cmp in ("gtu",):
                for ftz in (False, True):
                    for bo in (None, "and"):
                        for dn, d in (("p", "%p1"), ("pq", "%p1|%p2")):
                            for rk in ("b", "f"):
                                if rk == "f" and HALF_FREG[t] == "f16x2" and not has_f16x2_regs(*vt):
                                    continue
                                add_body(g, "vt-%s-%s-%s-%s-%s-%s-%s-%sregs" % (vt[0], vt[1], cmp, t, "ftz" if ftz else "noftz",
                                                                                bo or "nobool", dn,
                                                                                HALF_BREG[t] if rk == "b" else HALF_FREG[t]),
                                         [half_insn(cmp, t, ftz, bo, d, rk)], vt)
    # (3) destination shapes
    for t in HALF:
        for sn, d in [("_", "_"), ("_|q", "_|%p2"), ("p|_", "%p1|_"), ("_|_", "_|_"), ("p|p", "%p1|%p1"), ("notp", "!%p1"),
                      ("b16reg", "%rs1"), ("b32reg", "%r1"), ("imm", "1"), ("p|q|r", "%p1|%p2|%p3")]:
            add_body(g, "dest-%s-%s" % (sn, t), [half_insn("lt", t, dest=d)])
            if sn in ("_", "_|q", "p|_"):
                add_body(g, "dest-%s-and-%s" % (sn, t), [half_insn("lt", t, boolop="and", dest=d)])
    # (4) register type compatibility
    for t in HALF:
        for rk in REG_KINDS:
            add_body(g, "regtype-%s-ab-%s" % (rk, t), [half_insn("lt", t, regk=rk)])
            add_body(g, "regtype-%s-a-%s" % (rk, t), [half_insn("lt", t, a=r(rk, 1))])
    # declared .bf16 / .bf16x2 registers (not a register type in ptxas)
    for t, rt in [("bf16", "bf16"), ("bf16x2", "bf16x2"), ("f16", "bf16"), ("bf16", "f16")]:
        add_body(g, "declared-%s-regs-%s" % (rt, t), [".reg .%s %%x<3>;" % rt, "setp.lt.%s %%p1, %%x1, %%x2;" % t])
    # (5) immediates
    for t in HALF:
        for iname, lit in [("int1", "1"), ("hex16", "0x3C00"), ("hex32", "0x3C003C00"), ("f32hex", "0f3F800000"),
                           ("dec-float", "1.0"), ("f64hex", "0d3FF0000000000000"), ("f16hex-0h", "0h3C00")]:
            for pos in ("a", "b"):
                add_body(g, "imm-%s-%s-%s" % (iname, pos, t),
                         [half_insn("lt", t, a=lit if pos == "a" else None, b=lit if pos == "b" else None)])
    # (6) BoolOp / c
    for t in HALF:
        rk = HALF_BREG[t]
        add_body(g, "c-boolop-without-c-%s" % t, ["setp.lt.and.%s %%p1, %s, %s;" % (t, r(rk, 1), r(rk, 2))])
        add_body(g, "c-without-boolop-%s" % t, ["setp.lt.%s %%p1, %s, %s, %%p3;" % (t, r(rk, 1), r(rk, 2))])
        for cn, c in [("b32reg", "%r3"), ("imm1", "1"), ("not-imm0", "!0"), ("b16reg", "%rs3")]:
            add_body(g, "c-%s-%s" % (cn, t), [half_insn("lt", t, boolop="and", c=c)])
        add_body(g, "count-5-%s" % t, ["setp.lt.and.%s %%p1, %s, %s, %%p3, %%p3;" % (t, r(rk, 1), r(rk, 2))])
        add_body(g, "count-2-%s" % t, ["setp.lt.%s %%p1, %s;" % (t, r(rk, 1))])
    # (7) modifier order
    for f in ["setp.ftz.lt.f16 %p1, %h1, %h2;", "setp.lt.f16.ftz %p1, %h1, %h2;", "setp.f16.lt %p1, %h1, %h2;",
              "setp.f16x2.lt.and %p1|%p2, %r1, %r2, %p3;", "setp.lt.ftz.and.f16x2 %p1|%p2, %r1, %r2, %p3;",
              "setp.lt.and.ftz.f16x2 %p1|%p2, %r1, %r2, %p3;", "setp.bf16.lt %p1, %rs1, %rs2;",
              "setp.lt.bf16.and %p1, %rs1, %rs2, %p3;", "setp.lt.ftz.ftz.f16 %p1, %h1, %h2;",
              "setp.lt.f16.f16 %p1, %h1, %h2;", "setp.lt.f16.f32 %p1, %h1, %h2;", "setp.lt.f16x2.f16 %p1, %r1, %r2;",
              "setp.lt.bf16.f16 %p1, %rs1, %rs2;", "setp.lt.e4m3x2 %p1|%p2, %rs1, %rs2;", "setp.lt.f32x2 %p1|%p2, %rd1, %rd2;",
              "setp.lt.f64x2 %p1|%p2, %rd1, %rd2;", "setp.lt.tf32 %p1, %r1, %r2;", "setp.lt.bf16x4 %p1, %rd1, %rd2;"]:
        add_body(g, "mods-" + f.split(",")[0].replace(" ", "~"), [f])
    for gd in ["@%p1", "@!%p4"]:
        for t in HALF:
            add_body(g, "guard-%s-%s" % (gd, t), ["%s %s" % (gd, half_insn("lt", t, dest="%p2"))])


# ---------------------------------------------------------------- set
SET_DTYPES = ["u32", "s32", "f32"]
SET_XDTYPES = ["u16", "s16", "b16", "b32", "u64", "s64", "b64", "f64", "f16", "f16x2", "bf16", "bf16x2", "pred", "b8", "u8"]
SET_STYPES = TYPES + ["f16", "f16x2", "bf16", "bf16x2"]
STYPE_REG = dict((t, t) for t in TYPES)
STYPE_REG.update({"f16": "f16", "f16x2": "b32", "bf16": "b16", "bf16x2": "b32"})
DTYPE_REG = {"u32": "u32", "s32": "s32", "f32": "f32", "u16": "u16", "s16": "s16", "b16": "b16", "b32": "b32",
             "u64": "u64", "s64": "s64", "b64": "b64", "f64": "f64", "f16": "f16", "f16x2": "b32", "bf16": "b16",
             "bf16x2": "b32", "pred": "pred", "b8": "b8", "u8": "u8"}


def set_insn(cmp, dt, st, ftz=False, boolop=None, d=None, a=None, b=None, c=None, sreg=None):
    sreg = sreg or STYPE_REG[st]
    d = d if d is not None else r(DTYPE_REG[dt], 1)
    a = a if a is not None else r(sreg, 1)
    b = b if b is not None else r(sreg, 2)
    mods = "set." + cmp + ("." + boolop if boolop else "") + (".ftz" if ftz else "") + "." + dt + "." + st
    ops = [d, a, b]
    if boolop and c is None:
        c = BOOL_C[boolop]
    if c is not None:
        ops.append(c)
    return mods + " " + ", ".join(ops) + ";"


def gen_set():
    g = "set"
    # (1) cross product without BoolOp
    for dt in SET_DTYPES:
        for st in TYPES:
            for cmp in CMPOPS:
                for ftz in (False, True):
                    add_body(g, "%s-%s-%s-%s-nobool" % (cmp, dt, st, "ftz" if ftz else "noftz"), [set_insn(cmp, dt, st, ftz)])
    # (2) every dtype x stype x ftz with each BoolOp: with eq and with a rotating CmpOp
    k = 0
    for dt in SET_DTYPES:
        for st in TYPES:
            for ftz in (False, True):
                for bo in ("and", "or", "xor"):
                    for cmp in ("eq", CMPOPS[k % len(CMPOPS)]):
                        add_body(g, "%s-%s-%s-%s-%s" % (cmp, dt, st, "ftz" if ftz else "noftz", bo), [set_insn(cmp, dt, st, ftz, bo)])
                    k += 1
    # (3) extended dtypes and half stypes (eq, lt; with/without ftz)
    for dt in SET_DTYPES + SET_XDTYPES:
        for st in SET_STYPES:
            if dt in SET_DTYPES and st in TYPES:
                continue
            for cmp in ("eq", "lt"):
                add_body(g, "x-%s-%s-%s" % (cmp, dt, st), [set_insn(cmp, dt, st)])
            if st in ("f32", "f16", "f16x2", "bf16", "bf16x2"):
                add_body(g, "x-lt-ftz-%s-%s" % (dt, st), [set_insn("lt", dt, st, True)])
    # half stypes with all cmps and BoolOps for the valid dtypes
    for st in ["f16", "f16x2", "bf16", "bf16x2"]:
        for dt in ["u32", "s32", "f32", "u16", "s16", "f16", "f16x2", "bf16", "bf16x2"]:
            for cmp in CMPOPS:
                add_body(g, "half-%s-%s-%s" % (cmp, dt, st), [set_insn(cmp, dt, st)])
            add_body(g, "half-and-%s-%s" % (dt, st), [set_insn("lt", dt, st, boolop="and")])
    # (4) destination register compatibility
    for dt in SET_DTYPES + ["u16", "f16", "f16x2", "bf16", "bf16x2"]:
        st = "s32" if dt in SET_DTYPES else ("f16" if dt in ("u16", "f16", "bf16") else "f16x2")
        if dt == "bf16":
            st = "bf16"
        if dt == "bf16x2":
            st = "bf16x2"
        for rk in REG_KINDS:
            add_body(g, "dreg-%s-%s-%s" % (rk, dt, st), [set_insn("eq", dt, st, d=r(rk, 1))])
    # source register compatibility
    for st in ["u32", "f32", "b64", "s16"]:
        for rk in REG_KINDS:
            add_body(g, "sreg-%s-u32-%s" % (rk, st), [set_insn("eq", "u32", st, sreg=rk)])
    # (5) shapes
    shp = [
        ("dest-pq", set_insn("lt", "u32", "s32", d="%r1|%r2")), ("dest-ppq", set_insn("lt", "u32", "s32", d="%p1|%p2")),
        ("dest-sink", set_insn("lt", "u32", "s32", d="_")), ("dest-pred", set_insn("lt", "u32", "s32", d="%p1")),
        ("dest-imm", set_insn("lt", "u32", "s32", d="1")), ("dest-undeclared", set_insn("lt", "u32", "s32", d="%r9")),
        ("boolop-no-c", "set.lt.and.u32.s32 %r1, %ri1, %ri2;"), ("c-no-boolop", "set.lt.u32.s32 %r1, %ri1, %ri2, %p3;"),
        ("c-reg", set_insn("lt", "u32", "s32", boolop="and", c="%r3")), ("c-imm1", set_insn("lt", "u32", "s32", boolop="and", c="1")),
        ("c-not-imm", set_insn("lt", "u32", "s32", boolop="and", c="!0")), ("c-float", set_insn("lt", "u32", "s32", boolop="and", c="1.0")),
        ("count-2", "set.lt.u32.s32 %r1, %ri1;"), ("count-5", "set.lt.and.u32.s32 %r1, %ri1, %ri2, %p3, %p4;"),
        ("one-type", "set.lt.u32 %r1, %ru1, %ru2;"), ("one-type-f32", "set.lt.f32 %f1, %f1, %f2;"),
        ("three-types", "set.lt.u32.s32.s32 %r1, %ri1, %ri2;"), ("no-cmp", "set.u32.s32 %r1, %ri1, %ri2;"),
        ("two-cmps", "set.lt.gt.u32.s32 %r1, %ri1, %ri2;"), ("two-boolops", "set.lt.and.or.u32.s32 %r1, %ri1, %ri2, %p3;"),
        ("dup-ftz", "set.lt.ftz.ftz.u32.f32 %r1, %f1, %f2;"), ("order-ftz-first", "set.ftz.lt.u32.f32 %r1, %f1, %f2;"),
        ("order-types-first", "set.u32.f32.lt %r1, %f1, %f2;"), ("order-swapped-types", "set.lt.s32.u32 %ri1, %ru1, %ru2;"),
        ("order-and-first", "set.and.lt.u32.s32 %r1, %ri1, %ri2, %p3;"), ("order-ftz-after-types", "set.lt.u32.f32.ftz %r1, %f1, %f2;"),
        ("order-and-ftz", "set.lt.and.ftz.u32.f32 %r1, %f1, %f2, %p3;"), ("order-ftz-and", "set.lt.ftz.and.u32.f32 %r1, %f1, %f2, %p3;"),
        ("imm-a-int", set_insn("lt", "u32", "s32", a="1")), ("imm-ab-int", set_insn("lt", "u32", "s32", a="1", b="2")),
        ("imm-a-float-f32", set_insn("lt", "u32", "f32", a="1.5")), ("imm-a-f32hex-f32", set_insn("lt", "u32", "f32", a="0f3F800000")),
        ("imm-a-int-f32", set_insn("lt", "u32", "f32", a="1")), ("imm-a-float-s32", set_insn("lt", "u32", "s32", a="1.5")),
        ("imm-a-f32hex-b32", set_insn("eq", "u32", "b32", a="0f3F800000")), ("imm-a-int-f16", set_insn("lt", "u32", "f16", a="1")),
        ("imm-a-f32hex-f16", set_insn("lt", "u32", "f16", a="0f3F800000")), ("neg-a", "set.lt.u32.s32 %r1, -%ri1, %ri2;"),
        ("sat", "set.lt.sat.f32.f32 %f1, %f1, %f2;"), ("uni", "set.lt.uni.u32.s32 %r1, %ri1, %ri2;"),
        ("rn", "set.lt.rn.u32.f32 %r1, %f1, %f2;"), ("guard", "@%p1 set.lt.u32.s32 %r1, %ri1, %ri2;"),
        ("guard-not", "@!%p1 set.lt.and.f32.f64 %f1, %fd1, %fd2, !%p2;"),
        ("same-dest-as-src", "set.lt.s32.s32 %ri1, %ri1, %ri1;"),
        ("c-imm-u32-bf16", "set.lt.and.u32.bf16 %r1, %rs1, %rs2, 1;"), ("c-imm-bf16-bf16", "set.lt.and.bf16.bf16 %rs1, %rs1, %rs2, 1;"),
        ("c-imm-u32-bf16x2", "set.lt.and.u32.bf16x2 %r1, %r1, %r2, 1;"), ("c-imm-u32-f16", "set.lt.and.u32.f16 %r1, %h1, %h2, 1;"),
        ("c-imm-f16-f16", "set.lt.and.f16.f16 %h1, %h1, %h2, 1;"), ("c-pred-u32-bf16", "set.lt.and.u32.bf16 %r1, %rs1, %rs2, %p1;"),
        ("c-imm-f16x2-f16x2", "set.lt.and.f16x2.f16x2 %r1, %r1, %r2, !0;"),
    ]
    for n, ins in shp:
        add_body(g, n, [ins])
    for vt in [("1.0", "sm_10"), ("1.4", "sm_12"), ("1.4", "sm_13"), ("4.2", "sm_53"), ("6.4", "sm_53"), ("6.5", "sm_53"),
               ("6.5", "sm_52"), ("7.0", "sm_80"), ("7.8", "sm_80"), ("7.8", "sm_90"), ("9.5", "sm_120")]:
        for ins, nm in [("set.lt.u32.f64 %r1, %fd1, %fd2;", "u32-f64"), ("set.lt.ftz.f32.f32 %f1, %f1, %f2;", "ftz-f32-f32"),
                        ("set.lt.u32.f16 %r1, %h1, %h2;", "u32-f16"), ("set.lt.f16.f16 %h1, %h1, %h2;", "f16-f16"),
                        ("set.lt.u16.f16 %rs1, %h1, %h2;", "u16-f16"), ("set.lt.f16.f32 %h1, %f1, %f2;", "f16-f32"),
                        ("set.lt.u32.f16x2 %r1, %r1, %r2;", "u32-f16x2"), ("set.lt.f16x2.f16x2 %r1, %r1, %r2;", "f16x2-f16x2"),
                        ("set.lt.u32.bf16 %r1, %rs1, %rs2;", "u32-bf16"), ("set.lt.bf16.bf16 %rs1, %rs1, %rs2;", "bf16-bf16"),
                        ("set.lt.bf16.f32 %rs1, %f1, %f2;", "bf16-f32"), ("set.lt.bf16x2.bf16x2 %r1, %r1, %r2;", "bf16x2-bf16x2")]:
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], nm), [ins], vt)


# ---------------------------------------------------------------- selp
SELP_XTYPES = ["f16", "bf16", "f16x2", "bf16x2", "b8", "u8", "s8", "pred", "b128", "tf32"]
XTYPE_REG = {"f16": "f16", "bf16": "b16", "f16x2": "b32", "bf16x2": "b32", "b8": "b8", "u8": "u8", "s8": "s8",
             "pred": "pred", "b128": "b64", "tf32": "b32"}


def treg(t):
    return t if t in REG else XTYPE_REG[t]


def gen_selp():
    g = "selp"
    for t in TYPES + SELP_XTYPES:
        rk = treg(t)
        add_body(g, "basic-%s" % t, ["selp.%s %s, %s, %s, %%p1;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))])
        add_body(g, "basic-notc-%s" % t, ["selp.%s %s, %s, %s, !%%p1;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))])
    for t in TYPES:
        rk = treg(t)
        # immediates a/b
        for iname, lit in IMMS.items():
            for pos in ("a", "b", "ab"):
                a = lit if "a" in pos else r(rk, 2)
                b = lit if "b" in pos else r(rk, 3)
                add_body(g, "imm-%s-%s-%s" % (iname, pos, t), ["selp.%s %s, %s, %s, %%p1;" % (t, r(rk, 1), a, b)])
        # c operand
        for cn, c in [("notp", "!%p1"), ("imm1", "1"), ("imm0", "0"), ("imm2", "2"), ("not-imm1", "!1"), ("float", "1.0"),
                      ("b32reg", "%r1"), ("u32reg", "%ru1"), ("f32reg", "%f1"), ("b16reg", "%rs1"), ("sink", "_"),
                      ("undeclared", "%p9"), ("pq", "%p1|%p2")]:
            add_body(g, "c-%s-%s" % (cn, t), ["selp.%s %s, %s, %s, %s;" % (t, r(rk, 1), r(rk, 2), r(rk, 3), c)])
        # register compatibility: d, a, all three
        for rk2 in REG_KINDS:
            add_body(g, "regtype-d-%s-%s" % (rk2, t), ["selp.%s %s, %s, %s, %%p1;" % (t, r(rk2, 1), r(rk, 2), r(rk, 3))])
            add_body(g, "regtype-a-%s-%s" % (rk2, t), ["selp.%s %s, %s, %s, %%p1;" % (t, r(rk, 1), r(rk2, 2), r(rk, 3))])
            add_body(g, "regtype-dab-%s-%s" % (rk2, t), ["selp.%s %s, %s, %s, %%p1;" % (t, r(rk2, 1), r(rk2, 2), r(rk2, 3))])
        # shapes
        for sn, ins in [("dest-sink", "selp.%s _, %s, %s, %%p1;" % (t, r(rk, 2), r(rk, 3))),
                        ("dest-imm", "selp.%s 1, %s, %s, %%p1;" % (t, r(rk, 2), r(rk, 3))),
                        ("dest-pq", "selp.%s %%p1|%%p2, %s, %s, %%p1;" % (t, r(rk, 2), r(rk, 3))),
                        ("count-3", "selp.%s %s, %s, %s;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))),
                        ("count-5", "selp.%s %s, %s, %s, %%p1, %%p2;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))),
                        ("neg-a", "selp.%s %s, -%s, %s, %%p1;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))),
                        ("guard", "@%%p2 selp.%s %s, %s, %s, %%p1;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))),
                        ("ftz", "selp.ftz.%s %s, %s, %s, %%p1;" % (t, r(rk, 1), r(rk, 2), r(rk, 3))),
                        ("two-types", "selp.%s.%s %s, %s, %s, %%p1;" % (t, t, r(rk, 1), r(rk, 2), r(rk, 3)))]:
            add_body(g, "%s-%s" % (sn, t), [ins])
    for ins, nm in [("selp %r1, %r2, %r3, %p1;", "no-type"), ("selp.u32.s32 %r1, %r2, %r3, %p1;", "two-types-u32-s32"),
                    ("selp.eq.u32 %r1, %r2, %r3, %p1;", "cmp-modifier"), ("selp.uni.u32 %r1, %r2, %r3, %p1;", "uni"),
                    ("selp.sat.f32 %f1, %f2, %f3, %p1;", "sat"), ("selp.rn.f32 %f1, %f2, %f3, %p1;", "rn"),
                    ("selp.U32 %r1, %r2, %r3, %p1;", "upper-type"), ("selp.f32 %f1, %f2, %f3, %p1, ;", "trailing-comma"),
                    ("selp.b32 %r1, %r1, %r1, %p1;", "same-regs")]:
        add_body(g, nm, [ins])
    for vt in [("1.0", "sm_10"), ("1.4", "sm_12"), ("1.4", "sm_13"), ("7.8", "sm_90"), ("9.5", "sm_120")]:
        for ins, nm in [("selp.f64 %fd1, %fd2, %fd3, %p1;", "f64"), ("selp.u16 %rus1, %rus2, %rus3, %p1;", "u16"),
                        ("selp.f16 %h1, %h2, %h3, %p1;", "f16"), ("selp.b64 %rd1, %rd2, %rd3, %p1;", "b64")]:
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], nm), [ins], vt)


# ---------------------------------------------------------------- slct
SLCT_CTYPES = ["s32", "f32", "u32", "b32", "s64", "f64", "s16", "f16", "u64", "b16"]


def gen_slct():
    g = "slct"
    for dt in TYPES + ["f16", "bf16", "b8", "u8", "pred", "f16x2"]:
        dk = treg(dt)
        for ct in SLCT_CTYPES:
            ck = treg(ct)
            for ftz in (False, True):
                add_body(g, "%s-%s-%s" % (dt, ct, "ftz" if ftz else "noftz"),
                         ["slct%s.%s.%s %s, %s, %s, %s;" % (".ftz" if ftz else "", dt, ct, r(dk, 1), r(dk, 2), r(dk, 3), r(ck, 1))])
    # c register compatibility
    for dt in ["b32", "f64", "u16"]:
        dk = treg(dt)
        for ct in ["s32", "f32"]:
            for rk in REG_KINDS:
                add_body(g, "creg-%s-%s-%s" % (rk, dt, ct), ["slct.%s.%s %s, %s, %s, %s;" % (dt, ct, r(dk, 1), r(dk, 2), r(dk, 3), r(rk, 1))])
    # d / a / b register compatibility
    for dt in ["b16", "u32", "s32", "f32", "b64", "f64"]:
        dk = treg(dt)
        for rk in REG_KINDS:
            add_body(g, "dreg-%s-%s" % (rk, dt), ["slct.%s.s32 %s, %s, %s, %%ri1;" % (dt, r(rk, 1), r(dk, 2), r(dk, 3))])
            add_body(g, "areg-%s-%s" % (rk, dt), ["slct.%s.s32 %s, %s, %s, %%ri1;" % (dt, r(dk, 1), r(rk, 2), r(dk, 3))])
    # immediates
    for dt in ["u32", "f32", "f64", "s16", "b64"]:
        dk = treg(dt)
        for ct in ["s32", "f32"]:
            for iname, lit in [("int1", "1"), ("neg1", "-1"), ("dec-float", "1.5"), ("f32hex", "0f3F800000"),
                               ("f64hex", "0d3FF0000000000000"), ("hex", "0x80000000")]:
                add_body(g, "imm-a-%s-%s-%s" % (iname, dt, ct), ["slct.%s.%s %s, %s, %s, %s;" % (dt, ct, r(dk, 1), lit, r(dk, 3), r(treg(ct), 1))])
                add_body(g, "imm-c-%s-%s-%s" % (iname, dt, ct), ["slct.%s.%s %s, %s, %s, %s;" % (dt, ct, r(dk, 1), r(dk, 2), r(dk, 3), lit)])
    # shapes / modifiers
    for nm, ins in [("count-3", "slct.u32.s32 %r1, %r2, %r3;"), ("count-5", "slct.u32.s32 %r1, %r2, %r3, %ri1, %ri2;"),
                    ("dest-sink", "slct.u32.s32 _, %r2, %r3, %ri1;"), ("dest-imm", "slct.u32.s32 1, %r2, %r3, %ri1;"),
                    ("c-pred", "slct.u32.s32 %r1, %r2, %r3, %p1;"), ("c-notpred", "slct.u32.s32 %r1, %r2, %r3, !%p1;"),
                    ("c-neg", "slct.u32.s32 %r1, %r2, %r3, -%ri1;"), ("c-neg-f32", "slct.u32.f32 %r1, %r2, %r3, -%f1;"),
                    ("c-not-reg", "slct.u32.s32 %r1, %r2, %r3, !%ri1;"), ("one-type", "slct.u32 %r1, %r2, %r3, %ri1;"),
                    ("one-type-s32", "slct.s32 %ri1, %ri2, %ri3, %ri1;"), ("no-type", "slct %r1, %r2, %r3, %ri1;"),
                    ("three-types", "slct.u32.s32.s32 %r1, %r2, %r3, %ri1;"), ("order-ftz-last", "slct.u32.f32.ftz %r1, %r2, %r3, %f1;"),
                    ("order-ftz-mid", "slct.u32.ftz.f32 %r1, %r2, %r3, %f1;"), ("order-swapped", "slct.f32.u32 %r1, %r2, %r3, %f1;"),
                    ("dup-ftz", "slct.ftz.ftz.u32.f32 %r1, %r2, %r3, %f1;"), ("sat", "slct.sat.f32.f32 %f1, %f2, %f3, %f1;"),
                    ("uni", "slct.uni.u32.s32 %r1, %r2, %r3, %ri1;"), ("cmp", "slct.lt.u32.s32 %r1, %r2, %r3, %ri1;"),
                    ("guard", "@%p1 slct.u32.s32 %r1, %r2, %r3, %ri1;"), ("guard-not-ftz", "@!%p1 slct.ftz.f64.f32 %fd1, %fd2, %fd3, %f1;")]:
        add_body(g, nm, [ins])
    for vt in [("1.0", "sm_10"), ("1.4", "sm_12"), ("1.4", "sm_13"), ("9.5", "sm_120")]:
        for ins, nm in [("slct.f64.s32 %fd1, %fd2, %fd3, %ri1;", "f64-s32"), ("slct.ftz.u32.f32 %r1, %r2, %r3, %f1;", "ftz-u32-f32"),
                        ("slct.u64.f32 %rd1, %rd2, %rd3, %f1;", "u64-f32")]:
            add_body(g, "vt-%s-%s-%s" % (vt[0], vt[1], nm), [ins], vt)


# ---------------------------------------------------------------- predicate logic
def gen_pred():
    g = "pred"
    dvars = [("p", "%p1"), ("notp", "!%p1"), ("sink", "_"), ("b32", "%r1"), ("imm", "1"), ("pq", "%p1|%p2"), ("undeclared", "%p9")]
    svars = [("p", "%p2"), ("notp", "!%p2"), ("imm1", "1"), ("imm0", "0"), ("imm2", "2"), ("not-imm1", "!1"), ("neg-imm", "-1"),
             ("float", "1.0"), ("f32hex", "0f3F800000"), ("b32", "%r2"), ("b16", "%rs2"), ("b64", "%rd2"), ("f32", "%f2"),
             ("sink", "_"), ("undeclared", "%p9"), ("notnot", "!!%p2"), ("neg-p", "-%p2")]
    for op in ("and", "or", "xor"):
        for dn, d in dvars:
            add_body(g, "%s-dest-%s" % (op, dn), ["%s.pred %s, %%p2, %%p3;" % (op, d)])
        for sn, s in svars:
            add_body(g, "%s-a-%s" % (op, sn), ["%s.pred %%p1, %s, %%p3;" % (op, s)])
            add_body(g, "%s-b-%s" % (op, sn), ["%s.pred %%p1, %%p2, %s;" % (op, s)])
        add_body(g, "%s-both-neg" % op, ["%s.pred %%p1, !%%p2, !%%p3;" % op])
        add_body(g, "%s-count-2" % op, ["%s.pred %%p1, %%p2;" % op])
        add_body(g, "%s-count-4" % op, ["%s.pred %%p1, %%p2, %%p3, %%p4;" % op])
        add_body(g, "%s-guard" % op, ["@%%p4 %s.pred %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-guard-not" % op, ["@!%%p4 %s.pred %%p1, !%%p2, %%p3;" % op])
        add_body(g, "%s-ftz" % op, ["%s.ftz.pred %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-no-type" % op, ["%s %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-pred-b32" % op, ["%s.pred.b32 %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-b32-pred-src" % op, ["%s.b32 %%r1, %%r2, %%p1;" % op])
        add_body(g, "%s-b32-notpred-src" % op, ["%s.b32 %%r1, %%r2, !%%p1;" % op])
        add_body(g, "%s-b32-pred-dest" % op, ["%s.b32 %%p1, %%r2, %%r3;" % op])
        add_body(g, "%s-b32-all-pred" % op, ["%s.b32 %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-b32-not-reg" % op, ["%s.b32 %%r1, !%%r2, %%r3;" % op])
    for op in ("not", "mov"):
        for dn, d in dvars:
            add_body(g, "%s-dest-%s" % (op, dn), ["%s.pred %s, %%p2;" % (op, d)])
        for sn, s in svars:
            add_body(g, "%s-a-%s" % (op, sn), ["%s.pred %%p1, %s;" % (op, s)])
        add_body(g, "%s-count-3" % op, ["%s.pred %%p1, %%p2, %%p3;" % op])
        add_body(g, "%s-count-1" % op, ["%s.pred %%p1;" % op])
        add_body(g, "%s-guard" % op, ["@%%p4 %s.pred %%p1, %%p2;" % op])
        add_body(g, "%s-b32-pred-src" % op, ["%s.b32 %%r1, %%p1;" % op])
        add_body(g, "%s-b32-pred-dest" % op, ["%s.b32 %%p1, %%r1;" % op])
        add_body(g, "%s-u32-pred-src" % op, ["%s.u32 %%r1, %%p1;" % op] if op == "mov" else ["not.u32 %r1, %p1;"])
        add_body(g, "%s-no-type" % op, ["%s %%p1, %%p2;" % op])
        add_body(g, "%s-ftz" % op, ["%s.ftz.pred %%p1, %%p2;" % op])
    # register-type compatibility matrix of the logic ops over .pred/.b16/.b32/.b64 instruction types
    for op in ("and", "or", "xor", "not", "mov"):
        for t in ("pred", "b16", "b32", "b64"):
            for rk in REG_KINDS:
                if op in ("not", "mov"):
                    add_body(g, "regtype-%s-%s-a-%s" % (op, t, rk), ["%s.%s %s, %s;" % (op, t, r(t, 1), r(rk, 2))])
                else:
                    add_body(g, "regtype-%s-%s-a-%s" % (op, t, rk), ["%s.%s %s, %s, %s;" % (op, t, r(t, 1), r(rk, 2), r(t, 3))])
                add_body(g, "regtype-%s-%s-d-%s" % (op, t, rk),
                         ["%s.%s %s, %s;" % (op, t, r(rk, 1), r(t, 2))] if op in ("not", "mov")
                         else ["%s.%s %s, %s, %s;" % (op, t, r(rk, 1), r(t, 2), r(t, 3))])
    # other type suffixes on the logic ops
    for op in ("and", "or", "xor", "not", "cnot"):
        for t in ("u32", "s32", "f32", "b8", "u16", "f16", "b128"):
            rk = treg(t) if t in REG or t in XTYPE_REG else "b32"
            if op in ("not", "cnot"):
                add_body(g, "type-%s-%s" % (op, t), ["%s.%s %s, %s;" % (op, t, r(rk, 1), r(rk, 2))])
            else:
                add_body(g, "type-%s-%s" % (op, t), ["%s.%s %s, %s, %s;" % (op, t, r(rk, 1), r(rk, 2), r(rk, 3))])
    for nm, ins in [("cnot-pred", "cnot.pred %p1, %p2;"), ("cnot-b32", "cnot.b32 %r1, %r2;"), ("nand", "nand.pred %p1, %p2, %p3;"),
                    ("andn", "andn.pred %p1, %p2, %p3;"), ("nor", "nor.pred %p1, %p2, %p3;"),
                    ("mov-b16-pred", "mov.b16 %rs1, %p1;"), ("mov-pred-label", "mov.pred %p1, k;"),
                    ("selp-pred-to-int", "selp.u32 %r1, 1, 0, %p1;"), ("setp-int-to-pred", "setp.ne.u32 %p1, %r1, 0;")]:
        add_body(g, nm, [ins])


# ---------------------------------------------------------------- bra
FUNC_L9 = ".func f()\n{\nL9:\n\tret;\n}"


def gen_bra():
    g = "bra"
    for gn, gd in [("none", ""), ("p", "@%p1 "), ("notp", "@!%p1 "), ("b32", "@%r1 "), ("notb32", "@!%r1 "), ("undeclared", "@%p9 "),
                   ("imm", "@1 "), ("sink", "@_ "), ("pq", "@%p1|%p2 "), ("space", "@ %p1 "), ("notnot", "@!!%p1 "),
                   ("u16", "@%rus1 "), ("nospace", "@%p1")]:
        for uni in ("", ".uni"):
            add_body(g, "guard-%s%s" % (gn, uni.replace(".", "-")), ["%sbra%s L1;" % (gd, uni), "L1:"])
    shapes = [
        ("forward", ["bra L1;", "L1:"]), ("backward", ["L1:", "bra L1;"]), ("self-loop-guarded", ["L1:", "@%p1 bra L1;"]),
        ("undefined-label", ["bra L2;", "L1:"]), ("no-target", ["bra;"]), ("uni-no-target", ["bra.uni;"]),
        ("two-targets", ["bra L1, L1;", "L1:"]), ("register-target", ["bra %r1;"]), ("register64-target", ["bra %rd1;"]),
        ("imm-target", ["bra 0;"]), ("kernel-name-target", ["bra k;"]), ("function-target", ["bra f;"], ".func f()\n{\n\tret;\n}"),
        ("label-in-other-function", ["bra L9;"], FUNC_L9), ("label-in-other-function-and-local", ["bra L9;", "L9:"], FUNC_L9),
        ("label-offset", ["bra L1+4;", "L1:"]), ("label-in-brackets", ["bra [L1];", "L1:"]), ("label-parens", ["bra (L1);", "L1:"]),
        ("type-u32", ["bra.u32 L1;", "L1:"]), ("sync", ["bra.sync L1;", "L1:"]), ("uni-uni", ["bra.uni.uni L1;", "L1:"]),
        ("div", ["bra.div L1;", "L1:"]), ("UNI-upper", ["bra.UNI L1;", "L1:"]),
        ("label-then-ret", ["bra L1;", "L1: ret;"]), ("two-labels-one-line", ["bra L2;", "L1: L2:"]),
        ("label-nested-block", ["bra L1;", "{", "L1:", "mov.b32 %r1, 1;", "}"]),
        ("label-out-of-nested-block", ["{", "bra L1;", "}", "L1:"]),
        ("label-into-sibling-block", ["{", "bra L1;", "}", "{", "L1:", "mov.b32 %r1, 1;", "}"]),
        ("label-is-register-name", ["bra %r1;", "%r1:"]), ("label-dollar", ["bra $L1;", "$L1:"]),
        ("label-is-branchtargets", ["ts: .branchtargets L1;", "bra ts;", "L1:"]),
        ("label-global-var", ["bra gv;"], ".global .b32 gv;"),
        ("label-dup", ["bra L1;", "L1:", "L1:"]), ("target-undefined-guarded", ["@%p1 bra Lx;"]),
        ("bra-in-func-to-kernel-label", ["L9:"], ".func f()\n{\n\tbra L9;\n\tret;\n}"),
    ]
    for s in shapes:
        add_body(g, s[0], s[1], pre=s[2] if len(s) > 2 else "")
    for vt in [("1.0", "sm_10"), ("2.0", "sm_20"), ("4.0", "sm_30"), ("6.0", "sm_70"), ("9.5", "sm_120")]:
        add_body(g, "vt-%s-%s-bra" % vt, ["@%p1 bra L1;", "L1:"], vt)
        add_body(g, "vt-%s-%s-bra-uni" % vt, ["bra.uni L1;", "L1:"], vt)


# ---------------------------------------------------------------- brx.idx
def gen_brx():
    g = "brx"

    def bt(idx, before=True, lst="L1, L2", ins="brx.idx", tl="ts", guard=""):
        decl = "ts: .branchtargets %s;" % lst
        use = "%s%s %s, %s;" % (guard, ins, idx, tl)
        return [decl, use, "L1:", "L2:"] if before else [use, "L1:", "L2:", decl]

    for rk in REG_KINDS:
        add_body(g, "index-%s" % rk, bt(r(rk, 1)))
    for iname, lit in [("imm0", "0"), ("imm1", "1"), ("neg1", "-1"), ("big", "0x100000000"), ("float", "1.0"), ("f32hex", "0f00000000"),
                       ("label", "L1"), ("sink", "_"), ("notp", "!%p1")]:
        add_body(g, "index-%s" % iname, bt(lit))
    add_body(g, "after-use", bt("%ru1", before=False))
    add_body(g, "after-use-uni", bt("%ru1", before=False, ins="brx.idx.uni"))
    add_body(g, "uni", bt("%ru1", ins="brx.idx.uni"))
    for gd in ["@%p1 ", "@!%p1 ", "@%r1 "]:
        add_body(g, "guard-%s" % gd.strip(), bt("%ru1", guard=gd))
        add_body(g, "guard-uni-%s" % gd.strip(), bt("%ru1", guard=gd, ins="brx.idx.uni"))
    for tn, ins in [("no-idx", "brx"), ("idx-u32", "brx.idx.u32"), ("idx-s32", "brx.idx.s32"), ("uni-idx", "brx.uni.idx"),
                    ("idx-sync", "brx.idx.sync"), ("bra-idx", "bra.idx"), ("idx-uni-uni", "brx.idx.uni.uni")]:
        add_body(g, "insn-%s" % tn, bt("%ru1", ins=ins))
    add_body(g, "undefined-targets-list", ["brx.idx %ru1, tsx;", "L1:", "L2:"])
    add_body(g, "undefined-label-in-list", bt("%ru1", lst="L1, L3"))
    add_body(g, "empty-list", bt("%ru1", lst=""))
    add_body(g, "single-target", bt("%ru1", lst="L1"))
    add_body(g, "dup-target", bt("%ru1", lst="L1, L1, L2"))
    add_body(g, "list-trailing-comma", bt("%ru1", lst="L1, L2,"))
    add_body(g, "list-of-functions", bt("%ru1", lst="f"), pre=".func f()\n{\n\tret;\n}")
    add_body(g, "list-label-in-other-function", bt("%ru1", lst="L1, L9"), pre=FUNC_L9)
    add_body(g, "list-register", bt("%ru1", lst="%r1"))
    add_body(g, "tlist-is-label", ["brx.idx %ru1, L1;", "L1:", "L2:"])
    add_body(g, "tlist-is-calltargets", ["ts: .calltargets f;", "brx.idx %ru1, ts;", "L1:"], pre=".func f()\n{\n\tret;\n}")
    add_body(g, "tlist-is-register", ["brx.idx %ru1, %r2;", "L1:"])
    add_body(g, "tlist-in-other-function", ["brx.idx %ru1, ts9;", "L1:"], pre=".func f()\n{\nL9:\nts9: .branchtargets L9;\n\tret;\n}")
    add_body(g, "tlist-global-scope", ["brx.idx %ru1, ts;", "L1:"], pre="ts: .branchtargets L1;")
    add_body(g, "count-1", ["ts: .branchtargets L1;", "brx.idx %ru1;", "L1:"])
    add_body(g, "count-3", ["ts: .branchtargets L1;", "brx.idx %ru1, ts, ts;", "L1:"])
    add_body(g, "dup-branchtargets-name", ["ts: .branchtargets L1;", "ts: .branchtargets L2;", "brx.idx %ru1, ts;", "L1:", "L2:"])
    add_body(g, "branchtargets-unlabelled", [".branchtargets L1, L2;", "L1:", "L2:"])
    add_body(g, "branchtargets-unused", ["ts: .branchtargets L1, L2;", "L1:", "L2:"])
    add_body(g, "two-uses", ["ts: .branchtargets L1, L2;", "brx.idx %ru1, ts;", "brx.idx %ru2, ts;", "L1:", "L2:"])
    add_body(g, "targets-backward", ["L1:", "L2:", "ts: .branchtargets L1, L2;", "@%p1 brx.idx %ru1, ts;"])
    add_body(g, "in-func", [], pre=".func f()\n{\n\t.reg .u32 %x;\n\tts: .branchtargets L1;\n\tbrx.idx %x, ts;\nL1:\n\tret;\n}")
    for vt in [("5.0", "sm_30"), ("5.0", "sm_60"), ("6.0", "sm_20"), ("6.0", "sm_21"), ("6.0", "sm_30"), ("6.0", "sm_35"),
               ("6.0", "sm_70"), ("6.1", "sm_30"), ("6.2", "sm_75"), ("6.3", "sm_75"), ("7.0", "sm_80"), ("8.0", "sm_90a"),
               ("9.5", "sm_120"), ("9.5", "sm_100a")]:
        add_body(g, "vt-%s-%s" % vt, bt("%ru1"), vt)
        add_body(g, "vt-%s-%s-uni" % vt, bt("%ru1", ins="brx.idx.uni"), vt)
        add_body(g, "vt-%s-%s-after" % vt, bt("%ru1", before=False), vt)


# ---------------------------------------------------------------- call
F0 = ".func f0()\n{\n\tret;\n}"
F1 = (".func (.param .b32 fr) f1(.param .b32 fa)\n{\n\t.reg .b32 %t;\n\tld.param.b32 %t, [fa];\n"
      "\tst.param.b32 [fr], %t;\n\tret;\n}")
F2 = ".func f2(.param .b32 fa, .param .b64 fb)\n{\n\tret;\n}"
FALL = F0 + "\n" + F1 + "\n" + F2
PARAMS = ".param .b32 pa;\n\t.param .b32 pr;\n\t.param .b64 pb;\n\t.param .f32 pf;\n\t.param .b16 ph;"


def gen_call():
    g = "call"
    P = PARAMS.replace("\t", "").split("\n")
    cases = [
        # direct
        ("direct-noargs", ["call f0;"], FALL), ("direct-noargs-uni", ["call.uni f0;"], FALL),
        ("direct-noargs-empty-list", ["call f0, ();"], FALL), ("direct-noargs-empty-ret", ["call (), f0;"], FALL),
        ("direct-noargs-both-empty", ["call (), f0, ();"], FALL),
        ("direct-ret-arg", P + ["call (pr), f1, (pa);"], FALL), ("direct-ret-arg-uni", P + ["call.uni (pr), f1, (pa);"], FALL),
        ("direct-ret-arg-regs", ["call (%r1), f1, (%r2);"], FALL), ("direct-ret-arg-imm", P + ["call (pr), f1, (1);"], FALL),
        ("direct-ret-arg-reg-arg", P + ["call (pr), f1, (%r2);"], FALL), ("direct-ret-reg-ret", P + ["call (%r1), f1, (pa);"], FALL),
        ("direct-missing-ret", P + ["call f1, (pa);"], FALL), ("direct-missing-args", P + ["call (pr), f1;"], FALL),
        ("direct-too-many-args", P + ["call (pr), f1, (pa, pa);"], FALL), ("direct-too-few-args-f2", P + ["call f2, (pa);"], FALL),
        ("direct-two-args-f2", P + ["call f2, (pa, pb);"], FALL), ("direct-swapped-args-f2", P + ["call f2, (pb, pa);"], FALL),
        ("direct-arg-wrong-type-b64", P + ["call (pr), f1, (pb);"], FALL), ("direct-arg-wrong-type-f32", P + ["call (pr), f1, (pf);"], FALL),
        ("direct-arg-wrong-type-b16", P + ["call (pr), f1, (ph);"], FALL), ("direct-ret-wrong-type-b64", P + ["call (pb), f1, (pa);"], FALL),
        ("direct-ret-wrong-type-f32", P + ["call (pf), f1, (pa);"], FALL), ("direct-ret-on-void", P + ["call (pr), f0;"], FALL),
        ("direct-args-on-void", P + ["call f0, (pa);"], FALL), ("direct-two-rets", P + ["call (pr, pa), f1, (pa);"], FALL),
        ("direct-undefined-function", ["call fx;"], FALL), ("direct-undefined-with-args", P + ["call (pr), fx, (pa);"], FALL),
        ("direct-call-kernel", ["call k;"], FALL), ("direct-call-label", ["call L1;", "L1:"], FALL),
        ("direct-forward-decl-only", ["call fd;"], ".func fd();"), ("direct-extern", ["call fe;"], ".extern .func fe();"),
        ("direct-func-defined-after", ["call fz;"], "", ".func fz()\n{\n\tret;\n}"),
        ("direct-recursive-in-func", [], ".func fr()\n{\n\tcall fr;\n\tret;\n}"),
        ("direct-guard-p", ["@%p1 call f0;"], FALL), ("direct-guard-notp", ["@!%p1 call.uni f0;"], FALL),
        ("direct-guard-b32", ["@%r1 call f0;"], FALL), ("direct-guard-ret-arg", P + ["@%p1 call (pr), f1, (pa);"], FALL),
        ("direct-no-comma", ["call f0 ();"], FALL), ("direct-type-suffix", ["call.u32 f0;"], FALL),
        ("direct-sync", ["call.sync f0;"], FALL), ("direct-args-no-parens", P + ["call (pr), f1, pa;"], FALL),
        ("direct-ret-no-parens", P + ["call pr, f1, (pa);"], FALL),
        ("direct-param-in-block", ["{", ".param .b32 qa;", ".param .b32 qr;", "call (qr), f1, (qa);", "}"], FALL),
        ("direct-undeclared-param", ["call (pr), f1, (pa);"], FALL),
        # indirect
        ("ind-calltargets", P + ["mov.u64 %rd1, f1;", "Ftgt: .calltargets f1;", "call (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-after-use", P + ["mov.u64 %rd1, f1;", "call (pr), %rd1, (pa), Ftgt;", "Ftgt: .calltargets f1;"], FALL),
        ("ind-calltargets-uni", P + ["mov.u64 %rd1, f1;", "Ftgt: .calltargets f1;", "call.uni (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-mismatched-sig", P + ["mov.u64 %rd1, f1;", "Ftgt: .calltargets f1, f0;", "call (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-undefined-func", P + ["mov.u64 %rd1, f1;", "Ftgt: .calltargets f1, fx;", "call (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-void", ["mov.u64 %rd1, f0;", "Ftgt: .calltargets f0;", "call %rd1, Ftgt;"], FALL),
        ("ind-calltargets-void-empty-args", ["mov.u64 %rd1, f0;", "Ftgt: .calltargets f0;", "call %rd1, (), Ftgt;"], FALL),
        ("ind-calltargets-u32-fptr", P + ["Ftgt: .calltargets f1;", "call (pr), %r1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-b64-fptr", P + ["Ftgt: .calltargets f1;", "call (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-s64-fptr", P + ["Ftgt: .calltargets f1;", "call (pr), %rdi1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-f64-fptr", P + ["Ftgt: .calltargets f1;", "call (pr), %fd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-imm-fptr", P + ["Ftgt: .calltargets f1;", "call (pr), 0, (pa), Ftgt;"], FALL),
        ("ind-calltargets-global-scope", P + ["call (pr), %rd1, (pa), Ftgt;"], FALL + "\nFtgt: .calltargets f1;"),
        ("ind-calltargets-empty", P + ["Ftgt: .calltargets;", "call (pr), %rd1, (pa), Ftgt;"], FALL),
        ("ind-calltargets-kernel", ["Ftgt: .calltargets k;", "call %rd1, Ftgt;"], FALL),
        ("ind-proto", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call (pr), %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-uni", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call.uni (pr), %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-void", ["Fproto: .callprototype _ ();", "call %rd1, (), Fproto;"], FALL),
        ("ind-proto-void-no-args", ["Fproto: .callprototype _ ();", "call %rd1, Fproto;"], FALL),
        ("ind-proto-void-no-parens", ["Fproto: .callprototype _;", "call %rd1, Fproto;"], FALL),
        ("ind-proto-args-only", P + ["Fproto: .callprototype _ (.param .b32 _, .param .b64 _);", "call %rd1, (pa, pb), Fproto;"], FALL),
        ("ind-proto-named-params", P + ["Fproto: .callprototype (.param .b32 x) _ (.param .b32 y);", "call (pr), %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-name-not-underscore", P + ["Fproto: .callprototype (.param .b32 _) fn (.param .b32 _);", "call (pr), %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-wrong-arg-count", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call (pr), %rd1, (pa, pa), Fproto;"], FALL),
        ("ind-proto-wrong-arg-type", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call (pr), %rd1, (pb), Fproto;"], FALL),
        ("ind-proto-missing-ret", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-after-use", P + ["call (pr), %rd1, (pa), Fproto;", "Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);"], FALL),
        ("ind-proto-global-scope", P + ["call (pr), %rd1, (pa), Fproto;"], FALL + "\nFproto: .callprototype (.param .b32 _) _ (.param .b32 _);"),
        ("ind-proto-u32-fptr", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call (pr), %r1, (pa), Fproto;"], FALL),
        ("ind-proto-guard", P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "@%p1 call (pr), %rd1, (pa), Fproto;"], FALL),
        ("ind-proto-reg-args", ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);", "call (%r1), %rd1, (%r2), Fproto;"], FALL),
        ("ind-jumptable-u64", P + ["ld.global.u64 %rd1, [jmptbl];", "call (pr), %rd1, (pa), jmptbl;"],
         FALL + "\n.global .u64 jmptbl[1] = { f1 };"),
        ("ind-jumptable-u64-two", P + ["call (pr), %rd1, (pa), jmptbl;"], F1 + "\n.func (.param .b32 gr) g1(.param .b32 ga)\n{\n\tret;\n}\n.global .u64 jmptbl[2] = { f1, g1 };"),
        ("ind-jumptable-u32", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.global .u32 jmptbl[1] = { f1 };"),
        ("ind-jumptable-const", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.const .u64 jmptbl[1] = { f1 };"),
        ("ind-jumptable-b64", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.global .b64 jmptbl[1] = { f1 };"),
        ("ind-jumptable-mixed-sig", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.global .u64 jmptbl[2] = { f1, f0 };"),
        ("ind-jumptable-not-init", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.global .u64 jmptbl[1];"),
        ("ind-jumptable-ints", P + ["call (pr), %rd1, (pa), jmptbl;"], FALL + "\n.global .u64 jmptbl[1] = { 0 };"),
        ("ind-no-target-list", P + ["call (pr), %rd1, (pa);"], FALL),
        ("ind-no-target-list-void", ["call %rd1;"], FALL), ("ind-no-target-list-void-args", ["call %rd1, ();"], FALL),
        ("ind-undefined-list", P + ["call (pr), %rd1, (pa), Fnone;"], FALL),
        ("ind-list-is-label", P + ["L1:", "call (pr), %rd1, (pa), L1;"], FALL),
        ("ind-list-is-function", P + ["call (pr), %rd1, (pa), f1;"], FALL),
        ("ind-list-is-branchtargets", P + ["L1:", "bt: .branchtargets L1;", "call (pr), %rd1, (pa), bt;"], FALL),
        ("ind-mov-func-addr", ["mov.u64 %rd1, f1;"], FALL), ("ind-mov-func-addr-u32", ["mov.u32 %r1, f1;"], FALL),
        ("ind-mov-func-addr-b64", ["mov.b64 %rd1, f1;"], FALL),
        ("ind-mov-undefined-func-addr", ["mov.u64 %rd1, fx;"], FALL),
    ]
    for c in cases:
        post = c[3] if len(c) > 3 else ""
        ptx = module(c[1], MAIN, pre=c[2])
        if post:
            ptx += post + "\n"
        add(g, c[0], ptx, MAIN)
    # version / target straddling the indirect-call minimum (PTX 2.1, sm_20)
    for vt in [("1.4", "sm_13"), ("2.0", "sm_20"), ("2.1", "sm_13"), ("2.1", "sm_20"), ("2.3", "sm_20"), ("4.0", "sm_30"), ("6.0", "sm_70"),
               ("7.0", "sm_80"), ("9.5", "sm_120")]:
        fp = "%rd1" if vtuple(vt[0]) >= (2, 3) else "%r1"
        add(g, "vt-%s-%s-direct-noargs" % vt, module(["call f0;"], vt, pre=FALL), vt)
        add(g, "vt-%s-%s-direct-ret-arg" % vt, module(P + ["call (pr), f1, (pa);"], vt, pre=FALL), vt)
        add(g, "vt-%s-%s-ind-calltargets" % vt, module(P + ["Ftgt: .calltargets f1;", "call (pr), %s, (pa), Ftgt;" % fp], vt, pre=FALL), vt)
        add(g, "vt-%s-%s-ind-proto" % vt, module(P + ["Fproto: .callprototype (.param .b32 _) _ (.param .b32 _);",
                                                      "call (pr), %s, (pa), Fproto;" % fp], vt, pre=FALL), vt)
        # without any .param function parameters (sm_1x rejects .param formals)
        add(g, "vt-%s-%s-ind-proto-void" % vt, module(["Fproto: .callprototype _ ();", "call %s, (), Fproto;" % fp], vt, pre=F0), vt)
        add(g, "vt-%s-%s-ind-calltargets-void" % vt, module(["Ftgt: .calltargets f0;", "call %s, Ftgt;" % fp], vt, pre=F0), vt)
        add(g, "vt-%s-%s-direct-void" % vt, module(["call f0;"], vt, pre=F0), vt)


# ---------------------------------------------------------------- ret / exit
def gen_ret_exit():
    for g, ins in (("ret", "ret"), ("exit", "exit")):
        forms = [
            ("plain", ["%s;" % ins]), ("uni", ["%s.uni;" % ins]), ("guard-p", ["@%%p1 %s;" % ins]), ("guard-notp", ["@!%%p1 %s;" % ins]),
            ("guard-p-uni", ["@%%p1 %s.uni;" % ins]), ("guard-b32", ["@%%r1 %s;" % ins]), ("guard-undeclared", ["@%%p9 %s;" % ins]),
            ("operand-reg", ["%s %%r1;" % ins]), ("operand-imm", ["%s 0;" % ins]), ("operand-pred", ["%s %%p1;" % ins]),
            ("type-u32", ["%s.u32;" % ins]), ("sync", ["%s.sync;" % ins]), ("uni-uni", ["%s.uni.uni;" % ins]),
            ("UNI-upper", ["%s.UNI;" % ins]), ("then-insn", ["%s;" % ins, "mov.b32 %r1, 1;"]),
            ("twice", ["%s;" % ins, "%s;" % ins]), ("label-before", ["L1:", "%s;" % ins]), ("label-before-guarded", ["@%p1 bra L1;", "L1:", "%s;" % ins]),
            ("no-semicolon", ["%s" % ins]), ("parens", ["%s();" % ins]),
        ]
        for n, b in forms:
            add_body(g, n, b, tail_ret=False)
        # in a .func
        for n, f in [("in-func", ".func f()\n{\n\t%s;\n}" % ins), ("in-func-uni", ".func f()\n{\n\t%s.uni;\n}" % ins),
                     ("in-func-guard", ".func f()\n{\n\t.reg .pred %%q;\n\t@%%q %s;\n\t%s;\n}" % (ins, ins)),
                     ("in-func-with-retval", ".func (.param .b32 rv) f()\n{\n\tst.param.b32 [rv], 1;\n\t%s;\n}" % ins),
                     ("in-func-retval-not-set", ".func (.param .b32 rv) f()\n{\n\t%s;\n}" % ins),
                     ("in-func-no-ret", ".func f()\n{\n}"),
                     ("in-func-operand", ".func (.param .b32 rv) f()\n{\n\t.reg .b32 %%x;\n\t%s %%x;\n}" % ins)]:
            add(g, n, module([], MAIN, pre=f), MAIN)
        add_body(g, "kernel-without-%s" % ins, ["mov.b32 %r1, 1;"], tail_ret=False)
        add_body(g, "kernel-empty-body", [], tail_ret=False, with_decls=False)
        for vt in [("1.0", "sm_10"), ("2.0", "sm_20"), ("4.0", "sm_30"), ("7.0", "sm_75"), ("9.5", "sm_120"), ("9.5", "sm_100a")]:
            add_body(g, "vt-%s-%s" % vt, ["%s;" % ins], vt, tail_ret=False)
            add_body(g, "vt-%s-%s-uni" % vt, ["%s.uni;" % ins], vt, tail_ret=False)
        # exit followed by ret, ret followed by exit
        other = "exit" if ins == "ret" else "ret"
        add_body(g, "then-%s" % other, ["@%%p1 %s;" % ins, "%s;" % other], tail_ret=False)


# ---------------------------------------------------------------- nanosleep
def gen_nanosleep():
    g = "nanosleep"
    for rk in REG_KINDS:
        add_body(g, "u32-reg-%s" % rk, ["nanosleep.u32 %s;" % r(rk, 1)])
    for n, lit in [("imm42", "42"), ("imm0", "0"), ("neg1", "-1"), ("max-u32", "0xFFFFFFFF"), ("1ms", "1000000"),
                   ("over-1ms", "2000000"), ("33bit", "0x100000000"), ("float", "1.5"), ("f32hex", "0f3F800000"),
                   ("label", "k"), ("sink", "_"), ("notp", "!%p1")]:
        add_body(g, "u32-imm-%s" % n, ["nanosleep.u32 %s;" % lit])
    for t in ["u64", "s32", "b32", "u16", "f32", "pred", "s64", "b64"]:
        add_body(g, "type-%s" % t, ["nanosleep.%s %s;" % (t, r(treg(t), 1))])
        add_body(g, "type-%s-imm" % t, ["nanosleep.%s 42;" % t])
    for n, ins in [("no-type", "nanosleep %ru1;"), ("no-operand", "nanosleep.u32;"), ("two-operands", "nanosleep.u32 %ru1, %ru2;"),
                   ("uni", "nanosleep.uni.u32 %ru1;"), ("two-types", "nanosleep.u32.u32 %ru1;"), ("guard-p", "@%p1 nanosleep.u32 %ru1;"),
                   ("guard-notp", "@!%p1 nanosleep.u32 42;"), ("guard-b32", "@%r1 nanosleep.u32 42;"), ("brackets", "nanosleep.u32 [%rd1];"),
                   ("neg-reg", "nanosleep.u32 -%ru1;")]:
        add_body(g, n, [ins])
    add(g, "in-func", module([], MAIN, pre=".func f()\n{\n\tnanosleep.u32 100;\n\tret;\n}"), MAIN)
    for vt in [("6.1", "sm_70"), ("6.2", "sm_70"), ("6.2", "sm_62"), ("6.3", "sm_70"), ("6.3", "sm_62"), ("6.3", "sm_60"), ("6.3", "sm_72"), ("6.3", "sm_75"),
               ("6.4", "sm_70"), ("7.0", "sm_60"), ("7.0", "sm_53"), ("7.0", "sm_80"), ("6.0", "sm_70"), ("9.0", "sm_90"),
               ("9.5", "sm_120"), ("9.5", "sm_100a")]:
        if vt == MAIN:
            continue
        add_body(g, "vt-%s-%s-reg" % vt, ["nanosleep.u32 %ru1;"], vt)
        add_body(g, "vt-%s-%s-imm" % vt, ["nanosleep.u32 42;"], vt)
        add_body(g, "vt-%s-%s-guard" % vt, ["@%p1 nanosleep.u32 %r1;"], vt)


PAIRS_USED = sorted(set([MAIN] + HALF_PAIRS + [
    ("1.0", "sm_10"), ("1.2", "sm_12"), ("1.2", "sm_13"), ("1.4", "sm_12"), ("1.4", "sm_13"), ("2.0", "sm_20"), ("2.1", "sm_13"),
    ("2.1", "sm_20"), ("2.3", "sm_12"), ("2.3", "sm_13"), ("2.3", "sm_20"), ("4.0", "sm_30"), ("5.0", "sm_30"), ("5.0", "sm_60"),
    ("6.0", "sm_20"), ("6.0", "sm_30"), ("6.0", "sm_60"), ("6.0", "sm_70"), ("6.2", "sm_70"), ("6.2", "sm_75"), ("6.3", "sm_70"),
    ("6.3", "sm_75"), ("6.4", "sm_53"), ("6.5", "sm_52"), ("6.5", "sm_53"), ("7.0", "sm_53"), ("7.0", "sm_60"), ("9.5", "sm_120"),
    ("9.5", "sm_100a"), ("9.5", "sm_121f")]), key=lambda vt: (vtuple(vt[0]), target_num(vt[1]), vt[1]))

GROUPS = collections.OrderedDict([
    ("module", gen_module), ("setp", gen_setp), ("half-setp", gen_half), ("set", gen_set), ("selp", gen_selp),
    ("slct", gen_slct), ("pred", gen_pred), ("bra", gen_bra), ("brx", gen_brx), ("call", gen_call),
    ("ret", gen_ret_exit), ("nanosleep", gen_nanosleep),
])

# --------------------------------------------------------------------------
# Running ptxas
# --------------------------------------------------------------------------

_PREFIX = re.compile(r"^ptxas\s+(?:(?P<file>\S+?), line (?P<line>\d+); )?(?P<sev>error|fatal|warning|info)\s*:\s*(?P<msg>.*)$")


def normalize(line):
    """'ptxas /tmp/x.ptx, line 12; error   : Msg' -> ('error', 12, 'error: Msg')."""
    m = _PREFIX.match(line.strip())
    if not m:
        return None, None, line.strip()
    ln = int(m.group("line")) if m.group("line") else None
    return m.group("sev"), ln, "%s: %s" % (m.group("sev"), m.group("msg").strip())


def run_case(args):
    idx, case, tmpdir = args
    path = os.path.join(tmpdir, "case%05d.ptx" % idx)
    with open(path, "w") as f:
        f.write(case["ptx"])
    p = subprocess.run(["ptxas", "-arch=" + case["arch"], path, "-o", "/dev/null"], capture_output=True, text=True)
    os.unlink(path)
    # keep the output deterministic: the temporary path can appear inside messages
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
    accept = p.returncode == 0
    out = collections.OrderedDict()
    out["id"] = case["id"]
    out["group"] = case["group"]
    out["ptx"] = case["ptx"]
    out["accept"] = accept
    first = ""
    if not accept and errors:
        first = re.sub(r"^line \d+: ", "", errors[0])
    out["ptxas"] = first
    out["arch"] = case["arch"]
    if not accept:
        out["errors"] = errors
    if warnings:
        out["warnings"] = warnings
    return out


def ptxas_version():
    p = subprocess.run(["ptxas", "--version"], capture_output=True, text=True)
    return p.stdout.strip().splitlines()[-2:] if p.stdout else ["unknown"]


def generate(only=None):
    """Build the case list (all groups, or one; `exit` cases come from the `ret` generator)."""
    for name, fn in GROUPS.items():
        if only and name != ("ret" if only == "exit" else only):
            continue
        fn()
    return CASES


def write_readme(outdir, results, version_lines):
    by = collections.OrderedDict()
    for res in results:
        d = by.setdefault(res["group"], [0, 0])
        d[0 if res["accept"] else 1] += 1
    total_acc = sum(v[0] for v in by.values())
    total_rej = sum(v[1] for v in by.values())
    # version/target table from the module-group pair cases
    pair = {}
    for res in results:
        m = re.match(r"^module-pair-(\d+)_(\d+)-(.+)-\d{4}$", res["id"])
        if m:
            pair[("%s.%s" % (m.group(1), m.group(2)), m.group(3).replace("-", "_"))] = res["accept"]
    lines = []
    lines.append("# ptxas agreement matrix\n")
    lines.append("Generated by `tools/ptxas_matrix.py`; do not edit by hand.  Each line of `cases.jsonl` is one small")
    lines.append("PTX module (a single instruction under test, or the minimum extra lines that the instruction")
    lines.append("needs) together with whether NVIDIA `ptxas` accepts it.  The Rust validator must agree with the")
    lines.append("`accept` field on every case.  `tools/ptxas_matrix_findings.md` summarises the rules.\n")
    lines.append("## Regenerate\n")
    lines.append("```")
    lines.append('export PATH=$(python3 -c "import nvidia,os;print(os.path.dirname(nvidia.__path__[0]))")/nvidia/cu13/bin:$PATH')
    lines.append("python3 tools/ptxas_matrix.py          # ~2-3 minutes with 3 ptxas processes")
    lines.append("```\n")
    lines.append("ptxas used:\n")
    lines.append("```")
    lines.extend(version_lines)
    lines.append("```\n")
    lines.append("Each case ran as `ptxas -arch=<arch> case.ptx -o /dev/null`; exit status 0 means `accept: true`.\n")
    lines.append("## Record format\n")
    lines.append("| field | meaning |")
    lines.append("| --- | --- |")
    lines.append("| `id` | unique, `<group>-<description>-<NNNN>` |")
    lines.append("| `group` | `module`, `setp`, `half-setp`, `set`, `selp`, `slct`, `pred`, `bra`, `brx`, `call`, `ret`, `exit`, `nanosleep` |")
    lines.append("| `ptx` | the complete module text |")
    lines.append("| `accept` | ptxas exit status was 0 |")
    lines.append("| `ptxas` | first error/fatal line of ptxas output with the `ptxas <file>, line N; ` prefix removed and the severity normalised to `error: ...` / `fatal: ...`; empty when accepted |")
    lines.append("| `arch` | the `-arch` passed to ptxas: the module's `.target` when ptxas accepts it as -arch; `sm_75` for targets below sm_75 and for unknown targets; `sm_110*` for `sm_101*`; for a comma list the last `sm_` entry (the one ptxas uses); an unknown letter suffix is dropped (`sm_90x` -> `sm_90`). ptxas checks feature requirements against `.target`, so the substitution does not change verdicts |")
    lines.append("| `errors` | (rejected cases only) every error/fatal line, `line N: ` kept, the trailing `fatal: Ptx assembly aborted due to errors` dropped.  ptxas does *not* report errors in source order: e.g. the `PTX .version X does not support .target Y` error (line 2) is reported after instruction errors |")
    lines.append("| `warnings` | (only when present) warning lines |")
    lines.append("")
    lines.append("Base module: `.version V` / `.target T` / `.address_size 64` (omitted for V < 2.3, where ptxas rejects the")
    lines.append("directive) / `.visible .entry k()` with these registers declared:\n")
    lines.append("```")
    lines.append(decls("9.0", "sm_90"))
    lines.append("```\n")
    lines.append("`.reg .f16x2 %hh<4>;` is declared only when V >= 4.2 and T >= sm_53 (ptxas rejects `.f16x2` registers")
    lines.append("otherwise).  `.reg .f16` is accepted at every version/target.  `.bf16` / `.bf16x2` are *not* register types")
    lines.append("in ptxas (`Parsing error near '.bf16': syntax error`), so bf16 operands use `.b16` / `.b32` registers.")
    lines.append("Unless a case id contains `vt-<version>-<target>` (or is a module-level case), the module uses `.version %s` / `.target %s`.\n" % MAIN)
    lines.append("## Counts\n")
    lines.append("| group | cases | accepted | rejected |")
    lines.append("| --- | ---: | ---: | ---: |")
    for gname, (a, b) in by.items():
        lines.append("| %s | %d | %d | %d |" % (gname, a + b, a, b))
    lines.append("| **total** | **%d** | **%d** | **%d** |" % (total_acc + total_rej, total_acc, total_rej))
    lines.append("")
    lines.append("## Version/target pairs\n")
    lines.append("Minimal module `.version V` `.target T` `.visible .entry k() { ret; }` (no `.address_size`).  Every valid PTX")
    lines.append("version listed below is accepted with every target from the first version shown for it onwards (the accepted")
    lines.append("set is contiguous up to 9.5).  Versions not in the list (e.g. %s) are rejected with" % ", ".join(INVALID_VERSIONS))
    lines.append("`fatal: Unsupported .version X; current version is '9.5'`.\n")
    lines.append("Versions known to this ptxas: " + ", ".join(VALID_VERSIONS) + "\n")
    lines.append("| target | minimum .version | -arch used |")
    lines.append("| --- | --- | --- |")
    for t in VALID_TARGETS:
        ok = [v for v in VALID_VERSIONS if pair.get((v, t))]
        lines.append("| %s | %s | %s |" % (t, ok[0] if ok else "never", arch_for(t)))
    lines.append("")
    used = set()
    for res in results:
        if res["group"] == "module":
            continue
        m = re.match(r"^\.version (\S+)\n\.target ([^\n]+)\n", res["ptx"])
        if m:
            used.add((m.group(1), m.group(2)))
    used = sorted(used, key=lambda vt: (vtuple(vt[0]), target_num(vt[1]), vt[1]))
    lines.append("Version/target pairs used by the instruction cases (all groups but `module`): "
                 + ", ".join("(%s, %s)" % vt for vt in used) + ".")
    lines.append("The main pair is (%s, %s).\n" % MAIN)
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "tests", "data", "ptxas_matrix"))
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--group", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--readme-only", action="store_true", help="rewrite README.md from the existing cases.jsonl")
    args = ap.parse_args()
    if args.readme_only:
        with open(os.path.join(args.out, "cases.jsonl")) as f:
            results = [json.loads(line) for line in f if line.strip()]
        write_readme(args.out, results, ptxas_version())
        return
    cases = generate(args.group)
    if args.list:
        for c in cases:
            print(c["id"], c["arch"])
        print(len(cases), "cases", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory(prefix="ptxas_matrix_") as tmp:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(run_case, [(i, c, tmp) for i, c in enumerate(cases)]))
    if args.group:
        for res in results:
            print(("ACC " if res["accept"] else "REJ ") + res["id"] + "  " + res["ptxas"])
        return
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "cases.jsonl"), "w") as f:
        for res in results:
            f.write(json.dumps(res, ensure_ascii=True) + "\n")
    write_readme(args.out, results, ptxas_version())
    c = collections.Counter((r_["group"], r_["accept"]) for r_ in results)
    print("%d cases written" % len(results))
    for (gname, acc), n in sorted(c.items()):
        print("  %-10s %-6s %d" % (gname, acc, n))


if __name__ == "__main__":
    main()
