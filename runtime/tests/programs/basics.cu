// A program as nvcc builds them (-cudart shared): <<<>>> launches, managed and
// device memory, a __constant__ table set with cudaMemcpyToSymbol and a __device__
// global read back with cudaMemcpyFromSymbol, streams, events and a host function,
// launch errors from cudaGetLastError. It judges itself and prints "basics: ok".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include "check.cuh"

__constant__ float table[4];
__device__ int total;
__managed__ int tally[4] = {1, 2, 3, 4};

__global__ void bump_tally(int by) { tally[threadIdx.x] += by * (int)threadIdx.x; }

__global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void lookup(const int *idx, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = table[idx[i] & 3];
        atomicAdd(&total, 1);
    }
}

static int calls = 0;
static void CUDART_CB host_fn(void *data) { calls += *(int *)data; }

int main() {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    int major = 0, version = 0;
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaRuntimeGetVersion(&version));
    // The runtime's version is at least the headers' (CUDA 12 builds run too).
    EXPECT(major == 9 && version >= CUDART_VERSION / 1000 * 1000);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(strcmp(prop.name, "ptxvm (sm_90)") == 0 && prop.major == 9 && prop.minor == 0);
    EXPECT(prop.multiProcessorCount == 132 && prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024);
    EXPECT(prop.sharedMemPerBlockOptin == 232448 && prop.maxThreadsPerMultiProcessor == 2048);
    EXPECT(prop.managedMemory == 1 && prop.memoryPoolsSupported == 1 && prop.clusterLaunch == 1);
    EXPECT(prop.totalGlobalMem > (1ull << 30));
#if CUDART_VERSION >= 13000
    EXPECT(prop.hostNumaId == -1);
