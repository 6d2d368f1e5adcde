/* Tensor maps and tensor copies (TMA): cuTensorMapEncodeTiled's checks, then boxes of
   2D and 3D tensors copied into shared memory (inside the tensor, across its edges
   with zero and NaN fill, with element strides, with 32- and 128-byte swizzles) and
   one copied back. Each expected box is computed here from CUDA's description of the
   map's fields (cuda.h): box element (k0, k1, k2) is tensor element (x + k0,
   y + k1 * estride1, z + k2 * estride2), or the fill outside the tensor; the box lies
   densely in shared memory, and a swizzle XORs bits 4.. of each byte address with
   bits 7.. (1, 2 or 3 bits for 32, 64, 128 bytes). */
#include "check.h"
#include <math.h>
#include <stdint.h>

enum { TILE = 2048 }; /* words of shared memory the kernels copy out */

static CUfunction load2, load3, store2;

static uint64_t swizzled(uint64_t a, int span) {
    int bits = span == 32 ? 1 : span == 64 ? 2 : span == 128 ? 3 : 0;
    return a ^ (((a >> 7) & ((1u << bits) - 1)) << 4);
}

/* Runs a 2D or 3D load and checks every shared byte against the model. */
static void check_load(const CUtensorMap *map, const void *tensor, int esize, const uint64_t *dims,
                       const uint64_t *strides, const uint32_t *box, const uint32_t *estr, int span,
                       int nan_fill, int rank, int x, int y, int z) {
    uint32_t n[3] = {box[0], (box[1] + estr[1] - 1) / estr[1], rank == 3 ? (box[2] + estr[2] - 1) / estr[2] : 1};
    int bytes = (int)(n[0] * n[1] * n[2] * esize);
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, TILE * 4));
    void *args2[] = {(void *)map, &out, &x, &y, &bytes};
    void *args3[] = {(void *)map, &out, &x, &y, &z, &bytes};
    CHECK(cuLaunchKernel(rank == 3 ? load3 : load2, 1, 1, 1, 128, 1, 1, 0, NULL, rank == 3 ? args3 : args2, NULL));
    static uint8_t got[TILE * 4], want[TILE * 4];
    CHECK(cuMemcpyDtoH(got, out, sizeof got));
    CHECK(cuMemFree(out));
    memset(want, 0, sizeof want);
    for (int i = 0; i < TILE; i++) memcpy(want + 4 * i, &(uint32_t){0xdeadbeef}, 4);
    for (uint32_t k2 = 0; k2 < n[2]; k2++)
        for (uint32_t k1 = 0; k1 < n[1]; k1++)
            for (uint32_t k0 = 0; k0 < n[0]; k0++) {
                int64_t c[3] = {x + (int64_t)k0, y + (int64_t)k1 * estr[1], z + (int64_t)k2 * (rank == 3 ? estr[2] : 1)};
                int inside = 1;
                uint64_t off = 0;
                for (int d = 0; d < rank; d++) {
                    if (c[d] < 0 || (uint64_t)c[d] >= dims[d]) inside = 0;
                    else off += (uint64_t)c[d] * (d == 0 ? (uint64_t)esize : strides[d - 1]);
                }
                uint8_t v[8] = {0};
                if (inside) memcpy(v, (const uint8_t *)tensor + off, esize);
                else if (nan_fill && esize == 4) memcpy(v, &(uint32_t){0x7fffffff}, 4);
                uint64_t at = swizzled(((k2 * n[1] + k1) * n[0] + k0) * esize, span);
                memcpy(want + at, v, esize);
            }
    if (memcmp(got, want, sizeof got) != 0) {
        for (int i = 0; i < TILE * 4; i++)
            if (got[i] != want[i]) {
                fprintf(stderr, "box at (%d, %d, %d): byte %d is %#x, expected %#x\n", x, y, z, i, got[i], want[i]);
                exit(1);
            }
    }
}

