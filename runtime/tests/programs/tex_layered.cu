// A layered texture: 5 layers of 16 x 16 uchar4 texels read as normalized floats,
// each layer and texel at its centre, checked against v / 255; a layer index past
// the last (or negative) reads the last layer, as an H100 does (tests/tex).
// Prints "tex_layered: ok".
#include "check.cuh"

const int W = 16, H = 16, L = 5;

__global__ void fetch(cudaTextureObject_t t, float4* out, int layer_offset) {
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    out[(l * H + y) * W + x] = tex2DLayered<float4>(t, x + 0.5f, y + 0.5f, l + layer_offset);
}

int main() {
    static uchar4 img[L][H][W];
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) img[l][y][x] = make_uchar4(l * 50, y * 16, x * 16, 255 - x - y);
    cudaResourceDesc r = array_resource(array3d(&img[0][0][0], W, H, L, cudaArrayLayered));
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    float4* out;
    CHECK(cudaMallocManaged(&out, L * H * W * sizeof(float4)));
    for (int offset : {0, L, -7}) {
        fetch<<<L, dim3(W, H)>>>(t, out, offset);
        CHECK(cudaDeviceSynchronize());
        for (int l = 0; l < L; l++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    uchar4 v = img[offset == 0 ? l : L - 1][y][x];
                    float4 got = out[(l * H + y) * W + x];
                    EXPECT(got.x == v.x / 255.0f && got.y == v.y / 255.0f && got.z == v.z / 255.0f &&
                           got.w == v.w / 255.0f);
                }
    }
    printf("tex_layered: ok\n");
    return 0;
}
