// Select-heavy, branch-free code: ternaries, min/max/clamp, sign tricks, sorting networks.

__device__ __forceinline__ void cswap(float &a, float &b) { float lo = a < b ? a : b; float hi = a < b ? b : a; a = lo; b = hi; }

__global__ void sort8_network(float *data, int n8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n8) return;
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = data[i * 8 + k];
    cswap(v[0], v[1]); cswap(v[2], v[3]); cswap(v[4], v[5]); cswap(v[6], v[7]);
    cswap(v[0], v[2]); cswap(v[1], v[3]); cswap(v[4], v[6]); cswap(v[5], v[7]);
    cswap(v[1], v[2]); cswap(v[5], v[6]); cswap(v[0], v[4]); cswap(v[3], v[7]);
    cswap(v[1], v[5]); cswap(v[2], v[6]);
    cswap(v[1], v[4]); cswap(v[3], v[6]);
    cswap(v[2], v[4]); cswap(v[3], v[5]);
    cswap(v[3], v[4]);
#pragma unroll
    for (int k = 0; k < 8; ++k) data[i * 8 + k] = v[k];
}

__global__ void piecewise(const float *x, float *y, const int *mode, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    int m = mode[i];
    float r = m == 0 ? v : m == 1 ? (v > 0.f ? v : 0.01f * v) : m == 2 ? fminf(fmaxf(v, -1.f), 1.f) : m == 3 ? (v > 0.f ? 1.f : v < 0.f ? -1.f : 0.f) : v * v;
    y[i] = r;
}

__global__ void int_selects(const int *a, const int *b, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    int mn = x < y ? x : y;
    int mx = x < y ? y : x;
    int clamp = x < -100 ? -100 : (x > 100 ? 100 : x);
    int sgn = (x > 0) - (x < 0);
    int absx = x < 0 ? -x : x;
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    unsigned umn = ux < uy ? ux : uy;
    bool both = (x & 1) && (y & 1);
    bool either = (x > 10) || (y > 10);
    out[i] = mn + mx * 3 + clamp * 5 + sgn * 7 + absx * 11 + (both ? 13 : 17) + (either ? 19 : 23);
    uout[i] = umn ^ (both != either ? 0xffffu : 0u);
}

__global__ void select_double(const double *a, const double *b, double *out, long long *li, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    out[i] = x >= y ? x - y : (x != x ? 0.0 : y - x);
    long long lx = (long long)x;
    li[i] = lx > 0 ? lx : (lx < -5 ? -5 : lx * 2);
}

// Predicated accumulation with boolean arithmetic and selects of pointers.
__global__ void pick_source(const float *p, const float *q, float *out, const unsigned char *which, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *src = which[i] ? p : q;
    float v = src[i];
    bool pos = v > 0.0f;
    bool big = fabsf(v) > 10.0f;
    out[i] = (float)(pos + big * 2) + (pos ^ big ? v : -v);
}
