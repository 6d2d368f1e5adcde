// 64-bit integer arithmetic: wide multiplies, mul.hi, shifts, bit counts, hashing, PRNGs.

__device__ __forceinline__ unsigned long long rotl64(unsigned long long x, int k) { return (x << k) | (x >> (64 - k)); }

__device__ unsigned long long splitmix64(unsigned long long &s)
{
    unsigned long long z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

__global__ void xoshiro_fill(unsigned long long *out, unsigned long long seed, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long sm = seed ^ (unsigned long long)i;
    unsigned long long s0 = splitmix64(sm), s1 = splitmix64(sm), s2 = splitmix64(sm), s3 = splitmix64(sm);
    unsigned long long acc = 0;
    for (int k = 0; k < 8; ++k) {
        unsigned long long r = rotl64(s1 * 5ull, 7) * 9ull;
        unsigned long long t = s1 << 17;
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl64(s3, 45);
        acc += r;
    }
    out[i] = acc;
}

__global__ void bit_stats64(const unsigned long long *in, int *pop, int *clz, int *ffs, unsigned long long *rev, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = in[i];
    pop[i] = __popcll(v);
    clz[i] = __clzll((long long)v);
    ffs[i] = __ffsll((long long)v);
    rev[i] = __brevll(v);
}

__global__ void wide_ops(const long long *a, const long long *b, long long *out, unsigned long long *hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    long long s = x + y, d = x - y, p = x * y;
    long long sh = (x << (y & 63)) ^ (x >> (y & 31));
    unsigned long long ush = (unsigned long long)x >> (unsigned)(y & 63);
    hi[i] = __umul64hi((unsigned long long)x, (unsigned long long)y) ^ (unsigned long long)__mul64hi(x, y);
    long long mx = x > y ? x : y;
    long long ab = llabs(d);
    out[i] = s ^ p ^ sh ^ (long long)ush ^ mx ^ ab;
}

// 32x32->64 multiplies and mixing of widths.
__global__ void mixed_width(const int *a, const unsigned *b, long long *out, unsigned long long *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long wide = (long long)a[i] * (long long)a[(i + 1) % n];
    unsigned long long uw = (unsigned long long)b[i] * (unsigned long long)b[(i + 3) % n];
    int hi32 = __mulhi(a[i], a[(i + 1) % n]);
    unsigned uhi = __umulhi(b[i], 0x9e3779b9u);
    out[i] = wide + hi32;
    uout[i] = uw + uhi + ((unsigned long long)(unsigned)i << 40);
}

// FNV-1a 64-bit hash over variable-length keys.
__global__ void fnv1a(const unsigned char *keys, const int *offsets, unsigned long long *hashes, int nkeys)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nkeys) return;
    unsigned long long h = 0xcbf29ce484222325ull;
    for (int p = offsets[k]; p < offsets[k + 1]; ++p) {
        h ^= keys[p];
        h *= 0x100000001b3ull;
    }
    hashes[k] = h;
}
