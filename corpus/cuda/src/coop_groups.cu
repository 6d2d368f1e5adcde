// Cooperative groups: thread_block, tiled_partition, coalesced_threads, cg::reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_tile_reduce(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    if (warp.thread_rank() == 0) atomicAdd(out, s);
}

template <typename Tile>
__device__ float tile_sum(Tile t, float v)
{
    for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_down(v, o);
    return v;
}

__global__ void cg_small_tiles(const float *in, float *out8, float *out4, int n)
{
    cg::thread_block block = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(block);
    auto t4 = cg::tiled_partition<4>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float s8 = tile_sum(t8, v);
    float s4 = tile_sum(t4, v);
    if (t8.thread_rank() == 0 && i / 8 < n / 8) out8[i / 8] = s8;
    if (t4.thread_rank() == 0 && i / 4 < n / 4) out4[i / 4] = s4;
    block.sync();
}

__global__ void cg_coalesced(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (in[i] > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(count, (int)g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = in[i];
    }
}

__global__ void cg_vote(const float *x, unsigned *ballots, int n)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = i < n && x[i] > 0.0f;
    unsigned b = warp.ballot(p);
    bool all = warp.all(p);
    bool any = warp.any(!p);
    if (warp.thread_rank() == 0) ballots[i / 32] = b ^ (all ? 0x80000000u : 0u) ^ (any ? 1u : 0u);
}
