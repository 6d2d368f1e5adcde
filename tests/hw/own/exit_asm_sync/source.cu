// Independent thread scheduling (sm_70+): lanes whose input is a multiple of 8 write -1
// and leave with the PTX `exit` instruction (inline asm); the rest of the CTA then meets
// at __syncthreads(). 2 CTAs of 96 threads; in CTA 1 the whole third warp exits. Readers
// only read shared slots of threads that did not exit (decided from the input).
extern "C" __global__ void exit_asm_sync(const int* in, int* out) {
    __shared__ int s[96];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x, g = base + t;
    int x = in[g];
    if ((x & 7) == 0) {
        out[g] = -1;
        asm volatile("exit;" ::: "memory");
    }
    s[t] = x * 3 + (int)blockIdx.x;
    __syncthreads();
    int p = (t + 5) % 96;
    int v = ((in[base + p] & 7) == 0) ? 1000000 : s[p];
    out[g] = v - x;
}
