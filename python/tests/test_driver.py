"""cuda-python on ptxvm's libcuda.so.1, through `ptxvm exec`: each script in driver/
runs in a process of its own (the loader reads the library path when a process
starts) and checks its own results.

Needs target/release/ptxvm and libcuda.so (`cargo build --release`), and cuda-python
with NVIDIA's NVRTC (`pip install cuda-python nvidia-cuda-nvrtc`); without them the
tests skip, unless PTXVM_REQUIRE_CUDA_PYTHON=1 (CI sets it).
"""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PTXVM = ROOT / "target" / "release" / "ptxvm"
HERE = pathlib.Path(__file__).resolve().parent / "driver"


def _missing():
    if not (PTXVM.exists() and (PTXVM.parent / "libcuda.so").exists()):
        return "target/release/ptxvm and libcuda.so are not built (cargo build --release)"
    for module in ("cuda.core", "cuda.bindings"):
        if importlib.util.find_spec(module.split(".")[0]) is None or importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install cuda-python)"
    return None


def _exec(script):
    why = _missing()
    if why:
        if os.environ.get("PTXVM_REQUIRE_CUDA_PYTHON") == "1":
            pytest.fail(why)
        pytest.skip(why)
    return subprocess.run(
        [str(PTXVM), "exec", "--", sys.executable, str(HERE / script)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cuda_core_compiles_with_nvrtc_and_launches():
    out = _exec("core_launch.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda.core: ok" in out.stdout


def test_cuda_bindings_lists_the_device_and_its_attributes():
    out = _exec("bindings_device.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda.bindings: ok" in out.stdout


def _shipped_driver():
    """Skips (or fails, in CI) the test when the package has no libcuda.so.1."""
    try:
        import ptxvm

        ptxvm.driver_library()
    except (ImportError, FileNotFoundError) as e:
        if os.environ.get("PTXVM_REQUIRE_CUDA_PYTHON") == "1":
            pytest.fail(str(e))
        pytest.skip(str(e))


def _exec_script(script):
    """Runs tests/SCRIPT under `python -m ptxvm exec` (skipped without cuda.bindings)."""
    _shipped_driver()
    if importlib.util.find_spec("cuda") is None or importlib.util.find_spec("cuda.bindings") is None:
        pytest.skip("cuda.bindings is not installed (pip install cuda-python)")
    return subprocess.run(
        [sys.executable, "-m", "ptxvm", "exec", "--", sys.executable, str(HERE / script)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_python_m_ptxvm_exec_runs_a_program_on_the_shipped_driver():
    out = _exec_script("bindings_device.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda.bindings: ok" in out.stdout


def test_python_m_ptxvm_exec_runs_an_nvcc_program_on_the_shipped_runtime(tmp_path):
    """A program built by nvcc with -cudart shared, linked against NVIDIA's own
    libcudart.so.13 as users build them, runs on the package's runtime and driver."""
    _shipped_driver()
    nvcc = os.environ.get("NVCC")
    if not nvcc or not os.path.exists(nvcc):
        if os.environ.get("PTXVM_REQUIRE_NVCC") == "1":
            pytest.fail("NVCC is not set to pip's nvcc")
        pytest.skip("NVCC is not set (pip install nvidia-cuda-nvcc nvidia-cuda-runtime)")
    nvidia = pathlib.Path(nvcc).resolve().parent.parent / "lib" / "libcudart.so.13"
    (tmp_path / "libcudart.so").symlink_to(nvidia)
    exe = tmp_path / "basics"
    source = ROOT / "runtime" / "tests" / "programs" / "basics.cu"
    built = subprocess.run(
        [nvcc, "-cudart", "shared", "-arch=sm_90", str(source), "-L", str(tmp_path), "-o", str(exe)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    out = subprocess.run(
        [sys.executable, "-m", "ptxvm", "exec", "--", str(exe)], capture_output=True, text=True, timeout=300, env=env
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "basics: ok" in out.stdout
    assert "version information" not in out.stderr


def test_cuda_bindings_runtime_runs_nvidias_static_runtime_on_ptxvm():
    out = _exec("runtime_vadd.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda.bindings.runtime: ok" in out.stdout
    # No notice that the runtime's private tables are missing, and no function
    # reported as not implemented.
    assert "private tables" not in out.stderr and "not implemented" not in out.stderr, out.stderr


def test_python_m_ptxvm_exec_runs_the_runtime_bindings():
    out = _exec_script("runtime_vadd.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "cuda.bindings.runtime: ok" in out.stdout
