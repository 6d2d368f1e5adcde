// atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162 (nvcc 13 builds them
// from atom.add.noftz.{f16,f16x2,bf16,bf16x2}) and atomicCAS on unsigned short
// (atom.global.cas.b16). The sums are of small integers, exact in every order.
//   nvcc -ptx -arch=sm_90 -O3 tests/kernels/src/atomics.cu -o tests/kernels/atomics.ptx
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_atomics(const float *x, __half *h, __half2 *h2, __nv_bfloat16 *b,
                                        __nv_bfloat162 *b2, unsigned short *s, unsigned short *old) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(h, __float2half(x[t]));
    atomicAdd(h2, __floats2half2_rn(x[t], 2.0f * x[t]));
    atomicAdd(b, __float2bfloat16(x[t]));
    atomicAdd(b2, __floats2bfloat162_rn(x[t], -x[t]));
    // s[t] starts at t: the first swap succeeds, the second compares with 7 and fails
    // for every thread (s[t] is t + 1000 by then).
    old[t] = atomicCAS(&s[t], (unsigned short)t, (unsigned short)(t + 1000));
    atomicCAS(&s[t], (unsigned short)7, (unsigned short)0);
}
