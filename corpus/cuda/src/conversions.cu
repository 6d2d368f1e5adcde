// Type conversions: rounding-mode intrinsics, saturation, narrowing, reinterpretation.
#include <cuda_fp16.h>

__global__ void float_to_int(const float *x, int *ri, unsigned *ru, long long *rl, unsigned long long *rul, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    ri[i] = __float2int_rn(v) + __float2int_rz(v) + __float2int_ru(v) + __float2int_rd(v);
    ru[i] = __float2uint_rn(v) + __float2uint_rz(fabsf(v));
    rl[i] = __float2ll_rn(v) + __float2ll_rd(v);
    rul[i] = __float2ull_ru(fabsf(v));
}

__global__ void int_to_float(const int *a, const long long *b, float *f, double *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    f[i] = __int2float_rn(a[i]) + __int2float_rz(a[i]) + __uint2float_ru((unsigned)a[i]) + __ll2float_rd(b[i]);
    d[i] = __ll2double_rn(b[i]) + __ull2double_rz((unsigned long long)b[i]) + (double)a[i];
}

__global__ void narrowing(const int *a, signed char *c, unsigned char *uc, short *s, unsigned short *us, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i];
    c[i] = (signed char)v;
    uc[i] = (unsigned char)min(max(v, 0), 255);     // saturate
    s[i] = (short)(v >> 3);
    us[i] = (unsigned short)v;
}

__global__ void widening(const signed char *c, const unsigned short *us, const short *s, int *o1, long long *o2, double *o3, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o1[i] = c[i] + us[i];
    o2[i] = (long long)s[i] * 100000LL + us[i];
    o3[i] = (double)c[i] + (double)us[i] * 0.5;
}

__global__ void reinterpret(const float *f, const double *d, unsigned *fu, long long *dl, float *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fu[i] = __float_as_uint(f[i]);
    dl[i] = __double_as_longlong(d[i]);
    int hi = __double2hiint(d[i]);
    int lo = __double2loint(d[i]);
    back[i] = __int_as_float(hi ^ lo) + __uint_as_float(fu[i] & 0x7fffffffu);
}

__global__ void double_float_round(const double *d, float *f, int *k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = d[i];
    f[i] = __double2float_rn(v) + __double2float_rz(v) + __double2float_ru(v) + __double2float_rd(v);
    k[i] = __double2int_rn(v) + __double2int_rz(v) + (int)__double2uint_rn(fabs(v));
}

__global__ void half_conversions(const float *f, const int *a, __half *h, float *back, short *s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = __float2half_rn(f[i]);
    __half y = __int2half_rn(a[i]);
    h[i] = __hadd(x, y);
    back[i] = __half2float(x) + __half2float(__float2half_rd(f[i])) + __half2float(__float2half_ru(f[i]));
    s[i] = __half2short_rz(y) + __half_as_short(x);
}
