// Driver calls while the process exits: a global whose destructor frees device
// memory (as CUTLASS's HostTensor globals do) and an atexit handler that frees
// and launches; and copies of nothing with NULL pointers, which CUDA allows.
// Prints what each call gave.
#include <cstdio>
#include <cstdlib>
#include "check.cuh"

__global__ void touch(int *p) { *p = 42; }

struct Holder {
    int *p = nullptr;
    ~Holder() {
        if (p) printf("destructor: cudaFree %s\n", cudaGetErrorName(cudaFree(p)));
    }
} holder;

static int *q;

static void at_exit() {
    touch<<<1, 1>>>(q);
    int got = 0;
    cudaError_t e = cudaMemcpy(&got, q, sizeof got, cudaMemcpyDeviceToHost);
    printf("atexit: launch and copy %s, %d\n", cudaGetErrorName(e), got);
    printf("atexit: cudaFree %s\n", cudaGetErrorName(cudaFree(q)));
    fflush(stdout);
}

int main() {
    CHECK(cudaMalloc(&holder.p, 1024));
    CHECK(cudaMalloc(&q, sizeof(int)));
    atexit(at_exit);
    CHECK(cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDefault));
    CHECK(cudaMemset(nullptr, 0, 0));
    printf("main: done\n");
    return 0;
}
