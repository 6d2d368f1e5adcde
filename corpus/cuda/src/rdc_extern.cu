// Relocatable device code (-rdc=true): calls to device functions and uses of variables
// defined in another translation unit, plus externally visible device symbols.

extern __device__ float external_scale(float x, int mode);      // defined elsewhere
extern __device__ int external_lookup[256];                      // defined elsewhere
extern __device__ __noinline__ void external_log(int code, const float *where);

__device__ int exported_counter;                                 // .visible .global
__device__ __noinline__ float exported_helper(float a, float b)  // .visible .func
{
    return a * b + (a > b ? a : b);
}

static __device__ __noinline__ float internal_helper(float a)    // internal linkage: .func
{
    return a * a - 1.0f;
}

__global__ void rdc_kernel(const float *in, float *out, int n, int mode)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    if (v != v) {
        external_log(1, in + i);
        return;
    }
    float s = external_scale(v, mode);
    out[i] = exported_helper(s, internal_helper(v)) + (float)external_lookup[i & 255];
    atomicAdd(&exported_counter, 1);
}
