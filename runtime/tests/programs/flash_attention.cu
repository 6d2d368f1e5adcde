// A FlashAttention-style forward kernel of our own for sm_90a: TMA loads of Q, K and
// V tiles (128-byte swizzle) completing on an mbarrier, S = Q K^T with wgmma from
// shared-memory descriptors, an online softmax in registers, and O += P V with P fed
// to wgmma from registers and V read transposed (MN-major) from shared memory.
// Checked against a CPU attention in double precision on the same f16 inputs, and, given
// a file name, writes inputs and output for numpy (flash_attention_check.py).
//
//   nvcc -std=c++17 -gencode arch=compute_90a,code=compute_90a -O2 flash_attention.cu
//
// (runtime/tests/programs.rs; PTX for sm_90a only: -arch=sm_90a would also compile the
// kernel for compute_90, which has no wgmma.)
#include "check.cuh"
#include <cmath>
#include <cstdint>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>
#include <vector>

constexpr int L = 192;   // queries and keys per head
constexpr int D = 64;    // head dimension
constexpr int HEADS = 2; // batch x heads
constexpr int BM = 64;   // queries per CTA (one warpgroup)
constexpr int BN = 64;   // keys per step

__device__ uint32_t smem(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// A K-major 128-byte-swizzled descriptor (PTX ISA 9.7.15.5.1.2): rows of 128 bytes,
// groups of 8 rows 1024 bytes apart (SBO); LBO is not used by this layout.
__device__ uint64_t desc_k(uint32_t addr) {
    return uint64_t(addr >> 4) | uint64_t(1) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
}

// S (64 x 64, f32) += A (64 x 16 of Q, descriptor) * B (16 x 64 of K^T, descriptor).
__device__ void qk(float (&s)[32], uint64_t a, uint64_t b, int keep) {
    asm volatile(
        "{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n}"
        : "+f"(s[0]), "+f"(s[1]), "+f"(s[2]), "+f"(s[3]), "+f"(s[4]), "+f"(s[5]), "+f"(s[6]), "+f"(s[7]),
          "+f"(s[8]), "+f"(s[9]), "+f"(s[10]), "+f"(s[11]), "+f"(s[12]), "+f"(s[13]), "+f"(s[14]), "+f"(s[15]),
          "+f"(s[16]), "+f"(s[17]), "+f"(s[18]), "+f"(s[19]), "+f"(s[20]), "+f"(s[21]), "+f"(s[22]), "+f"(s[23]),
          "+f"(s[24]), "+f"(s[25]), "+f"(s[26]), "+f"(s[27]), "+f"(s[28]), "+f"(s[29]), "+f"(s[30]), "+f"(s[31])
        : "l"(a), "l"(b), "r"(keep));
}

// O (64 x 64, f32) += P (64 x 16, f16 in registers) * V (16 x 64, MN-major: imm-trans-b 1).
__device__ void pv(float (&o)[32], const uint32_t (&p)[4], uint64_t b) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "{%32, %33, %34, %35}, %36, 1, 1, 1, 1;"
        : "+f"(o[0]), "+f"(o[1]), "+f"(o[2]), "+f"(o[3]), "+f"(o[4]), "+f"(o[5]), "+f"(o[6]), "+f"(o[7]),
          "+f"(o[8]), "+f"(o[9]), "+f"(o[10]), "+f"(o[11]), "+f"(o[12]), "+f"(o[13]), "+f"(o[14]), "+f"(o[15]),
          "+f"(o[16]), "+f"(o[17]), "+f"(o[18]), "+f"(o[19]), "+f"(o[20]), "+f"(o[21]), "+f"(o[22]), "+f"(o[23]),
          "+f"(o[24]), "+f"(o[25]), "+f"(o[26]), "+f"(o[27]), "+f"(o[28]), "+f"(o[29]), "+f"(o[30]), "+f"(o[31])
        : "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3]), "l"(b));
}

__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ void commit_wait() {
    asm volatile("wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;" ::: "memory");
}

