// Bad input at the runtime API: each call returns CUDA's error code, the process
// goes on, and a good call afterwards still works. Prints "bad: ok".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define EXPECT_ERR(call, want)                                                              \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != (want)) {                                                                 \
            fprintf(stderr, "%s:%d: %s gave %s, not %s\n", __FILE__, __LINE__, #call,        \
                    cudaGetErrorName(e_), cudaGetErrorName(want));                          \
            exit(1);                                                                        \
        }                                                                                   \
        cudaGetLastError();                                                                 \
    } while (0)

__device__ int known;
__global__ void touch(int *p) { *p = 1; }

int main() {
    int *p = nullptr;
    EXPECT_ERR(cudaMalloc((void **)nullptr, 16), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMalloc(&p, 1ull << 50), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaSetDevice(5), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaGetDeviceProperties(nullptr, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMalloc(&p, 64), cudaSuccess);
    int host[16] = {0};
    EXPECT_ERR(cudaMemcpy(p, host, sizeof host, (cudaMemcpyKind)9), cudaErrorInvalidMemcpyDirection);
    EXPECT_ERR(cudaMemcpy(p, host, 1 << 20, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFree((void *)0x1234), cudaErrorInvalidValue);
    int on_stack;
    EXPECT_ERR(cudaMemcpyToSymbol(on_stack, host, 4), cudaErrorInvalidSymbol);
    EXPECT_ERR(cudaMemcpyToSymbol(known, host, 64), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamDestroy((cudaStream_t)0x1234), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventRecord((cudaEvent_t)0x1234, 0), cudaErrorInvalidResourceHandle);
    // Not a registered kernel: NVIDIA's runtime hands the pointer to the driver as a
    // cudaKernel_t, which refuses it as an invalid handle.
    EXPECT_ERR(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0), cudaErrorInvalidResourceHandle);
    touch<<<1, 2048>>>(p);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_ERR(cudaFuncSetAttribute((const void *)touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30),
               cudaErrorInvalidValue);
    // None of it stuck: a kernel still runs.
    touch<<<1, 1>>>(p);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaSuccess);
    int one = 0;
    EXPECT_ERR(cudaMemcpy(&one, p, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    if (one != 1) return 1;
    printf("bad: ok\n");
    return 0;
}
