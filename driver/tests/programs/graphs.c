/* Graphs as frameworks record launches: an explicit graph (memset, kernel, copy and
   host nodes) instantiated, launched twice and updated; and stream capture, whose
   work runs only when the captured graph is launched. */
#include "check.h"

/* The older names a framework's CUDA-graph path binds to (cuda.h maps the plain
   names to the newer variants): the v1 kernel node parameters are the v2 ones
   without their last two fields. */
CUresult graph_instantiate_v2(CUgraphExec *, CUgraph, CUgraphNode *, char *, size_t) __asm__("cuGraphInstantiate_v2");
CUresult graph_add_kernel_v1(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                             const CUDA_KERNEL_NODE_PARAMS_v1 *) __asm__("cuGraphAddKernelNode");
CUresult graph_exec_kernel_v1(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS_v1 *) __asm__(
    "cuGraphExecKernelNodeSetParams");

static int host_calls = 0;
static void CUDA_CB count(void *data) { host_calls += (int)(intptr_t)data; }

int main(int argc, char **argv) {
    CUmodule mod = load_kernels(argc, argv);
    CUfunction add_one, axpy;
    CHECK(cuModuleGetFunction(&add_one, mod, "add_one"));
    CHECK(cuModuleGetFunction(&axpy, mod, "axpy"));
    enum { N = 256 };
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, N * sizeof(int)));
    int host[N];

    /* memset(7) -> add_one -> copy to host -> host node. */
    CUgraph g;
    CHECK(cuGraphCreate(&g, 0));
    CUgraphNode set, kern, copy, call;
    CUDA_MEMSET_NODE_PARAMS ms = {0};
    ms.dst = d, ms.value = 7, ms.elementSize = 4, ms.width = N, ms.height = 1;
    CHECK(cuGraphAddMemsetNode(&set, g, NULL, 0, &ms, NULL));
    int n = N;
    void *args[] = {&d, &n};
    CUDA_KERNEL_NODE_PARAMS kp = {0};
    kp.func = add_one, kp.gridDimX = N / 64, kp.gridDimY = 1, kp.gridDimZ = 1;
    kp.blockDimX = 64, kp.blockDimY = 1, kp.blockDimZ = 1, kp.kernelParams = args;
    CHECK(cuGraphAddKernelNode(&kern, g, &set, 1, &kp));
    CUDA_MEMCPY3D mc = {0};
    mc.srcMemoryType = CU_MEMORYTYPE_DEVICE, mc.srcDevice = d;
    mc.dstMemoryType = CU_MEMORYTYPE_HOST, mc.dstHost = host;
    mc.WidthInBytes = N * sizeof(int), mc.Height = 1, mc.Depth = 1;
    CHECK(cuGraphAddMemcpyNode(&copy, g, &kern, 1, &mc, NULL));
    CUDA_HOST_NODE_PARAMS hp = {count, (void *)1};
    CHECK(cuGraphAddHostNode(&call, g, &copy, 1, &hp));
    EXPECT_ERR(cuGraphAddHostNode(&call, g, (CUgraphNode *)&d, 1, &hp), CUDA_ERROR_INVALID_VALUE);

    CUgraphExec exec;
    CHECK(cuGraphInstantiate(&exec, g, 0));
    CUstream s;
    CHECK(cuStreamCreate(&s, 0));
    memset(host, 0, sizeof host);
    CHECK(cuGraphLaunch(exec, s));
    CHECK(cuStreamSynchronize(s));
    for (int i = 0; i < N; i++) EXPECT(host[i] == 8);
    EXPECT(host_calls == 1);
    CHECK(cuGraphLaunch(exec, s));
    EXPECT(host[0] == 8 && host_calls == 2);

    /* The kernel node, updated to run on half the elements, its arguments now in the
       packed form. */
    struct {
        CUdeviceptr p;
        int n;
    } packed = {d, N / 2};
    size_t size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    kp.kernelParams = NULL, kp.extra = extra;
    CHECK(cuGraphExecKernelNodeSetParams(exec, kern, &kp));
    CHECK(cuGraphLaunch(exec, s));
    for (int i = 0; i < N; i++) EXPECT(host[i] == (i < N / 2 ? 8 : 7));
    /* The copy node, updated to copy only the first 16 elements. */
    memset(host, 0, sizeof host);
    mc.WidthInBytes = 16 * sizeof(int);
    CHECK(cuGraphExecMemcpyNodeSetParams(exec, copy, &mc, NULL));
    CHECK(cuGraphLaunch(exec, s));
    EXPECT(host[0] == 8 && host[15] == 8 && host[16] == 0);
    CHECK(cuGraphExecDestroy(exec));
    CHECK(cuGraphDestroy(g));
    EXPECT_ERR(cuGraphLaunch(exec, s), CUDA_ERROR_INVALID_HANDLE);

    /* Capture: y = 2x + y, with copies in and out, recorded and run later. */
    float x[N], y[N], back[N];
    for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f, back[i] = -1.0f;
    CUdeviceptr dx, dy;
    CHECK(cuMemAlloc(&dx, sizeof x));
    CHECK(cuMemAlloc(&dy, sizeof y));
    CHECK(cuMemsetD32(dy, 0, N));
    CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUstreamCaptureStatus status;
    CHECK(cuStreamIsCapturing(s, &status));
    EXPECT(status == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CHECK(cuMemcpyHtoDAsync(dx, x, sizeof x, s));
    CHECK(cuMemcpyHtoDAsync(dy, y, sizeof y, s));
    float a = 2.0f;
    void *axpy_args[] = {&a, &dx, &dy, &n};
    CHECK(cuLaunchKernel(axpy, N / 64, 1, 1, 64, 1, 1, 0, s, axpy_args, NULL));
    CHECK(cuMemcpyDtoHAsync(back, dy, sizeof back, s));
    CHECK(cuLaunchHostFunc(s, count, (void *)10));
    CUgraph captured;
    CHECK(cuStreamEndCapture(s, &captured));
    /* Nothing ran yet. */
    EXPECT(back[0] == -1.0f && host_calls == 4);
    float probe = -5.0f;
    CHECK(cuMemcpyDtoH(&probe, dy, 4));
    EXPECT(probe == 0.0f);
    CHECK(cuGraphInstantiate(&exec, captured, 0));
    CHECK(cuGraphLaunch(exec, s));
    CHECK(cuStreamSynchronize(s));
    for (int i = 0; i < N; i++) EXPECT(back[i] == 2.0f * i + 1.0f);
    EXPECT(host_calls == 14);
    EXPECT_ERR(cuStreamEndCapture(s, &captured), CUDA_ERROR_ILLEGAL_STATE);
    EXPECT_ERR(cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CHECK(cuGraphExecDestroy(exec));
    CHECK(cuGraphDestroy(captured));

    /* The v1 entry points: a kernel node from v1 parameters, instantiated with
       cuGraphInstantiate_v2 (an error node and an empty log), then changed through
       the v1 set-parameters. */
    CHECK(cuGraphCreate(&g, 0));
    CHECK(cuMemsetD32(d, 40, N));
    CUDA_KERNEL_NODE_PARAMS_v1 k1 = {0};
    k1.func = add_one, k1.gridDimX = N / 64, k1.gridDimY = 1, k1.gridDimZ = 1;
    k1.blockDimX = 64, k1.blockDimY = 1, k1.blockDimZ = 1, k1.kernelParams = args;
    CUgraphNode k1node;
    CHECK(graph_add_kernel_v1(&k1node, g, NULL, 0, &k1));
    CUgraphNode error_node = (CUgraphNode)&k1;
    char log[16] = "x";
    CHECK(graph_instantiate_v2(&exec, g, &error_node, log, sizeof log));
    EXPECT(error_node == NULL && log[0] == 0);
    CHECK(cuGraphLaunch(exec, s));
    int back_n[N];
    CHECK(cuMemcpyDtoH(back_n, d, sizeof back_n));
    EXPECT(back_n[0] == 41 && back_n[N - 1] == 41);
    int quarter = N / 4;
    void *quarter_args[] = {&d, &quarter};
    k1.kernelParams = quarter_args;
    CHECK(graph_exec_kernel_v1(exec, k1node, &k1));
    CHECK(cuGraphLaunch(exec, s));
    CHECK(cuMemcpyDtoH(back_n, d, sizeof back_n));
    EXPECT(back_n[0] == 42 && back_n[N / 4 - 1] == 42 && back_n[N / 4] == 41);
    /* The node's parameters read back, through the v2 call (the v1 fields agree). */
    CUDA_KERNEL_NODE_PARAMS got;
    CHECK(cuGraphKernelNodeGetParams(k1node, &got));
    EXPECT(got.func == add_one && got.gridDimX == N / 64 && got.blockDimX == 64);
    CUgraphNodeType type;
    CHECK(cuGraphNodeGetType(k1node, &type));
    EXPECT(type == CU_GRAPH_NODE_TYPE_KERNEL);
    CHECK(cuGraphExecDestroy(exec));
    CHECK(cuGraphDestroy(g));
    puts("graphs: ok");
    return 0;
}