__device__ void load(const CUtensorMap &map, void *dst, int row, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
        "[%4];" ::"r"(smem(dst)),
        "l"(reinterpret_cast<uint64_t>(&map)), "r"(0), "r"(row), "r"(bar)
        : "memory");
}

__device__ void wait(uint32_t bar, uint32_t parity) {
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(
                     bar),
                 "r"(parity)
                 : "memory");
}

// Row r of the warpgroup's D fragment held in register i of this thread.
__device__ int row_of(int i) { return threadIdx.x / 32 * 16 + threadIdx.x % 32 / 4 + 8 * (i / 2 % 2); }
__device__ int col_of(int i) { return 8 * (i / 4) + 2 * (threadIdx.x % 4) + i % 2; }

__global__ void __launch_bounds__(128) attention(const __grid_constant__ CUtensorMap qm,
                                                 const __grid_constant__ CUtensorMap km,
                                                 const __grid_constant__ CUtensorMap vm, float *out) {
    __shared__ alignas(1024) __half q[BM * D], k[BN * D], v[BN * D];
    __shared__ alignas(8) uint64_t bars[2];
    int head = blockIdx.y, q0 = head * L + blockIdx.x * BM;
    uint32_t qbar = smem(&bars[0]), kvbar = smem(&bars[1]);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n mbarrier.init.shared::cta.b64 [%1], 1;\n"
                     "fence.proxy.async.shared::cta;" ::"r"(qbar),
                     "r"(kvbar));
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(qbar), "r"(BM * D * 2));
        load(qm, q, q0, qbar);
    }
    __syncthreads();
    wait(qbar, 0);
    float o[32], m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};
    for (float &x : o) x = 0;
    const float scale = 0.125f * 1.4426950408889634f; // 1/sqrt(D), in base 2
    for (int j = 0; j < L / BN; j++) {
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(kvbar), "r"(2 * BN * D * 2));
            load(km, k, head * L + j * BN, kvbar);
            load(vm, v, head * L + j * BN, kvbar);
        }
        wait(kvbar, j & 1);
        // S = Q K^T over D = 64: four k-steps of 16 (32 bytes along the swizzled rows).
        float s[32];
        fence();
        for (int kk = 0; kk < 4; kk++) qk(s, desc_k(smem(q)) + 2 * kk, desc_k(smem(k)) + 2 * kk, kk);
        commit_wait();
        // Online softmax: this thread holds two rows (h = 0, 1), 16 columns of each;
        // its quad (4 lanes) holds the rest of the rows' 64.
        float alpha[2];
        for (int h = 0; h < 2; h++) {
            float mx = m[h];
            for (int i = 0; i < 32; i++)
                if (i / 2 % 2 == h) mx = fmaxf(mx, s[i] * scale);
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, 2));
            alpha[h] = exp2f(m[h] - mx);
            m[h] = mx;
            l[h] *= alpha[h];
        }
        for (int i = 0; i < 32; i++) {
            int h = i / 2 % 2;
            s[i] = exp2f(s[i] * scale - m[h]);
            l[h] += s[i];
            o[i] *= alpha[h];
        }
        // P as the A fragments of four k-steps of 16 keys: D registers 8 kk .. 8 kk + 7
        // are A elements 0..7 of step kk, two to a register. They are written before
        // the fence, as the accumulators' rescaling is (PTX ISA 9.7.15.5.1).
        uint32_t p[4][4];
        for (int kk = 0; kk < 4; kk++)
            for (int r = 0; r < 4; r++) {
                __half2 h2 = __floats2half2_rn(s[8 * kk + 2 * r], s[8 * kk + 2 * r + 1]);
                p[kk][r] = *reinterpret_cast<uint32_t *>(&h2);
            }
        fence();
        // V rows kk*16.. of 128 bytes each: 2048 bytes a step; groups of 8 keys 1024
        // bytes apart (SBO).
        for (int kk = 0; kk < 4; kk++) pv(o, p[kk], desc_k(smem(v) + 2048 * kk));
        commit_wait();
        __syncthreads();
    }
    for (int h = 0; h < 2; h++) {
        l[h] += __shfl_xor_sync(0xffffffff, l[h], 1);
        l[h] += __shfl_xor_sync(0xffffffff, l[h], 2);
    }
    for (int i = 0; i < 32; i++) out[size_t(q0 + row_of(i)) * D + col_of(i)] = o[i] / l[i / 2 % 2];
}

