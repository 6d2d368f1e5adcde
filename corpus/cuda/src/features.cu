// Real-world CUDA features whose PTX ptxvm must accept (issue 8): managed memory,
// texture and surface objects, printf, assert, pointer tables, warpSize.
#include <cstdio>
#include <cassert>

__device__ __managed__ int managed_counter;
__device__ int values[4] = {1, 2, 3, 4};
__device__ int *value_ptrs[2] = {&values[0], &values[2]};
struct Entry { int key; const int *data; };
__device__ Entry entries[2] = {{7, &values[1]}, {9, &values[3]}};
__device__ const char *names[2] = {"alpha", "beta"};

__global__ void tex_sample(cudaTextureObject_t t, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, i + 0.5f, 0.5f);
        out[i] = v.x + v.y + tex1Dfetch<float>(t, i);
    }
}

__global__ void surf_copy(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w) {
        float4 v = surf2Dread<float4>(in, x * sizeof(float4), 0);
        surf2Dwrite(v, out, x * sizeof(float4), 0);
    }
}

__global__ void report(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n + 1024);
    if (i == 0) {
        printf("n = %d, warp size %d, %s\n", n, warpSize, names[n & 1]);
        atomicAdd(&managed_counter, 1);
    }
    if (i < n) out[i] = *value_ptrs[i & 1] + entries[i & 1].key + *entries[i & 1].data + (i % warpSize);
}
