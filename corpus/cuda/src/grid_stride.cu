// Grid-stride loops and cooperative work distribution.

__global__ void saxpy_grid_stride(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// 64-bit index grid-stride for huge arrays.
__global__ void fill_grid_stride64(double *p, size_t n, double v)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v + (double)(i & 1023);
}

// Block-stride over rows, thread-stride over columns.
__global__ void row_normalize(float *m, int rows, int cols)
{
    __shared__ float red[32];
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float s = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            float v = m[(size_t)r * cols + c];
            s += v * v;
        }
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
        __syncthreads();
        if (threadIdx.x < 32) {
            s = threadIdx.x < (blockDim.x + 31) / 32 ? red[threadIdx.x] : 0.0f;
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (threadIdx.x == 0) red[0] = s > 0.0f ? rsqrtf(s) : 0.0f;
        }
        __syncthreads();
        float inv = red[0];
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            m[(size_t)r * cols + c] *= inv;
        __syncthreads();
    }
}

// Dynamic work queue: blocks grab chunks through an atomic counter until exhausted.
__global__ void work_queue(unsigned *next, const float *in, float *out, unsigned n, unsigned chunk)
{
    __shared__ unsigned base;
    for (;;) {
        if (threadIdx.x == 0) base = atomicAdd(next, chunk);
        __syncthreads();
        unsigned b = base;
        if (b >= n) break;
        for (unsigned i = b + threadIdx.x; i < min(b + chunk, n); i += blockDim.x)
            out[i] = sqrtf(fabsf(in[i])) + 1.0f;
        __syncthreads();
    }
}

// 2D grid-stride.
__global__ void scale2d(float *img, int w, int h, float s)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x)
            img[y * w + x] *= s;
}
