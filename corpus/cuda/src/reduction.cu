// Reductions: warp shuffle, shared-memory tree, two-pass and templated operators.
#include <cfloat>

template <typename T> struct SumOp { __device__ T operator()(T a, T b) const { return a + b; } static __device__ T id() { return T(0); } };
template <typename T> struct MaxOp { __device__ T operator()(T a, T b) const { return a > b ? a : b; } static __device__ T id(); };
template <> __device__ float MaxOp<float>::id() { return -FLT_MAX; }
template <> __device__ int MaxOp<int>::id() { return -2147483647 - 1; }
template <typename T> struct MinOp { __device__ T operator()(T a, T b) const { return a < b ? a : b; } static __device__ T id(); };
template <> __device__ float MinOp<float>::id() { return FLT_MAX; }
template <> __device__ double MinOp<double>::id() { return 1.0e308; }

template <typename T, typename Op>
__device__ T warp_reduce(T v, Op op)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = op(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

template <typename T, typename Op, int BLOCK>
__global__ void block_reduce(const T *in, T *out, int n)
{
    __shared__ T warp_part[BLOCK / 32];
    Op op;
    T acc = Op::id();
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
        acc = op(acc, in[i]);
    acc = warp_reduce(acc, op);
    if ((threadIdx.x & 31) == 0)
        warp_part[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < BLOCK / 32 ? warp_part[threadIdx.x] : Op::id();
        acc = warp_reduce(acc, op);
        if (threadIdx.x == 0)
            out[blockIdx.x] = acc;
    }
}

template __global__ void block_reduce<float, SumOp<float>, 256>(const float *, float *, int);
template __global__ void block_reduce<int, SumOp<int>, 128>(const int *, int *, int);
template __global__ void block_reduce<double, SumOp<double>, 256>(const double *, double *, int);
template __global__ void block_reduce<float, MaxOp<float>, 512>(const float *, float *, int);
template __global__ void block_reduce<int, MaxOp<int>, 256>(const int *, int *, int);
template __global__ void block_reduce<double, MinOp<double>, 64>(const double *, double *, int);

// Classic shared-memory tree reduction with unrolled last warp (volatile).
__device__ void warp_tail(volatile float *s, int t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

__global__ void tree_reduce(const float *in, float *out, unsigned n)
{
    __shared__ float s[512];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 1024 + t;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + 512 < n) v += in[i + 512];
    s[t] = v;
    __syncthreads();
    for (unsigned st = 256; st > 32; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t < 32) warp_tail(s, t);
    if (t == 0) out[blockIdx.x] = s[0];
}

// Argmin with index tie-breaking via 64-bit packing.
__global__ void argmin_packed(const float *in, unsigned long long *best, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    unsigned bits = __float_as_uint(v);
    bits = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);   // order-preserving
    unsigned long long key = ((unsigned long long)bits << 32) | (unsigned)i;
    atomicMin(best, key);
}
