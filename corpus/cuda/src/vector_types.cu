// Vector types: float4/int4/double2/uchar4/half-width loads and stores, vectorised copies.

__global__ void saxpy_float4(const float4 *x, float4 *y, float a, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 xv = x[i];
    float4 yv = y[i];
    yv.x = fmaf(a, xv.x, yv.x);
    yv.y = fmaf(a, xv.y, yv.y);
    yv.z = fmaf(a, xv.z, yv.z);
    yv.w = fmaf(a, xv.w, yv.w);
    y[i] = yv;
}

__global__ void rgba_to_gray(const uchar4 *rgba, unsigned char *gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = rgba[i];
    float g = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    gray[i] = (unsigned char)__float2uint_rn(fminf(g, 255.0f));
}

__global__ void double2_axpby(const double2 *a, const double2 *b, double2 *c, double al, double be, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double2 u = a[i], v = b[i];
    c[i] = make_double2(al * u.x + be * v.x, al * u.y + be * v.y);
}

__global__ void int4_minmax(const int4 *in, int2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int4 v = __ldg(&in[i]);
    int lo = min(min(v.x, v.y), min(v.z, v.w));
    int hi = max(max(v.x, v.y), max(v.z, v.w));
    out[i] = make_int2(lo, hi);
}

// float3 (unaligned vector) and short2 / char4 arithmetic.
__global__ void cross_products(const float3 *a, const float3 *b, float3 *c, short2 *s, const char4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 u = a[i], v = b[i];
    c[i] = make_float3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
    char4 qq = q[i];
    s[i] = make_short2((short)(qq.x * qq.y), (short)(qq.z - qq.w));
}

// Streaming loads/stores with cache hints.
__global__ void copy_hints(const float4 *__restrict__ src, float4 *__restrict__ dst, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float4 v = __ldcs(&src[i]);
        __stcs(&dst[i], v);
        float4 w = __ldlu(&src[(i + 1) % n]);
        __stwt(&dst[(i + 7) % n], w);
    }
}
