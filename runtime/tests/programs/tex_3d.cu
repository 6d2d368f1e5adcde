// A 3D texture: an 8 x 6 x 4 float volume read at every texel centre (nearest
// point), halfway between slices with linear filtering (the two slices' mean), and
// outside the volume with clamp addressing; checked against the volume on the CPU.
// Prints "tex_3d: ok".
#include "check.cuh"

const int W = 8, H = 6, D = 4, N = W * H * D;

__global__ void fetch(cudaTextureObject_t point, cudaTextureObject_t linear, float* at, float* between, float* far) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int k = (z * H + y) * W + x;
    at[k] = tex3D<float>(point, x + 0.5f, y + 0.5f, z + 0.5f);
    between[k] = tex3D<float>(linear, x + 0.5f, y + 0.5f, z + 1.0f);
    far[k] = tex3D<float>(point, x - 20.0f, y + 100.0f, z + 0.5f);
}

int main() {
    static float vol[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) vol[z][y][x] = 100.0f * z + 10.0f * y + x;
    cudaResourceDesc r = array_resource(array3d(&vol[0][0][0], W, H, D));
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    cudaTextureObject_t point, linear;
    CHECK(cudaCreateTextureObject(&point, &r, &td, nullptr));
    td.filterMode = cudaFilterModeLinear;
    CHECK(cudaCreateTextureObject(&linear, &r, &td, nullptr));
    float *at, *between, *far;
    CHECK(cudaMallocManaged(&at, N * sizeof(float)));
    CHECK(cudaMallocManaged(&between, N * sizeof(float)));
    CHECK(cudaMallocManaged(&far, N * sizeof(float)));
    fetch<<<1, dim3(W, H, D)>>>(point, linear, at, between, far);
    CHECK(cudaDeviceSynchronize());
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int k = (z * H + y) * W + x;
                EXPECT(at[k] == vol[z][y][x]);
                float next = vol[z + 1 < D ? z + 1 : z][y][x];
                EXPECT(between[k] == (vol[z][y][x] + next) / 2);
                EXPECT(far[k] == vol[z][H - 1][0]);
            }
    printf("tex_3d: ok\n");
    return 0;
}
