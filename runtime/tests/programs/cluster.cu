// Thread-block clusters through cooperative groups, run unmodified under ptxvm exec:
// a sum that each cluster of 4 CTAs reduces through distributed shared memory
// (__cluster_dims__, cluster.map_shared_rank, cluster.sync), and a swap between the
// two CTAs of clusters launched with cudaLaunchKernelEx's cluster attribute, and a
// cooperative launch in clusters (both attributes) whose clusters reduce through
// distributed shared memory, then meet at grid.sync() to add up every cluster's sum.
// Checked against the CPU.
#include "check.cuh"
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int THREADS = 128, PER_CLUSTER = 4;

// out[c] = the sum of x over cluster c's CTAs' slices (THREADS elements each); rank 0
// adds up the partial sums held in every CTA's shared memory.
__global__ void __cluster_dims__(PER_CLUSTER, 1, 1) cluster_sum(const int *x, int *out) {
    __shared__ int partial;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) partial = 0;
    __syncthreads();
    atomicAdd(&partial, x[blockIdx.x * THREADS + threadIdx.x]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        int total = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); r++) total += *cluster.map_shared_rank(&partial, r);
        out[blockIdx.x / PER_CLUSTER] = total;
    }
    // The other CTAs' shared memory must outlive rank 0's reads.
    cluster.sync();
}

// Clusters of two: each CTA reads its partner's array through distributed shared
// memory, and records its rank and the cluster's shape.
__global__ void pair_swap(const int *in, int *out, unsigned *shape) {
    __shared__ int mine[THREADS];
    cg::cluster_group cluster = cg::this_cluster();
    mine[threadIdx.x] = in[blockIdx.x * THREADS + threadIdx.x];
    cluster.sync();
    unsigned other = cluster.block_rank() ^ 1;
    out[blockIdx.x * THREADS + threadIdx.x] = cluster.map_shared_rank(mine, other)[threadIdx.x];
    if (threadIdx.x == 0) {
        shape[3 * blockIdx.x] = cluster.block_rank();
        shape[3 * blockIdx.x + 1] = cluster.num_blocks();
        shape[3 * blockIdx.x + 2] = cluster.block_index().x;
    }
    cluster.sync();
}

// A cooperative launch in clusters of two: each cluster's rank 0 adds both CTAs'
// partial sums through distributed shared memory into sums[cluster]; after
// grid.sync(), CTA 0 adds up every cluster's sum into *total.
__global__ void cluster_grid_sum(const int *x, int *sums, int *total) {
    __shared__ int partial;
    cg::cluster_group cluster = cg::this_cluster();
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) partial = 0;
    __syncthreads();
    atomicAdd(&partial, x[blockIdx.x * THREADS + threadIdx.x]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0)
        sums[blockIdx.x / 2] = partial + *cluster.map_shared_rank(&partial, 1);
    cluster.sync();
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int t = 0;
        for (unsigned c = 0; c < gridDim.x / 2; c++) t += sums[c];
        *total = t;
    }
}

int main() {
    const int ctas = 8, n = ctas * THREADS;
    std::vector<int> x(n);
    for (int i = 0; i < n; i++) x[i] = (i * 37) % 101 - 50;
    int *dx, *dout, *dswap;
    unsigned *dshape;
    CHECK(cudaMalloc(&dx, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dswap, n * sizeof(int)));
    CHECK(cudaMalloc(&dshape, 3 * ctas * sizeof(unsigned)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    cluster_sum<<<ctas, THREADS>>>(dx, dout);
    CHECK(cudaGetLastError());
    int sums[ctas / PER_CLUSTER];
    CHECK(cudaMemcpy(sums, dout, sizeof sums, cudaMemcpyDeviceToHost));
    for (int c = 0; c < ctas / PER_CLUSTER; c++) {
        int want = 0;
        for (int i = c * PER_CLUSTER * THREADS; i < (c + 1) * PER_CLUSTER * THREADS; i++) want += x[i];
        EXPECT(sums[c] == want);
    }

    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(ctas);
    config.blockDim = dim3(THREADS);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    int clusters = 0;
    CHECK(cudaOccupancyMaxActiveClusters(&clusters, pair_swap, &config));
    EXPECT(clusters > 0);
    CHECK(cudaLaunchKernelEx(&config, pair_swap, (const int *)dx, dswap, dshape));
    std::vector<int> swapped(n);
    unsigned shape[3 * ctas];
    CHECK(cudaMemcpy(swapped.data(), dswap, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(shape, dshape, sizeof shape, cudaMemcpyDeviceToHost));
    for (int b = 0; b < ctas; b++) {
        for (int t = 0; t < THREADS; t++) EXPECT(swapped[b * THREADS + t] == x[(b ^ 1) * THREADS + t]);
        EXPECT(shape[3 * b] == unsigned(b % 2) && shape[3 * b + 1] == 2 && shape[3 * b + 2] == unsigned(b % 2));
    }
    // A cluster of more than 8 CTAs is refused.
    attr.val.clusterDim.x = 16;
    config.gridDim = dim3(16);
    EXPECT(cudaLaunchKernelEx(&config, pair_swap, (const int *)dx, dswap, dshape) != cudaSuccess);

    // Cooperative and in clusters of two: 8 clusters, more than the host has threads.
    cudaLaunchAttribute both[2];
    both[0].id = cudaLaunchAttributeClusterDimension;
    both[0].val.clusterDim.x = 2, both[0].val.clusterDim.y = 1, both[0].val.clusterDim.z = 1;
    both[1].id = cudaLaunchAttributeCooperative;
    both[1].val.cooperative = 1;
    config.gridDim = dim3(ctas);
    config.attrs = both;
    config.numAttrs = 2;
    int *dsums, *dtotal;
    CHECK(cudaMalloc(&dsums, ctas / 2 * sizeof(int)));
    CHECK(cudaMalloc(&dtotal, sizeof(int)));
    CHECK(cudaLaunchKernelEx(&config, cluster_grid_sum, (const int *)dx, dsums, dtotal));
    int pair_sums[ctas / 2], total = 0, want_total = 0;
    CHECK(cudaMemcpy(pair_sums, dsums, sizeof pair_sums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
    for (int c = 0; c < ctas / 2; c++) {
        int want = 0;
        for (int i = 2 * c * THREADS; i < 2 * (c + 1) * THREADS; i++) want += x[i];
        EXPECT(pair_sums[c] == want);
        want_total += want;
    }
    EXPECT(total == want_total);
    printf("cluster: ok\n");
    return 0;
}
