// Independent thread scheduling (sm_70+): tiles of 16 lanes, split inside the tile by a
// data-dependent branch; both sides call __syncwarp(the tile's mask) three times at
// different instructions and exchange through shared memory across the split.
extern "C" __global__ void tile16_split_syncwarp(const int* in, int* out) {
    __shared__ int s[96];
    int t = threadIdx.x, lane = t & 31, tb = t & ~15, r = t & 15;
    unsigned m = 0xffffu << (lane & 16);
    int x = in[t], v;
    if (x & 1) {
        s[t] = x * 7;
        __syncwarp(m);
        v = s[tb + 15 - r];
        __syncwarp(m);
        s[t] = v + 1;
        __syncwarp(m);
        v += s[tb + ((r + 5) & 15)];
    } else {
        s[t] = x * -3;
        __syncwarp(m);
        int w = s[tb + ((r + 1) & 15)];
        __syncwarp(m);
        s[t] = w - 2;
        __syncwarp(m);
        v = w * s[tb + (r ^ 8)];
    }
    out[t] = v;
}
