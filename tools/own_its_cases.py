#!/usr/bin/env python3
"""The project's own independent-thread-scheduling hardware cases (tests/hw/own/).

Each case folder holds source.cu (written by hand), kernel.ptx (nvcc output),
launch.json (written here from a fixed seed) and expected.json (what an H100 computed,
recorded with tools/gpu_run.py; nothing comes from ptxvm).

    own_its_cases.py launch            write every launch.json (inputs from seeded RNGs)
    own_its_cases.py compile           nvcc -ptx each source.cu, lower .version to 9.0, ptxas-check
    own_its_cases.py gpu OUTDIR        on a GPU machine: run every case twice with gpu_run.py
                                       (run1/run2 per case under OUTDIR, plus a summary)
    own_its_cases.py expected RUNDIR   write expected.json for every case whose two runs agree

The `.version` line is lowered to 9.0 because the H100's driver (580, CUDA 13.0) JIT
accepts PTX up to 9.0 and nvcc 13.5 writes 9.5; nothing in these kernels needs more.
"""
import glob
import json
import os
import random
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "hw", "own")
SEED = 20260415
FILL = -7  # untouched output elements stay -7 (0xfffffff9 for u32 buffers)


def ints(rng, n, lo, hi):
    return [rng.randint(lo, hi) for _ in range(n)]


def out_buf(kind, n):
    return {"buffer": kind, "data": [FILL if kind == "s32" else FILL & 0xFFFFFFFF] * n}


def s32(data):
    return {"buffer": "s32", "data": data}


def case_specs():
    """name -> (grid, block, args). One RNG per case, seeded from SEED and the name."""
    specs = {}

    def rng_for(name):
        return random.Random(f"{SEED}:{name}")

    r = rng_for("partial_warp_return_grid")
    lim = [r.randint(65, 79), r.randint(33, 63), r.randint(1, 31)]
    specs["partial_warp_return_grid"] = (3, 80, [s32(ints(r, 240, -1000, 1000)), s32(lim), out_buf("s32", 240)])

    r = rng_for("exit_asm_sync")
    x = ints(r, 192, -500, 500)
    for i in range(96 + 64, 192):  # CTA 1: the whole third warp exits
        x[i] = 8 * r.randint(-60, 60)
    for i in r.sample(range(96), 10):  # CTA 0: a few more exits
        x[i] = 8 * r.randint(-60, 60)
    specs["exit_asm_sync"] = (2, 96, [s32(x), out_buf("s32", 192)])

    r = rng_for("syncthreads_red_return")
    lim = [r.choice([n for n in range(70, 112) if n != 96]), r.randint(33, 63)]
    x = ints(r, 224, -9, 9)
    x[5], x[40] = 3, 7  # CTA 0's survivors hold a 3 and a 7
    for i in range(112, 112 + lim[1]):  # CTA 1's survivors hold neither
        if x[i] in (3, 7):
            x[i] += 1
    x[112 + lim[1]] = 3  # ... but a thread that returned does
    specs["syncthreads_red_return"] = (2, 112, [s32(x), s32(lim), out_buf("s32", 224)])

    r = rng_for("tile8_syncwarp")
    specs["tile8_syncwarp"] = (2, 64, [s32(ints(r, 128, -1000, 1000)), out_buf("s32", 128)])

    r = rng_for("tile16_split_syncwarp")
    specs["tile16_split_syncwarp"] = (1, 96, [s32(ints(r, 96, -300, 300)), out_buf("s32", 96)])

    r = rng_for("shfl_three_arms")
    specs["shfl_three_arms"] = (2, 96, [s32(ints(r, 192, -100000, 100000)), out_buf("s32", 192)])

    r = rng_for("shfl_ballot_after_return")
    x = [r.randint(0, 1000) if r.random() > 0.3 else r.randint(-1000, -1) for _ in range(128)]
    for i in range(96, 128):  # CTA 1, warp 1: every lane but 17 returns
        x[i] = r.randint(0, 1000) if i == 96 + 17 else r.randint(-1000, -1)
    specs["shfl_ballot_after_return"] = (2, 64, [s32(x), out_buf("s32", 256)])

    r = rng_for("vote_loop_activemask")
    specs["vote_loop_activemask"] = (1, 64, [s32(ints(r, 64, -50, 1000)), out_buf("u32", 64)])

    r = rng_for("match_reduce_arms")
    x = ints(r, 128, 0, 127)
    for i in range(32, 64):  # warp 1 of CTA 0: all >= 2, so __all_sync is true there
        x[i] = max(x[i], 2)
    x[70] = 1  # and a warp with a 1 in it
    specs["match_reduce_arms"] = (2, 64, [s32(x), out_buf("u32", 384)])

    r = rng_for("noinline_warp_call")
    specs["noinline_warp_call"] = (1, 64, [s32(ints(r, 64, -1000, 1000)), out_buf("s32", 128)])

    r = rng_for("named_barrier_pipeline")
    specs["named_barrier_pipeline"] = (2, 128, [s32(ints(r, 768, -1000, 1000)), out_buf("u32", 256)])

    r = rng_for("barrier_ifelse_rounds")
    lim = [r.randint(65, 79), r.randint(17, 47)]
    specs["barrier_ifelse_rounds"] = (2, 80, [s32(ints(r, 160, -1000, 1000)), s32(lim), out_buf("s32", 160)])

    r = rng_for("barrier_red_arms")
    lim = [r.randint(50, 95), 96]
    x = ints(r, 192, -9, 9)
    x[3], x[10] = 9, -4  # CTA 0 has both or-triggers among its survivors
    for i in range(96, 192):  # CTA 1: no -8 or -9, so the and is true there
        if x[i] <= -8:
            x[i] = -7
    specs["barrier_red_arms"] = (2, 96, [s32(x), s32(lim), out_buf("s32", 192)])

    r = rng_for("loop_return_between_barriers")
    specs["loop_return_between_barriers"] = (3, 80, [s32(ints(r, 240, -1000, 1000)), out_buf("s32", 240)])

    r = rng_for("exit_in_callee_count")
    x = [r.randint(0, 1000) if r.random() > 0.25 else r.randint(-1000, -1) for _ in range(192)]
    specs["exit_in_callee_count"] = (2, 96, [s32(x), out_buf("s32", 192)])

    r = rng_for("shfl_down_segments")
    specs["shfl_down_segments"] = (1, 64, [s32(ints(r, 64, -1000, 1000)), out_buf("s32", 64)])
    return specs


