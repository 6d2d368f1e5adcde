#!/usr/bin/env python3
"""The launch contract (shared/launch-contract.md) on a real NVIDIA GPU, through cupy.

    gpu_run.py run KERNEL.ptx --launch SPEC.json [--out OUT.json]

Same inputs and output JSON as `ptxvm run`, so any case runner that drives ptxvm can
drive the hardware instead (tools/gpu-ptxvm wraps this file as a binary). Exit codes:
0 ran, 1 the driver rejected the PTX or the spec, 2 the launch faulted.
Needs cupy and ml_dtypes (both preinstalled on the device machines).
This is a copy of the shared tool (shared/tools/gpu_run.py), kept in the repo for runs from it."""
import json
import math
import re
import sys

import numpy as np

ELEM = {"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
        "s32": np.int32, "u64": np.uint64, "s64": np.int64, "f32": np.float32, "f64": np.float64,
        "f16": np.float16, "b8": np.uint8, "b16": np.uint16, "b32": np.uint32, "b64": np.uint64}
BITS = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


def bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


def dtype_of(name):
    return bf16() if name == "bf16" else ELEM[name]


def to_array(name, values):
    """Values per the contract: numbers, "0x.." exact bits, "nan", "inf", "-inf"."""
    dt = dtype_of(name)
    width = np.dtype(dt).itemsize
    raw = np.zeros(len(values), dtype=np.dtype(f"u{width}"))
    for i, v in enumerate(values):
        if isinstance(v, str) and v.lower().startswith("0x"):
            raw[i] = int(v, 16)
        else:
            x = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, v) if isinstance(v, str) else v
            raw[i] = np.array([x], dtype=dt).view(raw.dtype)[0] if np.issubdtype(np.dtype(dt), np.floating) or name == "bf16" \
                else np.array([int(x)], dtype=dt).view(raw.dtype)[0]
    return raw.view(dt)


def to_json_values(name, arr):
    if name in ("f16", "bf16", "f32", "f64"):
        out = []
        for x in arr:
            f = float(x)
            if math.isnan(f):
                out.append("nan")
            elif math.isinf(f):
                out.append("inf" if f > 0 else "-inf")
            else:
                out.append(float(str(x)))  # shortest decimal in the element's own precision
        return out
    return [int(x) for x in arr]


def entries(ptx):
    return re.findall(r"\.entry\s+([A-Za-z_$%][\w$]*)", ptx)


def main(argv):
    if len(argv) < 2 or argv[0] != "run" or "--launch" not in argv:
        print("usage: gpu_run.py run KERNEL.ptx --launch SPEC.json [--out OUT.json]", file=sys.stderr)
        return 1
    ptx_path = argv[1]
    spec = json.load(open(argv[argv.index("--launch") + 1]))
    out_path = argv[argv.index("--out") + 1] if "--out" in argv else None
    ptx = open(ptx_path).read()
    names = entries(ptx)
    kernel = spec.get("kernel") or (names[0] if len(names) == 1 else None)
    if kernel is None:
        print(f"{ptx_path}: error: the module has {len(names)} entries; name one in the spec", file=sys.stderr)
        return 1

    def dims(v):
        v = [v] if isinstance(v, int) else list(v)
        return tuple(v + [1] * (3 - len(v)))

    import cupy as cp
    try:
        mod = cp.RawModule(path=ptx_path)
        fn = mod.get_function(kernel)
    except Exception as e:  # the driver's JIT rejected the module
        msg = re.sub(r"line (\d+);", lambda m: f"{ptx_path}:{m.group(1)}:", str(e))
        print(f"{ptx_path}: error: {msg}", file=sys.stderr)
        return 1

    args, buffers = [], []
    for i, a in enumerate(spec["args"]):
        if "buffer" in a:
            host = to_array(a["buffer"], a["data"]) if "data" in a else np.zeros(a["len"], dtype=dtype_of(a["buffer"]))
            dev = cp.asarray(host.view(np.dtype(f"u{host.dtype.itemsize}")))  # bits travel unchanged
            args.append(dev)
            buffers.append((i, a["buffer"], dev, host.dtype))
        else:
            t = a["type"]
            arr = to_array(t, [a["value"]])
            width = arr.dtype.itemsize
            args.append(arr.view(np.dtype(f"u{width}"))[0])  # packed by size, as the ABI does
    try:
        fn(dims(spec["grid"]), dims(spec["block"]), tuple(args), shared_mem=spec.get("dynamic_shared_bytes", 0))
        cp.cuda.runtime.deviceSynchronize()
    except Exception as e:
        print(f"fault in kernel {kernel}: {e}", file=sys.stderr)
        return 2
    result = {"kernel": kernel, "buffers": []}
    for i, name, dev, dt in buffers:
        host = cp.asnumpy(dev).view(dt)
        result["buffers"].append({"arg": i, "buffer": name, "data": to_json_values(name, host)})
    text = json.dumps(result)
    if out_path:
        open(out_path, "w").write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
