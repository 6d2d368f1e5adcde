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

Regenerate the committed data (from the repository root; ptxas 13.5 from pip's
nvidia-cuda-nvcc):

    PTXAS=.../ptxas python3 tools/ptxas_operand_matrix.py      # ~3,000 cases, a few minutes

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
INSTR = re.compile(r"^(\s*)(@!?%\w+\s+)?([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_:]+)*)(\s+)([^;{}]*);(.*)$")
REG = re.compile(r"^%[A-Za-z_][A-Za-z0-9_]*$")
TYPES = ["pred", "b16", "b32", "b64", "f32", "f64"]


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


def cases():
    seen = set()
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "**", "*.ptx"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        for ln, line in enumerate(open(path, errors="replace"), 1):
            m = INSTR.match(line.rstrip("\n"))
            if not m:
                continue
            indent, guard, name, space, ops, rest = m.groups()
            if name in seen or name.startswith("."):
                continue
            seen.add(name)
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
