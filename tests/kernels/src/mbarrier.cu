// libcu++'s asynchronous barriers as ordinary CUDA code uses them: what nvcc 13 turns
// into the mbarrier family for sm_90 (mbarrier.init, arrive, try_wait, and
// cp.async.mbarrier.arrive for cuda::memcpy_async). Built with the CCCL headers of
// the nvidia-cuda-cccl pip package:
//
//   nvcc -ptx -arch=sm_90 -O3 -I$CCCL tests/kernels/src/mbarrier.cu -o tests/kernels/mbarrier.ptx
//
// where $CCCL is site-packages/nvidia/cu13/include/cccl.

// A __shared__ cuda::barrier has a constructor, which nvcc warns of; init() is
// what sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// Producer/consumer across the warps of a CTA: warp 0 produces `rounds` tiles of
// blockDim.x - 32 values into shared memory, the other warps consume each one. Two
// barriers: `full` (the producer arrives after writing) and `empty` (the consumers
// arrive after reading), each completing once per round. Block b works on its own
// slice of `in` and `out`.
extern "C" __global__ void producer_consumer(const int *in, int *out, int rounds) {
    __shared__ int tile[256];
    __shared__ block_barrier full, empty;
    int consumers = blockDim.x - 32;
    in += blockIdx.x * rounds * consumers;
    out += blockIdx.x * rounds * consumers;
    if (threadIdx.x == 0) {
        init(&full, blockDim.x);
        init(&empty, blockDim.x);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        for (int r = 0; r < rounds; ++r) {
            for (int i = threadIdx.x; i < consumers; i += 32) tile[i] = in[r * consumers + i] * 3 + r;
            full.arrive_and_wait();
            empty.arrive_and_wait();
        }
    } else {
        int c = threadIdx.x - 32;
        int acc = 0;
        for (int r = 0; r < rounds; ++r) {
            full.arrive_and_wait();
            acc += tile[c];
            out[r * consumers + c] = tile[c] - acc;
            empty.arrive_and_wait();
        }
    }
}

// A split arrive/wait: each thread arrives, does independent work, then waits for
// the phase its token names.
extern "C" __global__ void split_phase(const float *in, float *out) {
    __shared__ float buf[128];
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t] * 2.0f;
    block_barrier::arrival_token token = bar.arrive();
    float own = in[blockIdx.x * blockDim.x + t] + 1.0f;
    bar.wait(std::move(token));
    out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t] + own;
}

// cuda::memcpy_async of a whole block's slice into shared memory, completing on a
// barrier, then a reversed copy out.
extern "C" __global__ void memcpy_barrier(const int *in, int *out, int n) {
    extern __shared__ int smem[];
    __shared__ block_barrier bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    const int *src = in + blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        cuda::memcpy_async(&smem[i], &src[i], sizeof(int), bar);
    bar.arrive_and_wait();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = smem[n - 1 - i] + i;
}

// A cuda::pipeline double buffer: stage k+1's copy is in flight while stage k is
// summed. out[c * blockDim.x + t] = 2 * x[c][t] + x[c][blockDim.x - 1 - t].
extern "C" __global__ void pipeline_double(const float *in, float *out, int chunks) {
    extern __shared__ float stage[];  // 2 * blockDim.x floats
    auto block = cg::this_thread_block();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto pipe = cuda::make_pipeline(block, &state);
    int n = blockDim.x;
    for (int c = 0; c < chunks + 1; ++c) {
        if (c < chunks) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, stage + (c % 2) * n, in + c * n, sizeof(float) * n, pipe);
            pipe.producer_commit();
        }
        if (c > 0) {
            int k = c - 1;
            pipe.consumer_wait();
            float *s = stage + (k % 2) * n;
            out[k * n + threadIdx.x] = 2.0f * s[threadIdx.x] + s[n - 1 - threadIdx.x];
            pipe.consumer_release();
        }
    }
}
