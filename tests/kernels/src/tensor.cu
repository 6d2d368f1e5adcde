// A 16x8x16 mma.sync GEMM tile fed by ldmatrix from shared memory, and a cp.async
// double-buffered copy: the tensor-core and asynchronous-copy paths as hand-written
// CUDA uses them (inline PTX, as CUTLASS does).

#include <stdint.h>

// D (16x8, f32) = A (16x16, f16, row-major) * B (16x8, f16, column-major, i.e. B^T
// row-major as 8x16) + C, one warp per tile; tile `blockIdx.x` of each array.
extern "C" __global__ void mma_tile(const unsigned short *a, const unsigned short *b, const float *c, float *d) {
    __shared__ __align__(16) unsigned short sa[16 * 16];
    __shared__ __align__(16) unsigned short sb[8 * 16];
    int lane = threadIdx.x;
    a += blockIdx.x * 256;
    b += blockIdx.x * 128;
    c += blockIdx.x * 128;
    d += blockIdx.x * 128;
    for (int i = lane; i < 256; i += 32) sa[i] = a[i];
    for (int i = lane; i < 128; i += 32) sb[i] = b[i];
    __syncwarp();
    uint32_t ra[4], rb[2];
    // A: four 8x8 matrices; lane l gives row (l % 16) at column block (l / 16) * 8.
    uint32_t pa = (uint32_t)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3]) : "r"(pa));
    // B^T rows: two 8x8 matrices; lanes 0-7 give rows at k 0-7, lanes 8-15 at k 8-15.
    uint32_t pb = (uint32_t)__cvta_generic_to_shared(&sb[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(rb[0]), "=r"(rb[1]) : "r"(pb));
    int g = lane / 4, t = lane % 4;
    float acc[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], c[(g + 8) * 8 + 2 * t], c[(g + 8) * 8 + 2 * t + 1]};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    d[g * 8 + 2 * t] = acc[0];
    d[g * 8 + 2 * t + 1] = acc[1];
    d[(g + 8) * 8 + 2 * t] = acc[2];
    d[(g + 8) * 8 + 2 * t + 1] = acc[3];
}

// out[i] = in[i] * 2 + (the previous chunk's element at the same place), in chunks of
// blockDim.x * 4 floats, loaded with cp.async into two alternating shared buffers.
extern "C" __global__ void double_buffer(const float *in, float *out, int chunks) {
    extern __shared__ __align__(16) float buf[];  // 2 * blockDim.x * 4 floats
    int t = threadIdx.x, per = blockDim.x * 4;
    auto load = [&](int chunk, int stage) {
        uint32_t dst = (uint32_t)__cvta_generic_to_shared(&buf[stage * per + 4 * t]);
        const float *src = in + chunk * per + 4 * t;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src));
        asm volatile("cp.async.commit_group;");
    };
    load(0, 0);
    for (int c = 0; c < chunks; c++) {
        if (c + 1 < chunks) {
            load(c + 1, (c + 1) % 2);
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_group 0;");
        }
        __syncthreads();
        const float *cur = &buf[(c % 2) * per];
        for (int j = 0; j < 4; j++) {
            float prev = c > 0 ? in[(c - 1) * per + 4 * t + j] : 0.0f;
            out[c * per + 4 * t + j] = cur[4 * t + j] * 2.0f + prev;
        }
        __syncthreads();
    }
}
