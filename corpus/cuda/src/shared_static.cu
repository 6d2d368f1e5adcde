// Static shared memory with barriers: reverse, tiled average, 2D tile.
#define BS 256

__global__ void reverse_block(int *data)
{
    __shared__ int buf[BS];
    int t = threadIdx.x;
    int base = blockIdx.x * BS;
    buf[t] = data[base + t];
    __syncthreads();
    data[base + t] = buf[BS - 1 - t];
}

__global__ void moving_average(const float *in, float *out, int n)
{
    __shared__ float tile[BS + 2];
    int g = blockIdx.x * BS + threadIdx.x;
    int t = threadIdx.x + 1;
    tile[t] = g < n ? in[g] : 0.0f;
    if (threadIdx.x == 0)
        tile[0] = g > 0 ? in[g - 1] : 0.0f;
    if (threadIdx.x == BS - 1)
        tile[BS + 1] = (g + 1) < n ? in[g + 1] : 0.0f;
    __syncthreads();
    if (g < n)
        out[g] = (tile[t - 1] + tile[t] + tile[t + 1]) * (1.0f / 3.0f);
}

__global__ void tile2d_sum(const float *m, float *rowsum, int width)
{
    __shared__ float t[16][17];
    __shared__ double acc[16];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x] = m[(blockIdx.y * 16 + y) * width + blockIdx.x * 16 + x];
    if (x == 0) acc[y] = 0.0;
    __syncthreads();
    if (x == 0) {
        double s = 0.0;
        for (int k = 0; k < 16; ++k)
            s += t[y][k];
        acc[y] = s;
    }
    __syncthreads();
    if (x == 0)
        atomicAdd(&rowsum[blockIdx.y * 16 + y], (float)acc[y]);
}

// Shared flag to let the block vote, with __syncthreads_or / _count / _and.
__global__ void block_votes(const int *in, int *out)
{
    __shared__ int any_negative;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) any_negative = 0;
    __syncthreads();
    if (v < 0) any_negative = 1;
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v > 1000);
    if (threadIdx.x == 0) {
        out[blockIdx.x * 4 + 0] = any_negative;
        out[blockIdx.x * 4 + 1] = cnt;
        out[blockIdx.x * 4 + 2] = all;
        out[blockIdx.x * 4 + 3] = any;
    }
}
