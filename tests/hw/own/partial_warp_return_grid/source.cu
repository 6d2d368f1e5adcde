// Independent thread scheduling (sm_70+): an early return before __syncthreads() in
// blocks of 80 threads (the third warp has 16 lanes), 3 CTAs, each CTA cutting at its
// own lim[ctaid] so the cut falls inside a different warp. Exited threads stop counting
// at the barrier; the survivors exchange through shared memory over three barriers.
extern "C" __global__ void partial_warp_return_grid(const int* in, const int* lim, int* out) {
    __shared__ int s[80];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int L = lim[blockIdx.x];
    if (t >= L) return;
    s[t] = in[g] * 5 - t;
    __syncthreads();
    int a = s[(t * 7 + 3) % L];
    __syncthreads();
    s[t] = a ^ in[g];
    __syncthreads();
    out[g] = s[L - 1 - t] + a;
}
