// Vector add, end to end, as a CUDA program: reads a.npy and b.npy (float32, 1-D)
// into managed memory, adds them on the device, and writes the three buffers to
// OUT/a.npy, OUT/b.npy and OUT/c.npy, as `ptxvm run --out-dir OUT` reads .npy
// files into device memory and writes every buffer. bench.py times it under
// `ptxvm exec` against the same kernel through `ptxvm run` with the same files.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static char header[4096];
static size_t header_len;

// The element count of a 1-D float32 .npy file, whose header is kept; `f` is left
// at its data.
static long open_npy(FILE *f) {
    unsigned char head[10];
    if (fread(head, 1, 10, f) != 10) return -1;
    size_t len = head[8] | head[9] << 8;
    if (10 + len > sizeof header) return -1;
    for (int i = 0; i < 10; i++) header[i] = head[i];
    if (fread(header + 10, 1, len, f) != len) return -1;
    header_len = 10 + len;
    long start = ftell(f);
    fseek(f, 0, SEEK_END);
    long n = (ftell(f) - start) / (long)sizeof(float);
    fseek(f, start, SEEK_SET);
    return n;
}

static bool read_into(const char *path, float **p, long *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    *n = open_npy(f);
    if (*n < 0 || cudaMallocManaged(p, *n * sizeof(float)) != cudaSuccess) return false;
    bool ok = fread(*p, sizeof(float), *n, f) == (size_t)*n;
    fclose(f);
    return ok;
}

static void write_npy(const char *dir, const char *name, const float *data, long n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    fwrite(header, 1, header_len, f);
    fwrite(data, sizeof(float), n, f);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: vadd a.npy b.npy OUT\n");
        return 1;
    }
    float *a, *b, *c;
    long n, m;
    if (!read_into(argv[1], &a, &n) || !read_into(argv[2], &b, &m) || n != m) {
        fprintf(stderr, "cannot read the inputs\n");
        return 1;
    }
    if (cudaMallocManaged(&c, n * sizeof(float)) != cudaSuccess) return 1;
    vadd<<<(n + 255) / 256, 256>>>(a, b, c, (int)n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorName(e));
        return 1;
    }
    write_npy(argv[3], "a.npy", a, n);
    write_npy(argv[3], "b.npy", b, n);
    write_npy(argv[3], "c.npy", c, n);
    return 0;
}
