// A cubemap: six 4 x 4 float faces, each texel face * 100 + y * 10 + x, read by
// directions through every texel's centre of every face (the CUDA Programming
// Guide's cubemap table, inverted on the CPU). Prints "tex_cubemap: ok".
#include "check.cuh"

const int S = 4;

__global__ void fetch(cudaTextureObject_t t, const float3* dirs, float* out) {
    int k = threadIdx.x;
    out[k] = texCubemap<float>(t, dirs[k].x, dirs[k].y, dirs[k].z);
}

int main() {
    static float faces[6][S][S];
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) faces[f][y][x] = f * 100.0f + y * 10.0f + x;
    cudaResourceDesc r = array_resource(array3d(&faces[0][0][0], S, S, 6, cudaArrayCubemap));
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    const int N = 6 * S * S;
    float3* dirs;
    float* out;
    CHECK(cudaMallocManaged(&dirs, N * sizeof(float3)));
    CHECK(cudaMallocManaged(&out, N * sizeof(float)));
    // Face f's (s, t) in [-1, 1] and its major axis, per the Guide's table:
    // +x: (-z, -y), -x: (z, -y), +y: (x, z), -y: (x, -z), +z: (x, -y), -z: (-x, -y).
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++) {
                float s = 2.0f * (x + 0.5f) / S - 1, t = 2.0f * (y + 0.5f) / S - 1;
                float3 d;
                switch (f) {
                    case 0: d = make_float3(1, -t, -s); break;
                    case 1: d = make_float3(-1, -t, s); break;
                    case 2: d = make_float3(s, 1, t); break;
                    case 3: d = make_float3(s, -1, -t); break;
                    case 4: d = make_float3(s, -t, 1); break;
                    default: d = make_float3(-s, -t, -1); break;
                }
                dirs[(f * S + y) * S + x] = d;
            }
    fetch<<<1, N>>>(t, dirs, out);
    CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < N; k++) EXPECT(out[k] == (&faces[0][0][0])[k]);
    printf("tex_cubemap: ok\n");
    return 0;
}
