// extern __shared__ dynamic shared memory, split into several typed arrays.

extern __shared__ unsigned char dyn_smem[];

__global__ void dyn_partition(const float *vals, const int *keys, float *out_vals, int *out_keys, int n)
{
    float *sv = reinterpret_cast<float *>(dyn_smem);
    int *sk = reinterpret_cast<int *>(sv + blockDim.x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sv[threadIdx.x] = i < n ? vals[i] : 0.0f;
    sk[threadIdx.x] = i < n ? keys[i] : -1;
    __syncthreads();
    // each thread picks the element with the mirrored key
    unsigned j = blockDim.x - 1 - threadIdx.x;
    if (i < n) {
        out_vals[i] = sk[j] >= 0 ? sv[j] : sv[threadIdx.x];
        out_keys[i] = max(sk[j], sk[threadIdx.x]);
    }
}

template <typename T>
__global__ void dyn_block_sum(const T *in, T *out, int n)
{
    extern __shared__ __align__(16) unsigned char raw[];
    T *s = reinterpret_cast<T *>(raw);
    int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    T v = T(0);
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[threadIdx.x] = v;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void dyn_block_sum<float>(const float *, float *, int);
template __global__ void dyn_block_sum<double>(const double *, double *, int);
template __global__ void dyn_block_sum<int>(const int *, int *, int);
template __global__ void dyn_block_sum<unsigned long long>(const unsigned long long *, unsigned long long *, int);

// Mixed static + dynamic shared memory.
__global__ void dyn_plus_static(const int *in, int *out, int per_thread)
{
    __shared__ int total;
    extern __shared__ int counts[];
    if (threadIdx.x == 0) total = 0;
    int c = 0;
    for (int k = 0; k < per_thread; ++k)
        c += in[(blockIdx.x * blockDim.x + threadIdx.x) * per_thread + k] != 0;
    counts[threadIdx.x] = c;
    __syncthreads();
    atomicAdd(&total, c);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = counts[(threadIdx.x + 1) % blockDim.x] * 1000 + total;
}
