// Device printf, for python/tests/test_ptxvm.py: one line per thread.
// PTX: nvcc -ptx -arch=sm_90 -O3 hello.cu -o hello.ptx
#include <cstdio>

extern "C" __global__ void hello(int base) {
    printf("thread %d: %d\n", threadIdx.x, base + (int)threadIdx.x);
}
