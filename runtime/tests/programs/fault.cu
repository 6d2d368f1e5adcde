// A kernel that writes out of bounds, device printf, and a failing assert: the
// next synchronizing call gives cudaErrorIllegalAddress, the report names the .cu
// line, and later calls keep the error. Run with argv[1] == "assert" for the assert,
// "nosync" for output that only exit flushes.
#include <cassert>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void write_past(int *p) { p[threadIdx.x + (1 << 20)] = 1; }

__global__ void hello(int x) { printf("hello %d from %d\n", x, threadIdx.x); }

__global__ void must_be_zero(int x) { assert(x == 0); }

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "nosync") == 0) {
        // Never synchronized: the output comes after the host's, at exit.
        hello<<<1, 1>>>(9);
        printf("exit\n");
        return 0;
    }
    hello<<<1, 2>>>(7);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    if (argc > 1 && strcmp(argv[1], "assert") == 0) {
        must_be_zero<<<1, 1>>>(3);
        cudaError_t e = cudaDeviceSynchronize();
        printf("assert: %s\n", cudaGetErrorName(e));
        return e == cudaErrorAssert ? 0 : 1;
    }
    int *p;
    cudaMalloc(&p, 256);
    write_past<<<1, 32>>>(p);
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t later = cudaMalloc(&p, 16);
    printf("fault: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(later));
    return e == cudaErrorIllegalAddress && later == cudaErrorIllegalAddress ? 0 : 1;
}
