// Kernels of the driver's C test programs. kernels.ptx is made from this file by
// ./build.sh (pip's nvidia-cuda-nvcc); it is committed so the tests need no nvcc.
#include <cassert>
#include <cstdio>

__device__ int counter;
__constant__ float scale = 2.0f;

extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void add_one(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

extern "C" __global__ void bump() { atomicAdd(&counter, 1); }

extern "C" __global__ void scaled(float *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= scale;
}

// Parameters of every size and alignment, for the packed `extra` form.
extern "C" __global__ void mixed(char c, double d, short s, int i, long long *out) {
    out[0] = c;
    out[1] = (long long)d;
    out[2] = s;
    out[3] = i;
}

extern "C" __global__ void out_of_bounds(int *p) { p[threadIdx.x + (1 << 20)] = 1; }

extern "C" __global__ void hello(int x) { printf("hello from thread %d, x=%d\n", threadIdx.x, x); }

extern "C" __global__ void must_be_zero(int x) { assert(x == 0); }

// A missing __syncthreads between the write and the read: a shared-memory race.
extern "C" __global__ void racy(int *out, int sync) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (sync) __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// Kernels that wait on other CTAs (coop.c).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each round the grid syncs, every thread reads its right neighbour's value, the grid
// syncs again and every thread stores it: after `rounds` rounds a[i] = (i + rounds) % n.
extern "C" __global__ void grid_rotate(int *a, int rounds) {
    cg::grid_group g = cg::this_grid();
    unsigned i = g.thread_rank(), n = g.size();
    a[i] = i;
    for (int r = 0; r < rounds; r++) {
        g.sync();
        int v = a[(i + 1) % n];
        g.sync();
        a[i] = v;
    }
}

// A single-pass scan with decoupled look-back: each CTA publishes its tile's sum,
// then adds its predecessors' until one has published an inclusive prefix.
extern "C" __global__ void lookback_scan(const int *in, int *out, unsigned long long *status) {
    __shared__ int s[256];
    __shared__ int exclusive;
    int tile = blockIdx.x, t = threadIdx.x, i = tile * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    int total = s[blockDim.x - 1];
    if (t == 0) {
        int acc = 0;
        if (tile > 0) {
            atomicExch(&status[tile], (1ull << 32) | (unsigned)total);
            for (int k = tile - 1;;) {
                unsigned long long st = *(volatile unsigned long long *)&status[k];
                unsigned flag = (unsigned)(st >> 32);
                if (flag == 0) {
                    __nanosleep(100);
                    continue;
                }
                acc += (int)(unsigned)st;
                if (flag == 2) break;
                k--;
            }
        }
        atomicExch(&status[tile], (2ull << 32) | (unsigned)(acc + total));
        exclusive = acc;
    }
    __syncthreads();
    out[i] = s[t] + exclusive;
}

// CTA 0 waits for a flag that the grid's last CTA sets.
extern "C" __global__ void wait_for_last(volatile int *flag, int *out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        while (*flag == 0) {
        }
        out[0] = *flag;
    } else if (blockIdx.x == gridDim.x - 1) {
        *flag = 42;
    }
}

// Every CTA adds one under a spin lock.
extern "C" __global__ void locked_count(int *lock, int *count) {
    if (threadIdx.x != 0) return;
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *(volatile int *)count = *(volatile int *)count + 1;
    __threadfence();
    atomicExch(lock, 0);
}

// A flag no CTA ever sets: a wait that cannot end.
extern "C" __global__ void wait_forever(volatile int *flag) {
    while (*flag == 0) {
    }
}

// Tensor copies (TMA), as CUTLASS's SM90_TMA_LOAD and SM90_TMA_STORE issue them: one
// thread copies a box of the tensor `map` describes at the given coordinates into
// shared memory, completing on an mbarrier; the block then writes the shared bytes
// out as they lie (swizzle included). The store kernels take the shared bytes from
// `in` and copy the box back into the tensor.
#include <cuda.h>
#include <cstdint>

__device__ void tma_wait(uint32_t bar) {
    asm volatile(
        "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}" ::"r"(bar));
}

template <int DIMS>
__device__ void tma_load(const CUtensorMap *map, uint32_t *out, int x, int y, int z, int bytes) {
    __shared__ alignas(1024) uint32_t tile[2048];
    __shared__ alignas(8) uint64_t bar;
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    uint32_t t = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) tile[i] = 0xdeadbeef;
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes));
        uint64_t m = reinterpret_cast<uint64_t>(map);
        if constexpr (DIMS == 2)
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
                "%3}], [%4];" ::"r"(t),
                "l"(m), "r"(x), "r"(y), "r"(b)
                : "memory");
        else
            asm volatile(
                "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
                "%3, %4}], [%5];" ::"r"(t),
                "l"(m), "r"(x), "r"(y), "r"(z), "r"(b)
                : "memory");
    }
    __syncthreads();
    tma_wait(b);
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) out[i] = tile[i];
}

extern "C" __global__ void tma_load_2d(const __grid_constant__ CUtensorMap map, uint32_t *out, int x, int y,
                                       int bytes) {
    tma_load<2>(&map, out, x, y, 0, bytes);
}

extern "C" __global__ void tma_load_3d(const __grid_constant__ CUtensorMap map, uint32_t *out, int x, int y, int z,
                                       int bytes) {
    tma_load<3>(&map, out, x, y, z, bytes);
}

extern "C" __global__ void tma_store_2d(const __grid_constant__ CUtensorMap map, const uint32_t *in, int x, int y) {
    __shared__ alignas(1024) uint32_t tile[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) tile[i] = in[i];
    asm volatile("fence.proxy.async.shared::cta;");
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                         reinterpret_cast<uint64_t>(&map)),
                     "r"(x), "r"(y), "r"(t)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;");
    }
}
