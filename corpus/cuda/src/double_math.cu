// Double precision: division, sqrt, fma, libm functions, Kahan summation, Newton iterations.
#include <math.h>

__global__ void dmath(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double a = sqrt(fabs(v));
    double b = 1.0 / (v + 3.0);
    double c = fma(v, a, b);
    double d = exp(-v * v) + log1p(fabs(v)) + sin(v) * cos(v);
    double e = pow(fabs(v) + 1.0, 0.3) + cbrt(v) + rsqrt(fabs(v) + 1e-9);
    y[i] = c + d + e + floor(v) + ceil(v) + trunc(v) + round(v);
}

__global__ void kahan_sum(const double *x, double *out, int n)
{
    double s = 0.0, comp = 0.0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        double yv = x[i] - comp;
        double t = s + yv;
        comp = (t - s) - yv;
        s = t;
    }
    atomicAdd(out, s);
}

// Newton-Raphson reciprocal square root refinement and division rounding modes.
__global__ void newton_rsqrt(const double *x, double *y, double *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i] + 1.0;
    double r = (double)rsqrtf((float)v);
    for (int it = 0; it < 3; ++it)
        r = r * (1.5 - 0.5 * v * r * r);
    y[i] = r;
    q[i] = __ddiv_rn(1.0, v) + __ddiv_rz(2.0, v) + __dadd_ru(v, 1e-3) + __dmul_rd(v, 3.0) + __fma_rn(v, v, -1.0) + __dsqrt_rn(v);
}

__global__ void horner_double(const double *coef, int deg, const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double acc = coef[deg];
    double v = x[i];
    for (int k = deg - 1; k >= 0; --k)
        acc = fma(acc, v, coef[k]);
    y[i] = acc;
}

// Float math with explicit rounding intrinsics.
__global__ void fmath_rounding(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    y[i] = __fadd_rn(v, 1.0f) + __fadd_rz(v, 2.0f) + __fmul_ru(v, 3.0f) + __fmul_rd(v, 0.5f)
         + __fdiv_rn(v, 7.0f) + __fsqrt_rn(fabsf(v)) + __frcp_rn(v + 2.0f) + __fmaf_rz(v, v, 1.0f)
         + __saturatef(v) + sinf(v) + __sinf(v) + __cosf(v) + __log2f(fabsf(v) + 1.0f) + exp2f(v);
}
