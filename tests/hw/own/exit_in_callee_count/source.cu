// Independent thread scheduling (sm_70+): a __noinline__ function that ends the thread
// with `exit` (inline asm) when its input is negative; the survivors store to shared
// memory and meet at __syncthreads_count (bar.red.popc). 2 CTAs of 96 threads.
__device__ __noinline__ void quit_if(int x, int* out, int g) {
    if (x < 0) {
        out[g] = x;
        asm volatile("exit;" ::: "memory");
    }
}
extern "C" __global__ void exit_in_callee_count(const int* in, int* out) {
    __shared__ int s[96];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x, g = base + t, x = in[g];
    quit_if(x, out, g);
    s[t] = x * 2;
    int c = __syncthreads_count(x > 500);
    int p = (t + 17) % 96;
    int v = in[base + p] < 0 ? -5 : s[p];
    out[g] = c * 10000 + v;
}
