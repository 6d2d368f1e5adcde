// Dynamic parallelism (CDP2) through `ptxvm run`: tests/run_children.rs.
// children.ptx is nvcc 13.5's: nvcc -rdc=true -ptx -arch=sm_90 -O3 children.cu
__global__ void child(int *out, int base) { out[base + threadIdx.x] = base + 2 * threadIdx.x; }

// Threads 0..3 each launch a child over out[8t .. 8t + 8).
__global__ void parent(int *out) {
    if (threadIdx.x < 4) child<<<1, 8>>>(out, threadIdx.x * 8);
}

// Each level records its depth and what its own launch returned; the launch from
// the deepest level CUDA allows fails.
__global__ void deep(int *depths, int *errors, int d) {
    depths[d] = d;
    deep<<<1, 1>>>(depths, errors, d + 1);
    errors[d] = cudaGetLastError();
}

__global__ void noop() {}

// n launches from one thread; errors[i] is what the i-th returned.
__global__ void many(int *errors, int n) {
    for (int i = 0; i < n; i++) {
        noop<<<1, 1>>>();
        errors[i] = cudaGetLastError();
    }
}

__global__ void writes_far(int *p) { p[1 << 28] = 1; }

// The parent is fine; its child writes out of bounds.
__global__ void faulty_parent(int *p) {
    p[0] = 5;
    writes_far<<<1, 1>>>(p);
}

#include <cstdio>
__global__ void says_child(int from) { printf("child of CTA %d\n", from); }

// Two CTAs print; CTA 0 also launches a grid that prints: its line comes after
// both of theirs, as the child runs after the parent grid.
__global__ void says_parent(int *unused) {
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0) says_child<<<1, 1>>>(0);
        printf("parent CTA %d\n", blockIdx.x);
    }
}
