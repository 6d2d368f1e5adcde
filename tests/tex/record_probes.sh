#!/bin/sh
# Records the GPU's answers to tests/tex/probes.py (run on a machine with a GPU and
# nvcc, from the repository root):   OUT=dir sh tests/tex/record_probes.sh
# writes $OUT/gpu_probes.bin (tex_fetch's output) and $OUT/gpu_probes.txt (the device).
set -e
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu_probes.txt"
nvcc --version | tail -1 >> "$OUT/gpu_probes.txt"
nvcc -arch=sm_90 -o /tmp/tex_fetch runtime/tests/programs/tex_fetch.cu
if [ -n "$PROBES" ]; then cp "$PROBES" /tmp/probes.bin; else (cd tests/tex && python3 probes.py /tmp/probes.bin); fi
md5sum /tmp/probes.bin | tee -a "$OUT/gpu_probes.txt"
/tmp/tex_fetch /tmp/probes.bin "$OUT/gpu_probes.bin" 2>&1 | tee -a "$OUT/gpu_probes.txt" || true
