// Half-precision scalar and half2 arithmetic and comparisons.
#include <cuda_fp16.h>

__global__ void half_scalar(const __half *a, const __half *b, __half *out, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i];
    __half y = b[i];
    __half s = __hadd(x, y);
    __half d = __hsub(x, y);
    __half m = __hmul(x, y);
    __half f = __hfma(x, y, s);
    __half lo = __hmin(x, y);
    __half hi = __hmax(x, y);
    int fl = 0;
    if (__hlt(x, y)) fl |= 1;
    if (__hgt(x, y)) fl |= 2;
    if (__heq(x, y)) fl |= 4;
    if (__hisnan(x)) fl |= 8;
    if (__hltu(x, y)) fl |= 16;
    if (__hne(x, y)) fl |= 32;
    if (__hge(d, __float2half(0.0f))) fl |= 64;
    flags[i] = fl;
    out[i] = __hadd(__hadd(s, d), __hadd(__hadd(m, f), __hsub(hi, lo)));
}

__global__ void half2_ops(const __half2 *a, const __half2 *b, __half2 *out, unsigned *mask, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i];
    __half2 y = b[i];
    __half2 gt = __hgt2(x, y);         // 1.0/0.0 per lane
    unsigned eqm = __hbeq2(x, y) ? 1u : 0u;  // both lanes equal
    unsigned ltm = __hblt2(x, y) ? 2u : 0u;
    __half2 r = __hfma2(x, y, gt);
    r = __hmax2(r, __hmin2(x, y));
    r = __hmul2(r, __float2half2_rn(0.5f));
    __half2 nanm = __hisnan2(r);
    r = __hadd2(r, nanm);
    out[i] = r;
    mask[i] = eqm | ltm | (__hbgt2(x, y) ? 4u : 0u) | (__hbneu2(x, y) ? 8u : 0u);
}

// Convert floats to half, accumulate in float, convert back.
__global__ void half_dot(const float *a, const float *b, float *out, int n)
{
    __shared__ float partial[256];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        __half ha = __float2half_rn(a[i]);
        __half hb = __float2half_rz(b[i]);
        acc += __half2float(__hmul(ha, hb));
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void half_relu_clip(__half *x, int n, float clipv)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half v = x[i];
    __half zero = __float2half(0.0f);
    __half c = __float2half(clipv);
    v = __hlt(v, zero) ? zero : v;
    v = __hgt(v, c) ? c : v;
    x[i] = __hneg(__habs(__hneg(v)));
}
