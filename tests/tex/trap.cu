// What a GPU reports for a surface store out of bounds with .trap: the error after
// the kernel, and that the context keeps it (trap.txt).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void store(cudaSurfaceObject_t s, int x) { surf2Dwrite(1.0f, s, x, 0, cudaBoundaryModeTrap); }

int main() {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    cudaMallocArray(&a, &f, 4, 4, cudaArraySurfaceLoadStore);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    cudaCreateSurfaceObject(&s, &r);
    store<<<1, 1>>>(s, 12);
    printf("in bounds: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    store<<<1, 1>>>(s, 16);
    printf("out of bounds .trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    store<<<1, 1>>>(s, 2);
    printf("after: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
