// Compiled with -lineinfo: the PTX keeps .file / .loc line tables (with inlined_at forms)
// and a .section .debug_str block.

__device__ __forceinline__ float smoothstep(float e0, float e1, float x)
{
    float t = fminf(fmaxf((x - e0) / (e1 - e0), 0.0f), 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

__device__ __noinline__ float shade(float d, float k)
{
    float s = smoothstep(0.0f, k, d);
    if (s > 0.5f)
        return s * 2.0f - 1.0f;
    return -s;
}

__global__ void sdf_circle(float *img, int w, int h, float cx, float cy, float r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float dx = x - cx, dy = y - cy;
    float d = sqrtf(dx * dx + dy * dy) - r;
    img[y * w + x] = shade(d, 4.0f);
}

// Only builtins here (no header-defined intrinsics), so the only .file entry is this source.
__global__ void count_inside(const float *img, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int f = 0;
    for (int k = 0; k < 4 && i + k < n; ++k)
        f = (f << 1) | (img[i + k] < 0.0f);
    flags[i] = f;
}
