// Kernels whose math compiles to the .approx instructions (ex2, lg2, rcp, rsqrt,
// sqrt, tanh, div): ptxvm's results are compared with double-precision Python
// references within a tolerance (tools/kernel_cases.py).
#include <math.h>

// One block per row of n <= 256 values: out = softmax(in), stable (max subtracted).
extern "C" __global__ void softmax(const float *in, float *out, int n) {
    __shared__ float red[256];
    const float *x = in + blockIdx.x * n;
    float *y = out + blockIdx.x * n;
    int t = threadIdx.x;
    float v = t < n ? x[t] : -INFINITY;
    red[t] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    float m = red[0];
    __syncthreads();
    float e = t < n ? expf(v - m) : 0.0f;
    red[t] = e;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    if (t < n) y[t] = e / red[0];
}

// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
extern "C" __global__ void gelu(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        out[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    }
}

// Layer norm of rows of n values (one warp per row): (x - mean) * rsqrt(var + eps) * g + b.
extern "C" __global__ void layernorm(const float *in, const float *g, const float *b, float *out, int n) {
    const float *x = in + blockIdx.x * n;
    float *y = out + blockIdx.x * n;
    float s = 0.0f, sq = 0.0f;
    for (int i = threadIdx.x; i < n; i += 32) {
        s += x[i];
        sq += x[i] * x[i];
    }
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffff, s, o);
        sq += __shfl_xor_sync(0xffffffff, sq, o);
    }
    float mean = s / n;
    float var = sq / n - mean * mean;
    float r = rsqrtf(var + 1e-5f);
    for (int i = threadIdx.x; i < n; i += 32) y[i] = (x[i] - mean) * r * g[i] + b[i];
}

// Black-Scholes call and put prices (the CUDA sample's formulas, with erfc for the
// normal distribution).
__device__ float cnd(float d) { return 0.5f * erfcf(-d * 0.70710678118f); }

extern "C" __global__ void black_scholes(const float *s, const float *k, const float *t, float *call, float *put,
                                          float r, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sq = sqrtf(t[i]);
    float d1 = (logf(s[i] / k[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
    float d2 = d1 - v * sq;
    float e = expf(-r * t[i]);
    call[i] = s[i] * cnd(d1) - k[i] * e * cnd(d2);
    put[i] = k[i] * e * cnd(-d2) - s[i] * cnd(-d1);
}

// The fast intrinsics, which are the .approx instructions themselves.
extern "C" __global__ void intrinsics(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    out[6 * i + 0] = __expf(x);
    out[6 * i + 1] = __logf(fabsf(x) + 1.0f);
    out[6 * i + 2] = __sinf(x);
    out[6 * i + 3] = __cosf(x);
    out[6 * i + 4] = __fdividef(x, 3.0f);
    out[6 * i + 5] = __powf(fabsf(x) + 0.5f, 1.5f);
}
