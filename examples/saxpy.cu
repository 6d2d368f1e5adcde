// y[i] = a * x[i] + y[i] for i < n: predicated bounds check and a branch.
// PTX: nvcc -ptx -arch=sm_90 -O3 examples/saxpy.cu -o examples/saxpy.ptx
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
