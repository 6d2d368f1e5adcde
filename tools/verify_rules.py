#!/usr/bin/env python3
"""Checks that every case in tests/data/rules.ptxt has the verdict NVIDIA's ptxas gives.

Usage: python3 tools/verify_rules.py   (needs `pip install nvidia-cuda-nvcc`)

The Rust test tests/rules.rs asserts ptxvm's verdict and message for each case; this
script is what makes the expected verdicts come from ptxas rather than from ptxvm.
It builds each case's module exactly as tests/rules.rs does (see `module_text`).
"""
import os, subprocess, sys, tempfile, re

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "..", "tests", "data", "rules.ptxt")

DECLS = open(os.path.join(HERE, "..", "tests", "data", "rules_decls.ptx")).read()

def parse_cases(text):
    cases, cur = [], None
    for line in text.splitlines():
        if line.startswith("== "):
            m = re.match(r"== (\S+)((?: \w+=\S+| module| deliberate)*) => (ok|error: .*)$", line)
            if not m:
                sys.exit(f"bad case header: {line}")
            opts = dict(o.split("=") for o in m.group(2).split() if "=" in o)
            cur = {"name": m.group(1), "module": " module" in m.group(2),
                   "deliberate": " deliberate" in m.group(2), "opts": opts,
                   "expect": m.group(3), "body": []}
            cases.append(cur)
        elif cur is not None:
            cur["body"].append(line)
        elif line.strip() and not line.startswith("#"):
            sys.exit(f"text before the first case: {line}")
    return cases

def module_text(case):
    body = "\n".join(case["body"]).strip("\n")
    if case["module"]:
        return body + "\n"
    version = case["opts"].get("version", "8.0")
    target = case["opts"].get("target", "sm_90")
    pre, sep, inner = body.partition("---\n")
    if not sep:
        pre, inner = "", body
    return (f".version {version}\n.target {target}\n.address_size 64\n{pre}\n"
            f".visible .entry k()\n{{\n{DECLS}{inner}\n\tret;\n}}\n")

def arch_of(text):
    m = re.search(r"\.target\s+(sm_\w+)", text)
    t = m.group(1) if m else "sm_90"
    num = int(re.sub(r"\D", "", t) or 90)
    return t if num >= 75 else "sm_75"

def main():
    bindir = None
    try:
        import nvidia
        bindir = os.path.join(os.path.dirname(nvidia.__path__[0]), "nvidia", "cu13", "bin")
    except ImportError:
        sys.exit("pip install nvidia-cuda-nvcc first")
    ptxas = os.path.join(bindir, "ptxas")
    cases = parse_cases(open(RULES).read())
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for c in cases:
            text = module_text(c)
            path = os.path.join(d, c["name"] + ".ptx")
            open(path, "w").write(text)
            r = subprocess.run([ptxas, "-arch=" + arch_of(text), path, "-o", "/dev/null"],
                               capture_output=True, text=True)
            ok = r.returncode == 0
            want = c["expect"] == "ok"
            if c["deliberate"]:
                want = not want  # ptxvm differs from ptxas on purpose
            if ok != want:
                bad += 1
                print(f"{c['name']}: ptxas says {'ok' if ok else 'error'}, case expects {c['expect']}")
                print("   ", r.stderr.strip().splitlines()[0] if r.stderr.strip() else "")
    print(f"{len(cases)} cases, {bad} disagree with ptxas")
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main()
