/* What every driver test program uses: CHECK(call) stops with the call, its line and
   the error's name when a driver call fails; EXPECT(cond) when a result is wrong. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        CUresult r_ = (call);                                                    \
        if (r_ != CUDA_SUCCESS) {                                                \
            const char *n_ = "?";                                                \
            cuGetErrorName(r_, &n_);                                             \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    n_);                                                         \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

#define EXPECT_ERR(call, want)                                                   \
    do {                                                                         \
        CUresult r_ = (call);                                                    \
        if (r_ != (want)) {                                                      \
            const char *n_ = "?", *w_ = "?";                                     \
            cuGetErrorName(r_, &n_);                                             \
            cuGetErrorName(want, &w_);                                           \
            fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__,        \
                    __LINE__, #call, n_, w_);                                    \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);  \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

/* The whole file at `path`, NUL-terminated. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(n + 1);
    if (fread(text, 1, n, f) != (size_t)n) exit(1);
    text[n] = 0;
    fclose(f);
    return text;
}

/* Makes a context current. */
static CUcontext start(void) {
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    return ctx;
}

/* Makes a context current and loads kernels.ptx from the folder argv[1] names. */
static CUmodule load_kernels(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/kernels.ptx", argc > 1 ? argv[1] : ".");
    start();
    CUmodule mod;
    CHECK(cuModuleLoad(&mod, path));
    return mod;
}
