#!/usr/bin/env python3
"""Count PTX opcodes and directives across the corpus.

    python3 corpus/opcode_stats.py            # markdown tables on stdout
    python3 corpus/opcode_stats.py --full     # count whole opcodes (setp.ltu.f16) instead

An opcode is the first dotted component of an instruction (`setp.lt.s32` -> `setp`),
counted once per occurrence; a directive is any PTX directive keyword (`.reg`, `.entry`,
`.loc`, ...) in directive position (start of a statement or after `(`, `,`, `{`).
Columns: occurrences in nvcc output (corpus/cuda/ptx), in llc output (corpus/llvm/ptx),
and the number of files (of either kind) where it appears at least once.
"""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent

DIRECTIVES = {
    ".address_size", ".align", ".alias", ".branchtargets", ".callprototype", ".calltargets",
    ".common", ".const", ".entry", ".explicitcluster", ".extern", ".file", ".func", ".global",
    ".loc", ".local", ".maxclusterrank", ".maxnctapersm", ".maxnreg", ".maxntid",
    ".minnctapersm", ".noreturn", ".param", ".pragma", ".reg", ".reqnctapercluster",
    ".reqntid", ".section", ".shared", ".sreg", ".target", ".tex", ".version", ".visible",
    ".weak", ".abi_preserve", ".abi_preserve_control",
}
DIR_RE = re.compile(r"(?:^|(?<=[\s(,{]))(\.[a-z_]+)\b")
LABEL_RE = re.compile(r"^[A-Za-z_$%][\w$]*\s*:(?!:)\s*")
GUARD_RE = re.compile(r"^@!?%?[\w$]+\s+")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


FULL = "--full" in sys.argv[1:]


def scan(text):
    ops, dirs = collections.Counter(), collections.Counter()
    text = strip_comments(text)
    kept = []
    for line in text.splitlines():
        for d in DIR_RE.findall(line):
            if d in DIRECTIVES:
                dirs[d] += 1
        s = line.strip()
        # .loc/.file lines and .section data rows carry no ';'
        if s.startswith((".loc", ".file", ".b8", ".b16", ".b32", ".b64", ".section")):
            continue
        # a brace alone on its line opens/closes a body or a scope: a statement boundary;
        # braces inside statements (vector operands, initialisers) are left alone
        kept.append(";" if s in ("{", "}") else line)
    for stmt in "\n".join(kept).split(";"):
        s = stmt.lstrip(" \t\r\n{}").strip()
        while True:
            m = LABEL_RE.match(s)
            if not m:
                break
            s = s[m.end():]
        s = GUARD_RE.sub("", s)
        if not s or s.startswith(".") or not s[0].isalpha():
            continue
        ops[re.split(r"[\s.]", s, 1)[0] if not FULL else s.split(None, 1)[0]] += 1
    return ops, dirs


def main():
    groups = {"nvcc": sorted((ROOT / "cuda/ptx").rglob("*.ptx")), "llc": sorted((ROOT / "llvm/ptx").rglob("*.ptx"))}
    tot = {k: (collections.Counter(), collections.Counter()) for k in groups}
    files_with = (collections.Counter(), collections.Counter())
    for g, files in groups.items():
        for f in files:
            ops, dirs = scan(f.read_text())
            tot[g][0].update(ops)
            tot[g][1].update(dirs)
            files_with[0].update(ops.keys())
            files_with[1].update(dirs.keys())
    nfiles = sum(len(v) for v in groups.values())
    out = sys.stdout
    for idx, title in ((0, "Opcodes"), (1, "Directives")):
        keys = sorted(set(tot["nvcc"][idx]) | set(tot["llc"][idx]),
                      key=lambda k: (-(tot["nvcc"][idx][k] + tot["llc"][idx][k]), k))
        out.write(f"\n#### {title} ({len(keys)} distinct, {nfiles} files)\n\n")
        out.write("| name | nvcc | llc | files |\n| --- | ---: | ---: | ---: |\n")
        for k in keys:
            out.write(f"| `{k}` | {tot['nvcc'][idx][k]} | {tot['llc'][idx][k]} | {files_with[idx][k]} |\n")


if __name__ == "__main__":
    main()
