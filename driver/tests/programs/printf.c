/* Device printf reaches stdout in order with the host's, where CUDA flushes it
   (synchronizing calls, and here also exit); a failed assert gives
   CUDA_ERROR_ASSERT with its message on stderr. */
#include "check.h"

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CUfunction hello, must_be_zero;
    CHECK(cuModuleGetFunction(&hello, mod, "hello"));
    CHECK(cuModuleGetFunction(&must_be_zero, mod, "must_be_zero"));
    printf("before\n");
    int x = 7;
    void *args[] = {&x};
    CHECK(cuLaunchKernel(hello, 1, 1, 1, 2, 1, 1, 0, NULL, args, NULL));
    /* Host text before the next synchronizing call comes first, as on a GPU. */
    printf("launched\n");
    CHECK(cuCtxSynchronize());
    printf("after\n");
    if (getenv("NEVER_SYNC")) {
        /* Never synchronized: the output still comes, at exit. */
        x = 9;
        CHECK(cuLaunchKernel(hello, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
        printf("exit\n");
        return 0;
    }
    int zero = 0;
    void *ok[] = {&zero};
    CHECK(cuLaunchKernel(must_be_zero, 1, 1, 1, 1, 1, 1, 0, NULL, ok, NULL));
    CHECK(cuCtxSynchronize());
    void *bad[] = {&x};
    CHECK(cuLaunchKernel(must_be_zero, 1, 1, 1, 1, 1, 1, 0, NULL, bad, NULL));
    EXPECT_ERR(cuCtxSynchronize(), CUDA_ERROR_ASSERT);
    printf("printf: ok\n");
    return 0;
}
