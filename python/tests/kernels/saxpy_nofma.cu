// saxpy without contraction: y[i] = a * x[i] + y[i] rounded twice (mul.rn then
// add.rn), as NumPy computes it in float32, for python/tests/test_ptxvm.py.
// PTX: nvcc -ptx -arch=sm_90 -O3 -fmad=false saxpy_nofma.cu -o saxpy_nofma.ptx
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
