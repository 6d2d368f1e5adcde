/* What a program meets at the edges of ptxvm's driver: a function it does not
   implement (CUDA_ERROR_NOT_SUPPORTED, twice, said once on stderr), the private
   tables NVIDIA's runtime asks for (an unknown one refused; a known one's slots
   that ptxvm does not serve answer an error instead of jumping to NULL; bad
   arguments to a served slot answer errors), and the one device's peers. */
#include "check.h"

typedef CUresult (*slot_fn)(void *, void *, void *, void *);

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    (void)mod;
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, 64));
    CUipcMemHandle h;
    EXPECT_ERR(cuIpcGetMemHandle(&h, d), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_ERR(cuIpcGetMemHandle(&h, d), CUDA_ERROR_NOT_SUPPORTED);

    const void *table = (const void *)1;
    CUuuid unknown = {{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}};
    EXPECT_ERR(cuGetExportTable(&table, &unknown), CUDA_ERROR_INVALID_VALUE);
    EXPECT(table == NULL);
    EXPECT_ERR(cuGetExportTable(NULL, &unknown), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuGetExportTable(&table, NULL), CUDA_ERROR_INVALID_VALUE);
    /* Context-local storage: put, remove, get, and slot 3, which ptxvm does not serve. */
    CUuuid storage = {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}};
    CHECK(cuGetExportTable(&table, &storage));
    const slot_fn *slots = (const slot_fn *)table;
    int key, value;
    void *got = NULL;
    CHECK(slots[0](NULL, &key, &value, NULL));
    CHECK(slots[2](&got, NULL, &key, NULL));
    EXPECT(got == &value);
    EXPECT_ERR(slots[2](&got, NULL, &value, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_ERR(slots[2](NULL, NULL, &key, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(slots[0]((void *)0x1234, &key, &value, NULL), CUDA_ERROR_INVALID_CONTEXT);
    CHECK(slots[1](NULL, &key, NULL, NULL));
    EXPECT_ERR(slots[2](&got, NULL, &key, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(slots[3] != NULL);
    EXPECT_ERR(slots[3](NULL, NULL, NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
    /* The runtime interface's table: its size in slot 0, loading a NULL image fails. */
    CUuuid runtime = {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}};
    CHECK(cuGetExportTable(&table, &runtime));
    EXPECT(((const size_t *)table)[0] == 10 * sizeof(void *));
    slots = (const slot_fn *)table;
    CUmodule none;
    EXPECT_ERR(slots[1](&none, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);

    /* One device: not its own peer. */
    int can = -1;
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceCanAccessPeer(&can, dev, dev));
    EXPECT(can == 0);
    EXPECT_ERR(cuDeviceCanAccessPeer(&can, dev, 1), CUDA_ERROR_INVALID_DEVICE);
    CUcontext ctx;
    CHECK(cuCtxGetCurrent(&ctx));
    EXPECT_ERR(cuCtxEnablePeerAccess(ctx, 0), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
    EXPECT_ERR(cuCtxDisablePeerAccess(ctx), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    char bus[32];
    CHECK(cuDeviceGetPCIBusId(bus, sizeof bus, dev));
    CUdevice again = -1;
    CHECK(cuDeviceGetByPCIBusId(&again, bus));
    EXPECT(again == dev && strlen(bus) == 12);
    CUdevprop prop;
    CHECK(cuDeviceGetProperties(&prop, dev));
    EXPECT(prop.maxThreadsPerBlock == 1024 && prop.maxThreadsDim[2] == 64 && prop.SIMDWidth == 32);
    /* A managed variable (`__managed__`, `.attribute(.managed)`) is managed memory
       to pointer queries; a plain .global one is device memory. */
    static const char managed_ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".global .attribute(.managed) .align 4 .u32 m[4];\n"
        ".global .align 4 .u32 plain[4];\n"
        ".visible .entry k() { ret; }\n";
    CUmodule vars;
    CHECK(cuModuleLoadData(&vars, managed_ptx));
    CUdeviceptr m, plain;
    size_t bytes = 0;
    CHECK(cuModuleGetGlobal(&m, &bytes, vars, "m"));
    CHECK(cuModuleGetGlobal(&plain, NULL, vars, "plain"));
    unsigned int is_managed = 7;
    CHECK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m + 4));
    EXPECT(is_managed == 1 && bytes == 16);
    CHECK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, plain));
    EXPECT(is_managed == 0);
    CHECK(cuModuleUnload(vars));
    /* A copy of nothing, from and to NULL, succeeds as on CUDA. */
    CHECK(cuMemcpyHtoD(d, NULL, 0));
    CHECK(cuMemcpyDtoH(NULL, d, 0));
    CHECK(cuMemcpy(0, 0, 0));
    puts("unsupported: ok");
    return 0;
}
