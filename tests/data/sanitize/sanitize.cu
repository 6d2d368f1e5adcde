// Kernels for ptxvm run --sanitize (tests/run.rs):
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo tests/data/sanitize/sanitize.cu -o tests/data/sanitize/sanitize.ptx
// (then its .file made relative to the repository)

// A block sum with the __syncthreads() after the stores missing: thread 0 reads what
// the other threads wrote with no barrier between (read-after-write hazards).
extern "C" __global__ void racy_sum(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    if (t == 0) {
        int sum = 0;
        for (int i = 0; i < blockDim.x; i++) sum += s[i];
        out[blockIdx.x] = sum;
    }
}

// The same sum, correct: a barrier between the stores and the reads.
extern "C" __global__ void block_sum(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int i = 0; i < blockDim.x; i++) sum += s[i];
        out[blockIdx.x] = sum;
    }
}

// A tree reduction, correct: a barrier between every step.
extern "C" __global__ void tree_sum(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Reads one element past what the threads stored: s[blockDim.x] is never written.
extern "C" __global__ void uninit_read(const int *in, int *out) {
    __shared__ int s[129];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t] + s[t + 1];
}
