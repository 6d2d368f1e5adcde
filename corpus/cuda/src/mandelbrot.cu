// Escape-time fractals: data-dependent trip counts, float and double variants, early exit.

__global__ void mandelbrot_f32(unsigned short *iters, int w, int h, float x0, float y0, float dx, float dy, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float cr = x0 + px * dx, ci = y0 + py * dy;
    // cardioid / bulb test: skip the loop entirely
    float q = (cr - 0.25f) * (cr - 0.25f) + ci * ci;
    if (q * (q + (cr - 0.25f)) <= 0.25f * ci * ci || (cr + 1.0f) * (cr + 1.0f) + ci * ci <= 0.0625f) {
        iters[py * w + px] = (unsigned short)max_iter;
        return;
    }
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < max_iter) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f) break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        ++k;
    }
    iters[py * w + px] = (unsigned short)k;
}

__global__ void mandelbrot_f64_smooth(float *out, int w, int h, double x0, double y0, double scale, int max_iter)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= w * h) return;
    int px = idx % w, py = idx / w;
    double cr = x0 + px * scale, ci = y0 + py * scale;
    double zr = 0.0, zi = 0.0, m2 = 0.0;
    int k;
    for (k = 0; k < max_iter && m2 <= 256.0; ++k) {
        double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        m2 = zr * zr + zi * zi;
    }
    out[idx] = k >= max_iter ? 0.0f : (float)(k + 1 - log2(log(sqrt(m2))));
}

__global__ void julia_u8(unsigned char *img, int w, int h, float cr, float ci)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float zr = 3.0f * px / w - 1.5f, zi = 2.0f * py / h - 1.0f;
    unsigned char k = 0;
    do {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
    } while (++k != 255 && zr * zr + zi * zi < 4.0f);
    img[py * w + px] = k;
}
