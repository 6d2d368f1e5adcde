// Row softmax and layer norm with fast-math intrinsics and warp reductions.
#include <math.h>

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// One warp per row.
__global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float *xr = x + (size_t)row * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
    s = warp_sum(s);
    float inv = __fdividef(1.0f, s);
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] - m) * inv;
}

// Accurate (non-intrinsic) variant with expf / logf: log-softmax.
__global__ void log_softmax_rows(const float *x, float *y, int cols)
{
    __shared__ float sm[32];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    if ((threadIdx.x & 31) == 0) sm[threadIdx.x >> 5] = m;
    __syncthreads();
    m = sm[0];
    for (int w = 1; w < (int)(blockDim.x >> 5); ++w) m = fmaxf(m, sm[w]);
    __syncthreads();
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(xr[c] - m);
    s = warp_sum(s);
    if ((threadIdx.x & 31) == 0) sm[threadIdx.x >> 5] = s;
    __syncthreads();
    s = 0.0f;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) s += sm[w];
    float lse = m + logf(s);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)blockIdx.x * cols + c] = xr[c] - lse;
}

__global__ void layer_norm(const float *x, const float *gamma, const float *beta, float *y, int cols, float eps)
{
    int row = blockIdx.x;
    int lane = threadIdx.x;   // blockDim.x == 32
    float s = 0.0f, ss = 0.0f;
    for (int c = lane; c < cols; c += 32) { float v = x[row * cols + c]; s += v; ss += v * v; }
    s = warp_sum(s); ss = warp_sum(ss);
    float mean = s / cols;
    float var = fmaxf(ss / cols - mean * mean, 0.0f);
    float rstd = rsqrtf(var + eps);
    for (int c = lane; c < cols; c += 32)
        y[row * cols + c] = (x[row * cols + c] - mean) * rstd * gamma[c] + beta[c];
}

// GELU / SiLU / tanh activations with transcendental functions.
__global__ void activations(const float *x, float *gelu, float *silu, float *th, float *sp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    gelu[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
    silu[i] = v / (1.0f + __expf(-v));
    th[i] = tanhf(v);
    sp[i] = v > 20.0f ? v : log1pf(expf(v));
}
