#!/usr/bin/env bash
# Regenerate every PTX file of the corpus from its source.
#
#   bash corpus/build.sh            # rebuild corpus/cuda/ptx and corpus/llvm/ptx
#   bash corpus/build.sh --check    # also run ptxas on every generated file
#
# Needs: nvcc/ptxas 13.x from PyPI (nvidia-cuda-nvcc, nvidia-cuda-crt,
# nvidia-cuda-runtime, nvidia-nvvm, plus nvidia-cuda-cccl for <nv/target>,
# which cuda_fp16.h/cuda_bf16.h include) and LLVM 14's llc (Debian llvm-14).
# The output is deterministic: running this reproduces the committed files.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

NVBIN=$(python3 -c "import nvidia,os;print(os.path.dirname(nvidia.__path__[0]))")/nvidia/cu13/bin
export PATH="$NVBIN:$PATH"
LLC=${LLC:-llc}
JOBS=${JOBS:-$(nproc)}

check=0
[ "${1:-}" = "--check" ] && check=1

# ---------------------------------------------------------------- CUDA (nvcc)
CUDA_ARCHS="sm_75 sm_80 sm_90"

# Extra nvcc flags for the few sources that need them (everything else gets none).
cuda_extra() {
    case "$1" in
        rdc_extern) echo "-rdc=true" ;;   # calls/uses symbols defined in another unit
        lineinfo) echo "-lineinfo" ;;     # keeps .file/.loc line tables
        *) echo "" ;;
    esac
}

# nvcc derives the names of internal-linkage symbols (_ZN..._INTERNAL_<hash>_...) and the
# -lineinfo `.file` strings from the absolute path of the source, so the sources are
# compiled from a fixed staging directory: the output then does not depend on where
# the repository is checked out.
STAGE=/tmp/ptxvm-corpus/src

cuda_one() { # name arch
    local name=$1 arch=$2
    # shellcheck disable=SC2046
    (cd "$STAGE" && nvcc -ptx -arch="$arch" -O3 $(cuda_extra "$name") "$name.cu" -o "$here/cuda/ptx/$arch/$name.ptx")
}

# -------------------------------------------------------------- LLVM (llc 14)
# cpu -> PTX ISA feature used with it.
llvm_ptx_for() {
    case "$1" in
        sm_70) echo "+ptx64" ;;
        sm_80) echo "+ptx70" ;;
        sm_86) echo "+ptx71" ;;
    esac
}

# Every .ll is built for sm_70 and sm_80; these ones also for sm_86.
LLVM_SM86="atomics_rmw half_fcmp warp_vote fp_predicates inline_asm matmul_tiled"

llvm_one() { # name cpu
    local name=$1 cpu=$2
    "$LLC" -march=nvptx64 -mcpu="$cpu" -mattr="$(llvm_ptx_for "$cpu")" -O2 \
        "llvm/src/$name.ll" -o "llvm/ptx/$name.$cpu.ptx"
}

export -f cuda_one cuda_extra llvm_one llvm_ptx_for
export LLC STAGE here

rm -rf cuda/ptx llvm/ptx "$STAGE"
mkdir -p "$STAGE"
cp cuda/src/*.cu "$STAGE/"
for a in $CUDA_ARCHS; do mkdir -p "cuda/ptx/$a"; done
mkdir -p llvm/ptx

jobs_list=$(mktemp)
trap 'rm -f "$jobs_list"; rm -rf "$STAGE"' EXIT
for src in cuda/src/*.cu; do
    n=$(basename "$src" .cu)
    for a in $CUDA_ARCHS; do echo "cuda_one $n $a"; done
done >"$jobs_list"
for src in llvm/src/*.ll; do
    n=$(basename "$src" .ll)
    echo "llvm_one $n sm_70"
    echo "llvm_one $n sm_80"
    case " $LLVM_SM86 " in *" $n "*) echo "llvm_one $n sm_86" ;; esac
done >>"$jobs_list"

xargs -P "$JOBS" -I{} bash -c '{}' <"$jobs_list"

echo "built $(find cuda/ptx -name '*.ptx' | wc -l) CUDA PTX files, $(find llvm/ptx -name '*.ptx' | wc -l) LLVM PTX files"

if [ "$check" = 1 ]; then
    bash "$here/check.sh"
fi
