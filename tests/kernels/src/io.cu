// Device printf and assert, and a struct passed by value.
#include <assert.h>
#include <stdio.h>

struct Params {
    double scale;
    int offset;
    char tag[12];
};

extern "C" __global__ void hello(const int *x, Params p) {
    int t = threadIdx.x;
    printf("[%s] block %d thread %2d: x=%-4d scaled=%.3f hex=%#x %c\n", p.tag, blockIdx.x, t, x[t],
           p.scale * x[t] + p.offset, x[t], 'a' + t % 26);
}

extern "C" __global__ void check_positive(const int *x, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(x[i] >= 0);
        out[i] = 2 * x[i];
    }
}
