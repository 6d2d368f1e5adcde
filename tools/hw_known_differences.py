#!/usr/bin/env python3
"""Writes tests/hw/known_differences.json: the elements of the hardware goldens whose
bits the PTX does not determine, so that tests/hw_goldens.rs does not compare them.

Two kinds, each with its reason:

1. An f64 `add sub mul div fma` whose operands hold two different NaNs. The H100
   returns one of them, quieted, and which one depends on the order in which the
   compiler placed the operands (`add a, b` and `add b, a` give the same NaN), not on
   the PTX. ptxvm returns the first NaN operand. In the `leaf_*` kernels every
   instruction reads the template's input registers, so this script finds these
   elements from the inputs and the instruction alone, without ptxvm.

2. Cases of `chain_*` diagnosed by hand (CHAIN below): a two-NaN f64 operation whose
   result feeds later instructions, and two compiler behaviours. For these the
   elements are the ones where ptxvm (`--ptxvm`, a release build) differs from the
   hardware, each explained by the case's reason.

3. The project's own cases (PROJECT below): undefined behaviour that ptxvm reports and
   the GPU ran through (ptxvm's exit code is given instead of the hardware's), a race,
   and a contraction into fma that the ISA allows.

Usage: tools/hw_known_differences.py [--ptxvm target/release/ptxvm]
"""

import argparse
import glob
import json
import os
import re
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "hw")

TWO_NANS = (
    "an f64 operation with two different NaN operands: the H100 returns one of them, and "
    "which depends on the order the compiler gave the operands, not on the PTX"
)
F2I_SHIFT = (
    "ptxas bug: a register written by an f32 instruction and used as the shift amount of a "
    "64-bit shl/shr is converted with F2I (the float's value, not its bits, becomes the "
    "amount; see the SASS of the case), where the ISA shifts by the register's bits"
)
NEG_NEG = (
    "the driver's compiler folds neg(neg(x)) into x, so a NaN x comes back as it is, where "
    "each neg gives the canonical NaN (f32) or quiets a signalling NaN (f64)"
)
CHAIN = {
    "chain_arith/00010_arith": TWO_NANS,
    "chain_arith/00022_arith": TWO_NANS,
    "chain_arith/00098_arith": F2I_SHIFT,
    "chain_arith/00210_arith": F2I_SHIFT,
    "chain_arith/00238_arith": TWO_NANS,
    "chain_arith/00270_arith": TWO_NANS,
    "chain_arith/00338_arith": NEG_NEG,
    "chain_arith/00370_arith": TWO_NANS,
    "chain_arith/00390_arith": NEG_NEG,
    "chain_arith/00446_arith": TWO_NANS,
    "chain_arith/00450_arith": F2I_SHIFT,
    "chain_arith/00454_arith": NEG_NEG,
    "chain_arith/00466_arith": NEG_NEG,
    "chain_arith/00470_arith": TWO_NANS,
    "chain_arith/00490_arith": TWO_NANS,
}

UB = (
    "undefined behaviour the GPU does not catch (an access a few bytes past an allocation or "
    "misaligned, whose value goes unused, a brx.idx past its table, an .aligned barrier from "
    "divergent paths): the H100 completed the launch, ptxvm reports the fault (exit 2)"
)
def ub_stderr(name):
    """What ptxvm must say of an undefined mma.sp case: its tests/kernels expectation."""
    path = os.path.join(ROOT, "..", "kernels", f"mma_sp_ub_{name}.expected.json")
    return json.load(open(path))["stderr"]


SPARSE_UB = (
    "sparsity metadata the ISA leaves undefined (descending or equal positions in a group under "
    "::ordered_metadata, a tf32 pair other than 0b0100/0b1110): the H200 completed the launch "
    "with some result, ptxvm reports it (exit 2); an out-of-range sparsity selector faulted there "
    "too (cudaErrorIllegalInstruction)"
)
# The project's own cases (tests/hw/project): what differs, and why.
PROJECT = {
    **{
        f"project/kernels/mma_sp_ub_{name}": {"exit": 2, "why": SPARSE_UB, "stderr": ub_stderr(name)}
        for name in ("descending", "equal", "tf32")
    },
    **{
        f"project/conformance/fault__{name}": {"exit": 2, "why": UB}
        for name in (
            "barrier_divergent",
            "brx_past_table",
            "misaligned_load",
            "misaligned_shared",
            "misaligned_store",
            "oob_load",
            "oob_store_cta_1_1",
        )
    },
    "project/examples/saxpy_out_of_bounds": {"exit": 2, "why": UB},
    "project/compilers/atomics_atomic_mix": {
        "arg": 1,
        "elements": [4],
        "why": "a race the program leaves open: the atomicExch slot keeps whichever thread came last",
    },
    "project/compilers/half_ops_half_scalar": {
        "arg": 2,
        "elements": [23],
        "why": (
            "mul.f16 and add.f16 without a rounding modifier may be contracted into fma (PTX ISA "
            "9.7.4.1): the driver's compiler fused m + f into fma(x, y, f), rounded once, where "
            "ptxvm rounds each instruction (0x4888 against 0x488c)"
        ),
    },
}

