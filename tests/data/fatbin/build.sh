#!/usr/bin/env bash
# Remakes the fat binaries of src/fatbin.rs's tests from vadd.cu with pip's nvcc
# (pip install nvidia-cuda-nvcc): PTX and an sm_90 cubin stored plain, LZ4- and
# zstd-compressed, and a cubin alone (no PTX).
set -euo pipefail
cd "$(dirname "$0")"
nvcc=$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin", "nvcc"))')
"$nvcc" -fatbin -arch=sm_90 -Xfatbin -compress=false vadd.cu -o vadd.fatbin
"$nvcc" -fatbin -arch=sm_90 -Xfatbin -compress-mode=speed vadd.cu -o vadd_lz4.fatbin
"$nvcc" -fatbin -arch=sm_90 -Xfatbin -compress-mode=size vadd.cu -o vadd_zstd.fatbin
"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 vadd.cu -o vadd_sass.fatbin
