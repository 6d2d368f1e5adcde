#!/usr/bin/env bash
# Remakes kernels.ptx and kernels.cubin from kernels.cu with pip's nvcc
# (pip install nvidia-cuda-nvcc nvidia-cuda-cccl): the PTX the C programs load, and a cubin for the
# test that the driver refuses machine code with a clear error.
set -euo pipefail
cd "$(dirname "$0")"
nvcc=$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin", "nvcc"))')
"$nvcc" -ptx -arch=sm_90 -lineinfo kernels.cu -o kernels.ptx  # cooperative_groups.h needs cccl
"$nvcc" -cubin -arch=sm_90 kernels.cu -o kernels.cubin