F64_OPS = re.compile(r"^(add|sub|mul|div|fma)\.[a-z.]*f64$")


def bits_of(v):
    return int(v, 16) if isinstance(v, str) else v


def f64_nan(x):
    return x & ((1 << 63) - 1) > 0x7FF << 52


def leaf_elements(case_dir):
    """Output elements of two-NaN f64 instructions in a leaf kernel."""
    kernel = open(os.path.join(case_dir, "kernel.ptx")).read().split("\n")
    launch = json.load(open(os.path.join(case_dir, "launch.json")))
    out_len = len(json.load(open(os.path.join(case_dir, "expected.json")))["buffers"][0]["data"])
    defs, stores = {}, {}
    for line in kernel:
        t = line.strip()
        m = re.match(r"(@!?%\w+\s+)?([a-z][\w.:]*)\s+(.*);", t)
        if m and not m.group(2).startswith("st."):
            for reg in re.findall(r"%\w+", m.group(3).split(",")[0]):
                defs[reg] = t
        m = re.match(r"st\.global\.\w+\s+\[%rd\d+\+(\d+)\],\s*(%\w+);", t)
        if m:
            stores[m.group(2)] = int(m.group(1)) // 4
    m = re.search(r"mul\.wide\.u32 %rd\d+, %r0, (\d+);", "\n".join(kernel))
    record = int(m.group(1)) // 4
    args = launch["args"]
    skip = []
    for line in kernel:
        m = re.match(r"\s*mov\.b64\s+\{(%\w+),\s*(%\w+)\},\s*(%\w+);", line)
        if not m or m.group(3) not in defs:
            continue
        ins = defs[m.group(3)]
        op = ins.split()[0]
        if not F64_OPS.match(op):
            continue
        regs = re.findall(r"%\w+", ins)[1:]
        for t in range(out_len // record):
            inputs = {"%rd11": bits_of(args[3]["data"][t]), "%rd14": bits_of(args[4]["data"][t])}
            if not all(r in inputs for r in regs):
                continue
            nans = {inputs[r] for r in regs if f64_nan(inputs[r])}
            if len(nans) > 1:
                skip += [t * record + stores[m.group(1)], t * record + stores[m.group(2)]]
    return sorted(skip)


def differing_elements(case_dir, ptxvm):
    expected = json.load(open(os.path.join(case_dir, "expected.json")))["buffers"][0]
    run = subprocess.run(
        [ptxvm, "run", "kernel.ptx", "--launch", "launch.json"], cwd=case_dir, capture_output=True, text=True
    )
    got = next(b for b in json.loads(run.stdout)["buffers"] if b["arg"] == expected["arg"])["data"]
    return [
        k
        for k, (g, w) in enumerate(zip(got, expected["data"]))
        if bits_of(g) & 0xFFFFFFFF != bits_of(w) & 0xFFFFFFFF
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptxvm", default="target/release/ptxvm")
    args = ap.parse_args()
    args.ptxvm = os.path.abspath(args.ptxvm)
    out = {}
    # Only leaf_arith has f64 arithmetic among the leaf folders.
    for case_dir in sorted(glob.glob(os.path.join(ROOT, "leaf_arith", "*"))):
        skip = leaf_elements(case_dir)
        if skip:
            out[f"leaf_arith/{os.path.basename(case_dir)}"] = {"elements": skip, "why": TWO_NANS}
    for case, why in CHAIN.items():
        skip = differing_elements(os.path.join(ROOT, case), args.ptxvm)
        if skip:
            out[case] = {"elements": skip, "why": why}
    out.update(PROJECT)
    path = os.path.join(ROOT, "known_differences.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    elements = sum(len(v.get("elements", [])) for v in out.values())
    print(f"{path}: {len(out)} cases, {elements} elements")


if __name__ == "__main__":
    main()
