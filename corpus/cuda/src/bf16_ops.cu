// bfloat16 arithmetic and comparisons; native bf16 compares need sm_90,
// older targets use the float fallback paths of cuda_bf16.h or explicit float code.
#include <cuda_bf16.h>

__global__ void bf16_arith(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i];
    __nv_bfloat16 y = b[i];
#if __CUDA_ARCH__ >= 800
    __nv_bfloat16 s = __hadd(x, y);
    __nv_bfloat16 p = __hmul(x, y);
    __nv_bfloat16 f = __hfma(x, y, s);
    out[i] = __hmax(f, p);
#else
    float fx = __bfloat162float(x), fy = __bfloat162float(y);
    float s = fx + fy;
    float f = fx * fy + s;
    out[i] = __float2bfloat16(fmaxf(f, fx * fy));
#endif
}

__global__ void bf16_compare(const __nv_bfloat16 *a, const __nv_bfloat16 *b, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i];
    __nv_bfloat16 y = b[i];
    int fl = 0;
#if __CUDA_ARCH__ >= 900
    if (__hlt(x, y)) fl |= 1;
    if (__hgt(x, y)) fl |= 2;
    if (__heq(x, y)) fl |= 4;
    if (__hneu(x, y)) fl |= 8;
    if (__hisnan(x)) fl |= 16;
#else
    float fx = __bfloat162float(x), fy = __bfloat162float(y);
    if (fx < fy) fl |= 1;
    if (fx > fy) fl |= 2;
    if (fx == fy) fl |= 4;
    if (!(fx == fy)) fl |= 8;
    if (fx != fx) fl |= 16;
#endif
    flags[i] = fl;
}

__global__ void bf162_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *out, unsigned *m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat162 x = a[i];
    __nv_bfloat162 y = b[i];
#if __CUDA_ARCH__ >= 900
    __nv_bfloat162 g = __hgt2(x, y);
    out[i] = __hfma2(x, y, g);
    m[i] = (__hbeq2(x, y) ? 1u : 0u) | (__hblt2(x, y) ? 2u : 0u) | (__hbgeu2(x, y) ? 4u : 0u);
#elif __CUDA_ARCH__ >= 800
    out[i] = __hfma2(x, y, __hmin2(x, y));
    m[i] = 0u;
#else
    float2 fx = __bfloat1622float2(x), fy = __bfloat1622float2(y);
    out[i] = __floats2bfloat162_rn(fx.x * fy.x, fx.y * fy.y);
    m[i] = (fx.x == fy.x && fx.y == fy.y) ? 1u : 0u;
#endif
}

__global__ void bf16_convert(const float *in, __nv_bfloat16 *out, float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 h = __float2bfloat16_rn(in[i]);
    out[i] = h;
    back[i] = __bfloat162float(h);
}
