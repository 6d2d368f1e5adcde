// Nested if/else, data-dependent loop trip counts and early returns.
#include <cstdint>

__device__ int collatz_steps(unsigned long long n, int cap)
{
    int steps = 0;
    while (n != 1ull) {
        if (steps >= cap)
            return -1;              // early exit from a data-dependent loop
        if (n & 1ull)
            n = 3ull * n + 1ull;
        else
            n >>= 1;
        ++steps;
    }
    return steps;
}

__global__ void classify(const int *in, int *out, int n, int lo, int hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int r;
    if (v < lo) {
        if (v < 0) {
            r = (v < -1000) ? -3 : -2;
        } else {
            r = -1;
        }
    } else if (v > hi) {
        if ((v & 1) == 0) {
            r = 2;
            for (int k = v; k > hi; k /= 2)
                r += 1;
        } else {
            r = 3;
        }
    } else {
        r = 0;
        int s = v - lo;
        while (s > 0) {
            if (s % 3 == 0) { r += 3; s -= 3; }
            else if (s % 2 == 0) { r += 2; s -= 2; }
            else { r += 1; s -= 1; }
            if (r > 64) break;
        }
    }
    out[i] = r;
}

__global__ void collatz(const unsigned long long *seeds, int *steps, int n, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long s = seeds[i];
    if (s == 0ull) {
        steps[i] = 0;
        return;
    }
    steps[i] = collatz_steps(s, cap);
}

// Triangular loop nest: inner trip count depends on outer index and data.
__global__ void triangle_sum(const float *a, float *out, const int *len, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int L = len[r];
    float acc = 0.0f;
    for (int i = 0; i < L; ++i) {
        for (int j = 0; j <= i; ++j) {
            float x = a[r * 64 + ((i + j) & 63)];
            if (x < 0.0f) continue;
            if (x > 100.0f) goto done;
            acc += x;
        }
    }
done:
    out[r] = acc;
}
