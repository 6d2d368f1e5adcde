// Bitonic sort in shared memory, odd-even merge step, and radix digit counting.

__global__ void bitonic_shared(unsigned *keys, unsigned *vals)
{
    __shared__ unsigned sk[1024];
    __shared__ unsigned sv[1024];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * 1024;
    sk[t] = keys[base + t];
    sv[t] = vals[base + t];
    sk[t + 512] = keys[base + t + 512];
    sv[t + 512] = vals[base + t + 512];
    __syncthreads();
    for (unsigned size = 2; size <= 1024; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            unsigned pos = 2 * t - (t & (stride - 1));
            bool asc = ((pos & size) == 0);
            unsigned a = sk[pos], b = sk[pos + stride];
            if ((a > b) == asc) {
                sk[pos] = b; sk[pos + stride] = a;
                unsigned x = sv[pos]; sv[pos] = sv[pos + stride]; sv[pos + stride] = x;
            }
            __syncthreads();
        }
    }
    keys[base + t] = sk[t];
    vals[base + t] = sv[t];
    keys[base + t + 512] = sk[t + 512];
    vals[base + t + 512] = sv[t + 512];
}

// Global bitonic step used for multi-block sorts.
__global__ void bitonic_global_step(float *data, unsigned j, unsigned k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned l = i ^ j;
    if (l > i) {
        float a = data[i], b = data[l];
        bool up = (i & k) == 0;
        if (up ? (a > b) : (a < b)) { data[i] = b; data[l] = a; }
    }
}

// Radix sort digit histogram + per-thread local ranking.
__global__ void radix_count(const unsigned *keys, unsigned *counts, int n, int shift)
{
    __shared__ unsigned c[16];
    if (threadIdx.x < 16) c[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&c[(keys[i] >> shift) & 15u], 1u);
    __syncthreads();
    if (threadIdx.x < 16) counts[threadIdx.x * gridDim.x + blockIdx.x] = c[threadIdx.x];
}

// Binary search (lower bound) of each query in a sorted array.
__global__ void lower_bound(const int *sorted, int len, const int *queries, int *pos, int nq)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq) return;
    int key = queries[q];
    int lo = 0, hi = len;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (sorted[mid] < key) lo = mid + 1; else hi = mid;
    }
    pos[q] = lo;
}
