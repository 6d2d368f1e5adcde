#!/usr/bin/env bash
# The tests, as README.md gives them: `cargo test --release`, with the NVIDIA
# toolchain pieces the drop-in tests build their programs with (pip's nvcc,
# cuda.h, NVRTC, CCCL, CUTLASS, cuda-python, and cuda-python 12 for NVIDIA's CUDA
# 12 runtime) fetched into cached virtual environments under target/ on first use.
# ptxvm itself never needs them. Extra arguments go to cargo test.
#
# Without network access the packages cannot come; the tests that need them skip,
# and the last lines of the output list every skip.
set -uo pipefail
cd "$(dirname "$0")/.."

venv="${PTXVM_CUDA_VENV:-$PWD/target/cuda-venv}"
venv12="${PTXVM_CUDA12_VENV:-$PWD/target/cuda12-venv}"
packages=(nvidia-cuda-runtime nvidia-cuda-nvrtc nvidia-cuda-nvcc nvidia-cuda-cccl nvidia-cutlass cuda-python numpy)
packages12=("cuda-bindings==12.9.*" nvidia-cuda-nvrtc-cu12 nvidia-cuda-runtime-cu12 nvidia-cuda-nvcc-cu12 nvidia-cuda-cccl-cu12 numpy)

# A virtual environment at $1 with packages $2...; kept while the list is the same.
provision() {
    local dir=$1
    shift
    local stamp="$dir/.ptxvm-packages" want="$*"
    if [ -x "$dir/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    echo "== fetching $* into $dir (once; later runs reuse it)"
    rm -rf "$dir"
    python3 -m venv "$dir" &&
        "$dir/bin/pip" install --quiet --disable-pip-version-check "$@" &&
        echo "$want" >"$stamp"
}

mkdir -p target
skips="$PWD/target/test-skips.txt"
: >"$skips"
export PTXVM_SKIP_LOG="$skips"

if provision "$venv" "${packages[@]}"; then
    nvidia="$("$venv/bin/python" -c 'import nvidia, os; print(list(nvidia.__path__)[0])')"
    export CUDA_INCLUDE="$nvidia/cu13/include" NVCC="$nvidia/cu13/bin/nvcc" PTXVM_PYTHON="$venv/bin/python"
    # Found, so required: a test that cannot find them fails instead of skipping.
    export PTXVM_REQUIRE_CUDA_H=1 PTXVM_REQUIRE_NVCC=1
else
    echo "ptxvm: could not fetch NVIDIA's packages from PyPI; the tests that need them will skip" >>"$skips"
fi
if provision "$venv12" "${packages12[@]}"; then
    export PTXVM_PYTHON12="$venv12/bin/python"
    # CUDA 12's nvcc: Debian's CUDA 12.4 compiler with pip's CUDA 12 headers and runtime.
    if NVCC12="$(tools/cuda12.sh "$PWD/target/cuda12-toolkit" "$venv12/bin/python")"; then
        export NVCC12 PTXVM_REQUIRE_NVCC12=1
    else
        echo "ptxvm: could not make a CUDA 12 nvcc (tools/cuda12.sh); the CUDA 12 builds will skip" >>"$skips"
    fi
else
    echo "ptxvm: could not fetch cuda-python 12 from PyPI; the CUDA 12 tests will skip" >>"$skips"
fi

echo "== cargo test --release $*"
cargo test --release "$@"
status=$?

echo
if [ -s "$skips" ]; then
    echo "== skipped ($(sort -u "$skips" | wc -l)):"
    sort -u "$skips" | sed 's/^/   /'
else
    echo "== nothing skipped"
fi
exit $status
