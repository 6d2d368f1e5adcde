// Rounding-mode intrinsics, integer helpers, half/bf16/fp8 conversions and math,
// printf with many format kinds, assert.
#include <cassert>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__global__ void mt_round_f32(const float *x, float *out)
{
    float a = x[threadIdx.x], b = x[threadIdx.x + 32];
    float *o = out + threadIdx.x * 16;
    o[0] = __fsqrt_rd(a); o[1] = __fsqrt_ru(a); o[2] = __fsqrt_rz(a); o[3] = __fsqrt_rn(a);
    o[4] = __frcp_rz(a); o[5] = __frcp_rd(a); o[6] = __frcp_ru(a); o[7] = __frcp_rn(a);
    o[8] = __fdiv_rn(a, b); o[9] = __fdiv_rz(a, b); o[10] = __fdiv_ru(a, b); o[11] = __fdiv_rd(a, b);
    o[12] = __fma_rz(a, b, 1.0f); o[13] = __fma_rd(a, b, 1.0f); o[14] = __saturatef(a - b);
    o[15] = __fmul_ru(a, b) + __fadd_rd(a, b) + __fsub_rz(a, b) + __frsqrt_rn(a);
}

__global__ void mt_round_f64(const double *x, double *out)
{
    double a = x[threadIdx.x], b = x[threadIdx.x + 32];
    double *o = out + threadIdx.x * 12;
    o[0] = __dsqrt_ru(a); o[1] = __dsqrt_rd(a); o[2] = __dsqrt_rz(a);
    o[3] = __drcp_rn(a); o[4] = __drcp_rz(a); o[5] = __drcp_ru(a);
    o[6] = __ddiv_rz(a, b); o[7] = __ddiv_ru(a, b); o[8] = __fma_rz(a, b, 1.0);
    o[9] = __dmul_rd(a, b); o[10] = __dadd_ru(a, b); o[11] = __dsub_rz(a, b);
}

__global__ void mt_cvt(const double *x, const long long *ll, float *f, long long *o, double *d)
{
    int i = threadIdx.x;
    double a = x[i];
    float af = (float)a;
    f[i * 4 + 0] = __double2float_ru(a);
    f[i * 4 + 1] = __double2float_rd(a);
    f[i * 4 + 2] = __double2float_rz(a);
    f[i * 4 + 3] = __ll2float_rz(ll[i]) + __ull2float_ru((unsigned long long)ll[i]) + __int2float_rd((int)ll[i]);
    o[i * 6 + 0] = __float2ll_rd(af);
    o[i * 6 + 1] = __float2ull_ru(af);
    o[i * 6 + 2] = __double2ll_rz(a);
    o[i * 6 + 3] = __double2ull_rn(a);
    o[i * 6 + 4] = __float2int_ru(af) + __float2uint_rd(af) + __double2int_rz(a) + __double2uint_ru(a);
    o[i * 6 + 5] = __double2hiint(a) + __double2loint(a) + __float_as_int(af);
    d[i * 3 + 0] = __ull2double_rz((unsigned long long)ll[i]);
    d[i * 3 + 1] = __ll2double_ru(ll[i]) + __int2double_rn((int)ll[i]);
    d[i * 3 + 2] = __hiloint2double((int)ll[i], 5) + __longlong_as_double(ll[i] & 0x3fffffffffffffffll)
        + __int_as_float((int)ll[i] & 0x3fffffff);
}

__global__ void mt_int(const unsigned *u, const long long *s, unsigned *o, long long *p)
{
    int i = threadIdx.x;
    unsigned a = u[i], b = u[i + 32], c = u[i + 64];
    unsigned *r = o + i * 16;
    r[0] = __funnelshift_lc(a, b, c);
    r[1] = __funnelshift_rc(a, b, c);
    r[2] = __funnelshift_l(a, b, c);
    r[3] = __funnelshift_r(a, b, c);
    r[4] = __byte_perm(a, b, c);
    r[5] = __byte_perm(a, b, 0x3210) + __byte_perm(a, b, 0x0123);
    r[6] = __sad((int)a, (int)b, c);
    r[7] = __usad(a, b, c);
    r[8] = __umulhi(a, b);
    r[9] = __mulhi((int)a, (int)b);
    r[10] = __hadd((int)a, (int)b);
    r[11] = __rhadd((int)a, (int)b);
    r[12] = __uhadd(a, b) + __urhadd(a, b);
    r[13] = __vabsss2(a) + __vabsss4(b);
    r[14] = __brev(a) + __clz((int)b) + __ffs((int)c) + __popc(a);
    r[15] = __mul24((int)a, (int)b) + __umul24(a, c);
    p[i * 4 + 0] = __mul64hi(s[i], s[i + 32]);
    p[i * 4 + 1] = (long long)__umul64hi((unsigned long long)s[i], (unsigned long long)s[i + 32]);
    p[i * 4 + 2] = __brevll((unsigned long long)s[i]) + __clzll(s[i]) + __ffsll(s[i]) + __popcll(s[i]);
    p[i * 4 + 3] = __dp4a((int)a, (int)b, (int)c) + __dp2a_lo((int)a, (int)b, (int)c) + __dp2a_hi(a, b, c);
}

