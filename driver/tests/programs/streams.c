/* Streams, events and host callbacks, in stream order; event times. */
#include "check.h"

static int order[8], seen = 0;

static void CUDA_CB host_fn(void *data) { order[seen++] = (int)(intptr_t)data; }

static void CUDA_CB callback(CUstream s, CUresult status, void *data) {
    (void)s;
    EXPECT(status == CUDA_SUCCESS);
    order[seen++] = (int)(intptr_t)data;
}

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CUfunction add_one;
    CHECK(cuModuleGetFunction(&add_one, mod, "add_one"));

    CUstream s, hi;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CHECK(cuStreamCreateWithPriority(&hi, 0, -1));
    int prio = 0;
    CHECK(cuStreamGetPriority(hi, &prio));
    EXPECT(prio == -1);
    CUevent start_ev, end_ev;
    CHECK(cuEventCreate(&start_ev, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&end_ev, CU_EVENT_DEFAULT));
    float ms = 0;
    EXPECT_ERR(cuEventElapsedTime(&ms, start_ev, end_ev), CUDA_ERROR_INVALID_HANDLE);

    int host[1024];
    for (int i = 0; i < 1024; i++) host[i] = i;
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, sizeof host));
    int n = 1024;
    void *args[] = {&d, &n};
    CHECK(cuEventRecord(start_ev, s));
    CHECK(cuMemcpyHtoDAsync(d, host, sizeof host, s));
    CHECK(cuLaunchHostFunc(s, host_fn, (void *)1));
    CHECK(cuLaunchKernel(add_one, 16, 1, 1, 64, 1, 1, 0, s, args, NULL));
    CHECK(cuStreamAddCallback(s, callback, (void *)2, 0));
    CHECK(cuMemcpyDtoHAsync(host, d, sizeof host, s));
    CHECK(cuLaunchHostFunc(s, host_fn, (void *)3));
    CHECK(cuEventRecord(end_ev, s));
    CHECK(cuStreamWaitEvent(hi, end_ev, 0));
    CHECK(cuStreamSynchronize(s));
    CHECK(cuStreamQuery(s));
    CHECK(cuEventQuery(end_ev));
    CHECK(cuEventSynchronize(end_ev));
    EXPECT(seen == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
    for (int i = 0; i < 1024; i++) EXPECT(host[i] == i + 1);
    CHECK(cuEventElapsedTime(&ms, start_ev, end_ev));
    EXPECT(ms >= 0.0f && ms < 60000.0f);

    CUevent untimed;
    CHECK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
    CHECK(cuEventRecord(untimed, NULL));
    EXPECT_ERR(cuEventElapsedTime(&ms, start_ev, untimed), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuEventDestroy(untimed));
    EXPECT_ERR(cuEventRecord(untimed, NULL), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuStreamDestroy(hi));
    EXPECT_ERR(cuStreamSynchronize(hi), CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuStreamDestroy(s));
    CHECK(cuEventDestroy(start_ev));
    CHECK(cuEventDestroy(end_ev));
    CHECK(cuMemFree(d));
    puts("streams: ok");
    return 0;
}
