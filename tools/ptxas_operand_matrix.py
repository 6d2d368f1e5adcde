#!/usr/bin/env python3
"""ptxas operand matrix (issue 22): operand mutations of the instructions that real
compilers emit, each checked with NVIDIA ptxas.

For every distinct instruction name in corpus/ (nvcc, llc and Triton output), its first
occurrence is mutated in place, in its own module, so that everything around it stays
valid:

    dest_imm   the first operand, a register, replaced by the immediate 1
    src_imm    each later operand that is a plain register replaced by the immediate 1
    dest_reg   the first operand, a register, replaced by a register of each of the
               types .pred, .b16, .b32, .b64, .f32, .f64 (declared in a block around
               the instruction: `{ .reg .b64 %ptxvm_m; ... }`)
    src_reg    the same for each later plain register
    vec_long   a vector operand `{a, b}` lengthened by repeating its last element
    vec_short  a vector operand shortened by its last element (dropped whole when
               it has one)
    mod_drop   one word of the instruction's name (a modifier or a type) left out
    mod_add    a modifier added after the opcode: each word that the opcode carries
               elsewhere in the corpus and this instruction does not, and each of
               FOREIGN that it does not carry (words of other instructions, and `.L3`,
               which is no PTX word)

The vector and modifier mutations follow all the register and immediate ones.

Regenerate the committed data (from the repository root; ptxas 13.5 from pip's
nvidia-cuda-nvcc):

    PTXAS=.../ptxas python3 tools/ptxas_operand_matrix.py      # ~22,000 cases, ~5 minutes

Output (tests/data/ptxas_matrix/operand_cases.jsonl), one JSON object a line:

    {"id", "file", "line", "kind", "instr", "accept", "error"}

`file` and `line` (from 1) name the corpus line the case replaces with `instr` (files
ptxas rejects unchanged are left out; targets below sm_75 compile as sm_75);
`accept` is ptxas's verdict on the module so changed (the unchanged module is
accepted), `error` its first error line without the `ptxas FILE, line N; ` prefix,
trimmed to 160 characters. tests/ptxas_operand_matrix.rs runs `ptxvm check` on each
case and holds the differences to tests/data/ptxas_matrix/operand_differences.txt.
"""

import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "tests", "data", "ptxas_matrix", "operand_cases.jsonl")
INSTR = re.compile(r"^(\s*)(@!?%\w+\s+)?([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_:]+)*)(\s+)([^;]*);(.*)$")
REG = re.compile(r"^%[A-Za-z_][A-Za-z0-9_]*$")
TYPES = ["pred", "b16", "b32", "b64", "f32", "f64"]
# A type word of an instruction's name (not a modifier).
TYPE_WORD = re.compile(r"^((b|s|u|f)\d+(x\d+)?|bf16(x2)?|pred|tf32|e[2345]m[0-9]x?\d*|ue8m0x2|ue4m3)$")
FOREIGN = ["sat", "ftz", "cc", "wide", "L3"]