__global__ void mt_half_cvt(const float *x, unsigned short *h, int *n, float *f)
{
    int i = threadIdx.x;
    float v = x[i];
    __half a = __float2half_rz(v);
    __half b = __float2half_rd(v);
    __half c = __float2half_ru(v);
    __half d = __float2half_rn(v);
    h[i * 8 + 0] = __half_as_ushort(a);
    h[i * 8 + 1] = __half_as_ushort(b);
    h[i * 8 + 2] = __half_as_ushort(c);
    h[i * 8 + 3] = __half_as_ushort(d);
    h[i * 8 + 4] = __half_as_ushort(__int2half_rn((int)v)) + __half_as_ushort(__uint2half_rz((unsigned)v));
    h[i * 8 + 5] = __half_as_ushort(__ll2half_rd((long long)v)) + __half_as_ushort(__short2half_ru((short)v));
    h[i * 8 + 6] = __half_as_ushort(__double2half((double)v));
    h[i * 8 + 7] = __half_as_ushort(__ushort2half_rn((unsigned short)v));
    n[i * 6 + 0] = __half2int_rn(d);
    n[i * 6 + 1] = __half2int_rz(d) + __half2int_rd(d) + __half2int_ru(d);
    n[i * 6 + 2] = (int)__half2ll_rd(d) + (int)__half2ull_ru(d);
    n[i * 6 + 3] = __half2short_rz(d) + __half2ushort_rn(d) + __half2uint_rd(d);
    n[i * 6 + 4] = __half2char_rz(d) + __half2uchar_rz(d);
    n[i * 6 + 5] = __hisnan(d) + __hisinf(d) * 2;
    __half2 p = __floats2half2_rn(v, -v);
    float2 q = __half22float2(p);
    f[i * 2 + 0] = q.x + __low2float(p) + __high2float(p);
    f[i * 2 + 1] = __half2float(__float2half_rn(v));
}

__global__ void mt_half_math(const __half *x, __half *o, __half2 *o2)
{
    int i = threadIdx.x;
    __half a = x[i], b = x[i + 32], c = x[i + 64];
    __half *r = o + i * 24;
    r[0] = hsqrt(a); r[1] = hrsqrt(a); r[2] = hexp(a); r[3] = hexp2(a); r[4] = hexp10(a);
    r[5] = hlog(a); r[6] = hlog2(a); r[7] = hlog10(a); r[8] = hsin(a); r[9] = hcos(a);
    r[10] = hrcp(a); r[11] = htanh(a); r[12] = hfloor(a); r[13] = hceil(a); r[14] = htrunc(a);
    r[15] = hrint(a); r[16] = __hmax_nan(a, b); r[17] = __hmin_nan(a, b); r[18] = __hfma_sat(a, b, c);
    r[19] = __hfma_relu(a, b, c); r[20] = __habs(a); r[21] = __hdiv(a, b); r[22] = __hadd_rn(a, b);
    r[23] = __hsub_sat(a, b) + __hmul_sat(a, c) + __hneg(c) + htanh_approx(a);
    __half2 p = __halves2half2(a, b), q = __halves2half2(c, a);
    __half2 *r2 = o2 + i * 10;
    r2[0] = h2sqrt(p); r2[1] = h2exp(p); r2[2] = h2exp2(p); r2[3] = h2log(p); r2[4] = h2sin(p);
    r2[5] = h2rcp(p); r2[6] = __hcmadd(p, q, p); r2[7] = __hmax2_nan(p, q);
    r2[8] = __hfma2_sat(p, q, p) + __hfma2_relu(p, q, q) + __h2div(p, q);
    r2[9] = __hadd2_sat(p, q) + h2floor(p) + h2rint(q) + __habs2(p) + __lowhigh2highlow(p);
    o[1000 + i] = __int2half_rn(__hbeq2(p, q) + __hbltu2(p, q) + __hgt(a, b) + __hequ(a, c)) + __hisnan2(p).x;
}

