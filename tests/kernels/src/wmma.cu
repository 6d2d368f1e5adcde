// The shapes, types, layouts and state spaces of CUDA's <mma.h> wmma API that
// corpus/cuda/src/wmma_gemm.cu leaves out, for tests/kernels.rs; tools/wmma_cases.py
// computes what each stores. Compiled with nvcc 13.5:
//   nvcc -ptx -arch=sm_90 -O3 tests/kernels/src/wmma.cu -o tests/kernels/wmma.ptx
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// m8n32k16, f16 into f32: A (8x16) column-major, B (16x32) row-major inside a 16x40
// array (stride 40), C loaded column-major; every element of the result doubled
// through the fragment, then stored row-major.
__global__ void m8n32k16(const __half *A, const __half *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 40);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    for (int i = 0; i < c.num_elements; ++i) c.x[i] *= 2.0f;
    wmma::store_matrix_sync(D, c, 32, wmma::mem_row_major);
}

// m16n16k8 tf32: A row-major, B column-major, each element rounded to tf32 in the
// fragment; C filled with 1; D stored column-major as the top 16 rows of a 24x16 array.
__global__ void tf32(const float *A, const float *B, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::fill_fragment(c, 1.0f);
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 8);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 24, wmma::mem_col_major);
}

// m8n8k4 f64: A column-major, B row-major, C row-major, D column-major.
__global__ void f64(const double *A, const double *B, const double *C, double *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 8);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}

// m32n8k16 u8 with saturation: A staged through shared memory, C near INT_MAX.
__global__ void u8_satfinite(const unsigned char *A, const unsigned char *B, const int *C, int *D)
{
    __shared__ __align__(32) unsigned char sa[32 * 16];
    for (int i = 0; i < 16; ++i) sa[threadIdx.x + 32 * i] = A[threadIdx.x + 32 * i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c, true);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

// m8n32k16 s8 without saturation: A column-major, B row-major, D column-major.
__global__ void s8_m8n32k16(const signed char *A, const signed char *B, int *D)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, int> c;
    wmma::fill_fragment(c, -7);
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 32);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}

// m32n8k16 bf16 into f32: A column-major, B column-major, C filled with 0.5.
__global__ void bf16_m32n8k16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *D)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::fill_fragment(c, 0.5f);
    wmma::load_matrix_sync(a, A, 32);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

// m16n16k16 f16 into f16 through shared memory: C loaded from shared memory
// (column-major), the result halved through the fragment, stored to shared memory
// (row-major) and copied out.
__global__ void f16_shared(const __half *A, const __half *B, const __half *C, __half *D)
{
    __shared__ __align__(32) __half tile[16 * 16];
    for (int i = threadIdx.x; i < 256; i += 32) tile[i] = C[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, tile, 16, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    for (int i = 0; i < c.num_elements; ++i) c.x[i] = __hmul(c.x[i], __float2half(0.5f));
    __syncwarp();
    wmma::store_matrix_sync(tile, c, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32) D[i] = tile[i];
}

// m8n8k32 s4 (A row-major, B column-major, the only layouts sub-byte wmma has), C 3.
// Each int holds eight 4-bit elements, the first in the low bits.
__global__ void s4(const int *A, const int *B, int *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> c;
    wmma::fill_fragment(c, 3);
    wmma::load_matrix_sync(a, A, 32);
    wmma::load_matrix_sync(b, B, 32);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

// m8n8k32 u4 with saturation; A's rows 64 elements (32 bytes) apart, C near INT_MAX.
__global__ void u4_satfinite(const int *A, const int *B, const int *C, int *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::u4, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::u4, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> c;
    wmma::load_matrix_sync(a, A, 64);
    wmma::load_matrix_sync(b, B, 32);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c, true);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

// m8n8k128 b1: D[0..64) = popc(A & B) + 1, D[64..128) = popc(A ^ B) + 1.
__global__ void b1(const unsigned *A, const unsigned *B, int *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> c, d;
    wmma::fill_fragment(c, 1);
    wmma::load_matrix_sync(a, A, 128);
    wmma::load_matrix_sync(b, B, 128);
    wmma::bmma_sync(d, a, b, c, wmma::experimental::bmmaBitOpAND);
    wmma::store_matrix_sync(D, d, 8, wmma::mem_row_major);
    wmma::bmma_sync(d, a, b, c, wmma::experimental::bmmaBitOpXOR);
    wmma::store_matrix_sync(D + 64, d, 8, wmma::mem_row_major);
}
