// Independent thread scheduling (sm_70+): `barrier.sync 0` (not .aligned, inline asm)
// reached from both sides of a data-dependent if/else inside every warp, two barriers
// per side per round, 3 rounds, after an early return of threads t >= lim[ctaid]
// (blocks of 80 threads, 2 CTAs). Exited threads stop counting.
#define BARRIER() asm volatile("barrier.sync 0;" ::: "memory")
extern "C" __global__ void barrier_ifelse_rounds(const int* in, const int* lim, int* out) {
    __shared__ int s[80];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int L = lim[blockIdx.x];
    if (t >= L) return;
    int x = in[g], v = 0;
    for (int r = 0; r < 3; r++) {
        if ((x >> r) & 1) {
            s[t] = x * (r + 2);
            BARRIER();
            v += s[(t + 11 * r + 1) % L];
            BARRIER();
        } else {
            s[t] = r - x;
            BARRIER();
            v -= s[(L - 1 - t + r) % L];
            BARRIER();
        }
    }
    out[g] = v;
}
