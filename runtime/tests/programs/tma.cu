// TMA from the runtime, as CUTLASS reaches it: cuTensorMapEncodeTiled through
// cudaGetDriverEntryPoint (no -lcuda), the map passed by value as a __grid_constant__
// parameter of a <<<>>> launch, a tile loaded into shared memory on an mbarrier and
// transposed out by the block. Checked against the CPU: out[c][r] = in[y + r][x + c]
// inside the 64 x 48 matrix and 0 outside it. Then tiles reduced into the matrix
// with cp.reduce.async.bulk.tensor: .add into the floats and .min into a matrix of
// ints; elements of a tile outside the matrix change nothing.
#include "check.cuh"
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdint>
#include <cstring>

constexpr int W = 64, H = 48, BW = 16, BH = 8;

__global__ void transpose_tile(const __grid_constant__ CUtensorMap map, float *out, int x, int y) {
    __shared__ alignas(128) float tile[BH][BW];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(BW * BH * 4));
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(tile))),
            "l"(reinterpret_cast<uint64_t>(&map)), "r"(x), "r"(y), "r"(b)
            : "memory");
    }
    __syncthreads();
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" ::"r"(b));
    int r = threadIdx.x / BW, c = threadIdx.x % BW;
    out[c * BH + r] = tile[r][c];
}

// The block's tile (t = r * BW + c holds f(t)) reduced into the tensor at (x, y) in
// one bulk group, by .add (add) or .min.
template <typename T>
__device__ void reduce_tile(const CUtensorMap &map, int x, int y, T value, bool add) {
    __shared__ alignas(128) T tile[BH * BW];
    tile[threadIdx.x] = value;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
        uint64_t m = reinterpret_cast<uint64_t>(&map);
        if (add)
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(m), "r"(x), "r"(y), "r"(t) : "memory");
        else
            asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(m), "r"(x), "r"(y), "r"(t) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

__global__ void add_tile(const __grid_constant__ CUtensorMap map, int x, int y) {
    reduce_tile<float>(map, x, y, 0.5f * threadIdx.x, true);
}

__global__ void min_tile(const __grid_constant__ CUtensorMap map, int x, int y) {
    reduce_tile<int>(map, x, y, 1000 - 3 * static_cast<int>(threadIdx.x), false);
}

int main() {
    static float host[H * W];
    for (int i = 0; i < H * W; i++) host[i] = 1.0f + i;
    float *in, *out;
    CHECK(cudaMalloc(&in, sizeof host));
    CHECK(cudaMalloc(&out, BW * BH * sizeof(float)));
    CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));

    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &found));
    EXPECT(found == cudaDriverEntryPointSuccess && fn != nullptr);
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    // A symbol the driver lacks is no error: NULL, and the status says so.
    void *none = &fn;
    CHECK(cudaGetDriverEntryPoint("cuNoSuchFunction", &none, cudaEnableDefault, &found));
    EXPECT(found == cudaDriverEntryPointSymbolNotFound && none == nullptr);

    CUtensorMap map;
    cuuint64_t dims[2] = {W, H}, strides[1] = {W * sizeof(float)};
    cuuint32_t box[2] = {BW, BH}, ones[2] = {1, 1};
    EXPECT(encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
    int corners[][2] = {{8, 4}, {56, 44}, {-8, -3}};
    for (auto &xy : corners) {
        transpose_tile<<<1, BW * BH>>>(map, out, xy[0], xy[1]);
        CHECK(cudaGetLastError());
        float got[BW * BH];
        CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
        for (int r = 0; r < BH; r++)
            for (int c = 0; c < BW; c++) {
                int gx = xy[0] + c, gy = xy[1] + r;
                float want = gx >= 0 && gx < W && gy >= 0 && gy < H ? host[gy * W + gx] : 0.0f;
                EXPECT(got[c * BH + r] == want);
            }
    }

    // .add into the floats, at a corner where part of the tile lies outside.
    static float sum[H * W];
    memcpy(sum, host, sizeof host);
    for (auto &xy : corners) {
        add_tile<<<1, BW * BH>>>(map, xy[0], xy[1]);
        CHECK(cudaGetLastError());
        for (int r = 0; r < BH; r++)
            for (int c = 0; c < BW; c++) {
                int gx = xy[0] + c, gy = xy[1] + r;
                if (gx >= 0 && gx < W && gy >= 0 && gy < H) sum[gy * W + gx] += 0.5f * (r * BW + c);
            }
    }
    static float got_sum[H * W];
    CHECK(cudaMemcpy(got_sum, in, sizeof got_sum, cudaMemcpyDeviceToHost));
    for (int i = 0; i < H * W; i++) EXPECT(got_sum[i] == sum[i]);

    // .min into a matrix of ints (i % 1000), the tile's 1000 - 3t.
    static int ints[H * W];
    for (int i = 0; i < H * W; i++) ints[i] = i % 1000;
    int *imat;
    CHECK(cudaMalloc(&imat, sizeof ints));
    CHECK(cudaMemcpy(imat, ints, sizeof ints, cudaMemcpyHostToDevice));
    CUtensorMap imap;
    cuuint64_t istrides[1] = {W * sizeof(int)};
    EXPECT(encode(&imap, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, imat, dims, istrides, box, ones,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
    min_tile<<<1, BW * BH>>>(imap, 56, 44);
    CHECK(cudaGetLastError());
    for (int r = 0; r < BH; r++)
        for (int c = 0; c < BW; c++) {
            int gx = 56 + c, gy = 44 + r, t = r * BW + c;
            if (gx < W && gy < H && 1000 - 3 * t < ints[gy * W + gx]) ints[gy * W + gx] = 1000 - 3 * t;
        }
    static int got_ints[H * W];
    CHECK(cudaMemcpy(got_ints, imat, sizeof got_ints, cudaMemcpyDeviceToHost));
    for (int i = 0; i < H * W; i++) EXPECT(got_ints[i] == ints[i]);
    printf("tma: ok\n");
    return 0;
}
