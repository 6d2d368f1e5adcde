// Hand-written inline PTX: special registers, a brx.idx jump table, predicates, vote, prmt.

__device__ __forceinline__ unsigned laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long clock64_asm() { unsigned long long r; asm volatile("mov.u64 %0, %%clock64;" : "=l"(r)); return r; }
__device__ __forceinline__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }

// Compilers do not emit brx.idx for switches; this is what a hand-written jump table looks like.
__device__ __noinline__ int jump_table(int sel, int x)
{
    int r;
    asm volatile(
        "{\n\t"
        ".reg .pred p;\n\t"
        ".reg .u32 idx;\n\t"
        "and.b32 idx, %1, 3;\n\t"
        "jt_targets: .branchtargets JT_L0, JT_L1, JT_L2, JT_L3;\n\t"
        "brx.idx idx, jt_targets;\n"
        "JT_L0:\n\t"
        "add.s32 %0, %2, 1;\n\t"
        "bra.uni JT_END;\n"
        "JT_L1:\n\t"
        "mul.lo.s32 %0, %2, 3;\n\t"
        "bra.uni JT_END;\n"
        "JT_L2:\n\t"
        "neg.s32 %0, %2;\n\t"
        "bra.uni JT_END;\n"
        "JT_L3:\n\t"
        "setp.lt.s32 p, %2, 0;\n\t"
        "selp.s32 %0, 0, %2, p;\n"
        "JT_END:\n\t"
        "}"
        : "=r"(r)
        : "r"(sel), "r"(x));
    return r;
}

__device__ __forceinline__ float fma_rz_asm(float a, float b, float c)
{
    float d;
    asm("fma.rz.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
    return d;
}

__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned sel)
{
    unsigned d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
    return d;
}

__device__ __forceinline__ int min3_asm(int a, int b, int c)
{
    int d;
    asm("{\n\t.reg .s32 t;\n\tmin.s32 t, %1, %2;\n\tmin.s32 %0, t, %3;\n\t}" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ __forceinline__ bool pred_vote_any(bool p)
{
    int r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.any.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}"
                 : "=r"(r) : "r"((int)p));
    return r != 0;
}

__global__ void asm_kernel(const int *sel, const int *x, int *out, unsigned *ids, unsigned long long *clk, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long t0 = clock64_asm();
    if (i >= n) return;
    out[i] = jump_table(sel[i], x[i]) + min3_asm(x[i], sel[i], i);
    ids[i] = (smid() << 16) | (laneid() << 8) | __popc(lanemask_lt());
    f[i] = fma_rz_asm((float)x[i], 0.5f, 1.0f) + (pred_vote_any(x[i] < 0) ? 1.0f : 0.0f);
    ids[i] ^= prmt((unsigned)x[i], (unsigned)sel[i], 0x1032u);
    clk[i] = clock64_asm() - t0;
}

// Memory ops through inline asm: ld.global.nc, st.global.cs, atom.global.add, red.
__global__ void asm_memory(const float *in, float *out, int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
    asm volatile("st.global.cs.f32 [%0], %1;" :: "l"(out + i), "f"(v * 2.0f) : "memory");
    int old;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter) : "memory");
    asm volatile("red.global.max.s32 [%0], %1;" :: "l"(counter + 1), "r"(old) : "memory");
}
