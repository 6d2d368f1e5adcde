/* NVIDIA's NVRTC (pip's nvidia-cuda-nvrtc) compiles CUDA C++ to PTX in the program,
   and ptxvm's driver loads and launches it: what JIT-compiling frameworks do. With
   NVRTC_ARCH=sm_90 it asks NVRTC for a cubin and loads that, as many programs do:
   under ptxvm exec the interposer answers with PTX. */
#include "check.h"
#include <nvrtc.h>

#define NVRTC(call)                                                                        \
    do {                                                                                   \
        nvrtcResult r_ = (call);                                                           \
        if (r_ != NVRTC_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, nvrtcGetErrorString(r_)); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static const char *source =
    "template <typename T> __device__ T square(T x) { return x * x; }\n"
    "extern \"C\" __global__ void squares(double *out, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = square<double>(i) + 0.5;\n"
    "}\n";

int main(void) {
    nvrtcProgram prog;
    NVRTC(nvrtcCreateProgram(&prog, source, "squares.cu", 0, NULL, NULL));
    const char *arch = getenv("NVRTC_ARCH");
    int cubin = arch && strncmp(arch, "sm_", 3) == 0;
    char option[64];
    snprintf(option, sizeof option, "--gpu-architecture=%s", arch ? arch : "compute_90");
    const char *opts[] = {option};
    nvrtcResult compiled = nvrtcCompileProgram(prog, 1, opts);
    if (compiled != NVRTC_SUCCESS) {
        size_t n;
        nvrtcGetProgramLogSize(prog, &n);
        char *log = malloc(n);
        nvrtcGetProgramLog(prog, log);
        fprintf(stderr, "%s\n", log);
        return 1;
    }
    size_t size;
    char *ptx;
    if (cubin) {
        NVRTC(nvrtcGetCUBINSize(prog, &size));
        ptx = malloc(size);
        NVRTC(nvrtcGetCUBIN(prog, ptx));
    } else {
        NVRTC(nvrtcGetPTXSize(prog, &size));
        ptx = malloc(size);
        NVRTC(nvrtcGetPTX(prog, ptx));
    }
    NVRTC(nvrtcDestroyProgram(&prog));

    start();
    CUmodule mod;
    CHECK(cuModuleLoadDataEx(&mod, ptx, 0, NULL, NULL));
    CUfunction f;
    CHECK(cuModuleGetFunction(&f, mod, "squares"));
    enum { N = 1000 };
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, N * sizeof(double)));
    int n = N;
    void *args[] = {&d, &n};
    CHECK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    static double out[N];
    CHECK(cuMemcpyDtoH(out, d, sizeof out));
    for (int i = 0; i < N; i++) EXPECT(out[i] == (double)i * i + 0.5);
    puts("nvrtc: ok");
    return 0;
}
