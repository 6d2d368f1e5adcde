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