/* A map of the 2D float tensor (its L2 promotion is a hint: any one will do). */
static void encode_f32_2d(CUtensorMap *map, CUdeviceptr dev, uint64_t *dims, uint64_t *strides, uint32_t *box,
                          uint32_t *estr, CUtensorMapSwizzle swizzle, CUtensorMapFloatOOBfill fill) {
    CHECK(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)dev, dims, strides, box, estr,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, fill));
}

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CHECK(cuModuleGetFunction(&load2, mod, "tma_load_2d"));
    CHECK(cuModuleGetFunction(&load3, mod, "tma_load_3d"));
    CHECK(cuModuleGetFunction(&store2, mod, "tma_store_2d"));

    /* A 2D float tensor: 100 columns, 70 rows of 104 floats (4 of padding). */
    enum { COLS = 100, ROWS = 70, PITCH = 104 };
    static float host[ROWS * PITCH];
    for (int i = 0; i < ROWS * PITCH; i++) host[i] = (float)i + 0.5f;
    CUdeviceptr dev;
    CHECK(cuMemAlloc(&dev, sizeof host));
    CHECK(cuMemcpyHtoD(dev, host, sizeof host));
    uint64_t dims[2] = {COLS, ROWS}, strides[1] = {PITCH * 4};
    uint32_t box[2] = {32, 8}, ones[3] = {1, 1, 1}, every2[2] = {1, 2};
    CUtensorMap map, nan_map, sw_map, strided;
    if (getenv("TMA_FREED")) {
        /* A map over memory freed before the kernel reads through it: the copy reads
           freed memory, an access out of bounds (the context is broken after it). */
        CUdeviceptr gone, out;
        CHECK(cuMemAlloc(&gone, sizeof host));
        encode_f32_2d(&map, gone, dims, strides, box, ones, CU_TENSOR_MAP_SWIZZLE_NONE,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        CHECK(cuMemFree(gone));
        CHECK(cuMemAlloc(&out, TILE * 4));
        int x = 0, y = 0, bytes = 32 * 8 * 4;
        void *args[] = {&map, &out, &x, &y, &bytes};
        CHECK(cuLaunchKernel(load2, 1, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
        EXPECT_ERR(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
        puts("tma freed: ok");
        return 0;
    }
    encode_f32_2d(&map, dev, dims, strides, box, ones, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encode_f32_2d(&nan_map, dev, dims, strides, box, ones, CU_TENSOR_MAP_SWIZZLE_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
    encode_f32_2d(&sw_map, dev, dims, strides, box, ones, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encode_f32_2d(&strided, dev, dims, strides, box, every2, CU_TENSOR_MAP_SWIZZLE_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    check_load(&map, host, 4, dims, strides, box, ones, 0, 0, 2, 5, 3, 0);      /* inside */
    check_load(&map, host, 4, dims, strides, box, ones, 0, 0, 2, -4, 66, 0);    /* left and bottom edges */
    check_load(&nan_map, host, 4, dims, strides, box, ones, 0, 1, 2, 90, -2, 0); /* NaN fill */
    check_load(&sw_map, host, 4, dims, strides, box, ones, 128, 0, 2, 10, 20, 0);
    check_load(&sw_map, host, 4, dims, strides, box, ones, 128, 0, 2, 80, 65, 0);
    check_load(&strided, host, 4, dims, strides, box, every2, 0, 0, 2, 7, 60, 0); /* rows 60, 62, .., 74 */

    /* A 3D tensor of 16-bit values: 40 x 30 x 6, rows of 48, planes of 30 rows. */
    enum { X3 = 40, Y3 = 30, Z3 = 6, P3 = 48 };
    static uint16_t host3[Z3 * Y3 * P3];
    for (int i = 0; i < Z3 * Y3 * P3; i++) host3[i] = (uint16_t)(i * 7 + 1);
    CUdeviceptr dev3;
    CHECK(cuMemAlloc(&dev3, sizeof host3));
    CHECK(cuMemcpyHtoD(dev3, host3, sizeof host3));
    uint64_t dims3[3] = {X3, Y3, Z3}, strides3[2] = {P3 * 2, P3 * 2 * Y3};
    uint32_t box3[3] = {16, 4, 5}, estr3[3] = {1, 1, 2};
    CUtensorMap map3;
    CHECK(cuTensorMapEncodeTiled(&map3, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, (void *)dev3, dims3, strides3, box3, estr3,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    check_load(&map3, host3, 2, dims3, strides3, box3, estr3, 32, 0, 3, 30, 28, 1);
    check_load(&map3, host3, 2, dims3, strides3, box3, estr3, 32, 0, 3, 0, 0, 0);

    /* Store: a box of 32 x 8 at (80, 66): only the 20 x 4 elements inside are written. */
    static uint32_t words[TILE];
    for (int i = 0; i < TILE; i++) words[i] = 0x40000000u + (uint32_t)i;
    CUdeviceptr in;
    CHECK(cuMemAlloc(&in, sizeof words));
    CHECK(cuMemcpyHtoD(in, words, sizeof words));
    int sx = 80, sy = 66;
    void *sargs[] = {&map, &in, &sx, &sy};
    CHECK(cuLaunchKernel(store2, 1, 1, 1, 128, 1, 1, 0, NULL, sargs, NULL));
    static float after[ROWS * PITCH];
    CHECK(cuMemcpyDtoH(after, dev, sizeof after));
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < PITCH; c++) {
            float want = host[r * PITCH + c];
            if (c >= sx && c < COLS && r >= sy && r < sy + 8) memcpy(&want, &words[(r - sy) * 32 + (c - sx)], 4);
            EXPECT(memcmp(&after[r * PITCH + c], &want, 4) == 0);
        }

    /* CUDA's requirements of the arguments. */
    CUtensorMap bad;
    uint64_t odd_stride[1] = {PITCH * 4 + 8};
    uint32_t zero_box[2] = {0, 8}, wide_box[2] = {64, 8};
    EXPECT_ERR(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)dev, dims, odd_stride, box, ones,
                                      0, 0, 0, 0),
               CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)dev, dims, strides, zero_box,
                                      ones, 0, 0, 0, 0),
               CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)dev, dims, strides, wide_box,
                                      ones, 0, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0),
               CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6, (void *)dev, dims, strides, box, ones,
                                      0, 0, 0, 0),
               CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuTensorMapEncodeTiled((CUtensorMap *)((char *)&bad + 8), CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                      (void *)dev, dims, strides, box, ones, 0, 0, 0, 0),
               CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, (void *)dev, dims3, strides3, box3,
                                      estr3, CU_TENSOR_MAP_INTERLEAVE_16B, 0, 0, 0),
               CUDA_ERROR_NOT_SUPPORTED);

    /* cuTensorMapReplaceAddress moves a map to another tensor of the same shape. */
    for (int i = 0; i < ROWS * PITCH; i++) host[i] = -(float)i;
    CUdeviceptr dev_b;
    CHECK(cuMemAlloc(&dev_b, sizeof host));
    CHECK(cuMemcpyHtoD(dev_b, host, sizeof host));
    CHECK(cuTensorMapReplaceAddress(&map, (void *)dev_b));
    check_load(&map, host, 4, dims, strides, box, ones, 0, 0, 2, 33, 33, 0);

    /* A box larger than the kernel's shared memory (256 x 16 floats, 16 KiB) is an
       access out of bounds, even where it lies outside the tensor; the context is
       then broken, so this comes last. */
    uint32_t big_box[2] = {256, 16};
    CUtensorMap big;
    encode_f32_2d(&big, dev, dims, strides, big_box, ones, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    int far = 1 << 30, big_bytes = 256 * 16 * 4;
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, TILE * 4));
    void *bargs[] = {&big, &out, &far, &far, &big_bytes};
    CHECK(cuLaunchKernel(load2, 1, 1, 1, 128, 1, 1, 0, NULL, bargs, NULL));
    EXPECT_ERR(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    puts("tma: ok");
    return 0;
}
