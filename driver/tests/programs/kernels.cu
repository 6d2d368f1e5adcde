// Kernels of the driver's C test programs. kernels.ptx is made from this file by
// ./build.sh (pip's nvidia-cuda-nvcc); it is committed so the tests need no nvcc.
#include <cassert>
#include <cstdio>

__device__ int counter;
__constant__ float scale = 2.0f;

extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void add_one(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

extern "C" __global__ void bump() { atomicAdd(&counter, 1); }

extern "C" __global__ void scaled(float *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= scale;
}

// Parameters of every size and alignment, for the packed `extra` form.
extern "C" __global__ void mixed(char c, double d, short s, int i, long long *out) {
    out[0] = c;
    out[1] = (long long)d;
    out[2] = s;
    out[3] = i;
}

extern "C" __global__ void out_of_bounds(int *p) { p[threadIdx.x + (1 << 20)] = 1; }

extern "C" __global__ void hello(int x) { printf("hello from thread %d, x=%d\n", threadIdx.x, x); }

extern "C" __global__ void must_be_zero(int x) { assert(x == 0); }

// A missing __syncthreads between the write and the read: a shared-memory race.
extern "C" __global__ void racy(int *out, int sync) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (sync) __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
