#!/usr/bin/env python3
"""ptxas table matrix: one-instruction PTX modules generated from ptxvm's instruction
table (tools/isa_table.json), each checked with NVIDIA ptxas.

Regenerate the committed data (from the repository root):

    PTXVM_TABLE_JSON=tools/isa_table.json cargo test --release --test isa_table -- --ignored
    python3 tools/ptxas_table_matrix.py     # ~66.5k cases, ~8 minutes with 2 ptxas processes

Options:
    --out FILE     output (default tests/data/ptxas_matrix/table_cases.jsonl)
    --jobs N       parallel ptxas processes (default 2)
    --limit N      run only every (total/N)-th case, N cases in all (a quick trial); the
                   output then goes to --out as usual, so give a scratch --out
    --table PATH   the table (default tools/isa_table.json)
    --list         print the generated cases (kind, version, target, instr); run nothing

Output format (JSON lines):

    line 1:  {"template": "<module text with {version}, {target} and {instr}>"}
    then:    {"id", "row", "opcode", "kind", "version", "target", "instr", "accept", "error"}

A case's module is the template with `{version}`, `{target}` and `{instr}` replaced
(plain string replacement; each placeholder occurs exactly once).  `row` is the index
of the table row the case was generated from (null for the hand-written families);
`opcode` is ptxvm's opcode (the first dotted component, e.g. `cp` for `cp.async`).
`accept` is ptxas's exit status == 0; `error` is the first error (or fatal) line of
ptxas's output with the `ptxas FILE, line N; ` prefix removed and the severity
normalised to `error: ` / `fatal: ` (the trailing `Ptx assembly aborted due to
errors` is ignored), trimmed to 160 characters; empty when accepted.

Kinds (table rows; all at `.version 8.7` / `.target sm_90` unless said otherwise, or at the
row's minimum .version / sm_ where that is higher):
    base      the minimal form: the first word of each `need` group, for each type
              combination the row allows (`.opaque` in a cvt slot is spelled .e4m3x2
              and .e5m2x2; `.b128` is skipped, see below)
    word      base + one optional word, or base with a `need` word replaced by another
              word of its group, for each type combination
    word100   the same for the first type combination at `.version 9.0` / `sm_100a`
    pair      base + two words of one group (a conflict), first type combination
    drop      base without the word of one `need` group
    foreign   base + one word of ptxvm's word list that the row does not allow,
              first type combination; every such word for the first row of an
              opcode, a hashed half of them for the opcode's other rows
    type      base with one type slot replaced by each of the 21 type spellings
    count     base with one operand fewer and one more (cvt: only the first type
              combination of each destination type)
    gate      base at the row's minimum (.version, sm_) and one step below each
    cross     base + two words from two different groups (or a `need` alternative and
              an optional word); every pair for the first type combination, a sample
              (chosen by hash, so deterministic) for the others
    cross100  the cross pairs that contain a vector word (.v8 for ld/st/ldu; .v2/.v4/.v8
              for atom/red), at `.version 9.0` / `sm_100a`, for the 32/64-bit and
              half-precision types
Kinds (hand-written forms, e.g. mma, wgmma, cp.async, mbarrier, ldmatrix/stmatrix,
and the table's `open`/`own` opcodes):
    hand      a form written from the PTX ISA text (most valid, some deliberately not)
    hdrop     a hand form without one of its modifiers
    hforeign  a hand form plus one word it does not take (a hashed sample)
    hcount    a hand form with one operand fewer / one more
    hgate     a hand form at other targets and lower .version values
              (the derived kinds are hashed samples, at most a fixed multiple of the
              family's number of forms, see HAND_CAPS)
and `template`: a trivial instruction at every (.version, .target) pair used, which
checks the template itself.

Operands: every type class has its own registers: %h (.b16: 16-bit types and the
8-bit ones), %r (.b32: 32-bit integer/bit types, .f16x2, .bf16x2, .tf32), %f (.f32),
%rd (.b64; %rd1 holds the kernel parameter and is the address register), %fd (.f64),
%p (.pred).  Addresses are `[%rd1]` (`[p]` for the .param spaces).

The template has no `.address_size` directive: the directive needs `.version 2.3`,
and the gate cases go below that; ptxas 13 accepts 64-bit addresses either way and
behaves the same with and without it for every probe we tried (it supports only
64-bit addressing).  `.b128` registers need `.version 8.3` / sm_70, so the template
cannot declare them, and `.b128` type cases are not generated.

Forms on which ptxas 13.5 crashes (SIGSEGV) are not generated (see ptxas_crashes():
`.cc` on an instruction without a type word, ld .v8 with 16-bit types, ...).

ptxas is found on PATH or in the pip package `nvidia-cuda-nvcc` (CUDA 13).  Every
case runs as `ptxas -arch=<arch> case.ptx -o /dev/null`, where <arch> is the
module's `.target`, or sm_75 for targets below sm_75 (this ptxas cannot generate
code for those; feature checks still use `.target`), or sm_110 for sm_101
(renamed in CUDA 13).  Cases on which ptxas crashes (killed by a signal) are not
written; their ids are printed.

The generator is deterministic: the case list and its order depend only on this
file and the table; no randomness is used (samples are chosen by a hash of the
case text).
"""

import argparse
import collections
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

# --------------------------------------------------------------------------
# ptxas discovery and -arch
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
    """-arch for `.target target`: itself; sm_75 below sm_75; sm_110* for sm_101*."""
    if target in PTXAS_ARCHS:
        return target
    m = re.match(r"^sm_(\d+)([a-z]*)$", target)
    if not m:
        return "sm_75"
    n, suf = int(m.group(1)), m.group(2)
    if n < 75:
        return "sm_75"
    if n == 101:
        return "sm_110" + suf
    return "sm_75"


# --------------------------------------------------------------------------
# Versions and targets
# --------------------------------------------------------------------------

# PTX ISA versions this ptxas accepts (checked with the template), oldest first.  The
# template's kernel parameter list needs 1.4.
VERSIONS = ("1.4 1.5 2.0 2.1 2.2 2.3 3.0 3.1 3.2 4.0 4.1 4.2 4.3 5.0 6.0 6.1 6.2 6.3 6.4 6.5 "
            "7.0 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 8.0 8.1 8.2 8.3 8.4 8.5 8.6 8.7 8.8 "
            "9.0 9.1 9.2 9.3 9.4 9.5").split()

# Plain sm_ targets and the lowest .version that accepts each (measured with the template).
TARGET_MIN_VERSION = collections.OrderedDict([
    ("sm_10", "1.4"), ("sm_11", "1.4"), ("sm_12", "1.4"), ("sm_13", "1.4"), ("sm_20", "2.0"), ("sm_21", "2.0"),
    ("sm_30", "3.0"), ("sm_32", "4.0"), ("sm_35", "3.1"), ("sm_37", "4.1"), ("sm_50", "4.0"), ("sm_52", "4.1"),
    ("sm_53", "4.2"), ("sm_60", "5.0"), ("sm_61", "5.0"), ("sm_62", "5.0"), ("sm_70", "6.0"), ("sm_72", "6.1"),
    ("sm_75", "6.3"), ("sm_80", "7.0"), ("sm_86", "7.1"), ("sm_87", "7.4"), ("sm_88", "9.0"), ("sm_89", "7.8"),
    ("sm_90", "7.8"), ("sm_100", "8.6"), ("sm_103", "8.8"), ("sm_110", "9.0"), ("sm_120", "8.7"), ("sm_121", "8.8"),
])
# architecture-specific targets used by the hand-written families
EXTRA_MIN_VERSION = {"sm_90a": "8.0", "sm_100a": "8.6", "sm_100f": "8.8", "sm_120a": "8.7", "sm_103a": "8.8"}


def vnum(v):
    a, b = v.split(".")
    return int(a) * 10 + int(b)