def write_launch():
    for name, (grid, block, args) in case_specs().items():
        spec = {"kernel": name, "grid": [grid, 1, 1], "block": [block, 1, 1], "args": args}
        with open(os.path.join(ROOT, name, "launch.json"), "w") as f:
            json.dump(spec, f)
            f.write("\n")
        print("wrote", name)


def nvcc_bin():
    import nvidia  # pip install nvidia-cuda-nvcc
    for base in nvidia.__path__:
        for p in glob.glob(os.path.join(base, "cu*", "bin", "nvcc")):
            return os.path.dirname(p)
    sys.exit("nvcc not found: pip install nvidia-cuda-nvcc")


def compile_all():
    bindir = nvcc_bin()
    for name in case_specs():
        d = os.path.join(ROOT, name)
        ptx = os.path.join(d, "kernel.ptx")
        subprocess.run([os.path.join(bindir, "nvcc"), "-ptx", "-arch=sm_90", "-o", ptx,
                        os.path.join(d, "source.cu")], check=True)
        text = open(ptx).read()
        text = re.sub(r"^\.version \d+\.\d+$", ".version 9.0", text, count=1, flags=re.M)
        open(ptx, "w").write(text)
        subprocess.run([os.path.join(bindir, "ptxas"), "-arch=sm_90", ptx, "-o", "/dev/null"], check=True)
        print("compiled", name)


def gpu(outdir):
    """Run every case twice on the GPU; a hang is cut off after 30 s."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_run.py")
    summary = {}
    for name in case_specs():
        d = os.path.join(ROOT, name)
        os.makedirs(os.path.join(outdir, name), exist_ok=True)
        runs = []
        for k in (1, 2):
            out = os.path.join(outdir, name, f"run{k}.json")
            p = subprocess.run(["timeout", "30", sys.executable, tool, "run", os.path.join(d, "kernel.ptx"),
                                "--launch", os.path.join(d, "launch.json"), "--out", out],
                               capture_output=True, text=True)
            runs.append({"rc": p.returncode, "stderr": p.stderr[-2000:],
                         "data": open(out).read() if p.returncode == 0 and os.path.exists(out) else None})
        same = runs[0]["rc"] == 0 and runs[1]["rc"] == 0 and runs[0]["data"] == runs[1]["data"]
        summary[name] = {"rc": [r["rc"] for r in runs], "identical": same,
                         "stderr": [r["stderr"] for r in runs]}
        print(name, summary[name]["rc"], "identical" if same else "DIFFERENT", flush=True)
    json.dump(summary, open(os.path.join(outdir, "summary.json"), "w"), indent=1)


def expected(rundir):
    summary = json.load(open(os.path.join(rundir, "summary.json")))
    for name in case_specs():
        if not summary.get(name, {}).get("identical"):
            print("skip", name, summary.get(name))
            continue
        r1 = json.load(open(os.path.join(rundir, name, "run1.json")))
        r2 = json.load(open(os.path.join(rundir, name, "run2.json")))
        assert r1 == r2
        with open(os.path.join(ROOT, name, "expected.json"), "w") as f:
            json.dump({"exit": 0, "buffers": r1["buffers"]}, f)
            f.write("\n")
        print("expected", name)


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "launch":
        write_launch()
    elif cmd == "compile":
        compile_all()
    elif cmd == "gpu" and len(sys.argv) == 3:
        gpu(sys.argv[2])
    elif cmd == "expected" and len(sys.argv) == 3:
        expected(sys.argv[2])
    else:
        sys.exit(__doc__)