def split_operands(text):
    """Top-level comma-separated operands (brackets and braces kept whole)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def first_uses():
    """The first use of each instruction name in the corpus, and the modifiers each
    opcode carries anywhere in it."""
    seen = set()
    firsts, pool = [], {}
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "**", "*.ptx"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        for ln, line in enumerate(open(path, errors="replace"), 1):
            m = INSTR.match(line.rstrip("\n"))
            if not m or m.group(3).startswith("."):
                continue
            words = m.group(3).split(".")
            pool.setdefault(words[0], set()).update(w for w in words[1:] if not TYPE_WORD.match(w))
            if m.group(3) not in seen:
                seen.add(m.group(3))
                firsts.append((rel, ln, m.groups()))
    return firsts, pool


def cases():
    firsts, pool = first_uses()
    out = []
    for rel, ln, groups in firsts:
        if True:
            indent, guard, name, space, ops, rest = groups
            operands = split_operands(ops)
            guard = guard or ""

            def case(kind, k, by, ty=None):
                mutated = list(operands)
                mutated[k] = by
                instr = f"{guard}{name}{space}{', '.join(mutated)};"
                instr = f"{indent}{{ .reg .{ty} %ptxvm_m; {instr} }}" if ty else indent + instr
                # What followed the instruction on its line (a comment, a closing brace).
                instr += rest
                out.append({"file": rel, "line": ln, "kind": kind, "instr": instr})

            for k, o in enumerate(operands):
                if REG.match(o):
                    role = "dest" if k == 0 else "src"
                    case(f"{role}_imm", k, "1")
                    for ty in TYPES:
                        case(f"{role}_reg", k, "%ptxvm_m", ty)
    # Vector lengths and modifiers, after the register and immediate mutations.
    for rel, ln, (indent, guard, name, space, ops, rest) in firsts:
        operands = split_operands(ops)
        guard = guard or ""

        def changed(kind, name, operands):
            out.append({"file": rel, "line": ln, "kind": kind,
                        "instr": f"{indent}{guard}{name}{space}{', '.join(operands)};{rest}"})

        for k, o in enumerate(operands):
            if o.startswith("{") and o.endswith("}"):
                items = split_operands(o[1:-1])
                longer = list(operands)
                longer[k] = "{" + ", ".join(items + items[-1:]) + "}"
                changed("vec_long", name, longer)
                shorter = list(operands)
                if len(items) > 1:
                    shorter[k] = "{" + ", ".join(items[:-1]) + "}"
                else:
                    del shorter[k]
                changed("vec_short", name, shorter)
        words = name.split(".")
        for k in range(1, len(words)):
            changed("mod_drop", ".".join(words[:k] + words[k + 1:]), operands)
        extra = sorted(pool[words[0]] - set(words[1:])) + [w for w in FOREIGN if w not in pool[words[0]]]
        for w in extra:
            changed("mod_add", ".".join([words[0], w] + words[1:]), operands)
    for i, c in enumerate(out):
        c["id"] = f"op-{i:05d}"
    return out


def target_of(text):
    """The module's target as ptxas 13.5 takes it: targets below sm_75, which it no
    longer compiles for, compile as sm_75."""
    m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
    t = m.group(1) if m else "sm_90"
    n = re.match(r"sm_(\d+)", t)
    return "sm_75" if n and int(n.group(1)) < 75 else t


def run(ptxas, c):
    lines = open(os.path.join(ROOT, c["file"]), errors="replace").read().split("\n")
    if c["instr"] is not None:
        lines[c["line"] - 1] = c["instr"]
    text = "\n".join(lines)
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        p = subprocess.run([ptxas, f"-arch={target_of(text)}", name, "-o", os.devnull],
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(name)
    err = ""
    for l in (p.stdout + p.stderr).splitlines():
        if ("error" in l or "fatal" in l) and "Ptx assembly aborted" not in l:
            err = re.sub(r"^ptxas [^,]*, line \d+; ", "", l)
            err = re.sub(r"^(error|fatal)\s*:\s*", r"\1: ", err)[:160]
            break
    return dict(c, accept=p.returncode == 0, error=err)


def main():
    ptxas = os.environ.get("PTXAS")
    if not ptxas:
        sys.exit("set PTXAS to a ptxas binary (pip install nvidia-cuda-nvcc)")
    todo = cases()
    # Only modules ptxas accepts unchanged (at their target as target_of gives it).
    files = sorted({c["file"] for c in todo})
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        base = dict(zip(files, ex.map(lambda f: run(ptxas, {"file": f, "line": 1, "instr": None})["accept"], files)))
    todo = [c for c in todo if base[c["file"]]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda c: run(ptxas, c), todo))
    with open(OUT, "w") as f:
        for r in results:
            keys = ["id", "file", "line", "kind", "instr", "accept", "error"]
            f.write(json.dumps({k: r[k] for k in keys}) + "\n")
    print(f"{len(results)} cases, {sum(r['accept'] for r in results)} accepted by ptxas -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