def vstr(n):
    return "%d.%d" % (n // 10, n % 10)


def smnum(t):
    return int(re.match(r"^sm_(\d+)", t).group(1))


def min_version(target):
    return TARGET_MIN_VERSION.get(target) or EXTRA_MIN_VERSION[target]


def fit_version(v, target):
    """max(v, the target's minimum .version)."""
    mv = min_version(target)
    return v if vnum(v) >= vnum(mv) else mv


def prev_version(v):
    """The PTX ISA version before v (None for the first)."""
    n = vnum(v)
    lower = [x for x in VERSIONS if vnum(x) < n]
    return lower[-1] if lower else None


def version_at_least(n):
    """The first listed version >= n (n = major*10+minor)."""
    for x in VERSIONS:
        if vnum(x) >= n:
            return x
    return VERSIONS[-1]


def target_at_least(sm):
    for t in TARGET_MIN_VERSION:
        if smnum(t) >= sm:
            return t
    return "sm_120"


def prev_target(t):
    """The plain target before t in TARGET_MIN_VERSION order (by number)."""
    n = smnum(t)
    lower = [x for x in TARGET_MIN_VERSION if smnum(x) < n]
    return lower[-1] if lower else None


BASE_VT = ("8.7", "sm_90")
NEW_VT = ("9.0", "sm_100a")

# --------------------------------------------------------------------------
# The module template
# --------------------------------------------------------------------------

TEMPLATE = """.version {version}
.target {target}

.global .align 16 .b8 gl[1024];
.shared .align 16 .b8 sh[1024];

.visible .entry k(.param .u64 p)
{
\t.reg .pred %p<9>;
\t.reg .b8 %b<9>;
\t.reg .b16 %h<33>;
\t.reg .b32 %r<65>;
\t.reg .b64 %rd<17>;
\t.reg .f32 %f<65>;
\t.reg .f64 %fd<17>;
\tld.param.u64 %rd1, [p];
\t{instr}
\tret;
}
"""
for _ph in ("{version}", "{target}", "{instr}"):
    assert TEMPLATE.count(_ph) == 1, _ph


def module(version, target, instr):
    return TEMPLATE.replace("{version}", version).replace("{target}", target).replace("{instr}", instr)


# --------------------------------------------------------------------------
# Registers
# --------------------------------------------------------------------------

ALL_TYPES = [".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64",
             ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".tf32", ".pred"]
# spellings used for ptxvm's `.opaque` (exotic) type in a cvt slot
OPAQUE = [".e4m3x2", ".e5m2x2"]
REG_LIMIT = {"%p": 8, "%h": 32, "%r": 64, "%rd": 16, "%f": 64, "%fd": 16, "%b": 8}


def reg_class(ty):
    """Register prefix for an operand of type ty (None: no register fits, e.g. .b128)."""
    if ty == ".pred":
        return "%p"
    if ty in (".b8", ".u8", ".s8", ".b16", ".u16", ".s16", ".f16", ".bf16", ".e4m3x2", ".e5m2x2", ".e4m3", ".e5m2"):
        return "%h"
    if ty == ".f32":
        return "%f"
    if ty in (".b32", ".u32", ".s32", ".f16x2", ".bf16x2", ".tf32"):
        return "%r"
    if ty == ".f64":
        return "%fd"
    if ty in (".b64", ".u64", ".s64"):
        return "%rd"
    return None


class NoReg(Exception):
    pass


class Alloc:
    """Hands out registers: %rd from 2 (%rd1 is the address), the others from 1."""

    def __init__(self):
        self.next = collections.Counter()

    def reg(self, ty):
        c = reg_class(ty)
        if c is None:
            raise NoReg(ty)
        self.next[c] += 1
        n = self.next[c] + (1 if c == "%rd" else 0)
        if n > REG_LIMIT[c]:
            raise NoReg(ty)
        return "%s%d" % (c, n)

    def vec(self, ty, n):
        return "{" + ",".join(self.reg(ty) for _ in range(n)) + "}"

    def val(self, ty, n):
        """A vector of n (braces) or, for n == 1, a plain register."""
        return self.vec(ty, n) if n > 1 else self.reg(ty)


WIDER = {".u16": ".u32", ".s16": ".s32", ".u32": ".u64", ".s32": ".s64", ".b16": ".b32", ".b32": ".b64",
         ".f16": ".f32", ".f32": ".f64"}


def vec_n(words):
    for w, n in ((".v2", 2), (".v4", 4), (".v8", 8)):
        if w in words:
            return n
    return 1


SPACES = {".global", ".shared", ".shared::cta", ".shared::cluster", ".local", ".param", ".param::func",
          ".param::entry", ".const"}


def addr(words):
    if any(w in words for w in (".param", ".param::entry", ".param::func")):
        return "[p]"
    return "[%rd1]"


# --------------------------------------------------------------------------
# Operands of a table row's instruction
# --------------------------------------------------------------------------


def operands(op, types, words):
    """The operand list for `op` with the given type words (one per slot) and modifier
    words; raises NoReg when a type has no register (e.g. .b128)."""
    a = Alloc()
    t = types[0] if types else None
    W = set(words)
    R = a.reg
    if op in ("abs", "neg", "brev", "rsqrt", "sqrt", "rcp", "sin", "cos", "ex2", "lg2", "tanh"):
        return [R(t), R(t)]
    if op in ("add", "sub", "addc", "subc", "copysign", "rem", "div", "min", "max", "and", "or", "xor"):
        return [R(t), R(t), R(t)]
    if op in ("mul", "mul24"):
        if ".wide" in W:
            return [R(WIDER.get(t, t)), R(t), R(t)]
        return [R(t), R(t), R(t)]
    if op in ("mad", "mad24", "madc"):
        if ".wide" in W:
            wt = WIDER.get(t, t)
            return [R(wt), R(t), R(t), R(wt)]
        return [R(t), R(t), R(t), R(t)]
    if op in ("fma", "sad"):
        return [R(t), R(t), R(t), R(t)]
    if op == "activemask":
        return [R(t)]
    if op == "bfe":
        return [R(t), R(t), R(".u32"), R(".u32")]
    if op == "bfi":
        return [R(t), R(t), R(t), R(".u32"), R(".u32")]
    if op in ("bfind", "clz", "popc"):
        return [R(".u32"), R(t)]
    if op in ("bmsk", "szext"):
        return [R(t), R(t), R(".u32")]
    if op in ("shl", "shr"):
        return [R(t), R(t), R(".u32")]
    if op in ("shf", "prmt", "fns"):
        return [R(".b32"), R(".b32"), R(".b32"), R(".b32")]
    if op in ("dp2a", "dp4a"):
        return [R(".b32"), R(".b32"), R(".b32"), R(".b32")]
    if op == "cvt" and ".pack" in W:
        # cvt.pack.sat.u8.s32.b32 d, a, b, c / cvt.pack.sat.u16.s32 d, a, b: d is 32-bit
        ops = [R(".b32"), R(".s32"), R(".s32")]
        if len(types) > 2:
            ops.append(R(".b32"))
        return ops
    if op == "cvt":
        dt, st = types[0], types[1]
        ops = [R(dt), R(st)]
        if st == ".f32" and dt in (".f16x2", ".bf16x2", ".e4m3x2", ".e5m2x2"):
            ops.append(R(".f32"))
        if ".rs" in W and st == ".f32" and dt in (".f16x2", ".bf16x2"):
            ops.append(R(".b32"))
        return ops
    if op == "cvta":
        return [R(t), R(t)]
    if op == "isspacep":
        return [R(".pred"), "%rd1"]
    if op == "testp":
        return [R(".pred"), R(t)]
    if op == "elect":
        return ["%s|%s" % (R(".b32"), R(".pred")), R(".b32")]
    if op == "lop3":
        if ".and" in W or ".or" in W:
            return ["%s|%s" % (R(".b32"), R(".pred")), R(".b32"), R(".b32"), R(".b32"), "0x3c", R(".pred")]
        return [R(".b32"), R(".b32"), R(".b32"), R(".b32"), "0x3c"]
    if op == "match":
        return [R(".b32"), R(t), R(".b32")]
    if op == "redux":
        return [R(t), R(t), R(".b32")]
    if op == "shfl":
        d = R(".b32")
        rest = [R(".b32"), R(".b32"), R(".b32")]
        if ".sync" in W:
            rest.append(R(".b32"))
        return [d] + rest
    if op == "vote":
        d = R(".b32") if t == ".b32" else R(".pred")
        ops = [d, R(".pred")]
        if ".sync" in W:
            ops.append(R(".b32"))
        return ops
    if op in ("stacksave", "stackrestore"):
        return [R(t)]
    if op in ("bar", "barrier"):
        if t is not None:  # bar.red
            return [R(t), "0", R(".pred")]
        if ".warp" in W:
            return [R(".b32")]
        if ".cluster" in W:
            return []
        if ".arrive" in W:
            return ["0", "32"]
        return ["0"]
    if op in ("membar", "griddepcontrol", "brkpt", "trap"):
        return []
    if op == "prefetchu":
        return [addr(W)]
    if op in ("ld", "ldu"):
        n = vec_n(W)
        ops = [a.val(t, n), addr(W)]
        if ".L2::cache_hint" in W:
            ops.append(R(".b64"))
        return ops
    if op == "st" and ".bulk" in W:
        return ["[%rd1]", R(".b64"), "0"]  # st.bulk [a], size, initval (0)
    if op in ("st", "red") and ".async" in W:
        # st.async / red.async [a], b, [mbar]
        return ["[%rd1]", a.val(t, vec_n(W)), "[sh]"]
    if op == "st":
        n = vec_n(W)
        ops = [addr(W), a.val(t, n)]
        if ".L2::cache_hint" in W:
            ops.append(R(".b64"))
        return ops
    if op in ("atom", "red"):
        n = vec_n(W)
        ops = [a.val(t, n)] if op == "atom" else []
        ops.append(addr(W))
        ops.append(a.val(t, n))
        if op == "atom" and ".cas" in W:
            ops.append(a.val(t, n))
        if ".L2::cache_hint" in W:
            ops.append(R(".b64"))
        return ops
    if op == "cp":  # cp.async (the bulk/tensor copies are hand-written forms)
        if ".commit_group" in W or ".wait_all" in W:
            return []
        if ".wait_group" in W:
            return ["0"]
        if ".mbarrier" in W:
            return ["[sh]"]
        ops = ["[sh]", "[%rd1]", "16"]
        if ".L2::cache_hint" in W:
            ops.append(R(".b64"))
        return ops
    if op == "mbarrier":
        if ".init" in W:
            return ["[sh]", "32"]
        if ".inval" in W:
            return ["[sh]"]
        if ".pending_count" in W:
            return [R(".b32"), R(".b64")]
        if ".test_wait" in W or ".try_wait" in W:
            return [R(".pred"), "[sh]", R(".b32") if ".parity" in W else R(".b64")]
        if ".arrive" in W or ".arrive_drop" in W:
            ops = ["_" if ".shared::cluster" in W else R(".b64"), "[sh]"]
            if ".expect_tx" in W:
                ops.append("128")
            elif ".noComplete" in W:
                ops.append("2")  # mbarrier.arrive.noComplete needs the count
            return ops
        return ["[sh]", "128"]  # expect_tx / complete_tx
    if op in ("ldmatrix", "stmatrix"):
        n = 4 if ".x4" in W else 2 if ".x2" in W else 1
        if ".m16n16" in W:
            n *= 2
        v = a.vec(".b32", n)
        return [v, "[%rd1]"] if op == "ldmatrix" else ["[%rd1]", v]
    raise KeyError(op)


# --------------------------------------------------------------------------
# Case collection
# --------------------------------------------------------------------------

CASES = []
_seen = set()
_counters = collections.Counter()


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


TYPE_WORDS = set(ALL_TYPES)


def ptxas_crashes(instr):
    """Forms on which ptxas 13.5 crashes (SIGSEGV); they are not generated:
    - `.cc` on an instruction with no type word (bar.cc, trap.cc, membar.cta.cc, fence.sc.cc.sys, ...);
    - ld with .v8 and a 16-bit integer type (ld.v8.s16 ...; ld.global.v8.s16 too), and ld .v8
      with an 8-bit type in the .param/.const spaces or with .L2::cache_hint;
    - wmma with two shape words (wmma.mma....m32n8k16.f32.m8n8k32.f32)."""
    head = instr.split(" ")[0].rstrip(";")
    if head.startswith("$"):
        return False
    words = ["." + w for w in head.split(".")[1:]]
    if ".cc" in words and not TYPE_WORDS.intersection(words):
        return True
    if head.startswith("ld.") and ".v8" in words:
        if set(words) & {".b16", ".u16", ".s16"}:
            return True
        if set(words) & {".b8", ".u8", ".s8"} and set(words) & {".param", ".param::entry", ".param::func", ".const",
                                                                 ".L2::cache_hint"}:
            return True
    if head.startswith("wmma.") and len([w for w in words if re.match(r"^\.m\d+n\d+k\d+$", w)]) > 1:
        return True
    return False


def add(kind, opcode, row, instr, vt=BASE_VT):
    version, target = vt
    key = (instr, version, target)
    if key in _seen or ptxas_crashes(instr):
        return False
    _seen.add(key)
    tag = ("r%03d" % row) if row is not None else ("h-" + slug(opcode))
    _counters[(tag, kind)] += 1
    cid = "%s-%s-%04d" % (tag, kind, _counters[(tag, kind)])
    CASES.append({"id": cid, "row": row, "opcode": opcode, "kind": kind, "version": version, "target": target,
                  "instr": instr})
    return True


def hkey(*parts):
    """A deterministic sort key for sampling."""
    return hashlib.sha1("\x00".join(str(p) for p in parts).encode()).hexdigest()


def sample(items, n, *salt):
    """n items chosen by hash (deterministic), in their original order."""
    if len(items) <= n:
        return list(items)
    keep = set(sorted(range(len(items)), key=lambda i: hkey(i, items[i], *salt))[:n])
    return [x for i, x in enumerate(items) if i in keep]


# --------------------------------------------------------------------------
# Table rows
# --------------------------------------------------------------------------


def slot_types(row):
    """Allowed spellings per type slot (.opaque -> OPAQUE)."""
    out = []
    for slot in row["types"]:
        s = []
        for t in slot:
            s.extend(OPAQUE if t == ".opaque" else [t])
        out.append(s)
    return out


def type_combos(row):
    slots = slot_types(row)
    if not slots:
        return [()]
    return list(itertools.product(*slots))


# ptxas reads most modifiers in any order, but not these: `cvta.to.global` (not
# `cvta.global.to`), `bar.cta.sync` / `bar.warp.sync` / `barrier.cluster.arrive` (the scope
# right after the opcode).  Words listed here go first, in this order.
WORD_ORDER = {
    "cvta": [".to"],
    "bar": [".warp", ".cta", ".cluster", ".sync", ".arrive", ".red", ".wait"],
    "barrier": [".warp", ".cta", ".cluster", ".sync", ".arrive", ".red", ".wait"],
}


def ordered(row, words):
    """Modifier words in group order (WORD_ORDER first; words of no group last, in the
    given order)."""
    pos = {}
    for gi, g in enumerate(row["groups"]):
        for wi, w in enumerate(g["words"]):
            pos.setdefault(w, (gi, wi))
    big = (len(row["groups"]), 0)
    first = WORD_ORDER.get(row["opcode"], [])
    return sorted(dict.fromkeys(words),
                  key=lambda w: ((0, first.index(w)) if w in first else (1, 0), pos.get(w, big)))


def make_instr(op, words, types, ops):
    head = op + "".join(words) + "".join(types)
    return head + (" " + ", ".join(ops) if ops else "") + ";"


def row_instr(row, words, types, extra_words=(), ops_override=None):
    op = row["opcode"]
    ws = ordered(row, list(words)) + [w for w in extra_words if w not in words]
    try:
        ops = operands(op, list(types), ws) if ops_override is None else ops_override
    except NoReg:
        return None
    except KeyError:
        # an opcode operands() has no shape for (a row added to the table later): its rows
        # are left out, and generate() names them
        UNSHAPED.add(op)
        return None
    return make_instr(op, ws, types, ops)


def base_words(row):
    return [g["words"][0] for g in row["groups"] if g["need"]]


# gen_row() collects its cases here; generate() adds them kind by kind in KIND_ORDER, so
# that a module text two rows (or kinds) both produce is kept once, under the first kind
# in this order (e.g. a row's base form is not lost to another row's `type` case)
PENDING = []
UNSHAPED = set()
KIND_ORDER = ["base", "gate", "drop", "word", "word100", "pair", "count", "cross", "cross100", "type", "foreign"]


def gen_row(i, row, all_words, sibling=False):
    op = row["opcode"]
    combos = [c for c in type_combos(row) if ".b128" not in c]
    if not combos:
        return
    first = combos[0]
    bw = base_words(row)
    groups = row["groups"]

    # the row's own (.version, .target) for the kinds at the base pair: 8.7 / sm_90, or the
    # row's minimum where that is higher
    rvt = BASE_VT
    if row["sm"] > smnum(BASE_VT[1]) or row["version"] > vnum(BASE_VT[0]):
        t = target_at_least(row["sm"]) if row["sm"] > smnum(BASE_VT[1]) else BASE_VT[1]
        rvt = (fit_version(version_at_least(max(row["version"], vnum(BASE_VT[0]))), t), t)

    def put(kind, words, types, vt=None, extra=()):
        vt = vt or rvt
        s = row_instr(row, words, types, extra)
        if s is not None:
            PENDING.append((kind, op, i, s, vt))

    # base
    for c in combos:
        put("base", bw, c)
    # word: one optional word / one need alternative
    variants = []  # (words) single-step variants of base
    for gi, g in enumerate(groups):
        for w in g["words"]:
            if g["need"]:
                if w == g["words"][0]:
                    continue
                ws = [x if x != g["words"][0] else w for x in bw]
            else:
                ws = bw + [w]
            variants.append(ws)
    for c in combos:
        for ws in variants:
            put("word", ws, c)
    for ws in variants:
        put("word100", ws, first, NEW_VT)
    # pair: two words of one group
    for g in groups:
        for w1, w2 in itertools.combinations(g["words"], 2):
            ws = [x for x in bw if x not in g["words"]] + [w1, w2]
            put("pair", ws, first)
    # drop: each need group removed
    for c in combos:
        for g in groups:
            if g["need"]:
                put("drop", [x for x in bw if x not in g["words"]], c)
    # foreign words: all of them for an opcode's first row, a hashed half for its other rows
    allowed = set(w for g in groups for w in g["words"])
    cand = [w for w in all_words if w not in allowed]
    if sibling:
        cand = sample(cand, len(cand) // 2, "foreign", i)
    for w in cand:
        put("foreign", bw, first, extra=[w])
    # type: each spelling in each slot
    for si in range(len(first)):
        for ty in ALL_TYPES:
            c = list(first)
            c[si] = ty
            put("type", bw, tuple(c))
    if not first:  # a row without a type word: try each type anyway
        for ty in ALL_TYPES:
            put("type", bw, (ty,))
    # count (for cvt: the first combination of each destination type)
    for c in (combos if op != "cvt" else [c for k, c in enumerate(combos) if k == 0 or c[0] != combos[k - 1][0]]):
        s = row_instr(row, bw, c)
        if s is None:
            continue
        ops = operands(op, list(c), ordered(row, bw))
        if ops:
            PENDING.append(("count", op, i, make_instr(op, ordered(row, bw), c, ops[:-1]), rvt))
        extra = ops[-1] if ops else "%r9"
        if extra.startswith("[") or extra.startswith("{") or not extra.startswith("%"):
            extra = ops[0] if ops and ops[0].startswith("%") else "%r9"
        PENDING.append(("count", op, i, make_instr(op, ordered(row, bw), c, ops + [extra.split("|")[0]]), rvt))
    # gate
    V, S = row["version"], row["sm"]
    tgt = target_at_least(S) if S else None
    if tgt is None:
        # the oldest target the row's version allows
        tgt = "sm_10"
        if V:
            cands = [t for t in TARGET_MIN_VERSION if vnum(min_version(t)) <= V]
            tgt = cands[0] if cands else "sm_10"
    ver = fit_version(version_at_least(V) if V else "1.4", tgt)
    seen_types = set()
    for c in combos:
        if c[:1] in seen_types:
            continue
        seen_types.add(c[:1])
        put("gate", bw, c, (ver, tgt))
        if V:
            pv = prev_version(version_at_least(V))
            if pv and vnum(min_version(tgt)) <= vnum(pv):
                put("gate", bw, c, (pv, tgt))
        if S:
            pt = prev_target(tgt)
            if pt:
                put("gate", bw, c, (fit_version(version_at_least(V) if V else "1.4", pt), pt))
    # cross: two words from different groups
    opt_groups = [g for g in groups if not g["need"]]
    need_groups = [g for g in groups if g["need"]]
    pairs = []
    for g1, g2 in itertools.combinations(opt_groups, 2):
        for w1 in g1["words"]:
            for w2 in g2["words"]:
                pairs.append(bw + [w1, w2])
    for ng in need_groups:
        for alt in ng["words"][1:]:
            for g2 in opt_groups:
                for w2 in g2["words"]:
                    pairs.append([x if x != ng["words"][0] else alt for x in bw] + [w2])
    for ng1, ng2 in itertools.combinations(need_groups, 2):
        for a1 in ng1["words"][1:]:
            for a2 in ng2["words"][1:]:
                pairs.append([a1 if x == ng1["words"][0] else a2 if x == ng2["words"][0] else x for x in bw])
    for ws in pairs:
        put("cross", ws, first)
    # cross100: the pairs with a vector word, at .version 9.0 / sm_100a, for the 32/64-bit and
    # half types (256-bit loads and the vector atom/red forms are sm_90/sm_100 features)
    vecw = {".v8"} if op in ("ld", "st", "ldu") else {".v2", ".v4", ".v8"}
    vt_types = {".b32", ".f32", ".b64", ".f64", ".f16", ".bf16", ".f16x2", ".bf16x2"}
    for c in combos:
        if c and c[0] in vt_types:
            for ws in pairs:
                if vecw.intersection(ws):
                    put("cross100", ws, c, NEW_VT)
    others = combos[1:]
    if others and pairs:
        budget = CROSS_BUDGET.get(op, 300)
        cand = [(c, ws) for c in others for ws in pairs]
        for c, ws in sample(cand, budget, "cross", i):
            put("cross", ws, c)


# cross samples for the non-first type combinations, per opcode (the default is 300)
CROSS_BUDGET = {"ld": 3000, "st": 2500, "atom": 800, "red": 500, "cvt": 4000}

# --------------------------------------------------------------------------
# Hand-written forms
# --------------------------------------------------------------------------

HAND = collections.OrderedDict()  # family -> list of (instr, (version, target))


def hand(family, instr, vt=BASE_VT):
    HAND.setdefault(family, []).append((instr, vt))


def vr(prefix, start, n):
    return "{" + ",".join("%s%d" % (prefix, start + k) for k in range(n)) + "}"


V90A = ("8.7", "sm_90a")
V100A = ("8.7", "sm_100a")
V100 = ("8.7", "sm_100")


def hand_mma():
    f = "mma"
    # m16n8k16 f16 / bf16
    for dt, ct in ((".f32", ".f32"), (".f16", ".f16"), (".f32", ".f16"), (".f16", ".f32")):
        d = vr("%f", 1, 4) if dt == ".f32" else vr("%r", 1, 2)
        c = vr("%f", 5, 4) if ct == ".f32" else vr("%r", 3, 2)
        for k, na, nb in ((".m16n8k16", 4, 2), (".m16n8k8", 2, 1)):
            hand(f, "mma.sync.aligned%s.row.col%s.f16.f16%s %s, %s, %s, %s;" % (k, dt, ct, d, vr("%r", 11, na), vr("%r", 21, nb), c))
        hand(f, "mma.sync.aligned.m8n8k4.row.col%s.f16.f16%s %s, %s, %s, %s;" % (
            dt, ct, vr("%f", 1, 8) if dt == ".f32" else vr("%r", 1, 4), vr("%r", 11, 2), vr("%r", 21, 2),
            vr("%f", 11, 8) if ct == ".f32" else vr("%r", 31, 4)))
    for lay in (".row.row", ".col.col", ".col.row"):
        hand(f, "mma.sync.aligned.m16n8k16%s.f32.f16.f16.f32 {%%f1,%%f2,%%f3,%%f4}, {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6}, {%%f5,%%f6,%%f7,%%f8};" % lay)
        hand(f, "mma.sync.aligned.m8n8k4%s.f32.f16.f16.f32 %s, {%%r1,%%r2}, {%%r3,%%r4}, %s;" % (lay, vr("%f", 1, 8), vr("%f", 11, 8)))
    for k, na, nb in ((".m16n8k16", 4, 2), (".m16n8k8", 2, 1)):
        hand(f, "mma.sync.aligned%s.row.col.f32.bf16.bf16.f32 {%%f1,%%f2,%%f3,%%f4}, %s, %s, {%%f5,%%f6,%%f7,%%f8};" % (k, vr("%r", 1, na), vr("%r", 11, nb)))
    hand(f, "mma.sync.aligned.m16n8k16.row.col.bf16.bf16.bf16.bf16 {%r1,%r2}, {%r3,%r4,%r5,%r6}, {%r7,%r8}, {%r9,%r10};")
    # tf32
    for k, na, nb in ((".m16n8k8", 4, 2), (".m16n8k4", 2, 1)):
        hand(f, "mma.sync.aligned%s.row.col.f32.tf32.tf32.f32 {%%f1,%%f2,%%f3,%%f4}, %s, %s, {%%f5,%%f6,%%f7,%%f8};" % (k, vr("%r", 1, na), vr("%r", 11, nb)))
    # integer
    for at in (".s8", ".u8"):
        for bt in (".s8", ".u8"):
            for sat in ("", ".satfinite"):
                hand(f, "mma.sync.aligned.m16n8k32.row.col%s.s32%s%s.s32 {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6,%%r7,%%r8}, {%%r9,%%r10}, {%%r11,%%r12,%%r13,%%r14};" % (sat, at, bt))
                hand(f, "mma.sync.aligned.m16n8k16.row.col%s.s32%s%s.s32 {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6}, {%%r9}, {%%r11,%%r12,%%r13,%%r14};" % (sat, at, bt))
                hand(f, "mma.sync.aligned.m8n8k16.row.col%s.s32%s%s.s32 {%%r1,%%r2}, {%%r5}, {%%r9}, {%%r11,%%r12};" % (sat, at, bt))
    for at in (".s4", ".u4"):
        hand(f, "mma.sync.aligned.m16n8k64.row.col.s32%s%s.s32 {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6,%%r7,%%r8}, {%%r9,%%r10}, {%%r11,%%r12,%%r13,%%r14};" % (at, at))
        hand(f, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32%s%s.s32 {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6}, {%%r9}, {%%r11,%%r12,%%r13,%%r14};" % (at, at))
        hand(f, "mma.sync.aligned.m8n8k32.row.col.s32%s%s.s32 {%%r1,%%r2}, {%%r5}, {%%r9}, {%%r11,%%r12};" % (at, at))
    for bop in (".and.popc", ".xor.popc"):
        hand(f, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32%s {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6,%%r7,%%r8}, {%%r9,%%r10}, {%%r11,%%r12,%%r13,%%r14};" % bop)
        hand(f, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32%s {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6}, {%%r9}, {%%r11,%%r12,%%r13,%%r14};" % bop)
        hand(f, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32%s {%%r1,%%r2}, {%%r5}, {%%r9}, {%%r11,%%r12};" % bop)
    # f64
    hand(f, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};")
    for k, na, nb in ((".m16n8k4", 2, 1), (".m16n8k8", 4, 2), (".m16n8k16", 8, 4)):
        hand(f, "mma.sync.aligned%s.row.col.f64.f64.f64.f64 {%%fd1,%%fd2,%%fd3,%%fd4}, %s, %s, {%%fd13,%%fd14,%%fd15,%%fd16};" % (k, vr("%fd", 5, na), vr("%fd", 5 + na, nb) if 5 + na + nb <= 13 else vr("%fd", 5, nb)))
    # fp8 (sm_89)
    for at in (".e4m3", ".e5m2"):
        for bt in (".e4m3", ".e5m2"):
            hand(f, "mma.sync.aligned.m16n8k32.row.col.f32%s%s.f32 {%%f1,%%f2,%%f3,%%f4}, {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6}, {%%f5,%%f6,%%f7,%%f8};" % (at, bt))
        hand(f, "mma.sync.aligned.m16n8k16.row.col.f32%s%s.f32 {%%f1,%%f2,%%f3,%%f4}, {%%r1,%%r2}, {%%r5}, {%%f5,%%f6,%%f7,%%f8};" % (at, at))
        hand(f, "mma.sync.aligned.m16n8k32.row.col.f16%s%s.f16 {%%r1,%%r2}, {%%r3,%%r4,%%r5,%%r6}, {%%r7,%%r8}, {%%r9,%%r10};" % (at, at))
    # sparse
    hand(f, "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f5,%f6,%f7,%f8}, %r9, 0x0;")
    hand(f, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f5,%f6,%f7,%f8}, %r9, 0x0;")
    hand(f, "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5,%r6}, {%f5,%f6,%f7,%f8}, %r9, 0x0;")
    hand(f, "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12}, {%r13,%r14,%r15,%r16}, %r17, 0x0;")
    # deliberately wrong shapes
    hand(f, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5,%r6}, {%f5,%f6,%f7,%f8};")
    hand(f, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r5,%r6,%r7,%r8};")
    hand(f, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%f1,%f2,%f3,%f4}, {%f5,%f6}, {%f5,%f6,%f7,%f8};")
    hand(f, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 %f1, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};")
    hand(f, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r7,%r8};")
    hand(f, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r9,%r10}, {%r11,%r12,%r13,%r14};")
    hand(f, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};")


def hand_wgmma():
    f = "wgmma"
    for s in ("wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;",
              "wgmma.wait_group.sync.aligned 1;", "wgmma.fence.aligned;", "wgmma.wait_group.sync.aligned %r1;"):
        hand(f, s, V90A)
    for n in (8, 16, 32, 64):
        nf = n // 2  # f32 accumulator registers
        nh = n // 4  # f16 accumulator registers
        for at in (".f16", ".bf16"):
            hand(f, "wgmma.mma_async.sync.aligned.m64n%dk16.f32%s%s %s, %%rd2, %%rd3, %%p1, 1, 1, 0, 0;" % (n, at, at, vr("%f", 1, nf)), V90A)
            hand(f, "wgmma.mma_async.sync.aligned.m64n%dk16.f32%s%s %s, {%%r1,%%r2,%%r3,%%r4}, %%rd3, %%p1, 1, 1, 0;" % (n, at, at, vr("%f", 1, nf)), V90A)
        hand(f, "wgmma.mma_async.sync.aligned.m64n%dk16.f16.f16.f16 %s, %%rd2, %%rd3, %%p1, 1, -1, 0, 1;" % (n, vr("%r", 1, max(nh, 1))), V90A)
        hand(f, "wgmma.mma_async.sync.aligned.m64n%dk8.f32.tf32.tf32 %s, %%rd2, %%rd3, %%p1, 1, 1;" % (n, vr("%f", 1, nf)), V90A)
        for at in (".e4m3", ".e5m2"):
            hand(f, "wgmma.mma_async.sync.aligned.m64n%dk32.f32%s%s %s, %%rd2, %%rd3, %%p1, 1, 1;" % (n, at, at, vr("%f", 1, nf)), V90A)
        for sat in ("", ".satfinite"):
            hand(f, "wgmma.mma_async.sync.aligned.m64n%dk32.s32.s8.s8%s %s, %%rd2, %%rd3, %%p1;" % (n, sat, vr("%r", 1, nf)), V90A)
            hand(f, "wgmma.mma_async.sync.aligned.m64n%dk32.s32.u8.s8%s %s, {%%r61,%%r62,%%r63,%%r64}, %%rd3, %%p1;" % (n, sat, vr("%r", 1, nf)), V90A)
    hand(f, "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r1,%r2,%r3,%r4}, %rd2, %rd3, %p1;", V90A)
    hand(f, "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd2, %rd3, %r9, 0, %p1, 1, 1, 0, 0;", V90A)
    # wrong: accumulator count, missing scale-d, plain sm_90
    hand(f, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2}, %rd2, %rd3, %p1, 1, 1, 0, 0;", V90A)
    hand(f, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd2, %rd3;", V90A)
    hand(f, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd2, %rd3, %p1, 1, 1, 0, 0;", BASE_VT)
    hand(f, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd2, %rd3, %p1, 2, 1, 0, 0;", V90A)


def hand_cp():
    f = "cp"
    for cop, sizes in ((".ca", (4, 8, 16)), (".cg", (16, 8, 4))):
        for sz in sizes:
            for ss in (".shared.global", ".shared::cta.global"):
                hand(f, "cp.async%s%s [sh], [%%rd1], %d;" % (cop, ss, sz), BASE_VT)
                hand(f, "cp.async%s%s [%%rd2], [%%rd1], %d, %%r1;" % (cop, ss, sz), BASE_VT)
                hand(f, "cp.async%s%s [%%rd2], [%%rd1], %d, 2;" % (cop, ss, sz), BASE_VT)
            hand(f, "cp.async%s.shared.global.L2::cache_hint [%%rd2], [%%rd1], %d, %%rd3;" % (cop, sz), BASE_VT)
            hand(f, "cp.async%s.shared.global.L2::128B [%%rd2], [%%rd1], %d;" % (cop, sz), BASE_VT)
            hand(f, "cp.async%s.shared.global.L2::256B [%%rd2], [%%rd1], %d, %%p1;" % (cop, sz), BASE_VT)
            hand(f, "cp.async%s.shared.global.L2::64B.L2::cache_hint [%%rd2], [%%rd1], %d, %%r1, %%rd3;" % (cop, sz), BASE_VT)
    hand(f, "cp.async.ca.shared.global [sh], [%rd1], 2;")
    hand(f, "cp.async.ca.shared.global [sh], [%rd1], 32;")
    hand(f, "cp.async.ca.global.shared [%rd1], [sh], 16;")
    hand(f, "cp.async.ca.shared.global [sh], [%rd1], %r1;")
    for s in ("cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_group 3;", "cp.async.wait_all;",
              "cp.async.wait_group %r1;", "cp.async.mbarrier.arrive.b64 [%rd1];", "cp.async.mbarrier.arrive.noinc.b64 [%rd1];",
              "cp.async.mbarrier.arrive.shared.b64 [sh];", "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [sh];",
              "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;", "cp.async.bulk.wait_group.read 0;",
              "cp.async.bulk.wait_group.read 2;"):
        hand(f, s)
    # cp.async.bulk
    mb = ".mbarrier::complete_tx::bytes"
    for dst in (".shared::cluster", ".shared::cta"):
        hand(f, "cp.async.bulk%s.global%s [%%rd2], [%%rd1], 256, [%%rd3];" % (dst, mb))
        hand(f, "cp.async.bulk%s.global%s.L2::cache_hint [%%rd2], [%%rd1], %%r1, [%%rd3], %%rd4;" % (dst, mb))
    hand(f, "cp.async.bulk.shared::cluster.global%s.multicast::cluster [%%rd2], [%%rd1], 256, [%%rd3], %%h1;" % mb)
    hand(f, "cp.async.bulk.shared::cluster.global%s.multicast::cluster.L2::cache_hint [%%rd2], [%%rd1], 256, [%%rd3], %%h1, %%rd4;" % mb)
    hand(f, "cp.async.bulk.shared::cluster.shared::cta%s [%%rd2], [%%rd1], 256, [%%rd3];" % mb)
    hand(f, "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%rd2], 256;")
    hand(f, "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%rd2], %r1, %rd4;")
    hand(f, "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%rd2], 256, %h1;", V100A)
    hand(f, "cp.async.bulk.shared::cluster.global [%rd2], [%rd1], 256, [%rd3];")
    hand(f, "cp.async.bulk.global.shared::cta [%rd1], [%rd2], 256;")
    hand(f, "cp.async.bulk.prefetch.L2.global [%rd1], 256;")
    hand(f, "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], 256, %rd4;")
    hand(f, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%rd2], 256;")
    hand(f, "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%rd1], [%rd2], 256;")
    hand(f, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%rd2], 256;")
    hand(f, "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%rd2], [%rd1], 256, [%rd3];")
    # cp.async.bulk.tensor
    for d in range(1, 6):
        c = vr("%r", 1, d)
        hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global.tile%s [%%rd2], [%%rd1, %s], [%%rd3];" % (d, mb, c))
        hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global%s [%%rd2], [%%rd1, %s], [%%rd3];" % (d, mb, c))
        hand(f, "cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group [%%rd1, %s], [%%rd2];" % (d, c))
        hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global.tile%s.L2::cache_hint [%%rd2], [%%rd1, %s], [%%rd3], %%rd4;" % (d, mb, c))
        hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global.tile%s.multicast::cluster [%%rd2], [%%rd1, %s], [%%rd3], %%h1;" % (d, mb, c))
        hand(f, "cp.async.bulk.prefetch.tensor.%dd.L2.global.tile [%%rd1, %s];" % (d, c))
        hand(f, "cp.reduce.async.bulk.tensor.%dd.global.shared::cta.add.tile.bulk_group [%%rd1, %s], [%%rd2];" % (d, c))
        if d >= 3:
            offs = vr("%h", 1, d - 2)
            hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global.im2col%s [%%rd2], [%%rd1, %s], [%%rd3], %s;" % (d, mb, c, offs))
            hand(f, "cp.async.bulk.tensor.%dd.global.shared::cta.im2col_no_offs.bulk_group [%%rd1, %s], [%%rd2];" % (d, c))
        # wrong coordinate count
        hand(f, "cp.async.bulk.tensor.%dd.shared::cluster.global.tile%s [%%rd2], [%%rd1, %s], [%%rd3];" % (d, mb, vr("%r", 1, d + 1)))
    hand(f, "cp.async.bulk.tensor.2d.shared::cta.global.tile%s [%%rd2], [%%rd1, {%%r1,%%r2}], [%%rd3];" % mb, ("8.7", "sm_90"))
    hand(f, "cp.async.bulk.tensor.6d.shared::cluster.global.tile%s [%%rd2], [%%rd1, %s], [%%rd3];" % (mb, vr("%r", 1, 6)))


def hand_mbarrier():
    f = "mbarrier"
    for ss in ("", ".shared", ".shared::cta"):
        a = "[sh]" if ss else "[%rd1]"
        hand(f, "mbarrier.init%s.b64 %s, 32;" % (ss, a))
        hand(f, "mbarrier.init%s.b64 %s, %%r1;" % (ss, a))
        hand(f, "mbarrier.inval%s.b64 %s;" % (ss, a))
        hand(f, "mbarrier.arrive%s.b64 %%rd2, %s;" % (ss, a))
        hand(f, "mbarrier.arrive%s.b64 %%rd2, %s, 2;" % (ss, a))
        hand(f, "mbarrier.arrive.noComplete%s.b64 %%rd2, %s, 2;" % (ss, a))
        hand(f, "mbarrier.arrive_drop%s.b64 %%rd2, %s;" % (ss, a))
        hand(f, "mbarrier.arrive.expect_tx%s.b64 %%rd2, %s, 128;" % (ss, a))
        hand(f, "mbarrier.arrive.release.cta%s.b64 %%rd2, %s;" % (ss, a))
        hand(f, "mbarrier.arrive.expect_tx.release.cluster%s.b64 %%rd2, %s, %%r1;" % (ss, a))
        hand(f, "mbarrier.arrive.relaxed.cta%s.b64 %%rd2, %s;" % (ss, a), ("8.7", "sm_90"))
        hand(f, "mbarrier.expect_tx.relaxed.cta%s.b64 %s, 128;" % (ss, a))
        hand(f, "mbarrier.complete_tx.relaxed.cta%s.b64 %s, 128;" % (ss, a))
        hand(f, "mbarrier.test_wait%s.b64 %%p1, %s, %%rd2;" % (ss, a))
        hand(f, "mbarrier.test_wait.parity%s.b64 %%p1, %s, %%r1;" % (ss, a))
        hand(f, "mbarrier.test_wait.acquire.cta%s.b64 %%p1, %s, %%rd2;" % (ss, a))
        hand(f, "mbarrier.try_wait%s.b64 %%p1, %s, %%rd2;" % (ss, a))
        hand(f, "mbarrier.try_wait%s.b64 %%p1, %s, %%rd2, 1000;" % (ss, a))
        hand(f, "mbarrier.try_wait.parity%s.b64 %%p1, %s, %%r1;" % (ss, a))
        hand(f, "mbarrier.try_wait.parity.acquire.cluster%s.b64 %%p1, %s, %%r1, %%r2;" % (ss, a))
        hand(f, "mbarrier.try_wait.relaxed.cluster%s.b64 %%p1, %s, %%rd2;" % (ss, a))
    hand(f, "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd1];")
    hand(f, "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%rd1], 64;")
    hand(f, "mbarrier.arrive.shared::cluster.b64 %rd2, [%rd1];")
    hand(f, "mbarrier.pending_count.b64 %r1, %rd2;")
    hand(f, "mbarrier.pending_count.b64 %rd3, %rd2;")
    hand(f, "mbarrier.init.shared.b32 [sh], 32;")
    hand(f, "mbarrier.init.shared.b64 [sh];")
    hand(f, "mbarrier.init.global.b64 [%rd1], 32;")
    hand(f, "mbarrier.test_wait.shared.b64 %r1, [sh], %rd2;")
    hand(f, "mbarrier.try_wait.parity.shared.b64 %p1, [sh], %rd2;")


def hand_ldst_matrix():
    f = "ldmatrix"
    for num, n in ((".x1", 1), (".x2", 2), (".x4", 4)):
        for tr in ("", ".trans"):
            for ss, a in (("", "[%rd1]"), (".shared", "[sh]"), (".shared::cta", "[%rd1]")):
                hand(f, "ldmatrix.sync.aligned.m8n8%s%s%s.b16 %s, %s;" % (num, tr, ss, vr("%r", 1, n), a), ("8.7", "sm_75"))
        hand(f, "ldmatrix.sync.aligned.m8n8%s.shared.b16 %s, [sh];" % (num, vr("%r", 1, n + 1)), ("8.7", "sm_75"))
        if n < 4:
            hand(f, "ldmatrix.sync.aligned.m16n16%s.trans.shared.b8 %s, [sh];" % (num, vr("%r", 1, 2 * n)), V100A)
            hand(f, "ldmatrix.sync.aligned.m16n16%s.trans.shared.b8x16.b6x16_p32 %s, [sh];" % (num, vr("%r", 1, 2 * n)), V100A)
            hand(f, "ldmatrix.sync.aligned.m16n16%s.trans.shared.b8x16.b4x16_p64 %s, [sh];" % (num, vr("%r", 1, 2 * n)), V100A)
        hand(f, "ldmatrix.sync.aligned.m8n16%s.shared.b8x16.b6x16_p32 %s, [sh];" % (num, vr("%r", 1, n)), V100A)
        hand(f, "ldmatrix.sync.aligned.m8n16%s.shared.b8x16.b4x16_p64 %s, [sh];" % (num, vr("%r", 1, n)), V100A)
    hand(f, "ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r1, [sh];", ("8.7", "sm_75"))
    hand(f, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%h1,%h2,%h3,%h4}, [sh];", ("8.7", "sm_75"))
    hand(f, "ldmatrix.sync.aligned.m8n8.x4.global.b16 {%r1,%r2,%r3,%r4}, [%rd1];", ("8.7", "sm_75"))
    f = "stmatrix"
    for num, n in ((".x1", 1), (".x2", 2), (".x4", 4)):
        for tr in ("", ".trans"):
            for ss, a in (("", "[%rd1]"), (".shared", "[sh]"), (".shared::cta", "[%rd1]")):
                hand(f, "stmatrix.sync.aligned.m8n8%s%s%s.b16 %s, %s;" % (num, tr, ss, a, vr("%r", 1, n)))
        hand(f, "stmatrix.sync.aligned.m16n8%s.trans.shared.b8 [sh], %s;" % (num, vr("%r", 1, n)), V100A)
        hand(f, "stmatrix.sync.aligned.m16n8%s.shared.b8 [sh], %s;" % (num, vr("%r", 1, n)), V100A)
        hand(f, "stmatrix.sync.aligned.m8n8%s.shared.b16 [sh], %s;" % (num, vr("%r", 1, n * 2)))
    hand(f, "stmatrix.sync.aligned.m8n8.x1.shared.b16 [sh], %r1;")
    hand(f, "stmatrix.sync.aligned.m8n8.x2.shared.b16 [sh], {%f1,%f2};")


def hand_open():
    """The table's `open` / `own` opcodes (a few forms each)."""
    for s in ("alloca.u64 %rd2, %rd3;", "alloca.u64 %rd2, 64;", "alloca.u64 %rd2, %rd3, 16;", "alloca.u32 %r1, %r2;",
              "alloca.u64 %rd2, %r2;", "alloca.align.u64 %rd2, %rd3, 16;", "alloca.s64 %rd2, %rd3;"):
        hand("alloca", s, ("8.7", "sm_52"))
    for s in ("applypriority.global.L2::evict_normal [%rd1], 128;", "applypriority.L2::evict_normal [%rd1], 128;",
              "applypriority.global.L2::evict_last [%rd1], 128;", "applypriority.global.L2::evict_normal [%rd1], 64;"):
        hand("applypriority", s)
    for s in ("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%rd1], [%rd2];",
              "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%rd1], [%rd2];",
              "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.b128 [%rd1], [%rd2];"):
        hand("clusterlaunchcontrol", s, V100)
    for s in ("createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;",
              "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd2, 0.5;",
              "createpolicy.fractional.L2::evict_first.b64 %rd2, %f1;",
              "createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd2, [%rd1], %r1, %r2;",
              "createpolicy.cvt.L2.b64 %rd2, %rd3;", "createpolicy.fractional.L2::evict_last.b32 %r2, 1.0;",
              "createpolicy.fractional.L2::evict_normal.b64 %rd2, 2.0;"):
        hand("createpolicy", s)
    for s in ("discard.global.L2 [%rd1], 128;", "discard.L2 [%rd1], 128;", "discard.global.L2 [%rd1], 64;"):
        hand("discard", s)
    for s in ("fence.sc.cta;", "fence.acq_rel.gpu;", "fence.sc.sys;", "fence.acq_rel.cluster;", "fence.cta;",
              "fence.sc.gpu;", "fence.acquire.cta;", "fence.release.gpu;", "fence.proxy.alias;", "fence.proxy.async;",
              "fence.proxy.async.global;", "fence.proxy.async.shared::cta;", "fence.proxy.async.shared::cluster;",
              "fence.mbarrier_init.release.cluster;", "fence.proxy.tensormap::generic.release.gpu;",
              "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;", "fence.proxy.tensormap::generic.acquire.cta [%rd1], 128;",
              "fence.acquire.sync_restrict::shared::cluster.cluster;", "fence.release.sync_restrict::shared::cta.cluster;",
              "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;", "fence.acq_rel.sys [%rd1];",
              "fence.op_restrict.release.cluster;"):
        hand("fence", s)
    for s in ("getctarank.u64 %r1, %rd1;", "getctarank.shared::cluster.u64 %r1, %rd1;", "getctarank.shared::cluster.u32 %r1, sh;",
              "getctarank.u64 %rd2, %rd1;", "getctarank.shared::cluster.u32 %r1, %r2;", "getctarank.u32 %r1, %rd1;",
              "getctarank.shared::cluster.u64 %r1, sh;"):
        hand("getctarank", s)
    for s in ("istypeof.texref %p1, %rd1;", "istypeof.samplerref %p1, %rd1;", "istypeof.surfref %p1, %rd1;",
              "istypeof.b32 %p1, %rd1;", "istypeof.texref %r1, %rd1;"):
        hand("istypeof", s)
    for s in ("mapa.u64 %rd2, %rd1, %r1;", "mapa.shared::cluster.u64 %rd2, %rd1, %r1;", "mapa.shared::cluster.u32 %r1, %r2, %r3;",
              "mapa.u32 %r1, %r2, %r3;", "mapa.shared::cluster.u64 %rd2, sh, 1;", "mapa.global.u64 %rd2, %rd1, %r1;"):
        hand("mapa", s)
    for s in ("movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;", "movmatrix.sync.aligned.m8n8.b16 %r1, %r2;",
              "movmatrix.sync.aligned.m8n8.trans.b32 %r1, %r2;", "movmatrix.sync.aligned.m16n16.trans.b16 %r1, %r2;"):
        hand("movmatrix", s, ("8.7", "sm_75"))
    for s in ("multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];", "multimem.ld_reduce.global.min.s32 %r1, [%rd1];",
              "multimem.ld_reduce.weak.global.add.f32 %f1, [%rd1];", "multimem.ld_reduce.relaxed.gpu.global.add.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];",
              "multimem.ld_reduce.acquire.gpu.global.and.b32 %r1, [%rd1];", "multimem.st.relaxed.sys.global.f32 [%rd1], %f1;",
              "multimem.st.weak.global.v2.f32 [%rd1], {%f1,%f2};", "multimem.red.relaxed.sys.global.add.u32 [%rd1], %r1;",
              "multimem.red.release.gpu.global.add.f16x2 [%rd1], %r1;", "multimem.ld_reduce.global.add.acc::f32.f16x2 %r1, [%rd1];",
              "multimem.ld_reduce.global.add.u32 %r1, %rd1;"):
        hand("multimem", s)
    for s in ("pmevent 1;", "pmevent.mask 0x1;", "pmevent 16;", "pmevent %r1;"):
        hand("pmevent", s)
    for s in ("prefetch.global.L1 [%rd1];", "prefetch.global.L2 [%rd1];", "prefetch.local.L1 [%rd1];", "prefetch.L1 [%rd1];",
              "prefetch.L2 [%rd1];", "prefetch.global.L2::evict_last [%rd1];", "prefetch.global.L2::evict_normal [%rd1];",
              "prefetch.tensormap [%rd1];", "prefetch.const.tensormap [%rd1];", "prefetch.param.tensormap [p];",
              "prefetch.shared.L1 [%rd1];", "prefetch.global.L1::evict_last [%rd1];", "prefetch.global.L3 [%rd1];"):
        hand("prefetch", s)
    for s in ("setmaxnreg.inc.sync.aligned.u32 64;", "setmaxnreg.dec.sync.aligned.u32 32;", "setmaxnreg.inc.sync.aligned.u32 %r1;",
              "setmaxnreg.inc.sync.aligned.u32 30;", "setmaxnreg.sync.aligned.u32 64;"):
        hand("setmaxnreg", s, V90A)
    for s in ("tcgen05.fence::before_thread_sync;", "tcgen05.fence::after_thread_sync;",
              "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd1];",
              "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd1];",
              "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [sh], 32;",
              "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;",
              "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;", "tcgen05.wait::ld.sync.aligned;",
              "tcgen05.wait::st.sync.aligned;", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r2];",
              "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1,%r3}, [%r2];", "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r1};",
              "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd2, %rd3, %r4, %p1;",
              "tcgen05.cp.cta_group::1.128x256b [%r1], %rd2;", "tcgen05.shift.cta_group::1.down [%r1];"):
        hand("tcgen05", s, V100A)
    for s in ("tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;",
              "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [sh], %rd2;",
              "tensormap.replace.tile.rank.global.b1024.b32 [%rd1], 2;",
              "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 1, 64;",
              "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [sh], 128;"):
        hand("tensormap", s, V90A)
    # video instructions
    tys = [".u32", ".s32"]
    for vop in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for dt, at, bt in itertools.product(tys, tys, tys):
            t3 = dt + at + bt
            hand(vop, "%s%s %%r1, %%r2, %%r3;" % (vop, t3))
            hand(vop, "%s%s.sat %%r1, %%r2.b0, %%r3.h1;" % (vop, t3))
            hand(vop, "%s%s.add %%r1, %%r2, %%r3, %%r4;" % (vop, t3))
            hand(vop, "%s%s.sat.min %%r1, %%r2, %%r3, %%r4;" % (vop, t3))
            hand(vop, "%s%s %%r1.b1, %%r2, %%r3, %%r4;" % (vop, t3))
        hand(vop, "%s.u32.u32.u32.max %%r1, %%r2.b3, %%r3.b2, %%r4;" % vop)
        hand(vop, "%s.u16.u32.u32 %%h1, %%r2, %%r3;" % vop)
        hand(vop, "%s.u32.u32.u32.mul %%r1, %%r2, %%r3, %%r4;" % vop)
    for vop in ("vshl", "vshr"):
        for dt, at in itertools.product(tys, tys):
            for mode in (".clamp", ".wrap"):
                hand(vop, "%s%s%s.u32%s %%r1, %%r2, %%r3;" % (vop, dt, at, mode))
                hand(vop, "%s%s%s.u32.sat%s.add %%r1, %%r2.b1, %%r3, %%r4;" % (vop, dt, at, mode))
        hand(vop, "%s.u32.u32.u32 %%r1, %%r2, %%r3;" % vop)
        hand(vop, "%s.u32.u32.s32.wrap %%r1, %%r2, %%r3;" % vop)
    for dt, at, bt in itertools.product(tys, tys, tys):
        hand("vmad", "vmad%s%s%s %%r1, %%r2, %%r3, %%r4;" % (dt, at, bt))
        hand("vmad", "vmad%s%s%s.sat.shr7 %%r1, -%%r2.h0, %%r3.b1, %%r4;" % (dt, at, bt))
    hand("vmad", "vmad.s32.u32.u32.po %r1, %r2, %r3, %r4;")
    hand("vmad", "vmad.u32.u32.u32 %r1, %r2, %r3;")
    for at, bt in itertools.product(tys, tys):
        for cmp_ in (".eq", ".ne", ".lt", ".le", ".gt", ".ge"):
            hand("vset", "vset%s%s%s %%r1, %%r2, %%r3;" % (at, bt, cmp_))
        hand("vset", "vset%s%s.lt.add %%r1, %%r2.b0, %%r3, %%r4;" % (at, bt))
        hand("vset", "vset%s%s.ne %%r1.b2, %%r2, %%r3, %%r4;" % (at, bt))
    hand("vset", "vset.u32.u32.lo %r1, %r2, %r3;")
    for vop in ("vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vadd4", "vsub4", "vavrg4", "vabsdiff4",
                "vmin4", "vmax4"):
        two = vop.endswith("2")
        for dt, at, bt in itertools.product(tys, tys, tys):
            t3 = dt + at + bt
            hand(vop, "%s%s %%r1, %%r2, %%r3, %%r4;" % (vop, t3))
            hand(vop, "%s%s.sat %%r1, %%r2, %%r3, %%r4;" % (vop, t3))
        sel_a = ".h10" if two else ".b3210"
        msk = ".h1" if two else ".b01"
        hand(vop, "%s.u32.u32.u32.add %%r1, %%r2, %%r3, %%r4;" % vop)
        hand(vop, "%s.u32.u32.u32 %%r1%s, %%r2%s, %%r3, %%r4;" % (vop, msk, sel_a))
        hand(vop, "%s.u32.u32.u32 %%r1, %%r2, %%r3;" % vop)
        hand(vop, "%s.u32.u32.u32 %%r1, %%r2%s, %%r3, %%r4;" % (vop, ".b0" if two else ".h1"))
    for vop in ("vset2", "vset4"):
        for at, bt in itertools.product(tys, tys):
            for cmp_ in (".eq", ".ne", ".lt", ".le", ".gt", ".ge"):
                hand(vop, "%s%s%s%s %%r1, %%r2, %%r3, %%r4;" % (vop, at, bt, cmp_))
        hand(vop, "%s.u32.u32.lt.add %%r1, %%r2, %%r3, %%r4;" % vop)
        hand(vop, "%s.u32.u32.lt %%r1, %%r2, %%r3;" % vop)
    # wmma
    f = "wmma"
    V70 = ("8.7", "sm_70")
    for lay in (".row", ".col"):
        for shp in (".m16n16k16", ".m32n8k16", ".m8n32k16"):
            for ss in ("", ".global", ".shared"):
                hand(f, "wmma.load.a.sync.aligned%s%s%s.f16 %s, [%%rd1];" % (lay, shp, ss, vr("%r", 1, 8)), V70)
                hand(f, "wmma.load.b.sync.aligned%s%s%s.f16 %s, [%%rd1], %%r9;" % (lay, shp, ss, vr("%r", 1, 8)), V70)
            hand(f, "wmma.load.c.sync.aligned%s%s.f32 %s, [%%rd1];" % (lay, shp, vr("%f", 1, 8)), V70)
            hand(f, "wmma.load.c.sync.aligned%s%s.f16 %s, [%%rd1];" % (lay, shp, vr("%r", 1, 4)), V70)
            hand(f, "wmma.store.d.sync.aligned%s%s.f32 [%%rd1], %s;" % (lay, shp, vr("%f", 1, 8)), V70)
            hand(f, "wmma.store.d.sync.aligned%s%s.global.f16 [%%rd1], %s, %%r9;" % (lay, shp, vr("%r", 1, 4)), V70)
    for al, bl in itertools.product((".row", ".col"), (".row", ".col")):
        for shp in (".m16n16k16", ".m32n8k16", ".m8n32k16"):
            hand(f, "wmma.mma.sync.aligned%s%s%s.f32.f32 %s, %s, %s, %s;" % (al, bl, shp, vr("%f", 1, 8), vr("%r", 1, 8), vr("%r", 11, 8), vr("%f", 11, 8)), V70)
            hand(f, "wmma.mma.sync.aligned%s%s%s.f16.f16 %s, %s, %s, %s;" % (al, bl, shp, vr("%r", 21, 4), vr("%r", 1, 8), vr("%r", 11, 8), vr("%r", 31, 4)), V70)
            hand(f, "wmma.mma.sync.aligned%s%s%s.f32.f16 %s, %s, %s, %s;" % (al, bl, shp, vr("%f", 1, 8), vr("%r", 1, 8), vr("%r", 11, 8), vr("%r", 31, 4)), V70)
        hand(f, "wmma.mma.sync.aligned%s%s.m16n16k16.satfinite.f32.f32 %s, %s, %s, %s;" % (al, bl, vr("%f", 1, 8), vr("%r", 1, 8), vr("%r", 11, 8), vr("%f", 11, 8)), V70)
    hand(f, "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 %s, {%%r9,%%r10}, {%%r11,%%r12}, %s;" % (vr("%r", 1, 8), vr("%r", 21, 8)), ("8.7", "sm_75"))
    hand(f, "wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32.satfinite %s, {%%r9,%%r10}, {%%r11,%%r12}, %s;" % (vr("%r", 1, 8), vr("%r", 21, 8)), ("8.7", "sm_75"))
    hand(f, "wmma.load.a.sync.aligned.row.m16n16k16.s8 {%r1,%r2}, [%rd1];", ("8.7", "sm_75"))
    hand(f, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 %s, {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6,%%r7,%%r8}, %s;" % (vr("%f", 1, 8), vr("%f", 11, 8)), ("8.7", "sm_80"))
    hand(f, "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 %s, {%%r1,%%r2,%%r3,%%r4}, {%%r5,%%r6,%%r7,%%r8}, %s;" % (vr("%f", 1, 8), vr("%f", 11, 8)), ("8.7", "sm_80"))
    hand(f, "wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%r1,%r2,%r3,%r4}, [%rd1];", ("8.7", "sm_80"))
    hand(f, "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};", ("8.7", "sm_80"))
    hand(f, "wmma.load.a.sync.aligned.row.m8n8k4.f64 {%fd1}, [%rd1];", ("8.7", "sm_80"))
    hand(f, "wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 {%r1,%r2}, {%r3}, {%r4}, {%r5,%r6};", ("8.7", "sm_75"))
    hand(f, "wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r3}, {%r4}, {%r5,%r6};", ("8.7", "sm_75"))
    hand(f, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 %s, %s, %s, %s;" % (vr("%f", 1, 4), vr("%r", 1, 8), vr("%r", 11, 8), vr("%f", 11, 8)), V70)
    # own rows: logic, moves, comparisons, control, texture
    for op in ("and", "or", "xor"):
        for ty, rp in ((".b16", "%h"), (".b32", "%r"), (".b64", "%rd"), (".pred", "%p")):
            hand(op, "%s%s %s2, %s3, %s4;" % (op, ty, rp, rp, rp))
        hand(op, "%s.b32 %%r1, %%r2, 0xff;" % op)
        hand(op, "%s.pred %%p1, !%%p2, %%p3;" % op)
    for op in ("not", "cnot"):
        for ty, rp in ((".b16", "%h"), (".b32", "%r"), (".b64", "%rd"), (".pred", "%p")):
            hand(op, "%s%s %s2, %s3;" % (op, ty, rp, rp))
    for ty, rp in ((".b16", "%h"), (".b32", "%r"), (".b64", "%rd"), (".u32", "%r"), (".s64", "%rd"), (".f32", "%f"),
                   (".f64", "%fd"), (".pred", "%p"), (".f16", "%h"), (".bf16", "%h"), (".f16x2", "%r"), (".bf16x2", "%r")):
        hand("mov", "mov%s %s2, %s3;" % (ty, rp, rp))
    for s in ("mov.u64 %rd2, gl;", "mov.u64 %rd2, sh;", "mov.u32 %r1, %tid.x;", "mov.u32 %r1, %laneid;",
              "mov.u64 %rd2, %globaltimer;", "mov.b64 %rd2, {%r1,%r2};", "mov.b32 {%h1,%h2}, %r1;", "mov.f32 %f1, 0f3F800000;",
              "mov.u32 %r1, %clusterid.x;", "mov.u32 %r1, %cluster_ctarank;", "mov.pred %p1, 1;"):
        hand("mov", s)
    for ty, rp in ((".b32", "%r"), (".u64", "%rd"), (".f32", "%f"), (".f64", "%fd"), (".b16", "%h"), (".s32", "%r")):
        hand("selp", "selp%s %s2, %s3, %s4, %%p1;" % (ty, rp, rp, rp))
    for ty, rp in ((".b32", "%r"), (".u64", "%rd"), (".f32", "%f"), (".s16", "%h")):
        hand("slct", "slct%s.s32 %s2, %s3, %s4, %%r5;" % (ty, rp, rp, rp))
        hand("slct", "slct%s.f32 %s2, %s3, %s4, %%f5;" % (ty, rp, rp, rp))
    for cmp_ in (".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".hs", ".equ", ".num", ".nan"):
        hand("setp", "setp%s.s32 %%p1, %%r2, %%r3;" % cmp_)
        hand("setp", "setp%s.f32 %%p1, %%f2, %%f3;" % cmp_)
        hand("setp", "setp%s.and.u64 %%p1|%%p2, %%rd2, %%rd3, %%p3;" % cmp_)
        hand("set", "set%s.u32.s32 %%r1, %%r2, %%r3;" % cmp_)
        hand("set", "set%s.f32.f32 %%f1, %%f2, %%f3;" % cmp_)
    for s in ("ret;", "ret.uni;", "exit;", "nanosleep.u32 %r1;", "nanosleep.u32 100;", "$L1: bra $L1;", "$L1: bra.uni $L1;",
              "$L1: @%p1 bra $L1;"):
        hand(s.split(" ")[0].split(".")[0].rstrip(";") if not s.startswith("$") else "bra", s)
    for s in ("tex.1d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5}];", "tex.2d.v4.s32.f32 {%r1,%r2,%r3,%r4}, [%rd1, {%f5,%f6}];",
              "tex.3d.v4.u32.s32 {%r1,%r2,%r3,%r4}, [%rd1, {%r5,%r6,%r7,%r8}];"):
        hand("tex", s)
    for s in ("tld4.r.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];", "tld4.g.2d.v4.s32.f32 {%r1,%r2,%r3,%r4}, [%rd1, {%f5,%f6}];"):
        hand("tld4", s)
    for s in ("txq.width.b32 %r1, [%rd1];", "txq.level.height.b32 %r1, [%rd1], %r2;", "txq.normalized_coords.b32 %r1, [%rd1];"):
        hand("txq", s)
    for s in ("suld.b.1d.v4.b32.trap {%r1,%r2,%r3,%r4}, [%rd1, {%r5}];", "suld.b.2d.b32.clamp %r1, [%rd1, {%r5,%r6}];"):
        hand("suld", s)
    for s in ("sust.b.1d.v4.b32.trap [%rd1, {%r5}], {%r1,%r2,%r3,%r4};", "sust.p.2d.b32.zero [%rd1, {%r5,%r6}], %r1;"):
        hand("sust", s)
    for s in ("sured.b.add.1d.u32.trap [%rd1, {%r5}], %r1;", "sured.p.min.2d.b32.clamp [%rd1, {%r5,%r6}], %r1;"):
        hand("sured", s)
    for s in ("suq.width.b32 %r1, [%rd1];", "suq.array_size.b32 %r1, [%rd1];"):
        hand("suq", s)


def hand_mem():
    """ld / st / atom / red / cvt forms that need several words at once (the table cases add
    at most two)."""
    V100 = ("9.0", "sm_100")
    v8r, v8f = vr("%r", 1, 8), vr("%f", 1, 8)
    for s in ("ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];", "ld.mmio.relaxed.sys.global.f32 %f1, [%rd1];",
              "ld.mmio.relaxed.sys.global.b64 %rd2, [%rd1];", "ld.mmio.relaxed.gpu.global.u32 %r1, [%rd1];",
              "ld.mmio.acquire.sys.global.u32 %r1, [%rd1];", "ld.mmio.relaxed.sys.u32 %r1, [%rd1];",
              "ld.mmio.relaxed.sys.shared.u32 %r1, [%rd1];", "ld.mmio.relaxed.sys.global.v2.u32 {%r1,%r2}, [%rd1];",
              "ld.relaxed.gpu.global.u32 %r1, [%rd1];", "ld.acquire.sys.global.b64 %rd2, [%rd1];",
              "ld.acquire.cluster.shared::cluster.u32 %r1, [%rd1];", "ld.relaxed.cta.shared.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];",
              "ld.relaxed.gpu.global.L1::evict_last.u32 %r1, [%rd1];", "ld.relaxed.gpu.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
              "ld.volatile.shared.u32 %r1, [%rd1];", "ld.volatile.global.v2.f64 {%fd1,%fd2}, [%rd1];", "ld.weak.global.cg.u32 %r1, [%rd1];",
              "ld.global.nc.u32 %r1, [%rd1];", "ld.global.nc.ca.u32 %r1, [%rd1];", "ld.global.nc.L1::evict_last.u32 %r1, [%rd1];",
              "ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];",
              "ld.global.nc.L2::cache_hint.v2.u64 {%rd2,%rd3}, [%rd1], %rd4;", "ld.global.L2::128B.b32 %r1, [%rd1];",
              "ld.global.L1::evict_first.L2::cache_hint.L2::64B.f32 %f1, [%rd1], %rd2;", "ld.global.lu.f64 %fd1, [%rd1];",
              "ld.global.cv.u16 %h1, [%rd1];", "ld.local.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];", "ld.const.v2.f32 {%f1,%f2}, [%rd1];",
              "ld.param.u64 %rd2, [p];", "ld.param::entry.u64 %rd2, [p];", "ld.param.v2.u32 {%r1,%r2}, [p];",
              "ld.global.u32 %r1, [%rd1+16];", "ld.global.u32 %r1, [gl];", "ld.global.u32 %r1, [gl+8];", "ld.shared.u32 %r1, [sh];",
              "ld.shared::cta.u32 %r1, [sh+4];", "ld.global.v4.u16 {%h1,%h2,%h3,%h4}, [%rd1];", "ld.global.v4.u8 {%h1,%h2,%h3,%h4}, [%rd1];",
              "ld.global.v2.s8 {%r1,%r2}, [%rd1];", "ld.global.u8 %r1, [%rd1];", "ld.global.s16 %r1, [%rd1];", "ld.global.u32 %rd2, [%rd1];",
              "ld.global.f32 %r1, [%rd1];", "ld.global.b32 %f1, [%rd1];", "ld.global.u32 %f1, [%rd1];", "ld.global.f64 %rd2, [%rd1];",
              "ld.global.v4.f64 {%fd1,%fd2,%fd3,%fd4}, [%rd1];", "ld.global.v2.pred {%p1,%p2}, [%rd1];", "ld.global.pred %p1, [%rd1];",
              "ld.global.u32 %r1, [%r2];", "ld.global.u32 %r1, [0];", "ld.global.u32 %r1, %rd1;"):
        hand("ld", s)
    for s in ("ld.global.v8.b32 %s, [%%rd1];" % v8r, "ld.global.v8.f32 %s, [%%rd1];" % v8f,
              "ld.global.v4.b64 {%rd2,%rd3,%rd4,%rd5}, [%rd1];", "ld.global.v4.f64 {%fd1,%fd2,%fd3,%fd4}, [%rd1];",
              "ld.global.L2::evict_last.v8.b32 %s, [%%rd1];" % v8r, "ld.global.L1::evict_last.L2::evict_first.v8.f32 %s, [%%rd1];" % v8f,
              "ld.global.L2::evict_normal.v4.b64 {%rd2,%rd3,%rd4,%rd5}, [%rd1];", "ld.global.L2::evict_unchanged.v4.u64 {%rd2,%rd3,%rd4,%rd5}, [%rd1];",
              "ld.global.nc.v8.b32 %s, [%%rd1];" % v8r, "ld.global.nc.L2::evict_last.v8.f32 %s, [%%rd1];" % v8f,
              "ld.shared.v8.b32 %s, [%%rd1];" % v8r, "ld.v8.b32 %s, [%%rd1];" % v8r, "ld.global.L2::evict_last.u32 %r1, [%rd1];",
              "ld.global.L2::evict_last.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];", "ld.relaxed.gpu.global.v8.b32 %s, [%%rd1];" % v8r,
              "ld.global.v8.u32 %s, [%%rd1];" % v8r, "ld.global.v8.s32 %s, [%%rd1];" % v8r, "ld.global.v8.f16x2 %s, [%%rd1];" % v8r):
        hand("ld", s, V100)
    for s in ("st.mmio.relaxed.sys.global.u32 [%rd1], %r1;", "st.mmio.relaxed.sys.global.f64 [%rd1], %fd1;",
              "st.mmio.release.sys.global.u32 [%rd1], %r1;", "st.mmio.relaxed.sys.shared.u32 [%rd1], %r1;",
              "st.release.gpu.global.b32 [%rd1], %r1;", "st.relaxed.cta.shared.v2.f32 [%rd1], {%f1,%f2};",
              "st.relaxed.cluster.shared::cluster.u64 [%rd1], %rd2;", "st.relaxed.sys.global.L1::no_allocate.u32 [%rd1], %r1;",
              "st.volatile.global.u32 [%rd1], %r1;", "st.weak.shared.wb.u32 [%rd1], %r1;", "st.global.L1::no_allocate.v4.f32 [%rd1], {%f1,%f2,%f3,%f4};",
              "st.global.L2::cache_hint.u32 [%rd1], %r1, %rd2;", "st.global.cs.L2::cache_hint.v2.u64 [%rd1], {%rd2,%rd3}, %rd4;",
              "st.local.wt.b16 [%rd1], %h1;", "st.global.u32 [%rd1+8], %r1;", "st.global.u32 [gl], %r1;", "st.shared.u32 [sh], 7;",
              "st.global.u8 [%rd1], %r1;", "st.global.v4.u8 [%rd1], {%h1,%h2,%h3,%h4};", "st.global.f32 [%rd1], %r1;",
              "st.global.u32 [%rd1], %f1;", "st.global.pred [%rd1], %p1;", "st.global.u32 [%rd1], %rd2;",
              "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];",
              "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%rd1], {%f1,%f2}, [%rd2];",
              "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%rd1], {%r1,%r2,%r3,%r4}, [%rd2];",
              "st.async.mbarrier::complete_tx::bytes.u64 [%rd1], %rd2, [%rd3];"):
        hand("st", s)
    for s in ("st.global.v8.b32 [%%rd1], %s;" % v8r, "st.global.v8.f32 [%%rd1], %s;" % v8f,
              "st.global.v4.b64 [%rd1], {%rd2,%rd3,%rd4,%rd5};", "st.global.L2::evict_last.v8.b32 [%%rd1], %s;" % v8r,
              "st.global.L1::no_allocate.L2::evict_first.v4.f64 [%rd1], {%fd1,%fd2,%fd3,%fd4};", "st.global.L2::evict_last.u32 [%rd1], %r1;",
              "st.bulk.weak.shared::cta [%rd1], 64, 0;", "st.bulk.weak [%rd1], %rd2, 0;", "st.bulk.weak.shared::cta [%rd1], 64, 1;"):
        hand("st", s, V100)
    for s in ("atom.global.add.noftz.f16 %h1, [%rd1], %h2;", "atom.global.add.noftz.bf16 %h1, [%rd1], %h2;",
              "atom.global.add.noftz.f16x2 %r1, [%rd1], %r2;", "atom.global.add.noftz.bf16x2 %r1, [%rd1], %r2;",
              "atom.global.min.noftz.f16 %h1, [%rd1], %h2;", "atom.global.max.noftz.bf16x2 %r1, [%rd1], %r2;",
              "atom.global.add.f16 %h1, [%rd1], %h2;", "atom.global.add.f32 %f1, [%rd1], %f2;", "atom.global.add.f64 %fd1, [%rd1], %fd2;",
              "atom.global.min.f32 %f1, [%rd1], %f2;", "atom.global.add.ftz.f32 %f1, [%rd1], %f2;",
              "atom.global.v2.f16x2.add.noftz {%r1,%r2}, [%rd1], {%r3,%r4};", "atom.global.v4.f32.add {%f1,%f2,%f3,%f4}, [%rd1], {%f5,%f6,%f7,%f8};",
              "atom.global.v2.f32.add {%f1,%f2}, [%rd1], {%f3,%f4};", "atom.global.v8.f16.add.noftz %s, [%%rd1], %s;" % (vr("%h", 1, 8), vr("%h", 9, 8)),
              "atom.global.v4.bf16x2.max.noftz {%r1,%r2,%r3,%r4}, [%rd1], {%r5,%r6,%r7,%r8};", "atom.global.v2.f32.min {%f1,%f2}, [%rd1], {%f3,%f4};",
              "atom.v2.f32.add {%f1,%f2}, [%rd1], {%f3,%f4};", "atom.shared.v2.f32.add {%f1,%f2}, [%rd1], {%f3,%f4};",
              "atom.global.v2.u32.add {%r1,%r2}, [%rd1], {%r3,%r4};", "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
              "atom.global.cas.b64 %rd2, [%rd1], %rd3, %rd4;", "atom.global.cas.b16 %h1, [%rd1], %h2, %h3;", "atom.global.exch.b64 %rd2, [%rd1], %rd3;",
              "atom.global.inc.u32 %r1, [%rd1], %r2;", "atom.global.dec.u32 %r1, [%rd1], %r2;", "atom.global.inc.u64 %rd2, [%rd1], %rd3;",
              "atom.relaxed.gpu.global.add.u32 %r1, [%rd1], %r2;", "atom.acq_rel.sys.global.cas.b64 %rd2, [%rd1], %rd3, %rd4;",
              "atom.acquire.cta.shared.exch.b32 %r1, [%rd1], %r2;", "atom.release.cluster.shared::cluster.or.b32 %r1, [%rd1], %r2;",
              "atom.global.add.L2::cache_hint.u32 %r1, [%rd1], %r2, %rd2;", "atom.global.cas.L2::cache_hint.b32 %r1, [%rd1], %r2, %r3, %rd2;",
              "atom.shared::cta.add.u64 %rd2, [%rd1], %rd3;", "atom.global.min.s64 %rd2, [%rd1], %rd3;", "atom.global.max.u64 %rd2, [%rd1], %rd3;",
              "atom.global.add.s32 %r1, [%rd1], %r2;", "atom.global.add.s64 %rd2, [%rd1], %rd3;", "atom.global.and.b64 %rd2, [%rd1], %rd3;",
              "atom.gpu.global.add.u32 %r1, [%rd1], %r2;", "atom.relaxed.global.add.u32 %r1, [%rd1], %r2;", "atom.global.add.u32 %r1, [gl], 1;",
              "atom.global.exch.b32 _, [%rd1], %r2;", "atom.global.add.u32 %r1, [%rd1], %rd2;", "atom.global.add.u32 %f1, [%rd1], %r2;"):
        hand("atom", s)
    for s in ("red.global.add.noftz.f16 [%rd1], %h1;", "red.global.add.noftz.bf16x2 [%rd1], %r1;", "red.global.add.f32 [%rd1], %f1;",
              "red.global.add.f64 [%rd1], %fd1;", "red.global.v4.f32.add [%rd1], {%f1,%f2,%f3,%f4};",
              "red.global.v2.f16x2.add.noftz [%rd1], {%r1,%r2};", "red.global.v8.bf16.min.noftz [%%rd1], %s;" % vr("%h", 1, 8),
              "red.global.v2.f32.max [%rd1], {%f1,%f2};", "red.relaxed.gpu.global.add.u32 [%rd1], %r1;",
              "red.release.sys.global.or.b32 [%rd1], %r1;", "red.shared.add.u64 [%rd1], %rd2;", "red.shared::cluster.add.u32 [%rd1], %r1;",
              "red.global.add.L2::cache_hint.u32 [%rd1], %r1, %rd2;", "red.global.inc.u32 [%rd1], %r1;", "red.global.min.s32 [%rd1], %r1;",
              "red.global.xor.b64 [%rd1], %rd2;", "red.acquire.gpu.global.add.u32 [%rd1], %r1;", "red.global.exch.b32 [%rd1], %r1;",
              "red.global.cas.b32 [%rd1], %r1, %r2;", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];",
              "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%rd1], %r1, [%rd2];",
              "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%rd1], %r1, [%rd2];"):
        hand("red", s)
    for s in ("cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;", "cvt.rn.satfinite.e5m2x2.f32 %h1, %f1, %f2;",
              "cvt.rn.satfinite.relu.e4m3x2.f32 %h1, %f1, %f2;", "cvt.rn.satfinite.e4m3x2.f16x2 %h1, %r1;",
              "cvt.rn.satfinite.relu.e5m2x2.f16x2 %h1, %r1;", "cvt.rn.f16x2.e4m3x2 %r1, %h1;", "cvt.rn.relu.f16x2.e5m2x2 %r1, %h1;",
              "cvt.rz.satfinite.e4m3x2.f32 %h1, %f1, %f2;", "cvt.rn.e4m3x2.f32 %h1, %f1, %f2;", "cvt.satfinite.e4m3x2.f32 %h1, %f1, %f2;",
              "cvt.rn.satfinite.e4m3x2.f32 %r1, %f1, %f2;", "cvt.rna.tf32.f32 %r1, %f1;", "cvt.rna.satfinite.tf32.f32 %r1, %f1;",
              "cvt.rn.satfinite.tf32.f32 %r1, %f1;", "cvt.rz.relu.satfinite.tf32.f32 %r1, %f1;", "cvt.rn.bf16x2.f32 %r1, %f1, %f2;",
              "cvt.rz.relu.bf16x2.f32 %r1, %f1, %f2;", "cvt.rn.relu.satfinite.f16x2.f32 %r1, %f1, %f2;", "cvt.rn.f16x2.f32 %r1, %f1;",
              "cvt.rn.relu.f16.f32 %h1, %f1;", "cvt.rn.relu.bf16.f32 %h1, %f1;", "cvt.rn.satfinite.f16.f32 %h1, %f1;",
              "cvt.rn.ftz.f16.f32 %h1, %f1;", "cvt.f32.f16 %f1, %h1;", "cvt.ftz.f32.f16 %f1, %h1;", "cvt.f32.bf16 %f1, %h1;",
              "cvt.rni.s32.f32 %r1, %f1;", "cvt.rzi.sat.u8.f32 %r1, %f1;", "cvt.rn.f32.s32 %f1, %r1;", "cvt.rn.sat.f32.f32 %f1, %f1;",
              "cvt.u32.u8 %r1, %r2;", "cvt.s64.s32 %rd2, %r1;", "cvt.u16.u32 %h1, %r1;", "cvt.f64.f32 %fd1, %f1;", "cvt.rn.f32.f64 %f1, %fd1;",
              "cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;", "cvt.pack.sat.s16.s32 %r1, %r2, %r3;", "cvt.pack.sat.u16.s32 %r1, %r2, %r3;",
              "cvt.pack.sat.u4.s32.b32 %r1, %r2, %r3, %r4;", "cvt.s32.f32 %r1, %f1;", "cvt.f32.s32 %f1, %r1;", "cvt.u32.u32 %r1, %r2;"):
        hand("cvt", s)
    for s in ("cvt.rs.f16x2.f32 %r1, %f1, %f2, %r2;", "cvt.rs.relu.satfinite.bf16x2.f32 %r1, %f1, %f2, %r2;",
              "cvt.rn.satfinite.e2m1x2.f32 %b1, %f1, %f2;", "cvt.rn.f16x2.e2m1x2 %r1, %b1;", "cvt.rz.satfinite.ue8m0x2.f32 %h1, %f1, %f2;",
              "cvt.rn.satfinite.e2m3x2.f32 %h1, %f1, %f2;", "cvt.rn.satfinite.e3m2x2.f32 %h1, %f1, %f2;", "cvt.rn.bf16x2.ue8m0x2 %r1, %h1;",
              "cvt.rs.satfinite.e4m3x4.f32 %r1, {%f1,%f2,%f3,%f4}, %r2;", "cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;"):
        hand("cvt", s, ("9.0", "sm_100a"))


HAND_GENERATORS = [hand_mma, hand_wgmma, hand_cp, hand_mbarrier, hand_ldst_matrix, hand_mem, hand_open]

# targets a hand form is also tried at (each at max(its version, the target's minimum))
HGATE_TARGETS = ["sm_70", "sm_75", "sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120a"]
HGATE_VERSIONS = ["6.0", "7.0", "7.8", "8.0", "8.3", "8.6"]
HFOREIGN_PER_FORM = 3


def split_instr(s):
    """'op.a.b d, [x], {y,z};' -> ('op.a.b', ['d', '[x]', '{y,z}']); a leading label is kept
    with the head."""
    body = s.rstrip().rstrip(";")
    label = ""
    m = re.match(r"^(\$\w+:\s*)(.*)$", body)
    if m:
        label, body = m.group(1), m.group(2)
    guard = ""
    m = re.match(r"^(@!?%\w+\s+)(.*)$", body)
    if m:
        guard, body = m.group(1), m.group(2)
    parts = body.split(None, 1)
    head = parts[0]
    ops = []
    if len(parts) > 1:
        depth, cur = 0, ""
        for ch in parts[1]:
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
            if ch == "," and depth == 0:
                ops.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip():
            ops.append(cur.strip())
    return label + guard, head, ops


def join_instr(prefix, head, ops):
    return prefix + head + (" " + ", ".join(ops) if ops else "") + ";"


def hand_row(opcode, rows_by_opcode):
    idx = rows_by_opcode.get(opcode, [])
    return idx[0] if len(idx) == 1 else None


def gen_hand(rows_by_opcode, all_words):
    for g in HAND_GENERATORS:
        g()
    for family, forms in HAND.items():
        derived = collections.OrderedDict((k, []) for k in ("hdrop", "hforeign", "hcount", "hgate"))
        for instr, vt in forms:
            pre, head, ops = split_instr(instr)
            opcode = head.split(".")[0]
            row = hand_row(opcode, rows_by_opcode)
            add("hand", opcode, row, instr, vt)
            mods = head.split(".")[1:]
            # hdrop: each modifier removed
            for k in range(len(mods)):
                h = ".".join([opcode] + mods[:k] + mods[k + 1:])
                derived["hdrop"].append((opcode, row, join_instr(pre, h, ops), vt))
            # hforeign: a hashed sample of words the form does not have, added before the last modifier
            cand = [w for w in all_words if w[1:] not in mods]
            for w in sample(cand, HFOREIGN_PER_FORM, "hforeign", instr):
                h = ".".join([opcode] + mods[:-1] + [w[1:]] + mods[-1:]) if mods else opcode + w
                derived["hforeign"].append((opcode, row, join_instr(pre, h, ops), vt))
            # hcount
            if ops:
                derived["hcount"].append((opcode, row, join_instr(pre, head, ops[:-1]), vt))
                derived["hcount"].append((opcode, row, join_instr(pre, head, ops + [ops[-1]]), vt))
            # hgate: other targets, lower versions at the form's target
            for t in HGATE_TARGETS:
                if t != vt[1]:
                    derived["hgate"].append((opcode, row, instr, (fit_version(vt[0], t), t)))
            for v in HGATE_VERSIONS:
                if vnum(v) < vnum(vt[0]) and vnum(v) >= vnum(min_version(vt[1])):
                    derived["hgate"].append((opcode, row, instr, (v, vt[1])))
        for kind, items in derived.items():
            cap = int(HAND_CAPS[kind] * len(forms)) + 4
            for opcode, row, instr, vt in sample(items, cap, kind, family):
                add(kind, opcode, row, instr, vt)


# per hand family, at most (factor x number of forms + 4) cases of each derived kind (a hashed sample)
HAND_CAPS = {"hdrop": 1.6, "hforeign": 1.0, "hcount": 1.2, "hgate": 1.5}


# --------------------------------------------------------------------------
# Everything
# --------------------------------------------------------------------------


def generate(table):
    rows = table["rows"]
    all_words = table["words"]
    rows_by_opcode = collections.defaultdict(list)
    for i, r in enumerate(rows):
        rows_by_opcode[r["opcode"]].append(i)
    # the template at every (version, target) pair the cases use is checked after generation
    for i, r in enumerate(rows):
        if r["rule"] == "table":
            gen_row(i, r, all_words, sibling=rows_by_opcode[r["opcode"]][0] != i)
    if UNSHAPED:
        print("no operand shape for %s: their table rows are left out (add them to operands())"
              % " ".join(sorted(UNSHAPED)), file=sys.stderr)
    assert set(k for k, _, _, _, _ in PENDING) <= set(KIND_ORDER)
    for kind in KIND_ORDER:
        for k, op, i, instr, vt in PENDING:
            if k == kind:
                add(kind, op, i, instr, vt)
    gen_hand(rows_by_opcode, all_words)
    pairs = sorted(set((c["version"], c["target"]) for c in CASES), key=lambda vt: (vnum(vt[0]), smnum(vt[1]), vt[1]))
    for vt in pairs:
        add("template", "add", None, "add.s32 %r1, %r2, %r3;", vt)
    return CASES


# --------------------------------------------------------------------------
# Running ptxas
# --------------------------------------------------------------------------

_PREFIX = re.compile(r"^ptxas\s+(?:(?P<file>\S+?), line (?P<line>\d+); )?(?P<sev>error|fatal|warning|info)\s*:\s*(?P<msg>.*)$")
PTXAS = None


def first_error(text):
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        m = _PREFIX.match(line)
        if not m:
            return line[:160]
        sev, msg = m.group("sev"), m.group("msg").strip()
        if sev in ("warning", "info"):
            continue
        if msg == "Ptx assembly aborted due to errors":
            continue
        return ("%s: %s" % (sev, msg))[:160]
    return ""


def run_case(args):
    idx, case, tmpdir = args
    path = os.path.join(tmpdir, "c%06d.ptx" % idx)
    with open(path, "w") as f:
        f.write(module(case["version"], case["target"], case["instr"]))
    try:
        p = subprocess.run([PTXAS, "-arch=" + arch_for(case["target"]), path, "-o", "/dev/null"],
                           capture_output=True, text=True, timeout=120)
        rc, out = p.returncode, (p.stdout + p.stderr).replace(path, "input.ptx")
    except subprocess.TimeoutExpired:
        rc, out = -999, "timeout"
    os.unlink(path)
    res = collections.OrderedDict()
    for k in ("id", "row", "opcode", "kind", "version", "target", "instr"):
        res[k] = case[k]
    res["accept"] = rc == 0
    res["error"] = "" if rc == 0 else (first_error(out) or "exit status %d" % rc)
    res["_rc"] = rc
    return res


def main():
    global PTXAS
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(root, "tests", "data", "ptxas_matrix", "table_cases.jsonl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--table", default=os.path.join(root, "tools", "isa_table.json"))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--kind", default=None, help="only cases of this kind (comma list)")
    ap.add_argument("--opcode", default=None, help="only cases of this opcode (comma list)")
    args = ap.parse_args()
    with open(args.table) as f:
        table = json.load(f)
    cases = generate(table)
    if args.kind:
        ks = set(args.kind.split(","))
        cases = [c for c in cases if c["kind"] in ks]
    if args.opcode:
        os_ = set(args.opcode.split(","))
        cases = [c for c in cases if c["opcode"] in os_]
    if args.limit and len(cases) > args.limit:
        step = len(cases) / float(args.limit)
        cases = [cases[int(k * step)] for k in range(args.limit)]
    if args.list:
        for c in cases:
            print("%-28s %-8s %-4s %-8s %s" % (c["id"], c["kind"], c["version"], c["target"], c["instr"]))
        kinds = collections.Counter(c["kind"] for c in cases)
        print(len(cases), "cases", dict(sorted(kinds.items())), file=sys.stderr)
        return
    PTXAS = find_ptxas()
    t0 = time.time()
    results = []
    with tempfile.TemporaryDirectory(prefix="ptxas_table_") as tmp:
        with ThreadPoolExecutor(max_workers=args.jobs) as ex:
            for k, r in enumerate(ex.map(run_case, [(i, c, tmp) for i, c in enumerate(cases)], chunksize=16)):
                results.append(r)
                if (k + 1) % 5000 == 0:
                    print("  %d/%d (%.0f s)" % (k + 1, len(cases), time.time() - t0), file=sys.stderr)
    crashed = [r for r in results if r["_rc"] < 0]
    results = [r for r in results if r["_rc"] >= 0]
    for r in crashed:
        print("CRASH (rc %d, not written) %s %s %s %s" % (r["_rc"], r["id"], r["version"], r["target"], r["instr"]),
              file=sys.stderr)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(json.dumps({"template": TEMPLATE}, ensure_ascii=True) + "\n")
        for r in results:
            del r["_rc"]
            f.write(json.dumps(r, ensure_ascii=True, separators=(",", ":")) + "\n")
    c = collections.Counter((r["kind"], r["accept"]) for r in results)
    print("%d cases written to %s in %.0f s" % (len(results), args.out, time.time() - t0))
    for kind in sorted(set(k for k, _ in c)):
        print("  %-9s accept %6d  reject %6d" % (kind, c[(kind, True)], c[(kind, False)]))


if __name__ == "__main__":
    main()
