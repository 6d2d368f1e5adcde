#!/bin/sh
# Records the GPU goldens of tests/tex (run on a machine with a GPU and nvcc):
#   OUT=dir sh tests/tex/record.sh
# writes $OUT/gpu.bin (tex_fetch's output for cases.py's cases), $OUT/trap.txt and
# $OUT/gpu.txt (the device and driver).
set -e
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
nvcc --version | tail -1 >> "$OUT/gpu.txt"
nvcc -arch=sm_90 -o /tmp/tex_fetch runtime/tests/programs/tex_fetch.cu
nvcc -arch=sm_90 -o /tmp/trap tests/tex/trap.cu
python3 tests/tex/cases.py /tmp/cases.bin || true
md5sum /tmp/cases.bin
/tmp/tex_fetch /tmp/cases.bin "$OUT/gpu.bin" 2>&1 | tee "$OUT/run.txt"
/tmp/trap > "$OUT/trap.txt" 2>&1 || true
cat "$OUT/trap.txt"
nvcc -arch=sm_90 -o /tmp/query_probe tests/tex/query_probe.cu -lcuda
/tmp/query_probe > "$OUT/query.txt" 2>&1 || true
