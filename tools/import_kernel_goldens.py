#!/usr/bin/env python3
"""Takes what tools/record_kernel_goldens.py recorded on a GPU into the hardware
goldens: `import_kernel_goldens.py DIR SOURCE` writes
tests/hw/project/kernels/NAME.gpu.json for each DIR/NAME.json (as raw bits, as
tests/hw_goldens.rs reads them, the buffers tests/kernels/NAME.expected.json checks:
the others are the launch spec's inputs; all of them where it expects a fault) and for each case DIR/summary.jsonl says
faulted (its exit code alone), and names each case's PTX and launch spec in
tests/hw/project/cases.json. SOURCE says which machine ran them."""
import json
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BITS = {"f16": (np.float16, np.uint16), "f32": (np.float32, np.uint32), "f64": (np.float64, np.uint64)}


def raw(ty, data):
    assert ty != "bf16", "a bf16 buffer: its bits need ml_dtypes (gpu_run.py's bf16), which this tool lacks"
    if ty not in BITS:
        return ty, data
    assert not any(isinstance(x, str) for x in data), "a NaN or infinity lost its bits in the recording"
    ft, ut = BITS[ty]
    return ty, [int(x) for x in np.array(data, dtype=ft).view(ut)]


def main(src, source):
    hw = os.path.join(ROOT, "tests", "hw", "project")
    manifest_path = os.path.join(hw, "cases.json")
    manifest = json.load(open(manifest_path))
    os.makedirs(os.path.join(hw, "kernels"), exist_ok=True)
    for line in open(os.path.join(src, "summary.jsonl")):
        run = json.loads(line)
        name = run["name"]
        want = json.load(open(os.path.join(ROOT, "tests", "kernels", f"{name}.expected.json")))
        golden = {"exit": run["exit"], "source": source}
        if run["exit"] == 0:
            got = json.load(open(os.path.join(src, f"{name}.json")))
            golden["buffers"] = []
            checked = {b["arg"] for b in want.get("buffers", [])}
            for b in got["buffers"]:
                if checked and b["arg"] not in checked:
                    continue
                ty, data = raw(b["buffer"], b["data"])
                golden["buffers"].append({"arg": b["arg"], "bits": ty, "data": data})
        else:
            golden["stderr"] = run["stderr"].strip()
        with open(os.path.join(hw, "kernels", f"{name}.gpu.json"), "w") as f:
            json.dump(golden, f, separators=(",", ":"))
        manifest[f"kernels/{name}"] = {"launch": f"tests/kernels/{name}.launch.json", "ptx": want["ptx"]}
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
