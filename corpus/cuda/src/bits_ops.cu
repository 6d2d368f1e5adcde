// Bit manipulation intrinsics: brev, clz, ffs, popc, byte_perm, funnel shifts, bfind/bfe patterns.

__global__ void bit_intrinsics(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    unsigned w = in[(i + 1) % n];
    unsigned r = __brev(v);
    int lz = __clz((int)v);
    int fs = __ffs((int)v);
    int pc = __popc(v);
    unsigned bp = __byte_perm(v, w, 0x3210 ^ (i & 0x7777));
    unsigned fl = __funnelshift_l(v, w, i & 31);
    unsigned fr = __funnelshift_rc(v, w, i);
    unsigned sad = __sad((int)v, (int)w, 3u);
    unsigned usad = __usad(v, w, 7u);
    unsigned hadd = __uhadd(v, w) + __urhadd(v, w) + (unsigned)__hadd((int)v, (int)w);
    out[i] = r ^ (unsigned)lz ^ ((unsigned)fs << 8) ^ ((unsigned)pc << 16) ^ bp ^ fl ^ fr ^ sad ^ usad ^ hadd;
}

// Manual bitfield extract / insert; compilers turn these into bfe/bfi.
__device__ __forceinline__ unsigned extract(unsigned v, int pos, int len) { return (v >> pos) & ((1u << len) - 1u); }
__device__ __forceinline__ unsigned insert(unsigned v, unsigned f, int pos, int len)
{
    unsigned m = ((1u << len) - 1u) << pos;
    return (v & ~m) | ((f << pos) & m);
}

struct Packed { unsigned opcode : 6; unsigned rd : 5; unsigned rs : 5; signed imm : 16; };

__global__ void bitfields(const unsigned *words, unsigned *out, int *imm, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = words[i];
    unsigned op = extract(v, 26, 6);
    unsigned rd = extract(v, 21, 5);
    unsigned rs = extract(v, 16, 5);
    out[i] = insert(insert(v, rs, 21, 5), rd, 16, 5) ^ op;
    Packed p;
    p.opcode = op; p.rd = rd; p.rs = rs; p.imm = (short)(v & 0xffff);
    imm[i] = p.imm + p.rd - p.rs + p.opcode;
}

// Morton (Z-order) encode/decode with magic-number spreading.
__device__ __forceinline__ unsigned spread(unsigned x)
{
    x &= 0xffffu;
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    x = (x | (x << 1)) & 0x55555555u;
    return x;
}
__device__ __forceinline__ unsigned compact(unsigned x)
{
    x &= 0x55555555u;
    x = (x | (x >> 1)) & 0x33333333u;
    x = (x | (x >> 2)) & 0x0f0f0f0fu;
    x = (x | (x >> 4)) & 0x00ff00ffu;
    x = (x | (x >> 8)) & 0x0000ffffu;
    return x;
}

__global__ void morton(const unsigned *xs, const unsigned *ys, unsigned *codes, uint2 *back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned c = spread(xs[i]) | (spread(ys[i]) << 1);
    codes[i] = c;
    back[i] = make_uint2(compact(c), compact(c >> 1));
}

// Highest set bit (bfind) and bit scan loops.
__global__ void bit_scan(const unsigned long long *masks, int *positions, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long m = masks[i];
    int c = 0;
    int first = -1;
    while (m) {
        int b = __ffsll((long long)m) - 1;
        if (first < 0) first = b;
        m &= m - 1;
        ++c;
    }
    positions[i] = first * 64 + (masks[i] ? 63 - __clzll((long long)masks[i]) : -1);
    counts[i] = c;
}
