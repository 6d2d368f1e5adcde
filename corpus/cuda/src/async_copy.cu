// Asynchronous global->shared copies (cp.async on sm_80+), pipelined double buffering.
#include <cuda_pipeline.h>

__global__ void async_tile_sum(const float4 *in, float *out, int ntiles)
{
    __shared__ float4 buf[2][128];
    float acc = 0.0f;
    int stage = 0;
    if (ntiles > 0) {
        __pipeline_memcpy_async(&buf[0][threadIdx.x], &in[threadIdx.x], sizeof(float4));
        __pipeline_commit();
    }
    for (int t = 0; t < ntiles; ++t) {
        if (t + 1 < ntiles) {
            __pipeline_memcpy_async(&buf[stage ^ 1][threadIdx.x], &in[(t + 1) * 128 + threadIdx.x], sizeof(float4));
            __pipeline_commit();
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        float4 v = buf[stage][(threadIdx.x + 1) & 127];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
        stage ^= 1;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 4-byte and 8-byte async copies with zero fill for the tail.
__global__ void async_gather(const int *src, int *dst, int n)
{
    __shared__ int s[256];
    __shared__ long long s64[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        __pipeline_memcpy_async(&s[threadIdx.x], &src[i], sizeof(int));
    else
        s[threadIdx.x] = 0;
    if (threadIdx.x < 128 && 2 * i + 1 < n)
        __pipeline_memcpy_async(&s64[threadIdx.x], reinterpret_cast<const long long *>(src) + i, sizeof(long long));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (i < n) dst[i] = s[255 - threadIdx.x] + (threadIdx.x < 128 ? (int)s64[threadIdx.x] : 0);
}
