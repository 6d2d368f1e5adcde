// sm_90 instructions CUDA C++ reaches through inline PTX, as CUTLASS writes it.
//
// stmatrix (PTX ISA 9.7.14.5.16): every lane holds, for matrix m, the 16-bit values
// 0x1000 m + 2 lane and that + 1 in register m; lane 8 m + r gives the address of row
// 7 - r of matrix m in a tile of rows 32 bytes apart (rows in reverse order, padded), so
// each lane's address matters. The tile starts as 0xffff, and comes out whole: `out`
// gets the 4 x 8 x 16 halves, then each lane's registers read back by ldmatrix with
// the same shape and addresses (4 per lane).

#include <cstdint>

template <int N, bool TRANS>
__device__ void store_matrices(uint32_t addr, const uint32_t *r) {
    if constexpr (N == 1 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0]));
    if constexpr (N == 1 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(addr), "r"(r[0]));
    if constexpr (N == 2 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r[0]), "r"(r[1]));
    if constexpr (N == 2 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r[0]),
                     "r"(r[1]));
    if constexpr (N == 4 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r[0]),
                     "r"(r[1]), "r"(r[2]), "r"(r[3]));
    if constexpr (N == 4 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr),
                     "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
}

template <int N, bool TRANS>
__device__ void load_matrices(uint32_t addr, uint32_t *r) {
    if constexpr (N == 1 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    if constexpr (N == 1 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
    if constexpr (N == 2 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
    if constexpr (N == 2 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(addr));
    if constexpr (N == 4 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    if constexpr (N == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
}

template <int N, bool TRANS>
__device__ void stmatrix_case(uint16_t *out) {
    __shared__ __align__(16) uint16_t tile[4][8][16];
    uint16_t *flat = &tile[0][0][0];
    int lane = threadIdx.x;
    for (int i = lane; i < 4 * 8 * 16; i += 32) flat[i] = 0xffff;
    __syncwarp();
    uint32_t r[4];
    for (int m = 0; m < 4; m++) r[m] = (0x1000 * m + 2 * lane) | (0x1000 * m + 2 * lane + 1) << 16;
    // Lanes past the matrices give addresses too; stmatrix reads only the first 8 N.
    int m = lane / 8 % N, row = lane % 8;
    uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[m][7 - row][0]));
    store_matrices<N, TRANS>(addr, r);
    __syncwarp();
    for (int i = lane; i < 4 * 8 * 16; i += 32) out[i] = flat[i];
    uint32_t back[4] = {0, 0, 0, 0};
    load_matrices<N, TRANS>(addr, back);
    uint32_t *regs = reinterpret_cast<uint32_t *>(out + 4 * 8 * 16);
    for (int k = 0; k < 4; k++) regs[4 * lane + k] = back[k];
}

extern "C" __global__ void stmatrix_x1(uint16_t *out) { stmatrix_case<1, false>(out); }
extern "C" __global__ void stmatrix_x1_trans(uint16_t *out) { stmatrix_case<1, true>(out); }
extern "C" __global__ void stmatrix_x2(uint16_t *out) { stmatrix_case<2, false>(out); }
extern "C" __global__ void stmatrix_x2_trans(uint16_t *out) { stmatrix_case<2, true>(out); }
extern "C" __global__ void stmatrix_x4(uint16_t *out) { stmatrix_case<4, false>(out); }
extern "C" __global__ void stmatrix_x4_trans(uint16_t *out) { stmatrix_case<4, true>(out); }

// setmaxnreg (PTX ISA 9.7.19.5), as a warp-specialised kernel gives registers from its
// producer warpgroup to its consumers: a hint with no effect on results.
extern "C" __global__ void __launch_bounds__(256) setmaxnreg_split(int *out) {
    if (threadIdx.x < 128) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        out[threadIdx.x] = 1;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        out[threadIdx.x] = 2;
    }
}

// mma.sync m16n8k16 with f16 accumulators (PTX ISA 9.7.14.5.8), which Triton emits
// (ptxas wants D and C of one type): each lane's fragment registers come in as they
// are (a: 4 per lane, b: 2, c: 2) and D's go out (2), so the test holds the ISA's
// fragment layout, not the kernel.
extern "C" __global__ void mma_f16_f16(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d) {
    int lane = threadIdx.x;
    uint32_t ra[4], rb[2], rc[2], rd[2];
    for (int i = 0; i < 4; i++) ra[i] = a[4 * lane + i];
    for (int i = 0; i < 2; i++) rb[i] = b[2 * lane + i];
    for (int i = 0; i < 2; i++) rc[i] = c[2 * lane + i];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(rd[0]), "=r"(rd[1])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]));
    for (int i = 0; i < 2; i++) d[2 * lane + i] = rd[i];
}

// A __grid_constant__ struct read through its address, as CUTLASS reads its Params
// and as TMA reads a CUtensorMap: `mov` of the parameter, `ld.param` through the
// register, and `isspacep.param` of its generic address (`__isGridConstant`).
struct Params {
    int n;
    float scale;
    float bias[6];
};
__device__ float pick(const Params *p, int i) { return p->bias[i % 6] * p->scale; }
extern "C" __global__ void grid_constant(const __grid_constant__ Params p, float *out) {
    int i = threadIdx.x;
    const Params *q = &p;
    if (i < q->n) out[i] = pick(q, i) + (__isGridConstant(q) ? 100.0f : 0.0f);
}
