// A surface write, then a texture read of the same array: one kernel writes
// x * 1000 + y to every texel of a 32 x 24 float array with surf2Dwrite (x in
// bytes), another reads it back with tex2D at the texel centres and with
// surf2Dread, .zero beyond the edge. Prints "surf_tex: ok".
#include "check.cuh"

const int W = 32, H = 24;

__global__ void write(cudaSurfaceObject_t s) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    surf2Dwrite(x * 1000.0f + y, s, x * (int)sizeof(float), y);
}

__global__ void read(cudaTextureObject_t t, cudaSurfaceObject_t s, float* tex, float* surf, float* outside) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    tex[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
    surf[y * W + x] = surf2Dread<float>(s, x * (int)sizeof(float), y);
    outside[y * W + x] = surf2Dread<float>(s, (x + W) * (int)sizeof(float), y, cudaBoundaryModeZero);
}

int main() {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc r = array_resource(a);
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    write<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(s);
    CHECK(cudaGetLastError());
    float *tex, *surf, *outside;
    CHECK(cudaMallocManaged(&tex, W * H * sizeof(float)));
    CHECK(cudaMallocManaged(&surf, W * H * sizeof(float)));
    CHECK(cudaMallocManaged(&outside, W * H * sizeof(float)));
    read<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(t, s, tex, surf, outside);
    CHECK(cudaDeviceSynchronize());
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = x * 1000.0f + y;
            EXPECT(tex[y * W + x] == want && surf[y * W + x] == want && outside[y * W + x] == 0.0f);
        }
    // The array holds what the kernel wrote.
    static float back[H][W];
    CHECK(cudaMemcpy2DFromArray(back, W * sizeof(float), a, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    EXPECT(back[5][7] == 7005.0f);
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    printf("surf_tex: ok\n");
    return 0;
}
