#!/usr/bin/env python3
"""Runs tests/kernels' cases on a real GPU through the launch contract and keeps what
the hardware computed: `record_kernel_goldens.py GPU_RUN_DIR OUT PREFIX...` runs every
tests/kernels/NAME.launch.json whose NAME starts with a PREFIX (its module is the
expected file's "ptx") with GPU_RUN_DIR/gpu_run.py, and writes OUT/NAME.json
(gpu_run's result) and a line of OUT/summary.jsonl per case (its exit code and
message). A fault leaves the CUDA context unusable, so after one it exits 3 and
a second call goes on with the cases summary.jsonl does not hold yet. Run on a
machine with a GPU and cupy, from the repository root."""
import contextlib
import glob
import io
import json
import os
import sys


def main(argv):
    sys.path.insert(0, argv[0])
    import gpu_run

    out, prefixes = argv[1], tuple(argv[2:])
    os.makedirs(out, exist_ok=True)
    done_path = os.path.join(out, "summary.jsonl")
    done = set()
    if os.path.exists(done_path):
        done = {json.loads(line)["name"] for line in open(done_path)}
    for path in sorted(glob.glob("tests/kernels/*.expected.json")):
        name = os.path.basename(path)[: -len(".expected.json")]
        if not name.startswith(prefixes) or name in done:
            continue
        want = json.load(open(path))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = gpu_run.main(["run", want["ptx"], "--launch", f"tests/kernels/{name}.launch.json",
                               "--out", os.path.join(out, f"{name}.json")])
        with open(done_path, "a") as f:
            f.write(json.dumps({"name": name, "exit": rc, "stderr": err.getvalue()}) + "\n")
        print(name, rc, err.getvalue().strip()[:200], flush=True)
        if rc == 2:
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
