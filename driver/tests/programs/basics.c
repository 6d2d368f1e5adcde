/* The driver's basic path: device queries, PTX from a string and from a file, a
   module's variables, both launch forms, and errors for bad input. */
#include "check.h"

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/kernels.ptx", argc > 1 ? argv[1] : ".");

    /* Calls before cuInit. */
    int count = -1;
    EXPECT_ERR(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
    CUdeviceptr early;
    EXPECT_ERR(cuMemAlloc(&early, 16), CUDA_ERROR_NOT_INITIALIZED);

    CHECK(cuInit(0));
    int version = 0;
    CHECK(cuDriverGetVersion(&version));
    EXPECT(version >= 13000);
    CHECK(cuDeviceGetCount(&count));
    EXPECT(count == 1);
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    EXPECT_ERR(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    char name[64];
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    EXPECT(strcmp(name, "ptxvm (sm_90)") == 0);
    int major = 0, minor = -1, sms = 0, warp = 0, shared_optin = 0, unified = 0;
    CHECK(cuDeviceComputeCapability(&major, &minor, dev));
    EXPECT(major == 9 && minor == 0);
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CHECK(cuDeviceGetAttribute(&shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
    CHECK(cuDeviceGetAttribute(&unified, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev));
    EXPECT(sms == 132 && warp == 32 && shared_optin == 232448 && unified == 1);
    size_t total = 0;
    CHECK(cuDeviceTotalMem(&total, dev));
    EXPECT(total > (1u << 30));
    CUuuid uuid;
    CHECK(cuDeviceGetUuid(&uuid, dev));

    /* No context yet. */
    CUdeviceptr none;
    EXPECT_ERR(cuMemAlloc(&none, 16), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext ctx, current = NULL;
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuCtxGetCurrent(&current));
    EXPECT(current == ctx);
    size_t heap = 0;
    CHECK(cuCtxGetLimit(&heap, CU_LIMIT_MALLOC_HEAP_SIZE));
    EXPECT(heap == 8 << 20);

    /* PTX from a file and from a string. */
    CUmodule from_file, from_text;
    CHECK(cuModuleLoad(&from_file, path));
    char *text = read_file(path);
    CHECK(cuModuleLoadData(&from_text, text));
    EXPECT_ERR(cuModuleLoad(&from_file, "/no/such/file.ptx"), CUDA_ERROR_FILE_NOT_FOUND);

    CUfunction axpy, axpy_again, mixed, bump;
    CHECK(cuModuleGetFunction(&axpy, from_file, "axpy"));
    CHECK(cuModuleGetFunction(&axpy_again, from_file, "axpy"));
    EXPECT(axpy == axpy_again);
    CHECK(cuModuleGetFunction(&mixed, from_text, "mixed"));
    CHECK(cuModuleGetFunction(&bump, from_text, "bump"));
    CUfunction missing;
    EXPECT_ERR(cuModuleGetFunction(&missing, from_text, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    const char *fname = NULL;
    CHECK(cuFuncGetName(&fname, axpy));
    EXPECT(strcmp(fname, "axpy") == 0);

    /* kernelParams: y = 2x + y over 1000 elements, at an offset into y. */
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
    CUdeviceptr dx, dy;
    CHECK(cuMemAlloc(&dx, N * sizeof(float)));
    CHECK(cuMemAlloc(&dy, (N + 16) * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x, sizeof x));
    CHECK(cuMemcpyHtoD(dy + 16 * sizeof(float), y, sizeof y));
    float a = 2.0f;
    int n = N;
    CUdeviceptr y16 = dy + 16 * sizeof(float);
    void *args[] = {&a, &dx, &y16, &n};
    CHECK(cuLaunchKernel(axpy, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(y, y16, sizeof y));
    for (int i = 0; i < N; i++) EXPECT(y[i] == 2.0f * i + 1.0f);

    /* extra: a packed buffer, laid out as the parameters' C struct. */
    struct {
        char c;
        double d;
        short s;
        int i;
        CUdeviceptr out;
    } packed = {-5, 1234.0, -300, 77, 0};
    CHECK(cuMemAlloc(&packed.out, 4 * sizeof(long long)));
    size_t packed_size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                     CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, extra));
    long long got[4];
    CHECK(cuMemcpyDtoH(got, packed.out, sizeof got));
    EXPECT(got[0] == -5 && got[1] == 1234 && got[2] == -300 && got[3] == 77);
    /* A wrong size is refused, and nothing runs. */
    size_t wrong = 12;
    void *bad_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &wrong,
                         CU_LAUNCH_PARAM_END};
    EXPECT_ERR(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, bad_extra), CUDA_ERROR_INVALID_VALUE);

    /* cuLaunchKernelEx with a cooperative attribute, and a refused cluster. */
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CUlaunchConfig cfg = {0};
    cfg.gridDimX = (N + 127) / 128, cfg.gridDimY = 1, cfg.gridDimZ = 1;
    cfg.blockDimX = 128, cfg.blockDimY = 1, cfg.blockDimZ = 1;
    cfg.attrs = &attr, cfg.numAttrs = 1;
    CHECK(cuLaunchKernelEx(&cfg, axpy, args, NULL));
    CHECK(cuMemcpyDtoH(y, y16, sizeof y));
    for (int i = 0; i < N; i++) EXPECT(y[i] == 4.0f * i + 1.0f);
    /* Clusters: the grid's 8 CTAs in clusters of 2 run as before; clusters of 16
       (more than 8) or of 3 (not tiling the grid) are refused. */
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = 2, attr.value.clusterDim.y = 1, attr.value.clusterDim.z = 1;
    CHECK(cuLaunchKernelEx(&cfg, axpy, args, NULL));
    CHECK(cuMemcpyDtoH(y, y16, sizeof y));
    for (int i = 0; i < N; i++) EXPECT(y[i] == 6.0f * i + 1.0f);
    /* Clusters that fit at once: 16 blocks of 128 threads per SM (2048 threads) on
       each of the H100's 132 SMs, in pairs; a cluster refused at launch is refused
       here too. */
    int clusters = 0;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, axpy, &cfg));
    EXPECT(clusters == 16 * 132 / 2);
    attr.value.clusterDim.x = 1;
    CHECK(cuOccupancyMaxActiveClusters(&clusters, axpy, &cfg));
    EXPECT(clusters == 16 * 132);
    attr.value.clusterDim.x = 16;
    EXPECT_ERR(cuLaunchKernelEx(&cfg, axpy, args, NULL), CUDA_ERROR_INVALID_CLUSTER_SIZE);
    EXPECT_ERR(cuOccupancyMaxActiveClusters(&clusters, axpy, &cfg), CUDA_ERROR_INVALID_CLUSTER_SIZE);
    attr.value.clusterDim.x = 3;
    EXPECT_ERR(cuLaunchKernelEx(&cfg, axpy, args, NULL), CUDA_ERROR_INVALID_CLUSTER_SIZE);

    /* A module's variables: written from the host, counted by a kernel. */
    CUdeviceptr counter;
    size_t counter_bytes = 0;
    CHECK(cuModuleGetGlobal(&counter, &counter_bytes, from_text, "counter"));
    EXPECT(counter_bytes == 4);
    int start = 100;
    CHECK(cuMemcpyHtoD(counter, &start, 4));
    CHECK(cuLaunchKernel(bump, 3, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL));
    int bumped = 0;
    CHECK(cuMemcpyDtoH(&bumped, counter, 4));
    EXPECT(bumped == 100 + 3 * 64);
    CUdeviceptr nothing;
    EXPECT_ERR(cuModuleGetGlobal(&nothing, NULL, from_text, "no_such_variable"), CUDA_ERROR_NOT_FOUND);

    /* Launch dimensions past the limits, and too much dynamic shared memory. */
    EXPECT_ERR(cuLaunchKernel(bump, 1, 1, 1, 2048, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 128, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuLaunchKernel(bump, 1, 70000, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuLaunchKernel(bump, 1, 1, 1, 32, 1, 1, 64 << 10, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuFuncSetAttribute(bump, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 << 10));
    CHECK(cuLaunchKernel(bump, 1, 1, 1, 32, 1, 1, 64 << 10, NULL, NULL, NULL));

    /* Bad pointers: NULL, freed, foreign; a double free. */
    char host[64];
    EXPECT_ERR(cuMemcpyHtoD(0, host, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemcpyHtoD(dx, NULL, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemcpyDtoH(host, (CUdeviceptr)(uintptr_t)host, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemcpyHtoD(dx + N * sizeof(float) - 4, host, 8), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemFree(dx));
    EXPECT_ERR(cuMemcpyHtoD(dx, host, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemFree(dx), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemFree(dy + 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuLaunchKernel((CUfunction)host, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT_ERR(cuModuleUnload((CUmodule)host), CUDA_ERROR_INVALID_HANDLE);

    /* Error names and strings. */
    const char *ename = NULL, *estr = NULL;
    CHECK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &ename));
    CHECK(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &estr));
    EXPECT(strcmp(ename, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0 && strlen(estr) > 0);
    EXPECT_ERR(cuGetErrorName((CUresult)12345, &ename), CUDA_ERROR_INVALID_VALUE);
    EXPECT(ename == NULL);

    /* Unloaded, a module's functions are gone. */
    CHECK(cuModuleUnload(from_file));
    EXPECT_ERR(cuLaunchKernel(axpy, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuModuleUnload(from_text));
    CHECK(cuMemFree(dy));
    CHECK(cuMemFree(packed.out));
    CHECK(cuCtxDestroy(ctx));

    /* A library belongs to no context: it outlives a reset of the primary context. */
    CUcontext primary;
    CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
    CHECK(cuCtxSetCurrent(primary));
    CUlibrary lib;
    CHECK(cuLibraryLoadData(&lib, text, NULL, NULL, 0, NULL, NULL, 0));
    CHECK(cuDevicePrimaryCtxReset(dev));
    CUkernel k;
    CHECK(cuLibraryGetKernel(&k, lib, "axpy"));
    CUfunction kf;
    CHECK(cuKernelGetFunction(&kf, k));
    CHECK(cuLibraryUnload(lib));
    EXPECT_ERR(cuLibraryGetKernel(&k, lib, "axpy"), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuDevicePrimaryCtxRelease(dev));
    puts("basics: ok");
    return 0;
}
