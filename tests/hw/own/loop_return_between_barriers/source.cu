// Independent thread scheduling (sm_70+): a loop with two __syncthreads() per iteration
// where threads return between the two barriers at a lane-dependent iteration; the stop
// rule differs by CTA (CTA 0 from the input, CTA 1 from the thread index, CTA 2 never).
// 3 CTAs of 80 threads. A returned thread's shared slot keeps its last value, written
// before a barrier it took part in.
extern "C" __global__ void loop_return_between_barriers(const int* in, int* out) {
    __shared__ int s[80];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t, x = in[g];
    int stop = blockIdx.x == 0 ? (x & 7) : blockIdx.x == 1 ? (t * 3) % 9 : 100;
    int acc = x;
    for (int i = 0; i < 6; i++) {
        s[t] = acc + i;
        __syncthreads();
        acc = acc * 3 + s[(t + 1 + 2 * i) % 80];
        if (i == stop) {
            out[g] = acc - 1000000;
            return;
        }
        __syncthreads();
    }
    out[g] = acc;
}
