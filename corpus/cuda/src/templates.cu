// Template kernels instantiated over types, functors and compile-time sizes.
#include <cuda_fp16.h>

template <typename T> __device__ __forceinline__ T load_conv(const void *p, int i) { return static_cast<const T *>(p)[i]; }

template <typename In, typename Out>
struct Convert { __device__ Out operator()(In x) const { return static_cast<Out>(x); } };

template <>
struct Convert<float, __half> { __device__ __half operator()(float x) const { return __float2half_rn(x); } };

template <typename In, typename Out>
__global__ void convert_kernel(const In *in, Out *out, int n)
{
    Convert<In, Out> cv;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = cv(in[i]);
}

template __global__ void convert_kernel<float, double>(const float *, double *, int);
template __global__ void convert_kernel<double, float>(const double *, float *, int);
template __global__ void convert_kernel<int, float>(const int *, float *, int);
template __global__ void convert_kernel<float, int>(const float *, int *, int);
template __global__ void convert_kernel<unsigned char, float>(const unsigned char *, float *, int);
template __global__ void convert_kernel<float, __half>(const float *, __half *, int);
template __global__ void convert_kernel<long long, double>(const long long *, double *, int);
template __global__ void convert_kernel<short, unsigned long long>(const short *, unsigned long long *, int);

// Compile-time unrolled polynomial evaluation via recursive templates.
template <int N> struct Horner {
    __device__ static float eval(const float *c, float x) { return fmaf(Horner<N - 1>::eval(c, x), x, c[N]); }
};
template <> struct Horner<0> {
    __device__ static float eval(const float *c, float) { return c[0]; }
};

template <int DEG>
__global__ void poly_eval(const float *coef, const float *x, float *y, int n)
{
    __shared__ float c[DEG + 1];
    if (threadIdx.x <= DEG) c[threadIdx.x] = coef[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = Horner<DEG>::eval(c, x[i]);
}

template __global__ void poly_eval<3>(const float *, const float *, float *, int);
template __global__ void poly_eval<7>(const float *, const float *, float *, int);
template __global__ void poly_eval<12>(const float *, const float *, float *, int);

// Variadic template: sum of any number of arrays.
__device__ __forceinline__ float sum_at(int) { return 0.0f; }
template <typename... Rest>
__device__ __forceinline__ float sum_at(int i, const float *first, Rest... rest) { return first[i] + sum_at(i, rest...); }

template <typename... Arrays>
__global__ void sum_arrays(float *out, int n, Arrays... arrays)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sum_at(i, arrays...);
}

template __global__ void sum_arrays<const float *>(float *, int, const float *);
template __global__ void sum_arrays<const float *, const float *, const float *>(float *, int, const float *, const float *, const float *);
template __global__ void sum_arrays<const float *, const float *, const float *, const float *, const float *, const float *>(
    float *, int, const float *, const float *, const float *, const float *, const float *, const float *);

// Policy class with static constexpr members selecting code paths.
struct Wide { static constexpr int VEC = 4; static constexpr bool CLAMP = true; };
struct Narrow { static constexpr int VEC = 1; static constexpr bool CLAMP = false; };

template <typename P>
__global__ void scale_policy(float *x, int n, float s)
{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * P::VEC;
#pragma unroll
    for (int v = 0; v < P::VEC; ++v) {
        int i = base + v;
        if (i < n) {
            float r = x[i] * s;
            if (P::CLAMP) r = fminf(fmaxf(r, -1.0f), 1.0f);
            x[i] = r;
        }
    }
}

template __global__ void scale_policy<Wide>(float *, int, float);
template __global__ void scale_policy<Narrow>(float *, int, float);
