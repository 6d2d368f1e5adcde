// Histograms: shared-memory privatised bins, per-warp sub-histograms, byte unpacking.
#define NBINS 256

__global__ void histo_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        local[b] = 0u;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
        unsigned c = local[b];
        if (c) atomicAdd(&bins[b], c);
    }
}

// Reads 4 bytes at a time and unpacks them with shifts/bfe.
__global__ void histo_packed(const unsigned *words, unsigned *bins, int nwords)
{
    __shared__ unsigned local[8][64];   // 8 warps x 64 bins
    int w = threadIdx.x >> 5;
    for (int b = threadIdx.x & 31; b < 64; b += 32) local[w][b] = 0u;
    __syncwarp();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
        unsigned v = words[i];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            unsigned byte = (v >> (8 * k)) & 0xffu;
            atomicAdd(&local[w][byte >> 2], 1u);
        }
    }
    __syncthreads();
    if (threadIdx.x < 64) {
        unsigned s = 0;
        for (int k = 0; k < 8; ++k) s += local[k][threadIdx.x];
        atomicAdd(&bins[threadIdx.x], s);
    }
}

// Float histogram with data-dependent bin computation and clamping.
__global__ void histo_float(const float *x, int *bins, int n, float lo, float hi, int nb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (!(v >= lo && v < hi)) {       // NaN and out of range go to the overflow bin
        atomicAdd(&bins[nb], 1);
        return;
    }
    int b = (int)((v - lo) / (hi - lo) * nb);
    b = min(max(b, 0), nb - 1);
    atomicAdd(&bins[b], 1);
}
