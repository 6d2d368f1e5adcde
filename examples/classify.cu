// Classifies floats with ordered/unordered comparisons: NaN, negative, zero, positive.
// PTX: nvcc -ptx -arch=sm_90 -O3 examples/classify.cu -o examples/classify.ptx
extern "C" __global__ void classify(const float *x, int *kind, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    int k;
    if (v != v) k = 3;
    else if (v < 0.0f) k = 0;
    else if (v == 0.0f) k = 1;
    else k = 2;
    kind[i] = k;
}
