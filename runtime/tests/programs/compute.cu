// Kernels as CUDA courses write them, each checked against the host's answer:
// a tiled matrix multiply in shared memory, a sum with warp shuffles, and a
// cooperative kernel whose CTAs meet at grid.sync(). Prints "compute: ok".
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "check.cuh"
namespace cg = cooperative_groups;

const int TILE = 16;

// C = A * B for n x n row-major matrices, n a multiple of TILE.
__global__ void matmul(const float *a, const float *b, float *c, int n) {
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

// One partial sum per CTA: shuffles within each warp, then warp 0 over the warps.
__global__ void reduce(const int *in, long long *partial, int n) {
    __shared__ long long warps[32];
    long long v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffff, v, d);
    if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0;
        for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}

// Each CTA writes its id, the grid meets, and each CTA then reads its neighbour's.
__global__ void neighbours(int *ids, int *seen) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) ids[blockIdx.x] = blockIdx.x * 10;
    grid.sync();
    if (threadIdx.x == 0) seen[blockIdx.x] = ids[(blockIdx.x + 1) % gridDim.x];
}

int main() {
    // Matrix multiply: small integers, so every sum is exact in float.
    const int n = 64;
    float *a, *b, *c;
    CHECK(cudaMallocManaged(&a, n * n * sizeof(float)));
    CHECK(cudaMallocManaged(&b, n * n * sizeof(float)));
    CHECK(cudaMallocManaged(&c, n * n * sizeof(float)));
    for (int i = 0; i < n * n; i++) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2);
    }
    matmul<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(a, b, c, n);
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < n; r++)
        for (int k = 0; k < n; k++) {
            float want = 0.0f;
            for (int j = 0; j < n; j++) want += a[r * n + j] * b[j * n + k];
            EXPECT(c[r * n + k] == want);
        }

    // Reduction of a million ints over 64 CTAs of 256 threads.
    const int m = 1 << 20, ctas = 64;
    int *in;
    long long *partial;
    CHECK(cudaMallocManaged(&in, m * sizeof(int)));
    CHECK(cudaMallocManaged(&partial, ctas * sizeof(long long)));
    long long want = 0;
    for (int i = 0; i < m; i++) {
        in[i] = (int)((i * 2654435761u) % 2001) - 1000;
        want += in[i];
    }
    reduce<<<ctas, 256>>>(in, partial, m);
    CHECK(cudaDeviceSynchronize());
    long long got = 0;
    for (int i = 0; i < ctas; i++) got += partial[i];
    EXPECT(got == want);

    // A cooperative launch of as many CTAs as can be resident, meeting at grid.sync().
    int per_sm = 0, sms = 0, coop = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, neighbours, 128, 0));
    EXPECT(coop == 1 && per_sm >= 1);
    int grid = per_sm * sms < 256 ? per_sm * sms : 256;
    int *ids, *seen;
    CHECK(cudaMalloc(&ids, grid * sizeof(int)));
    CHECK(cudaMallocManaged(&seen, grid * sizeof(int)));
    void *args[] = {&ids, &seen};
    CHECK(cudaLaunchCooperativeKernel((void *)neighbours, grid, 128, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < grid; i++) EXPECT(seen[i] == ((i + 1) % grid) * 10);
    // Too many CTAs to be resident together: refused, as CUDA refuses it.
    EXPECT(cudaLaunchCooperativeKernel((void *)neighbours, per_sm * sms + 1, 128, args, 0, 0) ==
           cudaErrorCooperativeLaunchTooLarge);
    EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);

    printf("compute: ok\n");
    return 0;
}
