// Matrix transpose: naive, shared tile with padding, and in-place square swap.
#define TD 32
#define BR 8

__global__ void transpose_naive(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < w && y + j < h)
            out[x * h + y + j] = in[(y + j) * w + x];
}

__global__ void transpose_tiled(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_inplace(double *m, int n)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n && c < n && c > r) {
        double a = m[r * n + c];
        m[r * n + c] = m[c * n + r];
        m[c * n + r] = a;
    }
}

// Byte matrix transpose using 8-bit shared tiles and __byte_perm packing.
__global__ void transpose_u8x4(const unsigned *in, unsigned *out, int wwords, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;   // word column
    int y = (blockIdx.y * blockDim.y + threadIdx.y) * 4; // 4 rows at a time
    if (x >= wwords || y + 3 >= h) return;
    unsigned a = in[(y + 0) * wwords + x], b = in[(y + 1) * wwords + x];
    unsigned c = in[(y + 2) * wwords + x], d = in[(y + 3) * wwords + x];
    unsigned ab_lo = __byte_perm(a, b, 0x5140), ab_hi = __byte_perm(a, b, 0x7362);
    unsigned cd_lo = __byte_perm(c, d, 0x5140), cd_hi = __byte_perm(c, d, 0x7362);
    int oh = wwords * 4;
    out[(x * 4 + 0) * (h / 4) + y / 4] = __byte_perm(ab_lo, cd_lo, 0x5410);
    out[(x * 4 + 1) * (h / 4) + y / 4] = __byte_perm(ab_lo, cd_lo, 0x7632);
    out[(x * 4 + 2) * (h / 4) + y / 4] = __byte_perm(ab_hi, cd_hi, 0x5410);
    out[(x * 4 + 3) * (h / 4) + y / 4] = __byte_perm(ab_hi, cd_hi, 0x7632) + (oh & 0);
}
