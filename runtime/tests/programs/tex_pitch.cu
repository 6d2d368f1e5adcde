// A texture over pitched linear memory (cudaMallocPitch): a 40 x 30 float image,
// read at texel centres (exactly the texels) and halfway between horizontal
// neighbours with linear filtering (their mean); checked on the CPU. Prints
// "tex_pitch: ok".
#include "check.cuh"

const int W = 40, H = 30;

__global__ void fetch(cudaTextureObject_t t, float* at, float* mid) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    at[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
    mid[y * W + x] = tex2D<float>(t, x + 1.0f, y + 0.5f);
}

int main() {
    static float img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = (float)(x * x + 3 * y);
    float* d;
    size_t pitch;
    CHECK(cudaMallocPitch(&d, &pitch, W * sizeof(float), H));
    EXPECT(pitch >= W * sizeof(float));
    CHECK(cudaMemcpy2D(d, pitch, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    float *at, *mid;
    CHECK(cudaMallocManaged(&at, W * H * sizeof(float)));
    CHECK(cudaMallocManaged(&mid, W * H * sizeof(float)));
    fetch<<<dim3(5, 4), dim3(8, 8)>>>(t, at, mid);
    CHECK(cudaDeviceSynchronize());
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            EXPECT(at[y * W + x] == img[y][x]);
            float next = img[y][x + 1 < W ? x + 1 : x];
            EXPECT(mid[y * W + x] == (img[y][x] + next) / 2);
        }
    // A pitch that is no multiple of 32 bytes is refused.
    r.res.pitch2D.pitchInBytes = W * sizeof(float) + 4;
    EXPECT(cudaCreateTextureObject(&t, &r, &td, nullptr) == cudaErrorInvalidValue);
    cudaGetLastError();
    printf("tex_pitch: ok\n");
    return 0;
}
