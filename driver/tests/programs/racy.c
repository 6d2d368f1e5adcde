/* A kernel with a missing barrier (argv[2] == "0") or with it ("1"), for
   `ptxvm exec --sanitize racecheck`. The results are not checked: with the race
   they are whatever the interleaving gave. */
#include "check.h"

int main(int argc, char **argv) {
    int sync = argc > 2 ? atoi(argv[2]) : 1;
    CUmodule mod = load_kernels(argc, argv);
    CUfunction racy;
    CHECK(cuModuleGetFunction(&racy, mod, "racy"));
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, 64 * sizeof(int)));
    void *args[] = {&out, &sync};
    CHECK(cuLaunchKernel(racy, 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize());
    int host[64];
    CHECK(cuMemcpyDtoH(host, out, sizeof host));
    if (sync)
        for (int i = 0; i < 64; i++) EXPECT(host[i] == (i + 1) % 64);
    puts("racy: done");
    return 0;
}
