"""``python -m ptxvm exec [OPTIONS] -- PROGRAM [ARGS]``: runs PROGRAM with the
package's ``libcuda.so.1`` and ``libcudart.so.13`` (ptxvm's CUDA driver and runtime,
``ptxvm/lib/``) first on its library path and its NVRTC interposer preloaded, as the
``ptxvm exec`` command does: driver-API programs, programs built with
``nvcc -cudart shared``, and frameworks that load ``libcuda.so.1`` (cuda-python's
``cuda.core``) run their kernels on the CPU. The
options become the ``PTXVM_*`` variables the library reads; with ``--sanitize``, a
hazard makes exec exit 2 after the program ends (when the program itself exited 0).
"""

import argparse
import os
import subprocess
import sys
import tempfile

from ptxvm import driver_library


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ptxvm")
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("exec", help="run a CUDA program with ptxvm as its GPU")
    ex.add_argument("--max-steps", type=int, help="step budget of each launch (warp instructions)")
    ex.add_argument("--timeout", type=float, help="time limit of each launch in seconds (0: none)")
    ex.add_argument("--check", default="", help="div0: integer division by zero faults")
    ex.add_argument("--sanitize", default="", help="racecheck,initcheck")
    ex.add_argument("--log", default="", help="api: each driver call on stderr")
    ex.add_argument("program", nargs=argparse.REMAINDER, help="-- PROGRAM [ARGS]")
    args = parser.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("name the program to run after --")
    lib = driver_library()
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (os.path.dirname(lib), env.get("LD_LIBRARY_PATH")) if p)
    nvrtc = os.path.join(os.path.dirname(lib), "libptxvm_nvrtc.so")
    if os.path.exists(nvrtc):
        env["LD_PRELOAD"] = os.pathsep.join(p for p in (nvrtc, env.get("LD_PRELOAD")) if p)
    for name, value in (
        ("PTXVM_MAX_STEPS", args.max_steps),
        ("PTXVM_TIMEOUT", args.timeout),
        ("PTXVM_CHECK", args.check),
        ("PTXVM_LOG", args.log),
    ):
        if value not in (None, ""):
            env[name] = str(value)
    tools = [t for t in args.sanitize.split(",") if t in ("racecheck", "initcheck")]
    hazards = None
    if tools:
        env["PTXVM_SANITIZE"] = ",".join(tools)
        fd, hazards = tempfile.mkstemp(prefix="ptxvm-hazards-")
        os.close(fd)
        env["PTXVM_HAZARDS"] = hazards
    try:
        code = subprocess.call(program, env=env)
    except OSError as e:
        print(f"python -m ptxvm exec: cannot run {program[0]}: {e}", file=sys.stderr)
        return 1
    if hazards:
        with open(hazards) as f:
            found = len(f.read().splitlines())
        os.unlink(hazards)
        names = ", ".join(tools)
        if found:
            print(f"ptxvm exec: {names}: {found} hazard{'s' if found != 1 else ''} found", file=sys.stderr)
            return code if code != 0 else 2
        print(f"ptxvm exec: {names}: no hazards found", file=sys.stderr)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
