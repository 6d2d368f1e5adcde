// CUDA graphs as programs and frameworks build them, through the runtime: stream
// capture with stream-ordered allocation (cudaMallocAsync and cudaFreeAsync in the
// graph, launched three times), a capture forked onto a second stream and joined by
// events, and a graph built by hand (kernel, 1D copy, memset, host, child graph and
// event record nodes with their dependencies), queried, cloned, instantiated,
// launched, changed and updated; memory pools and stream priorities. It judges
// itself and prints "graphs: ok".
#include <cstdio>
#include <cstring>
#include "check.cuh"

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

__global__ void sum(const int *p, int n, long long *out) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    *out = s;
}

__global__ void scale(int *p, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= k;
}

__device__ int symbol_word;

static int host_calls = 0;
static void CUDART_CB count(void *data) { host_calls += *(int *)data; }

int main() {
    const int n = 1 << 16;
    cudaStream_t s, side;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreateWithPriority(&side, cudaStreamNonBlocking, -3));
    int least = 1, greatest = 1, prio = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK(cudaStreamGetPriority(side, &prio));
    EXPECT(least == 0 && greatest == -5 && prio == -3);
    long long *out;
    CHECK(cudaMalloc(&out, sizeof(long long)));
    long long want = 0;
    for (int i = 0; i < n; i++) want += 1 + i;

    // Stream-ordered allocation inside a capture: the memory is the graph's.
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status;
    unsigned long long id = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &status, &id));
    EXPECT(status == cudaStreamCaptureStatusActive && id != 0);
    int *tmp;
    CHECK(cudaMallocAsync(&tmp, n * sizeof(int), s));
    fill<<<n / 256, 256, 0, s>>>(tmp, n, 1);
    sum<<<1, 1, 0, s>>>(tmp, n, out);
    CHECK(cudaFreeAsync(tmp, s));
    CHECK(cudaStreamEndCapture(s, &g));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
    EXPECT(nodes == 4);
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    for (int k = 0; k < 3; k++) {
        long long got = 0;
        CHECK(cudaMemset(out, 0, sizeof got));
        CHECK(cudaGraphLaunch(e, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
        EXPECT(got == want);
    }
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));

    // A capture forked onto a second stream and joined: fill on s, scale on side
    // after it, sum on s after the scale.
    int *buf;
    CHECK(cudaMalloc(&buf, n * sizeof(int)));
    cudaEvent_t forked, joined;
    CHECK(cudaEventCreate(&forked));
    CHECK(cudaEventCreate(&joined));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    fill<<<n / 256, 256, 0, s>>>(buf, n, 1);
    CHECK(cudaEventRecord(forked, s));
    CHECK(cudaStreamWaitEvent(side, forked, 0));
    CHECK(cudaStreamIsCapturing(side, &status));
    EXPECT(status == cudaStreamCaptureStatusActive);
    scale<<<n / 256, 256, 0, side>>>(buf, n, 3);
    CHECK(cudaEventRecord(joined, side));
    CHECK(cudaStreamWaitEvent(s, joined, 0));
    sum<<<1, 1, 0, s>>>(buf, n, out);
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaStreamIsCapturing(side, &status));
    EXPECT(status == cudaStreamCaptureStatusNone);
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    long long got = 0;
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 3 * want);

    // Launched into a capture, an instantiated graph becomes one child graph node
    // of the captured graph, which then runs the whole of it.
    cudaGraph_t outer;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamEndCapture(s, &outer));
    cudaGraphNode_t only;
    nodes = 1;
    CHECK(cudaGraphGetNodes(outer, &only, &nodes));
    EXPECT(nodes == 1);
    cudaGraphNodeType only_type;
    CHECK(cudaGraphNodeGetType(only, &only_type));
    EXPECT(only_type == cudaGraphNodeTypeGraph);
    cudaGraphExec_t oe;
    CHECK(cudaGraphInstantiate(&oe, outer, 0));
    CHECK(cudaMemset(out, 0, sizeof got));
    CHECK(cudaGraphLaunch(oe, s));
    CHECK(cudaStreamSynchronize(s));
    got = 0;
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 3 * want);
    CHECK(cudaGraphExecDestroy(oe));
    CHECK(cudaGraphDestroy(outer));
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));

    // By hand: memset(0) -> fill -> scale(2) -> copy out, a host node after the
    // copy, a child graph with a 1D copy into a symbol, an event record node.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t set, filled, scaled, copied, called, child, recorded;
    cudaMemsetParams ms = {};
    ms.dst = buf, ms.value = 0, ms.elementSize = 4, ms.width = n, ms.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &ms));
    int nn = n, base = 10, two = 2;
    void *fill_args[] = {&buf, &nn, &base};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill, kp.gridDim = dim3(n / 256), kp.blockDim = dim3(256), kp.kernelParams = fill_args;
    CHECK(cudaGraphAddKernelNode(&filled, g, &set, 1, &kp));
    void *scale_args[] = {&buf, &nn, &two};
    cudaKernelNodeParams sp = kp;
    sp.func = (void *)scale, sp.kernelParams = scale_args;
    CHECK(cudaGraphAddKernelNode(&scaled, g, &filled, 1, &sp));
    static int host[1 << 16];
    CHECK(cudaGraphAddMemcpyNode1D(&copied, g, &scaled, 1, host, buf, n * sizeof(int), cudaMemcpyDeviceToHost));
    int add = 5;
    cudaHostNodeParams hp = {count, &add};
    CHECK(cudaGraphAddHostNode(&called, g, &copied, 1, &hp));
    cudaGraph_t inner;
    CHECK(cudaGraphCreate(&inner, 0));
    cudaGraphNode_t to_symbol;
    static int seven = 7;
    CHECK(cudaGraphAddMemcpyNodeToSymbol(&to_symbol, inner, nullptr, 0, symbol_word, &seven, sizeof seven, 0,
                                         cudaMemcpyHostToDevice));
    CHECK(cudaGraphAddChildGraphNode(&child, g, &called, 1, inner));
    CHECK(cudaGraphAddEventRecordNode(&recorded, g, &child, 1, joined));
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(child, &type));
    EXPECT(type == cudaGraphNodeTypeGraph);
    CHECK(cudaGraphNodeGetType(copied, &type));
    EXPECT(type == cudaGraphNodeTypeMemcpy);
    size_t edges = 0, roots = 0;
