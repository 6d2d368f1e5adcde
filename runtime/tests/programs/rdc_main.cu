// An -rdc=true program from two translation units (this one and rdc_lib.cu):
// kernels here call a __device__ function and update a __device__ variable
// defined there, and use dynamic parallelism: a parent grid launches child grids,
// a child launches grandchildren, a tail launch runs after the rest, and a launch
// with a bad shape gives cudaErrorInvalidConfiguration in device code.
// Prints "rdc: ok".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "check.cuh"

extern __device__ int scaled(int x);  // rdc_lib.cu
extern __device__ int calls;          // rdc_lib.cu
__global__ void lib_fill(int *out, int n);  // rdc_lib.cu

__global__ void use_lib(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = scaled(i);
        atomicAdd(&calls, 1);
    }
}

// Writes base + i * 2 into out[base + i]; the first thread of a child at depth
// 1 launches a grandchild that writes into the second half.
__global__ void child(int *out, int base, int depth) {
    out[base + threadIdx.x] = base + threadIdx.x * 2;
    if (depth == 1 && threadIdx.x == 0) child<<<1, 8>>>(out, base + 64, 2);
}

// Sees the children's writes: it runs after them (a tail launch).
__global__ void tail(const int *out, int *sum) {
    int s = 0;
    for (int i = 0; i < 128; i++) s += out[i];
    *sum = s;
}

__global__ void parent(int *out, int *sum, int *errors) {
    if (threadIdx.x < 8) child<<<1, 8>>>(out, threadIdx.x * 8, 1);
    if (threadIdx.x == 0) {
        child<<<1, 2048>>>(out, 0, 9);  // more threads than a CTA may have
        errors[0] = cudaGetLastError();
        errors[1] = cudaGetLastError();
        tail<<<1, 1, 0, cudaStreamTailLaunch>>>(out, sum);
    }
}

int main() {
    const int n = 1000;
    int *out;
    cudaMallocManaged(&out, n * sizeof(int));
    use_lib<<<(n + 127) / 128, 128>>>(out, n);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < n; i++) EXPECT(out[i] == 3 * i + 1);
    lib_fill<<<(n + 127) / 128, 128>>>(out, n);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < n; i++) EXPECT(out[i] == 3 * (n - i) + 1);
    int c = 0;
    EXPECT(cudaMemcpyFromSymbol(&c, calls, sizeof c) == cudaSuccess);
    EXPECT(c == 2 * n);

    int *tree, *sum, *errors;
    cudaMallocManaged(&tree, 128 * sizeof(int));
    cudaMallocManaged(&sum, sizeof(int));
    cudaMallocManaged(&errors, 2 * sizeof(int));
    cudaMemset(tree, 0xff, 128 * sizeof(int));
    parent<<<1, 32>>>(tree, sum, errors);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    int want = 0;
    for (int i = 0; i < 128; i++) {
        int base = i / 8 * 8, k = i % 8;
        EXPECT(tree[i] == base + 2 * k);
        want += base + 2 * k;
    }
    EXPECT(*sum == want);
    EXPECT(errors[0] == cudaErrorInvalidConfiguration && errors[1] == cudaSuccess);
    printf("rdc: ok\n");
    return 0;
}
