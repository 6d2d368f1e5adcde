// Benchmark input: one CUDA translation unit that nvcc turns into a single ~12 MB PTX module.
// Many template instantiations of a few kernel shapes, each with fully unrolled loops,
// shared-memory tiles, warp shuffles, predicated selects and calls to __noinline__ helpers.
//
//   nvcc -ptx -arch=sm_90 -O3 bench/big/big.cu -o bench/big/big.ptx
//
// NKERN (below) controls how many instantiations are emitted per shape, and so the size.
#include <cuda_fp16.h>

#ifndef NKERN
#define NKERN 256
#endif

// ---------------------------------------------------------------- helpers
template <int S>
__device__ __noinline__ float mix(float a, float b, int k)
{
    float r = a;
#pragma unroll
    for (int i = 0; i < 4 + (S % 5); ++i) {
        r = fmaf(r, 1.0f + 0.001f * (S + i), b);
        r = (k & (1 << i)) ? r - b * 0.5f : r + 0.25f;
    }
    return r;
}

template <int S>
__device__ __noinline__ unsigned hash_step(unsigned h, unsigned v)
{
#pragma unroll
    for (int i = 0; i < 3 + (S % 4); ++i) {
        h ^= v + 0x9e3779b9u + (h << (6 + i)) + (h >> 2);
        h = __funnelshift_l(h, h, 5 + S % 7) * (2654435761u + 2u * S);
    }
    return h;
}

// ---------------------------------------------------------------- shape 1: unrolled stencil + select chain
template <int S>
__global__ void shape_stencil(const float *__restrict__ in, float *__restrict__ out, int n, float w)
{
    __shared__ float tile[256 + 2 * 8];
    int g = blockIdx.x * 256 + threadIdx.x;
    tile[threadIdx.x + 8] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < 8) {
        tile[threadIdx.x] = g >= 8 ? in[g - 8] : 0.0f;
        tile[threadIdx.x + 256 + 8] = g + 256 < n ? in[g + 256] : 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = -8; k <= 8; ++k) {
        float c = 1.0f / (1.0f + (k * k + S) * 0.125f);
        float v = tile[threadIdx.x + 8 + k];
        acc = fmaf(c, v, acc);
        acc = v > acc ? acc + c * w : (v < -acc ? acc - c : acc);
    }
#pragma unroll
    for (int r = 0; r < 6 + S % 6; ++r)
        acc = mix<S>(acc, w + r, g + r);
    if (g < n)
        out[g] = acc;
}

// ---------------------------------------------------------------- shape 2: register-blocked matmul fragment
template <int S>
__global__ void shape_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N)
{
    __shared__ float As[16][33];
    __shared__ float Bs[16][33];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    float acc[2][2] = {{0.f, 0.f}, {0.f, 0.f}};
    for (int k0 = 0; k0 < N; k0 += 16) {
        As[ty][tx] = A[(blockIdx.y * 16 + ty) * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + blockIdx.x * 16 + tx];
        As[ty][tx + 16] = A[(blockIdx.y * 16 + ty) * N + k0 + tx] * (1.0f + S);
        Bs[ty][tx + 16] = B[(k0 + ty) * N + blockIdx.x * 16 + tx] - S;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k) {
#pragma unroll
            for (int p = 0; p < 2; ++p)
#pragma unroll
                for (int q = 0; q < 2; ++q)
                    acc[p][q] = fmaf(As[ty][k + 16 * p], Bs[k][tx + 16 * q], acc[p][q]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int p = 0; p < 2; ++p)
#pragma unroll
        for (int q = 0; q < 2; ++q)
            C[(blockIdx.y * 16 + ty + p) * N + blockIdx.x * 16 + tx + q] = mix<S + 1>(acc[p][q], (float)S, p * 2 + q);
}

// ---------------------------------------------------------------- shape 3: integer hashing + switch + warp reduction
template <int S>
__global__ void shape_hash(const unsigned *__restrict__ keys, unsigned *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = 2166136261u + S;
    unsigned k = i < n ? keys[i] : 0u;
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        switch ((k >> (r * 4)) & 7u) {
        case 0: h = hash_step<S>(h, k); break;
        case 1: h += k * (S + 3); break;
        case 2: h ^= __brev(k + r); break;
        case 3: h = __byte_perm(h, k, 0x3120 + r); break;
        case 4: h = h * 16777619u ^ (unsigned)r; break;
        case 5: h = __popc(h) + (h >> 3); break;
        case 6: h = min(h, k ^ (unsigned)S); break;
        default: h = max(h, k + (unsigned)S); break;
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        h ^= __shfl_xor_sync(0xffffffffu, h, off);
    if (i < n)
        out[i] = h;
}

// ---------------------------------------------------------------- shape 4: half-precision pipeline
template <int S>
__global__ void shape_half(const __half2 *__restrict__ in, __half2 *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 v = in[i];
    __half2 c = __float2half2_rn(0.5f + 0.01f * S);
#pragma unroll
    for (int r = 0; r < 12; ++r) {
        v = __hfma2(v, c, __float2half2_rn((float)r));
        v = __hmax2(v, __hneg2(v));
        v = __hbgt2(v, c) ? __hmul2(v, c) : __hadd2(v, c);
    }
    float f = __low2float(v) + __high2float(v);
#pragma unroll
    for (int r = 0; r < 3; ++r)
        f = mix<S + 2>(f, (float)r, i);
    out[i] = __floats2half2_rn(f, -f);
}

// ---------------------------------------------------------------- instantiation
#define INST1(S)                                                                                   \
    template __global__ void shape_stencil<S>(const float *__restrict__, float *__restrict__, int, float); \
    template __global__ void shape_gemm<S>(const float *__restrict__, const float *__restrict__, float *__restrict__, int); \
    template __global__ void shape_hash<S>(const unsigned *__restrict__, unsigned *__restrict__, int); \
    template __global__ void shape_half<S>(const __half2 *__restrict__, __half2 *__restrict__, int);
#define INST4(S) INST1(S) INST1(S + 1) INST1(S + 2) INST1(S + 3)
#define INST16(S) INST4(S) INST4(S + 4) INST4(S + 8) INST4(S + 12)
#define INST64(S) INST16(S) INST16(S + 16) INST16(S + 32) INST16(S + 48)

#if NKERN >= 4
INST4(0)
#endif
#if NKERN >= 16
INST4(4) INST4(8) INST4(12)
#endif
#if NKERN >= 64
INST16(16) INST16(32) INST16(48)
#endif
#if NKERN >= 128
INST64(64)
#endif
#if NKERN >= 192
INST64(128)
#endif
#if NKERN >= 256
INST64(192)
#endif
