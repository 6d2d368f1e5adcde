// A bilinear image rotation through a 2D texture: a 64 x 48 float image rotated by
// 30 degrees about its centre with linear filtering, normalized coordinates and
// border addressing, checked against the same rotation on the CPU with the CUDA
// Programming Guide's filtering (texel weights in 8-bit fixed point). Prints
// "tex_rotate: ok".
#include <cmath>
#include "check.cuh"

const int W = 64, H = 48;

// Each pixel's texture coordinates go to `coords` too, for the CPU to use the same.
__global__ void rotate(cudaTextureObject_t t, float* out, float2* coords, float c, float s) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    float u = x - W / 2.0f, v = y - H / 2.0f;
    float tu = (u * c - v * s + W / 2.0f) / W, tv = (u * s + v * c + H / 2.0f) / H;
    out[y * W + x] = tex2D<float>(t, tu, tv);
    coords[y * W + x] = make_float2(tu, tv);
}

// The Guide's bilinear filtering: x - 0.5 split into a texel and a weight of
// 1/256ths; the four weights of 1/256ths too (as an H100 makes them).
static float reference(const float* img, float tu, float tv) {
    double xs = std::floor((double)tu * (1 << 21)) / (1 << 21) * W - 0.5;
    double ys = std::floor((double)tv * (1 << 21)) / (1 << 21) * H - 0.5;
    long qx = (long)std::floor(xs * 256 + 0.5), qy = (long)std::floor(ys * 256 + 0.5);
    long i = qx >> 8, j = qy >> 8;
    long a = qx & 255, b = qy & 255, w11 = (a * b + 128) >> 8;
    auto at = [&](long x, long y) { return (x < 0 || y < 0 || x >= W || y >= H) ? 0.0 : (double)img[y * W + x]; };
    return (float)(((256 + w11 - a - b) * at(i, j) + (a - w11) * at(i + 1, j) + (b - w11) * at(i, j + 1) +
                    w11 * at(i + 1, j + 1)) / 256);
}

int main() {
    static float img[H][W], out[H * W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = std::sin(x * 0.3f) * std::cos(y * 0.2f) + (x ^ y) / 64.0f;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, W, H));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = array_resource(a);
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    static float2 coords[H * W];
    float* d;
    float2* dc;
    CHECK(cudaMalloc(&d, sizeof out));
    CHECK(cudaMalloc(&dc, sizeof coords));
    float c = std::cos(0.5235988f), s = std::sin(0.5235988f);
    rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(t, d, dc, c, s);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(coords, dc, sizeof coords, cudaMemcpyDeviceToHost));
    int bad = 0, border = 0;
    for (int k = 0; k < W * H; k++) {
        float want = reference(&img[0][0], coords[k].x, coords[k].y);
        if (std::fabs(out[k] - want) > 1e-6f * std::fabs(want)) bad++;
        border += out[k] == 0.0f;
    }
    EXPECT(bad == 0);
    EXPECT(border > 100);  // the corners rotate out of the image
    CHECK(cudaDestroyTextureObject(t));
    // A destroyed object is no texture: the next fetch through it faults.
    rotate<<<1, 1>>>(t, d, dc, c, s);
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    printf("tex_rotate: ok\n");
    return 0;
}
