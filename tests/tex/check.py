#!/usr/bin/env python3
"""Checks what tex_fetch returned under ptxvm against the numpy reference and the GPU.

    check.py OUT                   OUT: tex_fetch's output for cases.py's cases under ptxvm
    check.py --record              rewrites known.json from the reference against gpu.bin
    check.py --probes OUT          the same for probes.py's cases (gpu_probes.bin,
    check.py --probes --record     known_probes.json)

1. Every case makes its object with the GPU's error code (0, or the runtime's own).
2. Every case the reference models is bit-identical between ptxvm and the reference.
3. The reference against the GPU's goldens: bit-identical, except in the cases of
   known.json, each of which differs in no more fetches, and by no more, than it
   lists, and names why (README.md, "Where the GPU departs from the reference").
Prints one line per failure and a summary; exits 1 on any failure."""
import json
import os
import sys

import numpy as np

import cases as C
import probes as P
import reference as R

HERE = os.path.dirname(os.path.abspath(__file__))


def payloads(c, payload):
    if c["kind"] in (C.K_SUST2, C.K_SURED2):
        return np.frombuffer(payload, dtype=np.uint8).reshape(-1, 1)
    return np.frombuffer(payload, dtype=np.uint32).reshape(-1, 4)


def category(c):
    """Why a case's fetches may differ from the reference on a GPU (README.md, "Where
    the GPU departs from the reference")."""
    k = c["kind"]
    if k in (C.K_2DGRAD, C.K_3DGRAD):
        return "grad-lod"
    if c["srgb"]:
        return "srgb-filter"
    return "float-filter-rounding"


def differing(c, got, want):
    return int((payloads(c, got) != want.reshape(payloads(c, got).shape)).any(axis=1).sum())


def worst(c, got, want):
    """The largest difference between two payloads, in the values' own terms (floats
    as floats, integers as integers); 0 when they are equal."""
    a, b = payloads(c, got), want.reshape(payloads(c, got).shape)
    if c["rtype"] == 0 and c["kind"] not in (C.K_SUST2, C.K_SURED2):
        x, y = a.view(np.float32).astype(np.float64), b.view(np.float32).astype(np.float64)
        same = (a == b) | (np.isnan(x) & np.isnan(y))
        d = np.where(same, 0.0, np.abs(x - y))
        return float(np.nan_to_num(d, nan=np.inf, posinf=np.inf).max())
    return float(np.abs(a.astype(np.int64) - b.astype(np.int64)).max())


# A set of cases: how to make them, the GPU's results, what is known to differ.
SETS = {"cases": (C.cases, "gpu.bin", "known.json"), "probes": (P.probes, "gpu_probes.bin", "known_probes.json")}


def record(which):
    make, golden, known_name = SETS[which]
    cs = make()
    gpu = R.results(open(os.path.join(HERE, golden), "rb").read(), cs)
    known = {}
    for i, (c, (mk, ran, payload)) in enumerate(zip(cs, gpu)):
        want = None if mk or ran else R.expect(c)
        if want is None:
            continue
        n = differing(c, payload, want)
        if n:
            known[str(i)] = {"differ": n, "of": len(payloads(c, payload)), "worst": worst(c, payload, want),
                             "why": category(c)}
    with open(os.path.join(HERE, known_name), "w") as f:
        json.dump(known, f, indent=1, sort_keys=True)
    print(f"{len(known)} cases differ from the GPU")


def main():
    args = sys.argv[1:]
    which = "cases"
    if args[0] == "--probes":
        which, args = "probes", args[1:]
    if args[0] == "--record":
        return record(which)
    make, golden_name, known_name = SETS[which]
    cs = make()
    ours = R.results(open(args[0], "rb").read(), cs)
    gpu = R.results(open(os.path.join(HERE, golden_name), "rb").read(), cs)
    known = json.load(open(os.path.join(HERE, known_name)))
    failures = 0
    modelled = same_as_gpu = fetches = 0
    for i, c in enumerate(cs):
        (mk, ran, got), (gmk, gran, golden) = ours[i], gpu[i]
        if mk != gmk or ran != gran:
            print(f"case {i}: made with error {mk} and ran with {ran}; the GPU: {gmk} and {gran}")
            failures += 1
            continue
        if mk:
            continue
        want = R.expect(c)
        if want is None:
            print(f"case {i}: kind {c['kind']} has no reference")
            failures += 1
            continue
        g, far = differing(c, golden, want), worst(c, golden, want)
        allowed = known.get(str(i), {"differ": 0, "worst": 0.0})
        if g > allowed["differ"] or far > allowed["worst"]:
            print(f"case {i} (kind {c['kind']}): the reference differs from the GPU in {g} fetches by up to "
                  f"{far}; {allowed['differ']} by up to {allowed['worst']} known")
            failures += 1
        modelled += 1
        n = differing(c, got, want)
        if n:
            print(f"case {i} (kind {c['kind']}): ptxvm and the reference differ in {n} fetches")
            failures += 1
        total = len(payloads(c, golden))
        fetches += total
        same_as_gpu += total - differing(c, golden, payloads(c, got))
    print(f"{modelled} cases: ptxvm equals the reference in all of them; "
          f"{same_as_gpu} of {fetches} fetches ({100 * same_as_gpu / fetches:.2f}%) bit-identical to the GPU's; "
          f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
