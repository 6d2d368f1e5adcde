// CUDA arrays: made with channel descriptors, copied to and from with 2D and 3D
// copies at offsets, queried, layered and cubemap shapes, and bad shapes and
// descriptors refused, the deprecated linear copies. Prints "arrays: ok".
#include <cstring>
#include "check.cuh"

int main() {
    // A 16 x 8 array of float2; a 5 x 4 block from (3, 1) of a 20 x 10 host grid
    // goes to (2, 1) of the array and comes back.
    const int W = 20, H = 10;
    static float2 grid[H][W], back[4][5];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) grid[y][x] = make_float2(x + 0.5f, y * 100.0f);
    cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &f2, 16, 8));
    CHECK(cudaMemcpy2DToArray(a, 2 * sizeof(float2), 1, &grid[1][3], W * sizeof(float2), 5 * sizeof(float2), 4,
                              cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(back, 5 * sizeof(float2), a, 2 * sizeof(float2), 1, 5 * sizeof(float2), 4,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++) EXPECT(back[y][x].x == grid[y + 1][x + 3].x && back[y][x].y == grid[y + 1][x + 3].y);
    cudaChannelFormatDesc got;
    cudaExtent ext;
    unsigned flags = 99;
    CHECK(cudaArrayGetInfo(&got, &ext, &flags, a));
    EXPECT(got.x == 32 && got.y == 32 && got.z == 0 && got.w == 0 && got.f == cudaChannelFormatKindFloat);
    EXPECT(ext.width == 16 && ext.height == 8 && ext.depth == 0 && flags == 0);
    // Past the array's rows or columns: refused, and nothing copied (the whole
    // array holds what it held before).
    static float2 before[8][16], after[8][16];
    CHECK(cudaMemcpy2DFromArray(before, sizeof before[0], a, 0, 0, sizeof before[0], 8, cudaMemcpyDeviceToHost));
    EXPECT(cudaMemcpy2DToArray(a, 12 * sizeof(float2), 0, grid, W * sizeof(float2), 5 * sizeof(float2), 1,
                               cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy2DToArray(a, 0, 6, grid, W * sizeof(float2), 5 * sizeof(float2), 3, cudaMemcpyHostToDevice) ==
           cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaMemcpy2DFromArray(after, sizeof after[0], a, 0, 0, sizeof after[0], 8, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(before, after, sizeof before) == 0);
    cudaChannelFormatDesc same;
    CHECK(cudaGetChannelDesc(&same, a));
    EXPECT(same.x == 32 && same.y == 32 && same.f == cudaChannelFormatKindFloat);
    CHECK(cudaFreeArray(a));

    // A 6 x 4 x 3 array of int: a box from (1, 1, 1) of an 8 x 5 x 4 host volume in
    // and out with cudaMemcpy3D, whose extent and positions count texels when an
    // array takes part (the host side's position too, as NVIDIA's runtime reads it).
    static int vol[4][5][8], box[3][4][6];
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 8; x++) vol[z][y][x] = 1000 * z + 100 * y + x;
    cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
    cudaArray_t v;
    CHECK(cudaMalloc3DArray(&v, &i1, make_cudaExtent(6, 4, 3)));
    cudaMemcpy3DParms in = {0};
    in.srcPtr = make_cudaPitchedPtr(vol, 8 * sizeof(int), 8, 5);
    in.srcPos = make_cudaPos(1, 1, 1);
    in.dstArray = v;
    in.extent = make_cudaExtent(6, 4, 3);
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));
    cudaMemcpy3DParms out = {0};
    out.srcArray = v;
    out.dstPtr = make_cudaPitchedPtr(box, 6 * sizeof(int), 6, 4);
    out.extent = make_cudaExtent(6, 4, 3);
    out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&out));
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 6; x++) EXPECT(box[z][y][x] == vol[z + 1][y + 1][x + 1]);
    // Slice 2 alone, from the array's own position (0, 0, 2).
    memset(box, 0, sizeof box);
    out.srcPos = make_cudaPos(0, 0, 2);
    out.extent = make_cudaExtent(6, 4, 1);
    CHECK(cudaMemcpy3D(&out));
    EXPECT(box[0][3][5] == vol[3][4][6] && box[1][0][0] == 0);
    // Four slices into an array of three: refused, and slice 0 is untouched.
    static int zeros[4][5][8];
    in.srcPtr = make_cudaPitchedPtr(zeros, 8 * sizeof(int), 8, 5);
    in.srcPos = make_cudaPos(0, 0, 0);
    in.extent = make_cudaExtent(6, 4, 4);
    EXPECT(cudaMemcpy3D(&in) == cudaErrorInvalidValue);
    cudaGetLastError();
    out.srcPos = make_cudaPos(0, 0, 0);
    CHECK(cudaMemcpy3D(&out));
    EXPECT(box[0][0][0] == vol[1][1][1]);
    CHECK(cudaFreeArray(v));

    // Layered and cubemap shapes; a cubemap's faces are square.
    cudaChannelFormatDesc u8 = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t layered, cube;
    CHECK(cudaMalloc3DArray(&layered, &u8, make_cudaExtent(4, 4, 5), cudaArrayLayered));
    CHECK(cudaArrayGetInfo(nullptr, &ext, &flags, layered));
    EXPECT(ext.depth == 5 && flags == cudaArrayLayered);
    CHECK(cudaMalloc3DArray(&cube, &u8, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
    EXPECT(cudaMalloc3DArray(&v, &u8, make_cudaExtent(8, 4, 6), cudaArrayCubemap) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFreeArray(layered));
    CHECK(cudaFreeArray(cube));

    // A mipmapped 16 x 8 float array of 5 levels: level l is 16 >> l by
    // max(8 >> l, 1); a 6th level does not exist; a level holds what is copied in.
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mip;
    EXPECT(cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(16, 8, 0), 6) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(16, 8, 0), 5));
    for (unsigned l = 0; l < 5; l++) {
        cudaArray_t level;
        CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
        CHECK(cudaArrayGetInfo(nullptr, &ext, nullptr, level));
        EXPECT(ext.width == (16u >> l) && ext.height == ((8u >> l) ? (8u >> l) : 1) && ext.depth == 0);
    }
    cudaArray_t level2;
    CHECK(cudaGetMipmappedArrayLevel(&level2, mip, 2));
    float in4[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}}, out4[2][4] = {};
    CHECK(cudaMemcpy2DToArray(level2, 0, 0, in4, sizeof in4[0], sizeof in4[0], 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(out4, sizeof out4[0], level2, 0, 0, sizeof out4[0], 2, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(in4, out4, sizeof in4) == 0);
    EXPECT(cudaGetMipmappedArrayLevel(&level2, mip, 5) == cudaErrorInvalidValue);
    EXPECT(cudaFreeArray(level2) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaFreeMipmappedArray(mip));

    // Three channels, or channels of different sizes: no array has them.
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    EXPECT(cudaMallocArray(&a, &three, 4, 4) == cudaErrorInvalidChannelDescriptor);
    cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
    EXPECT(cudaMallocArray(&a, &mixed, 4, 4) == cudaErrorInvalidChannelDescriptor);
    cudaGetLastError();
    // The deprecated linear copies run on through the rows: 10 ints from row 1,
    // int 3 of a 6 x 4 int array fill the rest of row 1 and row 2 and start row 3.
    {
        cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
        cudaArray_t lin;
        CHECK(cudaMallocArray(&lin, &i1, 6, 4));
        int zero[24] = {0}, ten[10], all[24], back10[10];
        for (int k = 0; k < 10; k++) ten[k] = 100 + k;
        CHECK(cudaMemcpy2DToArray(lin, 0, 0, zero, 6 * sizeof(int), 6 * sizeof(int), 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpyToArray(lin, 3 * sizeof(int), 1, ten, sizeof ten, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy2DFromArray(all, 6 * sizeof(int), lin, 0, 0, 6 * sizeof(int), 4, cudaMemcpyDeviceToHost));
        for (int k = 0; k < 24; k++) EXPECT(all[k] == (k >= 9 && k < 19 ? 100 + k - 9 : 0));
        CHECK(cudaMemcpyFromArray(back10, lin, 3 * sizeof(int), 1, sizeof back10, cudaMemcpyDeviceToHost));
        EXPECT(memcmp(back10, ten, sizeof ten) == 0);
        // Past the end: refused, as NVIDIA's runtime copies, a row at a time: row 3,
        // the last, takes the first 6 ints before the rest is refused.
        EXPECT(cudaMemcpyToArray(lin, 0, 3, ten, sizeof ten, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
        cudaGetLastError();
        int again[24];
        CHECK(cudaMemcpy2DFromArray(again, 6 * sizeof(int), lin, 0, 0, 6 * sizeof(int), 4, cudaMemcpyDeviceToHost));
        EXPECT(memcmp(again, all, 18 * sizeof(int)) == 0 && memcmp(again + 18, ten, 6 * sizeof(int)) == 0);
        CHECK(cudaFreeArray(lin));
    }
    // An array goes with its context: after cudaDeviceReset its handle is no array.
    {
        cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
        cudaArray_t gone;
        CHECK(cudaMallocArray(&gone, &f1, 4, 4));
        CHECK(cudaDeviceReset());
        cudaChannelFormatDesc got;
        cudaExtent ext;
        unsigned flags;
        EXPECT(cudaArrayGetInfo(&got, &ext, &flags, gone) != cudaSuccess);
        cudaGetLastError();
    }
    printf("arrays: ok\n");
    return 0;
}