__global__ void mt_bf16(const float *x, __nv_bfloat16 *o, float *f, int *n)
{
    int i = threadIdx.x;
    float v = x[i];
    __nv_bfloat16 a = __float2bfloat16(v), b = __float2bfloat16_rz(v), c = __float2bfloat16_rd(v);
    __nv_bfloat16 d = __float2bfloat16_ru(v);
    __nv_bfloat16 *r = o + i * 16;
    r[0] = a; r[1] = b; r[2] = c; r[3] = d;
    r[4] = hsqrt(a); r[5] = hexp(a); r[6] = hlog(a); r[7] = hsin(a); r[8] = hrcp(a);
#if __CUDA_ARCH__ >= 800
    r[9] = __hmax_nan(a, b); r[10] = __hfma_sat(a, b, c); r[11] = __hfma_relu(a, b, c);
#endif
    r[12] = __double2bfloat16((double)v); r[13] = __int2bfloat16_rn((int)v) + __uint2bfloat16_rz((unsigned)v);
    r[14] = __ll2bfloat16_rd((long long)v) + __short2bfloat16_ru((short)v) + htanh(a);
    __nv_bfloat162 p = __floats2bfloat162_rn(v, -v);
#if __CUDA_ARCH__ >= 800
    __nv_bfloat162 q = h2exp(p) + h2sqrt(__habs2(p)) + __hcmadd(p, p, p) + __hfma2_sat(p, p, p);
    r[15] = q.x + q.y;
#endif
    f[i * 2] = __bfloat162float(a) + __low2float(p);
    f[i * 2 + 1] = __bfloat162float(__float2bfloat16(v)) * 2;
    n[i * 3 + 0] = __bfloat162int_rn(a) + __bfloat162int_rz(a) + __bfloat162int_rd(a) + __bfloat162int_ru(a);
    n[i * 3 + 1] = (int)__bfloat162ll_rd(a) + (int)__bfloat162ull_rz(a) + __bfloat162short_rn(a);
    n[i * 3 + 2] = __bfloat162uint_ru(a) + __bfloat162ushort_rz(a) + __bfloat16_as_short(a);
    __half h = __float2half(v);
    o[1000 + i] = __float2bfloat16(__half2float(h));
}

__global__ void mt_fp8(const float *x, unsigned char *o, float *f, unsigned *w)
{
    int i = threadIdx.x;
    float v = x[i];
    unsigned char *r = o + i * 8;
    r[0] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    r[1] = __nv_cvt_float_to_fp8(v, __NV_NOSAT, __NV_E5M2);
    r[2] = __nv_cvt_double_to_fp8((double)v, __NV_SATFINITE, __NV_E5M2);
    __half_raw hr = __half(v);
    r[3] = __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E4M3);
    __nv_bfloat16_raw br = __nv_bfloat16(v);
    r[4] = __nv_cvt_bfloat16raw_to_fp8(br, __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t two = __nv_cvt_float2_to_fp8x2(make_float2(v, -v), __NV_SATFINITE, __NV_E5M2);
    r[5] = two & 0xff;
    r[6] = two >> 8;
    __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2(two, __NV_E5M2);
    __half_raw h1 = __nv_cvt_fp8_to_halfraw(r[0], __NV_E4M3);
    w[i * 2] = h2.x | (unsigned)h2.y << 16;
    w[i * 2 + 1] = h1.x;
    __nv_fp8_e4m3 e(v);
    __nv_fp8_e5m2 m(v);
    __nv_fp8x4_e4m3 q(make_float4(v, v * 2, v * 3, v * 4));
    float4 back = float4(q);
    f[i * 3] = float(e) + float(m);
    f[i * 3 + 1] = back.x + back.y + back.z + back.w;
    f[i * 3 + 2] = __half2float(__half(e));
    r[7] = __nv_cvt_float2_to_fp8x2(make_float2(v, v), __NV_SATFINITE, __NV_E4M3) & 0xff;
}

__global__ void mt_printf(int n, float f, double d, const char *s)
{
    printf("i=%d u=%u x=%x X=%X o=%o c=%c s=%s p=%p\n", n, (unsigned)n, n, n, n, 'A' + (n & 7), s, s);
    printf("f=%f e=%e g=%g E=%E G=%G a=%a %%\n", f, d, d, d, f, d);
    printf("ld=%ld lld=%lld llu=%llu hx=%hx hhd=%hhd w=%8.3f l=%-6d|z=%05d\n", (long)n, (long long)n * n,
           (unsigned long long)n, (unsigned short)n, (signed char)n, f, n, n);
}

__global__ void mt_assert(const int *x, int *y)
{
    int v = x[threadIdx.x];
    assert(v != 13);
    y[threadIdx.x] = v * 2;
}
