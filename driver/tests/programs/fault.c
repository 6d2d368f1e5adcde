/* A kernel that writes out of bounds: the launch returns, the next synchronizing
   call gives CUDA_ERROR_ILLEGAL_ADDRESS, and every later call the same (the error is
   sticky). The harness checks the fault report on stderr. */
#include "check.h"

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CUfunction oob;
    CHECK(cuModuleGetFunction(&oob, mod, "out_of_bounds"));
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, 256));
    void *args[] = {&d};
    CHECK(cuLaunchKernel(oob, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
    EXPECT_ERR(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    int x = 0;
    EXPECT_ERR(cuMemcpyDtoH(&x, d, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr e;
    EXPECT_ERR(cuMemAlloc(&e, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT_ERR(cuLaunchKernel(oob, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT_ERR(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    puts("fault: ok");
    return 0;
}