#endif
    EXPECT(cudaGetDeviceProperties(&prop, 1) == cudaErrorInvalidDevice);
    cudaGetLastError();

    // Managed memory, written and read by the host in place.
    const int n = 100000;
    float *a, *b, *c;
    CHECK(cudaMallocManaged(&a, n * sizeof(float)));
    CHECK(cudaMallocManaged(&b, n * sizeof(float)));
    CHECK(cudaMallocManaged(&c, n * sizeof(float)));
    for (int i = 0; i < n; i++) a[i] = i, b[i] = 0.5f * i;
    vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(c[i] == 1.5f * i);

    // A __managed__ variable: its initialiser, read by the host in place; the host's
    // write seen by a kernel, and the kernel's by the host; managed memory to
    // pointer queries.
    EXPECT(tally[0] == 1 && tally[3] == 4);
    tally[1] = 20;
    bump_tally<<<1, 4>>>(10);
    CHECK(cudaDeviceSynchronize());
    EXPECT(tally[0] == 1 && tally[1] == 30 && tally[2] == 23 && tally[3] == 34);
    cudaPointerAttributes managed;
    CHECK(cudaPointerGetAttributes(&managed, &tally[2]));
    EXPECT(managed.type == cudaMemoryTypeManaged);

    // Device memory, symbols, a stream with events and a host function.
    float host_table[4] = {10, 20, 30, 40};
    CHECK(cudaMemcpyToSymbol(table, host_table, sizeof host_table));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
    int *idx;
    float *out;
    CHECK(cudaMalloc(&idx, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    int *hidx = (int *)malloc(n * sizeof(int));
    float *hout = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) hidx[i] = i * 7;
    cudaStream_t s;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int add = 5;
    CHECK(cudaEventRecord(start, s));
    CHECK(cudaMemcpyAsync(idx, hidx, n * sizeof(int), cudaMemcpyHostToDevice, s));
    lookup<<<(n + 127) / 128, 128, 0, s>>>(idx, out, n);
    CHECK(cudaMemcpyAsync(hout, out, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaLaunchHostFunc(s, host_fn, &add));
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaStreamSynchronize(s));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0 && calls == 5);
    for (int i = 0; i < n; i++) EXPECT(hout[i] == host_table[(i * 7) & 3]);
    int counted = 0;
    CHECK(cudaMemcpyFromSymbol(&counted, total, sizeof counted));
    EXPECT(counted == n);

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, lookup));
    // The PTX's target (nvcc's -arch), and the device's: PTX is compiled for it.
    EXPECT(fa.ptxVersion * 10 == __CUDA_ARCH_LIST__ && fa.binaryVersion == 90 && fa.maxThreadsPerBlock == 1024);
    EXPECT(fa.maxDynamicSharedSizeBytes == 48 * 1024);

    // A launch error: too many threads, reported by cudaGetLastError and cleared.
    vadd<<<1, 2048>>>(a, b, c, n);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaMemcpyToSymbol(table, host_table, 64) == cudaErrorInvalidValue);

    // A pitched 2D copy: a 5x3 block out of a 16-float-wide host array and back.
    float grid[3 * 16], back[15];
    for (int i = 0; i < 48; i++) grid[i] = (float)i;
    float *pitched;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(&pitched, &pitch, 5 * sizeof(float), 3));
    EXPECT(pitch >= 5 * sizeof(float));
    CHECK(cudaMemset2D(pitched, pitch, 0, 5 * sizeof(float), 3));
    CHECK(cudaMemcpy2D(pitched, pitch, grid + 2, 16 * sizeof(float), 5 * sizeof(float), 3, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2D(back, 5 * sizeof(float), pitched, pitch, 5 * sizeof(float), 3, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 5; k++) EXPECT(back[r * 5 + k] == grid[r * 16 + 2 + k]);

    // A 3D box: cudaMalloc3D, cudaMemset3D, then a 4x3x2 box copied in from a host
    // volume 6 wide and 5 high at (1, 1, 1), and copied back.
    {
        const int W = 6, H = 5, D = 3, w = 4, h = 3, d = 2;
        float vol[D][H][W], box[d][h][w];
        for (int z = 0; z < D; z++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) vol[z][y][x] = (float)(100 * z + 10 * y + x);
        cudaExtent ext = make_cudaExtent(w * sizeof(float), h, d);
        cudaPitchedPtr dev;
        CHECK(cudaMalloc3D(&dev, ext));
        EXPECT(dev.pitch >= w * sizeof(float) && dev.xsize == w * sizeof(float) && dev.ysize == h);
        CHECK(cudaMemset3D(dev, 0xff, ext));
        cudaMemcpy3DParms in = {0};
        in.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
        in.srcPos = make_cudaPos(1 * sizeof(float), 1, 1);
        in.dstPtr = dev;
        in.extent = ext;
        in.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&in));
        cudaMemcpy3DParms out3 = {0};
        out3.srcPtr = dev;
        out3.dstPtr = make_cudaPitchedPtr(box, w * sizeof(float), w, h);
        out3.extent = ext;
        out3.kind = cudaMemcpyDeviceToHost;
        CHECK(cudaMemcpy3DAsync(&out3, 0));
        CHECK(cudaDeviceSynchronize());
        for (int z = 0; z < d; z++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) EXPECT(box[z][y][x] == vol[z + 1][y + 1][x + 1]);
        // A memset reaches every row of every slice.
        CHECK(cudaMemset3D(dev, 0, ext));
        CHECK(cudaMemcpy3D(&out3));
        for (int z = 0; z < d; z++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) EXPECT(box[z][y][x] == 0.0f);
        cudaMemcpy3DParms bad = out3;
        bad.kind = (cudaMemcpyKind)7;
        EXPECT(cudaMemcpy3D(&bad) == cudaErrorInvalidMemcpyDirection);
        EXPECT(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
        CHECK(cudaFree(dev.ptr));
    }

    // A captured graph, replayed three times: each replay adds a[i] + b[i] into c.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    vadd<<<(n + 255) / 256, 256, 0, s>>>(a, c, c, n);
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int k = 0; k < 3; k++) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) EXPECT(c[i] == 1.5f * i + 3.0f * i);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));

    // Pointer attributes, stream-ordered allocation, registered host memory, advice.
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, a));
    EXPECT(pa.type == cudaMemoryTypeManaged && pa.devicePointer == a && pa.hostPointer == a);
    CHECK(cudaPointerGetAttributes(&pa, idx));
    EXPECT(pa.type == cudaMemoryTypeDevice && pa.hostPointer == NULL);
    CHECK(cudaPointerGetAttributes(&pa, hidx));
    EXPECT(pa.type == cudaMemoryTypeUnregistered);
    int *async;
    CHECK(cudaMallocAsync(&async, 4096, s));
    CHECK(cudaMemsetAsync(async, 0, 4096, s));
    CHECK(cudaFreeAsync(async, s));
    CHECK(cudaHostRegister(hidx, n * sizeof(int), cudaHostRegisterMapped));
    int *mapped;
    CHECK(cudaHostGetDevicePointer((void **)&mapped, hidx, 0));
    CHECK(cudaMemset(mapped, 0, sizeof(int)));
    EXPECT(hidx[0] == 0 && hidx[1] == 7);
    CHECK(cudaHostUnregister(hidx));
    cudaMemLocation here = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemPrefetchAsync(a, n * sizeof(float), here, 0, s));
    CHECK(cudaMemAdvise(a, n * sizeof(float), cudaMemAdviseSetReadMostly, here));

    // A function ptxvm does not implement answers cudaErrorNotSupported.
    cudaIpcMemHandle_t ipc;
    EXPECT(cudaIpcGetMemHandle(&ipc, idx) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);

    CHECK(cudaFree(pitched));
    CHECK(cudaFree(idx));
    CHECK(cudaFree(out));
    CHECK(cudaFree(a));
    CHECK(cudaStreamDestroy(s));
    printf("basics: ok\n");
    return 0;
}
