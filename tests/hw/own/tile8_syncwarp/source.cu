// Independent thread scheduling (sm_70+): cooperative-groups-style tiles of 8 lanes.
// Each tile picks its own path from its first lane's input (uniform in the tile) and
// synchronises with __syncwarp(its own 8-lane mask) a different number of times per path:
// a rotate-and-reverse exchange (3 syncs), a single exchange (1 sync), or a prefix sum
// through shared memory (6 syncs, with a lane-dependent add between them).
extern "C" __global__ void tile8_syncwarp(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int lane = t & 31, r = lane & 7, tb = t & ~7;
    unsigned m = 0xffu << (lane & ~7);
    int x = in[g];
    int sel = in[blockIdx.x * blockDim.x + tb] & 3;
    int v;
    if (sel == 0) {
        s[t] = x * 3;
        __syncwarp(m);
        v = s[tb + ((r + 1) & 7)];
        __syncwarp(m);
        s[t] = v + r;
        __syncwarp(m);
        v = s[tb + 7 - r] * 2;
    } else if (sel == 1) {
        s[t] = x - 11;
        __syncwarp(m);
        v = s[tb + (r ^ 3)];
    } else {
        int acc = x;
        for (int k = 1; k < 8; k <<= 1) {
            s[t] = acc;
            __syncwarp(m);
            if (r >= k) acc += s[t - k];
            __syncwarp(m);
        }
        v = acc;
    }
    out[g] = v * 10 + sel;
}
