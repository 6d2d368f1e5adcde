// Warp-level primitives: shuffles, votes, active masks, match and popcount.

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

__global__ void warp_shuffles(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float up = __shfl_up_sync(0xffffffffu, v, 1);
    float down = __shfl_down_sync(0xffffffffu, v, 2);
    float bfly = __shfl_xor_sync(0xffffffffu, v, 5);
    float bcast = __shfl_sync(0xffffffffu, v, 0);
    float seg = __shfl_sync(0xffffffffu, v, lane_id() ^ 1, 8);    // width 8 segments
    float segup = __shfl_up_sync(0xffffffffu, v, 3, 16);
    if (i < n)
        out[i] = up + down + bfly + bcast + seg + segup;
}

__global__ void warp_votes(const int *in, unsigned *ballots, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v < 0);
    int all = __all_sync(0xffffffffu, v != 0);
    int uni = __uni_sync(0xffffffffu, v & 1);
    if (lane_id() == 0) {
        ballots[i >> 5] = b;
        flags[(i >> 5) * 4 + 0] = any;
        flags[(i >> 5) * 4 + 1] = all;
        flags[(i >> 5) * 4 + 2] = __popc(b);
        flags[(i >> 5) * 4 + 3] = uni;
    }
}

// Divergent region: only some lanes participate, mask taken from __activemask.
__global__ void divergent_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v & 1) {
        unsigned m = __activemask();
        int leader = __ffs(m) - 1;
        int s = v;
        for (int off = 16; off > 0; off >>= 1) {
            int o = __shfl_down_sync(m, s, off);
            int src = lane_id() + off;
            if (src < 32 && ((m >> src) & 1u))
                s += o;
        }
        if (lane_id() == leader)
            atomicAdd(out, s);
        unsigned lower = m & ((1u << lane_id()) - 1u);
        out[1 + i] = __popc(lower);   // rank among odd lanes
    }
}

// Warp-aggregated atomic increment.
__global__ void warp_aggregated_append(const int *in, int *out, int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = i < n && in[i] % 3 == 0;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    if (!keep) return;
    int leader = __ffs(m) - 1;
    int base = 0;
    if (lane_id() == leader)
        base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(m, base, leader);
    int rank = __popc(m & ((1u << lane_id()) - 1u));
    out[base + rank] = in[i];
}

// __match_any_sync groups lanes with equal keys; then reduce per group.
__global__ void match_groups(const int *keys, int *group_sizes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : -1;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    int pred;
    unsigned allm = __match_all_sync(0xffffffffu, k >> 4, &pred);
    if (i < n)
        group_sizes[i] = __popc(peers) + (pred ? 1000 : 0) + (allm ? 1 : 0);
    __syncwarp();
}
