// __constant__ tables, __device__ globals (initialised and not), lookup tables, volatile globals.

__constant__ float filter_taps[64];
__constant__ int lut_sizes[4] = {8, 16, 32, 64};
__constant__ double dcoef[3] = {0.5, -1.25, 3.0e-7};
__constant__ struct { float scale; int offset; unsigned flags; } params = {1.5f, -3, 0x80000001u};

__device__ unsigned long long global_counter;
__device__ int global_table[16] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 479001600, 0, 0, 0};
__device__ float global_scratch[1024];
__device__ const char device_string[] = "ptxvm-corpus";
__device__ volatile int stop_flag;

__global__ void fir(const float *x, float *y, int n, int taps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int k = 0; k < taps && k <= i; ++k)
        s += filter_taps[k] * x[i - k];
    y[i] = s * params.scale + (float)params.offset;
}

__global__ void table_lookup(const int *idx, int *out, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = idx[i];
    out[i] = global_table[k & 15] + lut_sizes[k & 3] + device_string[k % 12];
    dout[i] = dcoef[0] + dcoef[1] * k + dcoef[2] * k * k;
    if (params.flags & 1u) atomicAdd(&global_counter, 1ull);
}

__global__ void scratch_pass(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1024) global_scratch[i] = (float)i * 0.5f;
    __threadfence();
    if (stop_flag) return;
    if (i < n) out[i] = global_scratch[(i * 7) & 1023];
}

// Local (thread-private) lookup table initialised from constants.
__global__ void local_lut(const unsigned char *in, unsigned char *out, int n)
{
    const unsigned char gamma[16] = {0, 3, 9, 18, 30, 45, 63, 84, 108, 135, 162, 186, 207, 225, 240, 255};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = gamma[in[i] >> 4];
}
