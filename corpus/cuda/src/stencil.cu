// Stencils: 1D radius-R with halos, 2D 5-point Jacobi, 3D 7-point with register queue.
#define R 4
#define BLK 256

__constant__ float weights[2 * R + 1];

__global__ void stencil1d(const float *in, float *out, int n)
{
    __shared__ float s[BLK + 2 * R];
    int g = blockIdx.x * BLK + threadIdx.x;
    int l = threadIdx.x + R;
    s[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < R) {
        s[l - R] = g - R >= 0 ? in[g - R] : 0.0f;
        s[l + BLK] = g + BLK < n ? in[g + BLK] : 0.0f;
    }
    __syncthreads();
    if (g >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k)
        acc += weights[k + R] * s[l + k];
    out[g] = acc;
}

__global__ void jacobi2d(const float *u, float *v, int nx, int ny)
{
    __shared__ float t[18][18];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    bool in = x < nx && y < ny;
    t[ly][lx] = in ? u[y * nx + x] : 0.0f;
    if (threadIdx.x == 0) t[ly][0] = (x > 0 && y < ny) ? u[y * nx + x - 1] : 0.0f;
    if (threadIdx.x == 15) t[ly][17] = (x + 1 < nx && y < ny) ? u[y * nx + x + 1] : 0.0f;
    if (threadIdx.y == 0) t[0][lx] = (y > 0 && x < nx) ? u[(y - 1) * nx + x] : 0.0f;
    if (threadIdx.y == 15) t[17][lx] = (y + 1 < ny && x < nx) ? u[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    if (!in) return;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        v[y * nx + x] = t[ly][lx];          // Dirichlet boundary
        return;
    }
    v[y * nx + x] = 0.25f * (t[ly][lx - 1] + t[ly][lx + 1] + t[ly - 1][lx] + t[ly + 1][lx]);
}

__global__ void stencil3d_7pt(const double *in, double *out, int nx, int ny, int nz, double c0, double c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
    size_t plane = (size_t)nx * ny;
    size_t idx = (size_t)y * nx + x;
    double below = in[idx], cur = in[idx + plane], above;
    for (int z = 1; z < nz - 1; ++z) {
        above = in[idx + (z + 1) * plane];
        size_t c = idx + z * plane;
        out[c] = c0 * cur + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + below + above);
        below = cur;
        cur = above;
    }
}
