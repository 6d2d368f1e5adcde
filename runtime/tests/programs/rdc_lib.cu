// The second translation unit of rdc_main.cu.
__device__ int calls = 0;

__device__ int scaled(int x) { return 3 * x + 1; }

__global__ void lib_fill(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = scaled(n - i);
        atomicAdd(&calls, 1);
    }
}
