// Shared-memory tree reduction: each CTA of 256 threads sums its 256 elements of `in`
// (zero past n) into out[blockIdx.x], halving the active threads each step with a
// __syncthreads() (bar.sync 0) between steps. Launch with blockDim.x == 256.
// PTX: see bench/kernels/README.md for the nvcc command.
extern "C" __global__ void reduce256(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 256u + t;
    s[t] = i < n ? in[i] : 0u;
    __syncthreads();
#pragma unroll 1
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
