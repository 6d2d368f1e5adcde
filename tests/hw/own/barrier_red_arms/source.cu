// Independent thread scheduling (sm_70+): `barrier.red.popc.u32` and `barrier.red.or.pred`
// (not .aligned, inline asm) from both sides of a data-dependent branch, after an early
// return of threads t >= lim[ctaid]; then a converged `barrier.red.and.pred`.
// 2 CTAs of 96 threads. Exited threads do not count.
__device__ __forceinline__ unsigned red_popc(int p) {
    unsigned r;
    asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; barrier.red.popc.u32 %0, 0, q; }"
                 : "=r"(r) : "r"(p) : "memory");
    return r;
}
__device__ __forceinline__ int red_or(int p) {
    int r;
    asm volatile("{ .reg .pred q, o; setp.ne.s32 q, %1, 0; barrier.red.or.pred o, 0, q; selp.s32 %0, 1, 0, o; }"
                 : "=r"(r) : "r"(p) : "memory");
    return r;
}
__device__ __forceinline__ int red_and(int p) {
    int r;
    asm volatile("{ .reg .pred q, o; setp.ne.s32 q, %1, 0; barrier.red.and.pred o, 0, q; selp.s32 %0, 1, 0, o; }"
                 : "=r"(r) : "r"(p) : "memory");
    return r;
}
extern "C" __global__ void barrier_red_arms(const int* in, const int* lim, int* out) {
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (t >= lim[blockIdx.x]) return;
    int x = in[g], c, o;
    if (x & 1) {
        c = (int)red_popc(x > 0);
        o = red_or(x == 9);
    } else {
        c = (int)red_popc(x % 3 == 0) + 1000;
        o = red_or(x == -4) * 2;
    }
    int a = red_and(x > -8);
    out[g] = c * 16 + o * 4 + a;
}
