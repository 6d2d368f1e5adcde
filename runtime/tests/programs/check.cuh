// What the test programs share: CHECK(call) exits 1 naming a call that failed and
// its error; EXPECT(cond) exits 1 naming a condition that does not hold.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)
#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);             \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)
