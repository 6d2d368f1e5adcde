/* What is not PTX text: a fat binary gives its PTX, a cubin (or a fat binary of
   machine code alone) is refused with NO_BINARY_FOR_GPU, invalid PTX with
   INVALID_PTX and the diagnostics in the JIT error log; a link of two PTX inputs
   resolves an extern function. argv[1] is the directory of the inputs. */
#include "check.h"

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    start();
    snprintf(path, sizeof path, "%s/kernels.cubin", dir);
    FILE *f = fopen(path, "rb");
    EXPECT(f);
    static char cubin[1 << 20];
    size_t n = fread(cubin, 1, sizeof cubin, f);
    fclose(f);
    EXPECT(n > 4);
    CUmodule mod;
    EXPECT_ERR(cuModuleLoadData(&mod, cubin), CUDA_ERROR_NO_BINARY_FOR_GPU);

    /* A fat binary (zstd-compressed, as nvcc 13 makes them) gives its PTX; one of
       machine code alone is refused. The files are the library's test data. */
    static char fat[1 << 16];
    snprintf(path, sizeof path, "%s/../../../tests/data/fatbin/vadd_zstd.fatbin", dir);
    f = fopen(path, "rb");
    EXPECT(f);
    EXPECT(fread(fat, 1, sizeof fat, f) > 16);
    fclose(f);
    CHECK(cuModuleLoadData(&mod, fat));
    CUfunction vadd;
    CHECK(cuModuleGetFunction(&vadd, mod, "vadd"));
    float va[64], vb[64], vc[64];
    for (int i = 0; i < 64; i++) va[i] = (float)i, vb[i] = 0.25f;
    CUdeviceptr da, db, dc;
    CHECK(cuMemAlloc(&da, sizeof va));
    CHECK(cuMemAlloc(&db, sizeof vb));
    CHECK(cuMemAlloc(&dc, sizeof vc));
    CHECK(cuMemcpyHtoD(da, va, sizeof va));
    CHECK(cuMemcpyHtoD(db, vb, sizeof vb));
    int vn = 64;
    void *vargs[] = {&da, &db, &dc, &vn};
    CHECK(cuLaunchKernel(vadd, 1, 1, 1, 64, 1, 1, 0, NULL, vargs, NULL));
    CHECK(cuMemcpyDtoH(vc, dc, sizeof vc));
    for (int i = 0; i < 64; i++) EXPECT(vc[i] == (float)i + 0.25f);
    snprintf(path, sizeof path, "%s/../../../tests/data/fatbin/vadd_sass.fatbin", dir);
    f = fopen(path, "rb");
    EXPECT(f);
    EXPECT(fread(fat, 1, sizeof fat, f) > 16);
    fclose(f);
    EXPECT_ERR(cuModuleLoadData(&mod, fat), CUDA_ERROR_NO_BINARY_FOR_GPU);

    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n  setp.lt.b32 %p1, 1, 2;\n  ret;\n}\n";
    char log[4096] = {0};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    EXPECT_ERR(cuModuleLoadDataEx(&mod, bad, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    EXPECT(strstr(log, ":6:7: error: setp.lt.b32: ordering comparison on a bit-size type") != NULL);
    EXPECT((uintptr_t)vals[1] == strlen(log));

    /* A link of two PTX inputs: linked_a.ptx calls `twice`, which linked_b.ptx
       defines; one input from a file, one from memory (without its NUL). */
    CUlinkState link;
    CHECK(cuLinkCreate(0, NULL, NULL, &link));
    snprintf(path, sizeof path, "%s/linked_a.ptx", dir);
    CHECK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
    snprintf(path, sizeof path, "%s/linked_b.ptx", dir);
    char *b = read_file(path);
    CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, b, strlen(b), "linked_b.ptx", 0, NULL, NULL));
    EXPECT_ERR(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, cubin, n, "kernels.cubin", 0, NULL, NULL),
               CUDA_ERROR_NO_BINARY_FOR_GPU);
    void *image = NULL;
    size_t image_size = 0;
    CHECK(cuLinkComplete(link, &image, &image_size));
    EXPECT(image != NULL && image_size > 0);
    CUmodule linked;
    CHECK(cuModuleLoadData(&linked, image));
    CHECK(cuLinkDestroy(link));
    CUfunction doubled;
    CHECK(cuModuleGetFunction(&doubled, linked, "doubled"));
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, 4));
    unsigned v = 21;
    void *args[] = {&out, &v};
    CHECK(cuLaunchKernel(doubled, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    unsigned got = 0;
    CHECK(cuMemcpyDtoH(&got, out, 4));
    EXPECT(got == 42);

    /* Alone, linked_a.ptx loads, but its kernel calls a function no input defines. */
    snprintf(path, sizeof path, "%s/linked_a.ptx", dir);
    CUmodule alone;
    CHECK(cuModuleLoad(&alone, path));
    EXPECT(cuModuleGetFunction(&doubled, alone, "doubled") != CUDA_SUCCESS);
    printf("images: ok\n");
    return 0;
}
