/* Memory with unified addressing: every copy and fill, at offsets into allocations;
   managed memory and mapped host memory, written by the host and by a kernel and
   read back by both; pointer attributes. */
#include "check.h"

static CUfunction add_one;

static void run_add_one(CUdeviceptr p, int n) {
    void *args[] = {&p, &n};
    CHECK(cuLaunchKernel(add_one, (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
}

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CHECK(cuModuleGetFunction(&add_one, mod, "add_one"));

    /* Fills of 8, 16 and 32 bits, at offsets, and 2D fills with a pitch. */
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, 4096));
    CHECK(cuMemsetD8(d, 0xab, 4096));
    CHECK(cuMemsetD16(d + 2, 0x1234, 3));
    CHECK(cuMemsetD32(d + 12, 0xdeadbeef, 2));
    unsigned char b[32];
    CHECK(cuMemcpyDtoH(b, d, sizeof b));
    unsigned char want[32] = {0xab, 0xab, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0xab, 0xab, 0xab, 0xab,
                              0xef, 0xbe, 0xad, 0xde, 0xef, 0xbe, 0xad, 0xde};
    for (int i = 20; i < 32; i++) want[i] = 0xab;
    EXPECT(memcmp(b, want, 32) == 0);
    EXPECT_ERR(cuMemsetD32(d + 2, 0, 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemsetD8(d + 4000, 0, 100), CUDA_ERROR_INVALID_VALUE);
    /* 3 rows of 5 16-bit values, 64 bytes apart. */
    CHECK(cuMemsetD8(d, 0, 4096));
    CHECK(cuMemsetD2D16(d + 256, 64, 0x0707, 5, 3));
    unsigned short rows[3 * 32];
    CHECK(cuMemcpyDtoH(rows, d + 256, sizeof rows));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 32; c++) EXPECT(rows[r * 32 + c] == (c < 5 ? 0x0707 : 0));
    CHECK(cuMemsetD2D8Async(d, 16, 1, 4, 2, NULL));
    CHECK(cuMemsetD2D32Async(d + 1024, 32, 9, 2, 2, NULL));

    /* Copies in every direction, sync and async, at offsets. */
    int src[100], dst[100];
    for (int i = 0; i < 100; i++) src[i] = i * i;
    CUdeviceptr e;
    CHECK(cuMemAlloc(&e, 1024));
    CHECK(cuMemcpyHtoD(d + 100, src, sizeof src));
    CHECK(cuMemcpyDtoD(e + 8, d + 100, sizeof src));
    CHECK(cuMemcpyDtoH(dst, e + 8, sizeof dst));
    EXPECT(memcmp(src, dst, sizeof src) == 0);
    memset(dst, 0, sizeof dst);
    CHECK(cuMemcpyHtoDAsync(e, src + 50, 50 * sizeof(int), NULL));
    CHECK(cuMemcpyDtoDAsync(d, e, 50 * sizeof(int), NULL));
    CHECK(cuMemcpyDtoHAsync(dst, d, 50 * sizeof(int), NULL));
    CHECK(cuCtxSynchronize());
    EXPECT(memcmp(src + 50, dst, 50 * sizeof(int)) == 0);
    /* cuMemcpy tells the direction from the addresses. */
    memset(dst, 0, sizeof dst);
    CHECK(cuMemcpy(d + 40, (CUdeviceptr)(uintptr_t)src, sizeof src));
    CHECK(cuMemcpy((CUdeviceptr)(uintptr_t)dst, d + 40, sizeof dst));
    EXPECT(memcmp(src, dst, sizeof src) == 0);
    CHECK(cuMemcpyAsync(e, d + 40, 16, NULL));
    /* A 2D copy: a 3x4 block of ints out of a 10-int-wide host array into pitched
       device memory, and back. */
    CUdeviceptr pitched;
    size_t pitch = 0;
    CHECK(cuMemAllocPitch(&pitched, &pitch, 40, 3, 4));
    EXPECT(pitch >= 40 && pitch % 512 == 0);
    CUDA_MEMCPY2D m = {0};
    m.srcMemoryType = CU_MEMORYTYPE_HOST, m.srcHost = src, m.srcPitch = 40, m.srcXInBytes = 8, m.srcY = 1;
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE, m.dstDevice = pitched, m.dstPitch = pitch;
    m.WidthInBytes = 16, m.Height = 3;
    CHECK(cuMemcpy2D(&m));
    int block[12];
    CUDA_MEMCPY2D back = {0};
    back.srcMemoryType = CU_MEMORYTYPE_DEVICE, back.srcDevice = pitched, back.srcPitch = pitch;
    back.dstMemoryType = CU_MEMORYTYPE_HOST, back.dstHost = block, back.dstPitch = 16;
    back.WidthInBytes = 16, back.Height = 3;
    CHECK(cuMemcpy2DAsync(&back, NULL));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) EXPECT(block[r * 4 + c] == src[(r + 1) * 10 + 2 + c]);

    /* Managed memory: the host writes it, a kernel adds one, the host reads it in
       place, and a copy reads it too. */
    CUdeviceptr managed;
    CHECK(cuMemAllocManaged(&managed, 256 * sizeof(int), CU_MEM_ATTACH_GLOBAL));
    int *mp = (int *)(uintptr_t)managed;
    for (int i = 0; i < 256; i++) mp[i] = 3 * i;
    run_add_one(managed, 256);
    CHECK(cuCtxSynchronize());
    for (int i = 0; i < 256; i++) EXPECT(mp[i] == 3 * i + 1);
    CHECK(cuMemcpyDtoH(dst, managed + 4, sizeof dst));
    EXPECT(dst[0] == 4);
    unsigned int is_managed = 0, mem_type = 0;
    CHECK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, managed + 8));
    EXPECT(is_managed == 1);
    CUdeviceptr base;
    size_t size;
    CHECK(cuMemGetAddressRange(&base, &size, managed + 100));
    EXPECT(base == managed && size == 256 * sizeof(int));

    /* Mapped host memory from cuMemHostAlloc. */
    int *hp = NULL;
    CHECK(cuMemHostAlloc((void **)&hp, 64 * sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP));
    for (int i = 0; i < 64; i++) hp[i] = -i;
    CUdeviceptr hdev;
    CHECK(cuMemHostGetDevicePointer(&hdev, hp, 0));
    run_add_one(hdev, 64);
    CHECK(cuCtxSynchronize());
    for (int i = 0; i < 64; i++) EXPECT(hp[i] == 1 - i);
    CHECK(cuPointerGetAttribute(&mem_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, hdev));
    EXPECT(mem_type == CU_MEMORYTYPE_HOST);
    EXPECT_ERR(cuMemFree(hdev), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemFreeHost(hp));

    /* The program's own memory, registered: a kernel writes it in place. */
    int *own = malloc(100 * sizeof(int));
    for (int i = 0; i < 100; i++) own[i] = 10 * i;
    CHECK(cuMemHostRegister(own, 100 * sizeof(int), CU_MEMHOSTREGISTER_DEVICEMAP));
    EXPECT_ERR(cuMemHostRegister(own, 100 * sizeof(int), 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CUdeviceptr owndev;
    CHECK(cuMemHostGetDevicePointer(&owndev, own, 0));
    run_add_one(owndev, 100);
    CHECK(cuCtxSynchronize());
    for (int i = 0; i < 100; i++) EXPECT(own[i] == 10 * i + 1);
    CHECK(cuMemHostUnregister(own));
    EXPECT_ERR(cuMemHostUnregister(own), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    free(own);

    /* Device memory's device pointer attribute, and memory the driver does not know. */
    CUdeviceptr devptr = 0;
    CHECK(cuPointerGetAttribute(&devptr, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, d + 10));
    EXPECT(devptr == d + 10);
    EXPECT_ERR(cuPointerGetAttribute(&mem_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)src),
               CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED};
    unsigned int t = 99, mm = 99;
    void *vals[2] = {&t, &mm};
    CHECK(cuPointerGetAttributes(2, attrs, vals, (CUdeviceptr)(uintptr_t)src));
    EXPECT(t == 0 && mm == 0);

    /* cuMemcpy past an allocation's end, or into freed memory, is refused. */
    static char big[8192];
    CUdeviceptr small;
    CHECK(cuMemAlloc(&small, 64));
    EXPECT_ERR(cuMemcpy(small, (CUdeviceptr)(uintptr_t)big, sizeof big), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemcpy((CUdeviceptr)(uintptr_t)big, small + 32, 64), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemFree(small));
    EXPECT_ERR(cuMemcpy(small, (CUdeviceptr)(uintptr_t)big, 16), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemcpyHtoD(small, big, 16), CUDA_ERROR_INVALID_VALUE);

    size_t free_b = 0, total_b = 0;
    CHECK(cuMemGetInfo(&free_b, &total_b));
    EXPECT(free_b > 0 && free_b <= total_b);
    CHECK(cuMemFree(managed));
    CHECK(cuMemFree(pitched));
    CHECK(cuMemFree(d));
    CHECK(cuMemFree(e));
    puts("memory: ok");
    return 0;
}