#if CUDART_VERSION >= 13000
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
#else
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, &edges));
#endif
    CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
    EXPECT(edges == 6 && roots == 1);
    cudaGraphNode_t deps[2] = {};
    size_t ndeps = 2;
#if CUDART_VERSION >= 13000
    CHECK(cudaGraphNodeGetDependencies(scaled, deps, nullptr, &ndeps));
#else
    CHECK(cudaGraphNodeGetDependencies(scaled, deps, &ndeps));
#endif
    EXPECT(ndeps == 1 && deps[0] == filled);
    cudaKernelNodeParams back = {};
    CHECK(cudaGraphKernelNodeGetParams(scaled, &back));
    EXPECT(back.func == (void *)scale && back.gridDim.x == n / 256 && back.blockDim.x == 256);

    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) EXPECT(host[i] == 2 * (10 + i));
    int word = 0;
    CHECK(cudaMemcpyFromSymbol(&word, symbol_word, sizeof word));
    EXPECT(word == 7 && host_calls == 5);
    // The executable's scale node changed to 3, then the whole graph updated from a
    // clone whose scale node says 4.
    int three = 3;
    void *three_args[] = {&buf, &nn, &three};
    sp.kernelParams = three_args;
    CHECK(cudaGraphExecKernelNodeSetParams(e, scaled, &sp));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 30 && host[n - 1] == 3 * (10 + n - 1) && host_calls == 10);
    cudaGraph_t copy;
    CHECK(cudaGraphClone(&copy, g));
    cudaGraphNode_t scaled_copy;
    CHECK(cudaGraphNodeFindInClone(&scaled_copy, scaled, copy));
    EXPECT(scaled_copy != scaled);
    int four = 4;
    void *four_args[] = {&buf, &nn, &four};
    sp.kernelParams = four_args;
    CHECK(cudaGraphKernelNodeSetParams(scaled_copy, &sp));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(e, copy, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 40 && host_calls == 15);
    // A graph of another shape does not update it.
    cudaGraph_t other;
    CHECK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t empty;
    CHECK(cudaGraphAddEmptyNode(&empty, other, nullptr, 0));
    EXPECT(cudaGraphExecUpdate(e, other, &info) == cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(other));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(inner));
    CHECK(cudaGraphDestroy(g));

    // Memory pools: the default pool counts what stream-ordered allocations hold.
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    cudaMemPool_t current;
    CHECK(cudaDeviceGetMemPool(&current, 0));
    EXPECT(current == pool);
    void *p;
    CHECK(cudaMallocAsync(&p, 1 << 20, s));
    unsigned long long used = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT(used == 1 << 20);
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT(used == 0);
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    CHECK(cudaMallocFromPoolAsync(&p, 4096, mine, s));
    CHECK(cudaMemsetAsync(p, 0x11, 4096, s));
    unsigned char first = 0;
    CHECK(cudaMemcpyAsync(&first, p, 1, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(first == 0x11);
    CHECK(cudaFreeAsync(p, s));
    CHECK(cudaMemPoolDestroy(mine));

    CHECK(cudaEventDestroy(forked));
    CHECK(cudaEventDestroy(joined));
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
    CHECK(cudaStreamDestroy(side));
    CHECK(cudaStreamDestroy(s));
    printf("graphs: ok\n");
    return 0;
}
