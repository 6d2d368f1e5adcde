/* Kernels that wait on other CTAs: a cooperative grid.sync() over more CTAs than the
   machine has cores, a decoupled look-back scan over 1,000 CTAs, a flag the last CTA
   sets, a spin lock. With argv[2] == "forever", a wait that never ends instead: the
   launch runs into the step budget (PTXVM_MAX_STEPS, set low) and says where CTAs
   waited; with "deadlock", the same wait under the default budget is a deadlock. */
#include "check.h"

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);

    int forever = argc > 2 && strcmp(argv[2], "forever") == 0;
    if (forever || (argc > 2 && strcmp(argv[2], "deadlock") == 0)) {
        CUfunction wait;
        CHECK(cuModuleGetFunction(&wait, mod, "wait_forever"));
        CUdeviceptr flag;
        CHECK(cuMemAlloc(&flag, 4));
        CHECK(cuMemsetD32(flag, 0, 1));
        void *args[] = {&flag};
        CHECK(cuLaunchKernel(wait, 4, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
        EXPECT_ERR(cuCtxSynchronize(), forever ? CUDA_ERROR_LAUNCH_TIMEOUT : CUDA_ERROR_LAUNCH_FAILED);
        /* The context is broken for good, as after any fault. */
        EXPECT_ERR(cuMemsetD32(flag, 1, 1), forever ? CUDA_ERROR_LAUNCH_TIMEOUT : CUDA_ERROR_LAUNCH_FAILED);
        puts(forever ? "forever: ok" : "deadlock: ok");
        return 0;
    }

    /* grid.sync(): 64 CTAs of 64 threads, 3 rounds of rotation. */
    CUfunction rotate;
    CHECK(cuModuleGetFunction(&rotate, mod, "grid_rotate"));
    int blocks = 0;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rotate, 64, 0));
    EXPECT(blocks == 32);
    enum { CTAS = 64, THREADS = 64, N = CTAS * THREADS };
    CUdeviceptr a;
    CHECK(cuMemAlloc(&a, N * sizeof(int)));
    int rounds = 3;
    void *rargs[] = {&a, &rounds};
    CHECK(cuLaunchCooperativeKernel(rotate, CTAS, 1, 1, THREADS, 1, 1, 0, NULL, rargs));
    static int got[N];
    CHECK(cuMemcpyDtoH(got, a, sizeof got));
    for (int i = 0; i < N; i++) EXPECT(got[i] == (i + rounds) % N);
    /* One CTA more than can be resident (32 per SM on 132 SMs) is refused. */
    EXPECT_ERR(cuLaunchCooperativeKernel(rotate, 132 * 32 + 1, 1, 1, 32, 1, 1, 0, NULL, rargs),
               CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);

    /* Decoupled look-back over 1,000 CTAs of 256 threads. */
    CUfunction scan;
    CHECK(cuModuleGetFunction(&scan, mod, "lookback_scan"));
    enum { TILES = 1000, TILE = 256, M = TILES * TILE };
    static int in[M], out[M];
    for (int i = 0; i < M; i++) in[i] = (i * 7919) % 13 - 6;
    CUdeviceptr din, dout, status;
    CHECK(cuMemAlloc(&din, sizeof in));
    CHECK(cuMemAlloc(&dout, sizeof out));
    CHECK(cuMemAlloc(&status, TILES * 8));
    CHECK(cuMemsetD8(status, 0, TILES * 8));
    CHECK(cuMemcpyHtoD(din, in, sizeof in));
    void *sargs[] = {&din, &dout, &status};
    CHECK(cuLaunchKernel(scan, TILES, 1, 1, TILE, 1, 1, 0, NULL, sargs, NULL));
    CHECK(cuMemcpyDtoH(out, dout, sizeof out));
    long long sum = 0;
    for (int i = 0; i < M; i++) {
        sum += in[i];
        EXPECT(out[i] == (int)sum);
    }

    /* CTA 0 waits for a flag the last of 64 CTAs sets. */
    CUfunction last;
    CHECK(cuModuleGetFunction(&last, mod, "wait_for_last"));
    CUdeviceptr flag, result;
    CHECK(cuMemAlloc(&flag, 4));
    CHECK(cuMemAlloc(&result, 4));
    CHECK(cuMemsetD32(flag, 0, 1));
    void *largs[] = {&flag, &result};
    CHECK(cuLaunchKernel(last, 64, 1, 1, 32, 1, 1, 0, NULL, largs, NULL));
    int r = 0;
    CHECK(cuMemcpyDtoH(&r, result, 4));
    EXPECT(r == 42);

    /* A spin lock taken by 200 CTAs in turn. */
    CUfunction locked;
    CHECK(cuModuleGetFunction(&locked, mod, "locked_count"));
    CUdeviceptr lock, count;
    CHECK(cuMemAlloc(&lock, 4));
    CHECK(cuMemAlloc(&count, 4));
    CHECK(cuMemsetD32(lock, 0, 1));
    CHECK(cuMemsetD32(count, 0, 1));
    void *kargs[] = {&lock, &count};
    CHECK(cuLaunchKernel(locked, 200, 1, 1, 32, 1, 1, 0, NULL, kargs, NULL));
    int c = 0;
    CHECK(cuMemcpyDtoH(&c, count, 4));
    EXPECT(c == 200);
    puts("coop: ok");
    return 0;
}
