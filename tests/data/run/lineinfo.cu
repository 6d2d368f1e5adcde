// A 4-byte read past the end of x, in a function the kernel calls: the fault names
// the buffer, this file's line of the read, and the call's line.
//   nvcc -ptx -arch=sm_90 -O3 -lineinfo tests/data/run/lineinfo.cu -o tests/data/run/lineinfo.ptx
// (then its .file made relative to the repository)
__device__ __noinline__ float load(const float *p, int i) {
    return p[i];
}

extern "C" __global__ void scale(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * load(x, i + 1);
    }
}
