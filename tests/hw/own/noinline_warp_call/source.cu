// Independent thread scheduling (sm_70+): __noinline__ device functions holding a
// __syncwarp() (with a shared-memory pair swap) and a full-mask __shfl_sync, called from
// both arms of a divergent branch with different arguments (the PTX has `call`). Both
// arms call swap_pair then rotate, so the warp-synchronous operations pair up in order.
#define FULL 0xffffffffu
__device__ __noinline__ int swap_pair(int* s, int t, int v) {
    s[t] = v;
    __syncwarp();
    int r = s[t ^ 1];
    __syncwarp();
    return r;
}
__device__ __noinline__ int rotate(int v, int k) {
    return __shfl_sync(FULL, v, (threadIdx.x + k) & 31);
}
extern "C" __global__ void noinline_warp_call(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x, x = in[t], a, b;
    if (x % 4 == 1) {
        a = swap_pair(s, t, x * 2);
        b = rotate(a + 1, 3);
    } else {
        a = swap_pair(s, t, x ^ 0x55) - 7;
        b = rotate(x - 5, 29) * 2;
    }
    out[2 * t] = a;
    out[2 * t + 1] = b;
}
