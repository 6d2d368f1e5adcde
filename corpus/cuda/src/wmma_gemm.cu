// Tensor-core GEMM via the WMMA API (half inputs, float accumulate), plus int8 and bf16 where available.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void wmma_hgemm(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        int ar = warpM * 16, bc = warpN * 16;
        if (ar < M && bc < N) {
            wmma::load_matrix_sync(a, A + ar * K + k, K);
            wmma::load_matrix_sync(b, B + bc * K + k, K);
            wmma::mma_sync(acc, a, b, acc);
        }
    }
    if (warpM * 16 < M && warpN * 16 < N)
        wmma::store_matrix_sync(C + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}

__global__ void wmma_half_acc(const __half *A, const __half *B, __half *C)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, __half> c;
    wmma::fill_fragment(c, __float2half(0.0f));
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 8);
    wmma::mma_sync(c, a, b, c);
    for (int t = 0; t < c.num_elements; ++t) c.x[t] = __hmul(c.x[t], __float2half(0.5f));
    wmma::store_matrix_sync(C, c, 8, wmma::mem_col_major);
}

__global__ void wmma_int8(const signed char *A, const signed char *B, int *C)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}

__global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
#else
    // pre-Ampere: plain float fallback over a 16x16 tile, one warp
    for (int e = threadIdx.x; e < 256; e += 32) {
        int r = e / 16, col = e % 16;
        float s = 0.0f;
        for (int k = 0; k < 16; ++k) s += __bfloat162float(A[r * 16 + k]) * __bfloat162float(B[k * 16 + col]);
        C[e] = s;
    }
#endif
}
