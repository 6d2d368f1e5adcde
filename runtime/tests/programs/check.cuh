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

// A w x h x d CUDA array of T texels (flags as cudaMalloc3DArray takes them:
// cudaArrayLayered, cudaArrayCubemap, ...) holding `texels`, rows of w.
template <class T>
inline cudaArray_t array3d(const T* texels, size_t w, size_t h, size_t d, unsigned flags = 0) {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<T>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(w, h, d), flags));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void*)texels, w * sizeof(T), w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return a;
}

// The resource description of array `a`, for texture and surface objects.
inline cudaResourceDesc array_resource(cudaArray_t a) {
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}
