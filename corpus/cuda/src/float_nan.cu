// Float comparisons with NaN handling: isnan/isinf, fminf/fmaxf, unordered compares.
#include <math.h>

__device__ __forceinline__ bool unordered_lt(float a, float b) { return !(a >= b); }
__device__ __forceinline__ bool unordered_ne(float a, float b) { return !(a == b); }

__global__ void nan_checks(const float *a, const float *b, int *flags, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    int f = 0;
    if (isnan(x)) f |= 1;
    if (isinf(y)) f |= 2;
    if (isfinite(x) && isfinite(y)) f |= 4;
    if (unordered_lt(x, y)) f |= 8;       // setp.ltu
    if (unordered_ne(x, y)) f |= 16;      // setp.neu
    if (x < y) f |= 32;                   // setp.lt (ordered)
    if (x != x || y != y) f |= 64;        // setp.nan
    if (x == x && y == y) f |= 128;       // setp.num
    if (!(x <= y)) f |= 256;              // setp.gtu
    if (signbit(x)) f |= 512;
    flags[i] = f;
    float m = fminf(x, y);                // NaN-ignoring min
    float M = fmaxf(x, y);
    float c = copysignf(fabsf(M - m), x);
    out[i] = isnan(c) ? 0.0f : c;
}

__global__ void nan_double(const double *a, double *out, int *cnt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i];
    if (isnan(x)) {
        atomicAdd(cnt, 1);
        out[i] = 0.0;
        return;
    }
    double y = fmin(x, 1.0e300);
    y = fmax(y, -1.0e300);
    out[i] = (x > 0.0) ? sqrt(y) : (x < 0.0 ? -sqrt(-y) : 0.0);
}

// NaN-propagating max reduction written with explicit unordered comparisons.
__global__ void nan_propagating_max(const float *in, float *out, int n)
{
    float best = -INFINITY;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = in[i];
        best = (v > best || v != v) ? v : best;
    }
    for (int off = 16; off > 0; off >>= 1) {
        float o = __shfl_down_sync(0xffffffffu, best, off);
        best = (o > best || o != o) ? o : best;
    }
    if ((threadIdx.x & 31) == 0)
        out[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = best;
}

__global__ void classify_fp(const float *in, int *cls, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    int c;
    if (v != v) c = 0;
    else if (isinf(v)) c = v > 0 ? 1 : 2;
    else if (v == 0.0f) c = signbit(v) ? 3 : 4;
    else if (fabsf(v) < 1.17549435e-38f) c = 5;   // subnormal
    else c = 6;
    cls[i] = c;
}
