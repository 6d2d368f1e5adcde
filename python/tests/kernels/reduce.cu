// Integer sums with a tree reduction in shared memory, for python/tests/test_ptxvm.py.
// PTX: nvcc -ptx -arch=sm_90 -O3 reduce.cu -o reduce.ptx (nvcc 13, from this folder)
//
// Each CTA sums blockDim.x elements of `in` (zeros past n) in shared memory, writes
// its sum to partial[blockIdx.x] and adds it to *total. `block_sum` uses a static
// buffer of 256 ints (blockDim.x <= 256, a power of two); `block_sum_dynamic` the
// dynamic shared memory of the launch (blockDim.x ints).

template <typename Buf>
__device__ void tree(Buf buf, const int *in, int *partial, int *total, unsigned n) {
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = buf[0];
        atomicAdd(total, buf[0]);
    }
}

extern "C" __global__ void block_sum(const int *in, int *partial, int *total, unsigned n) {
    __shared__ int buf[256];
    tree(buf, in, partial, total, n);
}

extern "C" __global__ void block_sum_dynamic(const int *in, int *partial, int *total, unsigned n) {
    extern __shared__ int dyn[];
    tree(dyn, in, partial, total, n);
}
