// Start-up: a program whose module is bench/big/big.cu's (NKERN instantiations of
// each shape: -DNKERN=16 makes about 0.8 MB of PTX, the default 256 about 13 MB),
// which launches one of its kernels once. bench.py times it under `ptxvm exec`.
#include <cstdio>
#include "../big/big.cu"

int main() {
    unsigned *keys, *out;
    cudaMallocManaged(&keys, 256 * sizeof(unsigned));
    cudaMallocManaged(&out, 256 * sizeof(unsigned));
    for (int i = 0; i < 256; i++) keys[i] = i;
    shape_hash<0><<<1, 256>>>(keys, out, 256);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorName(e));
        return 1;
    }
    return 0;
}