int main(int argc, char **argv) {
    size_t n = size_t(HEADS) * L * D;
    std::vector<__half> q(n), k(n), v(n);
    std::vector<float> qf(n), kf(n), vf(n);
    unsigned state = 2024;
    auto rnd = [&]() {
        state = state * 1664525u + 1013904223u;
        return int((state >> 9) % 33) - 16;
    };
    for (size_t i = 0; i < n; i++) {
        q[i] = __float2half(rnd() / 8.0f), k[i] = __float2half(rnd() / 8.0f), v[i] = __float2half(rnd() / 16.0f);
        qf[i] = __half2float(q[i]), kf[i] = __half2float(k[i]), vf[i] = __half2float(v[i]);
    }
    __half *dq, *dk, *dv;
    float *dout;
    CHECK(cudaMalloc(&dq, n * 2));
    CHECK(cudaMalloc(&dk, n * 2));
    CHECK(cudaMalloc(&dv, n * 2));
    CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMemcpy(dq, q.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dk, k.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, v.data(), n * 2, cudaMemcpyHostToDevice));

    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    CUtensorMap maps[3];
    __half *tensors[3] = {dq, dk, dv};
    cuuint64_t dims[2] = {D, cuuint64_t(HEADS) * L}, strides[1] = {D * 2};
    cuuint32_t box[2] = {D, BM}, ones[2] = {1, 1};
    for (int t = 0; t < 3; t++)
        EXPECT(encode(&maps[t], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensors[t], dims, strides, box, ones,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
    attention<<<dim3(L / BM, HEADS), 128>>>(maps[0], maps[1], maps[2], dout);
    CHECK(cudaGetLastError());
    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), dout, n * 4, cudaMemcpyDeviceToHost));

    // softmax(Q K^T / sqrt(D)) V in double on the same f16 inputs. P is rounded to
    // f16 on the way into the second product (2^-11 relative), and |V| <= 1: the
    // bound, 1e-3 absolute, leaves room for that and exp2f's ulps.
    int bad = 0;
    double worst = 0;
    for (int h = 0; h < HEADS; h++)
        for (int i = 0; i < L; i++) {
            std::vector<double> s(L);
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < L; j++) {
                double dot = 0;
                for (int d = 0; d < D; d++) dot += qf[(size_t(h) * L + i) * D + d] * kf[(size_t(h) * L + j) * D + d];
                s[j] = dot / 8.0;
                mx = fmax(mx, s[j]);
            }
            for (int j = 0; j < L; j++) sum += s[j] = exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double want = 0;
                for (int j = 0; j < L; j++) want += s[j] / sum * vf[(size_t(h) * L + j) * D + d];
                double err = fabs(got[(size_t(h) * L + i) * D + d] - want);
                worst = fmax(worst, err);
                if (err > 1e-3 && bad++ < 5)
                    printf("head %d row %d col %d: %f, want %f\n", h, i, d, got[(size_t(h) * L + i) * D + d], want);
            }
        }
    if (bad) {
        printf("flash_attention: %d wrong (worst %g)\n", bad, worst);
        return 1;
    }
    fprintf(stderr, "flash_attention: worst absolute error %.3g\n", worst);
    // For numpy (runtime/tests/programs/flash_attention_check.py): the sizes, then Q,
    // K and V (f16) and the output (f32), raw.
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        EXPECT(f != nullptr);
        int sizes[3] = {HEADS, L, D};
        fwrite(sizes, sizeof sizes, 1, f);
        fwrite(q.data(), 2, n, f);
        fwrite(k.data(), 2, n, f);
        fwrite(v.data(), 2, n, f);
        fwrite(got.data(), 4, n, f);
        fclose(f);
    }
    printf("flash_attention: ok\n");
    return 0;
}
