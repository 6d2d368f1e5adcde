// Sparse matrix-vector products: CSR scalar, CSR vector (warp per row), ELL, COO with atomics.

__global__ void spmv_csr_scalar(const int *row_ptr, const int *cols, const float *vals, const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e)
        s += vals[e] * __ldg(&x[cols[e]]);
    y[r] = s;
}

__global__ void spmv_csr_vector(const int *row_ptr, const int *cols, const double *vals, const double *x, double *y, int rows)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    int start = row_ptr[warp], end = row_ptr[warp + 1];
    double s = 0.0;
    for (int e = start + lane; e < end; e += 32)
        s += vals[e] * x[cols[e]];
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[warp] = s;
}

__global__ void spmv_ell(const int *cols, const float *vals, const float *x, float *y, int rows, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int k = 0; k < width; ++k) {
        int c = cols[k * rows + r];
        if (c < 0) break;             // padding marker ends the row
        s += vals[k * rows + r] * x[c];
    }
    y[r] = s;
}

__global__ void spmv_coo(const int *ri, const int *ci, const float *v, const float *x, float *y, int nnz)
{
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += blockDim.x * gridDim.x)
        atomicAdd(&y[ri[e]], v[e] * x[ci[e]]);
}

// Row lengths and diagonal extraction with a binary search inside each row.
__global__ void csr_diag(const int *row_ptr, const int *cols, const float *vals, float *diag, int *lens, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int lo = row_ptr[r], hi = row_ptr[r + 1];
    lens[r] = hi - lo;
    float d = 0.0f;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = cols[mid];
        if (c == r) { d = vals[mid]; break; }
        if (c < r) lo = mid + 1; else hi = mid;
    }
    diag[r] = d;
}
