// Prefix scans: Hillis-Steele, Blelloch work-efficient, warp-shuffle inclusive scan.

__global__ void scan_hillis_steele(const int *in, int *out, int n)
{
    __shared__ int buf[2][512];
    int t = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout][t] = (t < n) ? in[t] : 0;
    __syncthreads();
    for (int off = 1; off < n; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= off)
            buf[pout][t] = buf[pin][t] + buf[pin][t - off];
        else
            buf[pout][t] = buf[pin][t];
        __syncthreads();
    }
    if (t < n) out[t] = buf[pout][t];
}

// Blelloch exclusive scan of 2*blockDim elements, with bank-conflict padding.
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)

__global__ void scan_blelloch(const float *in, float *out, float *block_sums, int n)
{
    extern __shared__ float tmp[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x * 2;
    int ai = t, bi = t + blockDim.x;
    tmp[ai + PAD(ai)] = base + ai < n ? in[base + ai] : 0.0f;
    tmp[bi + PAD(bi)] = base + bi < n ? in[base + bi] : 0.0f;
    int m = blockDim.x * 2;
    int off = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int a = off * (2 * t + 1) - 1;
            int b = off * (2 * t + 2) - 1;
            tmp[b + PAD(b)] += tmp[a + PAD(a)];
        }
        off <<= 1;
    }
    if (t == 0) {
        int last = m - 1 + PAD(m - 1);
        if (block_sums) block_sums[blockIdx.x] = tmp[last];
        tmp[last] = 0.0f;
    }
    for (int d = 1; d < m; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int a = off * (2 * t + 1) - 1;
            int b = off * (2 * t + 2) - 1;
            float x = tmp[a + PAD(a)];
            tmp[a + PAD(a)] = tmp[b + PAD(b)];
            tmp[b + PAD(b)] += x;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = tmp[ai + PAD(ai)];
    if (base + bi < n) out[base + bi] = tmp[bi + PAD(bi)];
}

__global__ void add_block_offsets(float *data, const float *offsets, int n)
{
    int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float o = offsets[blockIdx.x];
    if (i < n) data[i] += o;
    if (i + blockDim.x < n) data[i + blockDim.x] += o;
}

// Warp-shuffle inclusive scan then block combine.
__global__ void scan_warp_shuffle(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned warp_tot[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned v = i < n ? in[i] : 0u;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        unsigned o = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += o;
    }
    if (lane == 31) warp_tot[w] = v;
    __syncthreads();
    if (w == 0) {
        unsigned t = lane < (int)(blockDim.x >> 5) ? warp_tot[lane] : 0u;
        for (int d = 1; d < 32; d <<= 1) {
            unsigned o = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += o;
        }
        warp_tot[lane] = t;
    }
    __syncthreads();
    if (w > 0) v += warp_tot[w - 1];
    if (i < n) out[i] = v;
}

// Segmented scan with head flags, sequential per thread chunk.
__global__ void segmented_scan_serial(const int *vals, const unsigned char *heads, int *out, int n, int chunk)
{
    int start = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    int acc = 0;
    for (int k = 0; k < chunk && start + k < n; ++k) {
        int idx = start + k;
        acc = heads[idx] ? vals[idx] : acc + vals[idx];
        out[idx] = acc;
    }
}
