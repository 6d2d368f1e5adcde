// Independent thread scheduling (sm_70+): a double-buffered producer/consumer pipeline
// over 6 rounds with named barriers (inline asm): warps 0-1 produce, warps 2-3 consume.
// Buffer b is "full" at barrier 1+b (producers bar.arrive, consumers bar.sync) and
// "empty" at barrier 3+b (consumers bar.arrive, producers bar.sync before reusing it).
// Every barrier expects 128 threads. 2 CTAs.
extern "C" __global__ void named_barrier_pipeline(const int* in, unsigned* out) {
    __shared__ int buf[2][64];
    const int R = 6;
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (t < 64) {
        unsigned sum = 0;
        for (int r = 0; r < R; r++) {
            int b = r & 1;
            if (r >= 2) asm volatile("bar.sync %0, 128;" :: "r"(3 + b) : "memory");
            int v = in[(blockIdx.x * R + r) * 64 + t] * (r + 1);
            buf[b][t] = v;
            sum += (unsigned)v;
            asm volatile("bar.arrive %0, 128;" :: "r"(1 + b) : "memory");
        }
        out[g] = sum;
    } else {
        int c = t - 64;
        unsigned acc = 0;
        for (int r = 0; r < R; r++) {
            int b = r & 1;
            asm volatile("bar.sync %0, 128;" :: "r"(1 + b) : "memory");
            acc = acc * 3u + (unsigned)buf[b][(c * 5 + r) & 63];
            if (r + 2 < R) asm volatile("bar.arrive %0, 128;" :: "r"(3 + b) : "memory");
        }
        out[g] = acc;
    }
}
