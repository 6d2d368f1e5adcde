// A mipmapped fetch with tex.level: a 32 x 32 mipmapped array of 6 levels whose
// texels hold their level, read with tex2DLod at levels of detail from -1 to 7:
// nearest level between levels (halves up), or the two around it blended by the
// level fraction in 1/256ths (the Programming Guide's 8-bit fraction; an H100
// truncates it). Prints "tex_mip: ok".
#include <cmath>
#include "check.cuh"

const int S = 32, LEVELS = 6, N = 64;

__global__ void fetch(cudaTextureObject_t t, const float* lods, float* out) {
    int k = threadIdx.x;
    out[k] = tex2DLod<float>(t, 0.3f, 0.7f, lods[k]);
}

int main() {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(S, S, 0), LEVELS));
    for (int l = 0; l < LEVELS; l++) {
        cudaArray_t a;
        CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
        int s = S >> l;
        static float level[S * S];
        for (int k = 0; k < s * s; k++) level[k] = (float)l;
        CHECK(cudaMemcpy2DToArray(a, 0, 0, level, s * sizeof(float), s * sizeof(float), s, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = LEVELS - 1;
    cudaTextureObject_t nearest, blended;
    CHECK(cudaCreateTextureObject(&nearest, &r, &td, nullptr));
    td.mipmapFilterMode = cudaFilterModeLinear;
    CHECK(cudaCreateTextureObject(&blended, &r, &td, nullptr));
    float *lods, *a, *b;
    CHECK(cudaMallocManaged(&lods, N * sizeof(float)));
    CHECK(cudaMallocManaged(&a, N * sizeof(float)));
    CHECK(cudaMallocManaged(&b, N * sizeof(float)));
    for (int k = 0; k < N; k++) lods[k] = -1.0f + k * 0.13f;
    fetch<<<1, N>>>(nearest, lods, a);
    fetch<<<1, N>>>(blended, lods, b);
    CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < N; k++) {
        double lod = std::fmin(std::fmax(lods[k], 0.0), LEVELS - 1.0);
        EXPECT(a[k] == std::fmin(std::floor(lod + 0.5), LEVELS - 1.0));
        EXPECT(b[k] == (float)(std::floor(lod * 256) / 256));
    }
    printf("tex_mip: ok\n");
    return 0;
}
