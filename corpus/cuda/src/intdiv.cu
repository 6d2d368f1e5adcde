// Integer division and modulo: by constants, by variables, signed/unsigned, 64-bit.

__global__ void div_const(const int *a, int *q, int *r, unsigned *uq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i];
    q[i] = x / 7 + x / 16 + x / -3;
    r[i] = x % 7 + x % 16 + x % 1000;
    unsigned ux = (unsigned)x;
    uq[i] = ux / 10u + ux % 10u + ux / 1024u + ux % 3u;
}

__global__ void div_var(const int *a, const int *b, int *q, int *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    if (y == 0) { q[i] = 0; r[i] = x; return; }
    q[i] = x / y;
    r[i] = x % y;
}

__global__ void div64(const long long *a, const long long *b, long long *q, unsigned long long *uq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i] | 1;
    q[i] = x / y + x % y + x / 1000000007LL;
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    uq[i] = ux / uy + ux % uy + ux % 0x10001ull;
}

// Index decomposition: linear index -> (b, c, h, w) coordinates with runtime dims.
__global__ void unravel(int *coords, int total, int C, int H, int W)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int w = idx % W;
    int t = idx / W;
    int h = t % H;
    t /= H;
    int c = t % C;
    int b = t / C;
    int4 *o = reinterpret_cast<int4 *>(coords);
    o[idx] = make_int4(b, c, h, w);
}

// gcd via Euclid (data-dependent loop with modulo) and lcm with 64-bit.
__device__ unsigned gcd(unsigned a, unsigned b)
{
    while (b) { unsigned t = a % b; a = b; b = t; }
    return a;
}

__global__ void gcd_lcm(const unsigned *a, const unsigned *b, unsigned *g, unsigned long long *l, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned d = gcd(x, y);
    g[i] = d;
    l[i] = d ? (unsigned long long)(x / d) * y : 0ull;
}

// Floor division / Python-style modulo for negative numbers.
__device__ __forceinline__ int floordiv(int a, int b) { int q = a / b; return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q; }
__device__ __forceinline__ int pymod(int a, int b) { int m = a % b; return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m; }

__global__ void python_divmod(const int *a, const int *b, int2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int y = b[i] == 0 ? 1 : b[i];
    out[i] = make_int2(floordiv(a[i], y), pymod(a[i], y));
}
