/* Virtual memory management: reserve, create, map, grant access, use from the host
   and a kernel, unmap (copies there are then refused), map again (the bytes kept), and
   release everything. */
#include "check.h"

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CUfunction add_one;
    CHECK(cuModuleGetFunction(&add_one, mod, "add_one"));

    CUmemAllocationProp prop = {0};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    CHECK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    EXPECT(gran == 2 << 20);
    CUdeviceptr va;
    CHECK(cuMemAddressReserve(&va, 2 * gran, 0, 0, 0));
    EXPECT(va % gran == 0);
    CUmemGenericAllocationHandle h;
    EXPECT_ERR(cuMemCreate(&h, gran + 1, &prop, 0), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemCreate(&h, gran, &prop, 0));
    CHECK(cuMemMap(va + gran, gran, 0, h, 0));
    CUmemAccessDesc access = {0};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK(cuMemSetAccess(va + gran, gran, &access, 1));
    unsigned long long flags = 0;
    CHECK(cuMemGetAccess(&flags, &prop.location, va + gran + 100));
    EXPECT(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);

    int n = 1024;
    int host[1024];
    for (int i = 0; i < n; i++) host[i] = i;
    CUdeviceptr p = va + gran;
    CHECK(cuMemcpyHtoD(p, host, sizeof host));
    void *args[] = {&p, &n};
    CHECK(cuLaunchKernel(add_one, n / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CHECK(cuMemcpyDtoH(host, p, sizeof host));
    for (int i = 0; i < n; i++) EXPECT(host[i] == i + 1);

    EXPECT_ERR(cuMemUnmap(va + gran, (size_t)-1), CUDA_ERROR_INVALID_VALUE);
    EXPECT_ERR(cuMemSetAccess(va + gran, (size_t)-1, &access, 1), CUDA_ERROR_INVALID_VALUE);

    /* Unmapped, then mapped at the other half: the bytes come along. */
    CHECK(cuMemUnmap(va + gran, gran));
    EXPECT_ERR(cuMemcpyHtoD(p, host, 4), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemMap(va, gran, 0, h, 0));
    CHECK(cuMemSetAccess(va, gran, &access, 1));
    memset(host, 0, sizeof host);
    CHECK(cuMemcpyDtoH(host, va, sizeof host));
    EXPECT(host[0] == 1 && host[1023] == 1024);
    EXPECT_ERR(cuMemAddressFree(va, 2 * gran), CUDA_ERROR_INVALID_VALUE);
    CHECK(cuMemRelease(h));
    CHECK(cuMemUnmap(va, gran));
    CHECK(cuMemAddressFree(va, 2 * gran));
    puts("vmm: ok");
    return 0;
}
