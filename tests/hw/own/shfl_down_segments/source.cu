// Independent thread scheduling (sm_70+): segmented __shfl_down_sync(FULL, v, d, 8)
// trees in both arms of a divergent branch (odd inputs sum, even inputs offer v+1 and
// take the max), three shuffles per arm; the k-th shuffle of one arm pairs with the k-th of the other,
// so the segments mix sums and maxima.
#define FULL 0xffffffffu
extern "C" __global__ void shfl_down_segments(const int* in, int* out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x, x = in[g], v = x;
    if (x & 1) {
        for (int d = 4; d > 0; d >>= 1) v += __shfl_down_sync(FULL, v, d, 8);
    } else {
        for (int d = 4; d > 0; d >>= 1) v = max(v, __shfl_down_sync(FULL, v + 1, d, 8));
    }
    out[g] = v;
}
