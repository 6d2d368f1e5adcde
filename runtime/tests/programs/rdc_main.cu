// An -rdc=true program from two translation units (this one and rdc_lib.cu):
// kernels here call a __device__ function and update a __device__ variable
// defined there, and use dynamic parallelism: a parent grid launches child grids,
// a child launches grandchildren, a tail launch runs after the rest, and a launch
// with a bad shape gives cudaErrorInvalidConfiguration in device code; and the
// device runtime's other calls: a stream and an event made in device code, a child
// launched into the stream after the event, cudaMalloc and cudaFree from the
// device heap, and the device and version queries.
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

// Device code's own stream, event and memory, as CDP2 has them.
__global__ void fill_from(int *out, const int *from) { out[threadIdx.x] = from[threadIdx.x] + 1; }

__global__ void device_runtime(int *out, int *results) {
    cudaStream_t s;
    results[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEvent_t e;
    results[1] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    int *scratch = nullptr;
    results[2] = cudaMalloc((void **)&scratch, 16 * sizeof(int));
    for (int i = 0; i < 16; i++) scratch[i] = 100 + i;
    results[3] = cudaEventRecord(e, s);
    results[4] = cudaStreamWaitEvent(s, e, 0);
    fill_from<<<1, 16, 0, s>>>(out, scratch);
    results[5] = cudaGetLastError();
    int dev = -1, version = 0;
    results[6] = cudaGetDevice(&dev);
    results[7] = dev;
    results[8] = cudaRuntimeGetVersion(&version);
    results[9] = version >= 12000;
    results[10] = cudaStreamDestroy(s);
    results[11] = cudaEventDestroy(e);
    cudaStream_t blocking;
    results[12] = cudaStreamCreateWithFlags(&blocking, cudaStreamDefault);
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

    int *results;
    cudaMallocManaged(&results, 16 * sizeof(int));
    cudaMemset(tree, 0, 16 * sizeof(int));
    device_runtime<<<1, 1>>>(tree, results);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < 16; i++) EXPECT(tree[i] == 101 + i);
    for (int k : {0, 1, 2, 3, 4, 5, 6, 8, 10, 11}) EXPECT(results[k] == cudaSuccess);
    EXPECT(results[7] == 0 && results[9] == 1 && results[12] == cudaErrorInvalidValue);
    printf("rdc: ok\n");
    return 0;
}
