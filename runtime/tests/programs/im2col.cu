// TMA in im2col mode, as CUTLASS's convolutions use it: a 3 x 3 convolution with
// padding 1 over an NHWC tensor of 2 images of 5 x 6 pixels and 8 float channels,
// computed as an implicit GEMM whose A tiles are im2col loads (cuTensorMapEncodeIm2col,
// cp.async.bulk.tensor.4d ... .im2col): 16 output pixels per load, one load per filter
// tap (r, s) given as the load's offsets. The bounding box is CUTLASS's for padding 1:
// lower corner -1, upper corner 1 - (3 - 1) = -1. Checked against a direct
// convolution on the CPU, where the padding reads zero.
#include "check.cuh"
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdint>

constexpr int N = 2, H = 5, W = 6, C = 8, K = 4, R = 3, S = 3, PIX = 16;
constexpr int M = N * H * W;

__global__ void conv(const __grid_constant__ CUtensorMap map, const float *weights, float *out) {
    __shared__ alignas(128) float tile[PIX * C];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    // This block's first output pixel (n, p, q); the traversal starts at the box
    // position (q - 1, p - 1) of image n.
    int m0 = blockIdx.x * PIX;
    int n = m0 / (H * W), p = m0 / W % H, q = m0 % W;
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    __syncthreads();
    float acc[K] = {};
    for (int tap = 0; tap < R * S; tap++) {
        uint16_t r = tap / S, s = tap % S;
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(PIX * C * 4));
            asm volatile(
                "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(
                    static_cast<uint32_t>(__cvta_generic_to_shared(tile))),
                "l"(reinterpret_cast<uint64_t>(&map)), "r"(0), "r"(q - 1), "r"(p - 1), "r"(n), "r"(b), "h"(s), "h"(r)
                : "memory");
        }
        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(b),
                     "r"(tap & 1));
        for (int k = 0; k < K; k++)
            for (int c = 0; c < C; c++) acc[k] += tile[threadIdx.x * C + c] * weights[((k * R + r) * S + s) * C + c];
        __syncthreads();
    }
    if (m0 + threadIdx.x < M)
        for (int k = 0; k < K; k++) out[(m0 + threadIdx.x) * K + k] = acc[k];
}

int main() {
    static float in[N * H * W * C], weights[K * R * S * C], want[M * K], got[M * K];
    for (int i = 0; i < N * H * W * C; i++) in[i] = static_cast<float>((i * 7) % 13) - 6.0f;
    for (int i = 0; i < K * R * S * C; i++) weights[i] = static_cast<float>((i * 5) % 11) - 5.0f;
    for (int n = 0; n < N; n++)
        for (int p = 0; p < H; p++)
            for (int q = 0; q < W; q++)
                for (int k = 0; k < K; k++) {
                    float acc = 0;
                    for (int r = 0; r < R; r++)
                        for (int s = 0; s < S; s++) {
                            int h = p - 1 + r, w = q - 1 + s;
                            if (h < 0 || h >= H || w < 0 || w >= W) continue;
                            for (int c = 0; c < C; c++)
                                acc += in[((n * H + h) * W + w) * C + c] * weights[((k * R + r) * S + s) * C + c];
                        }
                    want[((n * H + p) * W + q) * K + k] = acc;
                }

    float *din, *dw, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dw, sizeof weights));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dw, weights, sizeof weights, cudaMemcpyHostToDevice));

    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeIm2col", &fn, cudaEnableDefault, &found));
    EXPECT(found == cudaDriverEntryPointSuccess && fn != nullptr);
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeIm2col_v12000>(fn);
    CUtensorMap map;
    cuuint64_t dims[4] = {C, W, H, N};
    cuuint64_t strides[3] = {C * 4, W * C * 4, H * W * C * 4};
    int lower[2] = {-1, -1}, upper[2] = {-1, -1};
    cuuint32_t ones[4] = {1, 1, 1, 1};
    EXPECT(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, din, dims, strides, lower, upper, C, PIX, ones,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
    // An empty bounding box: W from 6 to 6 - 1 + 0.
    int far[2] = {6, -1};
    EXPECT(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, din, dims, strides, far, upper, C, PIX, ones,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
    EXPECT(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, din, dims, strides, lower, upper, C, PIX, ones,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);

    conv<<<(M + PIX - 1) / PIX, PIX>>>(map, dw, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * K; i++) EXPECT(got[i] == want[i]);
    printf("im2col: ok\n");
    return 0;
}
