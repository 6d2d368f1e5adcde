// A shift through shared memory. Without the __syncthreads() between the write
// and the read (argv[1] == "racy"), a thread reads a neighbour's slot that
// another warp may not have written yet: racecheck and initcheck report it.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void shift(const int *in, int *out, bool sync) {
    __shared__ int s[256];
    s[threadIdx.x] = in[threadIdx.x];
    if (sync) __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

int main(int argc, char **argv) {
    bool sync = !(argc > 1 && strcmp(argv[1], "racy") == 0);
    int *in, *out;
    cudaMallocManaged(&in, 256 * sizeof(int));
    cudaMallocManaged(&out, 256 * sizeof(int));
    for (int i = 0; i < 256; i++) in[i] = i * 3;
    shift<<<1, 256>>>(in, out, sync);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    int wrong = 0;
    for (int i = 0; i < 256; i++) wrong += out[i] != ((i + 1) % 256) * 3;
    printf("%d wrong\n", wrong);
    return 0;
}
