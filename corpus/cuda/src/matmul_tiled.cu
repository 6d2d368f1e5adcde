// Tiled matrix multiply variants: shared-memory tiles, register blocking, double precision.
#define TILE 16

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K, float alpha, float beta)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + threadIdx.x;
        int bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// 4x4 register tile per thread, 64x64 block tile.
__global__ void sgemm_regblock(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[16][64];
    __shared__ float Bs[16][64];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;   // 256 threads
    int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int l = threadIdx.x; l < 16 * 64; l += 256) {
            int kk = l >> 6, mm = l & 63;
            As[kk][mm] = (r0 + mm < M && k0 + kk < K) ? A[(r0 + mm) * K + k0 + kk] : 0.0f;
            Bs[kk][mm] = (c0 + mm < N && k0 + kk < K) ? B[(k0 + kk) * N + c0 + mm] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 16; ++kk) {
            float a[4], b[4];
#pragma unroll
            for (int q = 0; q < 4; ++q) { a[q] = As[kk][ty * 4 + q]; b[q] = Bs[kk][tx * 4 + q]; }
#pragma unroll
            for (int p = 0; p < 4; ++p)
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    acc[p][q] += a[p] * b[q];
        }
        __syncthreads();
    }
#pragma unroll
    for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            int r = r0 + ty * 4 + p, c = c0 + tx * 4 + q;
            if (r < M && c < N) C[r * N + c] = acc[p][q];
        }
}

__global__ void dgemm_tiled(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[8][8], Bs[8][8];
    int row = blockIdx.y * 8 + threadIdx.y, col = blockIdx.x * 8 + threadIdx.x;
    double acc = 0.0;
    for (int t = 0; t < n; t += 8) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < 8; ++k)
            acc = fma(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Matrix-vector product, one warp per row.
__global__ void sgemv_warp(const float *A, const float *x, float *y, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += A[(size_t)warp * cols + c] * x[c];
    for (int o = 16; o; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[warp] = s;
}
