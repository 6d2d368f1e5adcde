// Independent thread scheduling (sm_70+): lanes with a negative input write -1 and
// return; the others call __shfl_sync and __ballot_sync with the full mask from two
// divergent arms. Exited lanes are in the mask but no longer take part (their ballot bits
// are 0); each lane shuffles from the next lane up (cyclically) that did not return.
// out[2g] = shuffled value, out[2g+1] = ballot (xor 0xf0f0f0f0 in the even arm).
#define FULL 0xffffffffu
extern "C" __global__ void shfl_ballot_after_return(const int* in, int* out) {
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, lane = t & 31;
    int wb = blockIdx.x * blockDim.x + (t & ~31);
    int x = in[g];
    if (x < 0) {
        out[2 * g] = -1;
        out[2 * g + 1] = -1;
        return;
    }
    int src = lane;
    for (int d = 1; d < 32; d++) {
        int l = (lane + d) & 31;
        if (in[wb + l] >= 0) { src = l; break; }
    }
    unsigned b;
    int v;
    if (x & 1) {
        v = __shfl_sync(FULL, x * 3, src);
        b = __ballot_sync(FULL, x > 500);
    } else {
        v = __shfl_sync(FULL, x + 1000, src);
        b = __ballot_sync(FULL, x < 200) ^ 0xf0f0f0f0u;
    }
    out[2 * g] = v;
    out[2 * g + 1] = (int)b;
}
