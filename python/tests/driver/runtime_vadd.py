"""cuda.bindings.runtime, whose wheel links NVIDIA's CUDA runtime statically: it
reaches ptxvm's driver through the private export tables. A vector add compiled by
NVRTC, loaded with cudaLibraryLoadData, on memory from cudaMalloc and cudaMemcpy,
launched as the bindings launch a kernel: a kernel node of a graph
(cudaGraphCreate, cudaGraphAddKernelNode, cudaGraphLaunch; the bindings have no
cudaLaunchKernel, which takes a host stub), and the same cudaKernel_t through the
driver's cuLaunchKernel. Then a stream-ordered allocation (cudaMallocAsync,
cudaMemsetAsync, cudaFreeAsync) on a stream."""
import ctypes

import numpy as np
from cuda.bindings import driver, nvrtc, runtime

OK = runtime.cudaError_t.cudaSuccess


def check(result):
    err, *rest = result
    assert err in (OK, nvrtc.nvrtcResult.NVRTC_SUCCESS, driver.CUresult.CUDA_SUCCESS), err
    return rest[0] if len(rest) == 1 else rest


check(runtime.cudaSetDevice(0))
check(runtime.cudaFree(0))
props = check(runtime.cudaGetDeviceProperties(0))
assert props.name.split(b"\0")[0] == b"ptxvm (sm_90)" and props.major == 9, props.name
assert check(runtime.cudaRuntimeGetVersion()) >= 12000

source = b"""
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
prog = check(nvrtc.nvrtcCreateProgram(source, b"vadd.cu", 0, [], []))
check(nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_90"]))
size = check(nvrtc.nvrtcGetPTXSize(prog))
ptx = b" " * size
check(nvrtc.nvrtcGetPTX(prog, ptx))

library = check(runtime.cudaLibraryLoadData(ptx, [], [], 0, [], [], 0))
kernel = check(runtime.cudaLibraryGetKernel(library, b"vadd"))

n = 10000
a = np.arange(n, dtype=np.float32)
b = np.full(n, 0.25, dtype=np.float32)
c = np.zeros(n, dtype=np.float32)
da, db, dc = (check(runtime.cudaMalloc(x.nbytes)) for x in (a, b, c))
H2D, D2H = runtime.cudaMemcpyKind.cudaMemcpyHostToDevice, runtime.cudaMemcpyKind.cudaMemcpyDeviceToHost
check(runtime.cudaMemcpy(da, a.ctypes.data, a.nbytes, H2D))
check(runtime.cudaMemcpy(db, b.ctypes.data, b.nbytes, H2D))

values = [ctypes.c_void_p(da), ctypes.c_void_p(db), ctypes.c_void_p(dc), ctypes.c_int(n)]
pointers = (ctypes.c_void_p * 4)(*(ctypes.addressof(v) for v in values))
node = runtime.cudaKernelNodeParams()
node.func = int(kernel)
node.gridDim.x, node.gridDim.y, node.gridDim.z = (n + 127) // 128, 1, 1
node.blockDim.x, node.blockDim.y, node.blockDim.z = 128, 1, 1
node.sharedMemBytes = 0
node.kernelParams = ctypes.addressof(pointers)
graph = check(runtime.cudaGraphCreate(0))
check(runtime.cudaGraphAddKernelNode(graph, None, 0, node))
exe = check(runtime.cudaGraphInstantiate(graph, 0))
check(runtime.cudaGraphLaunch(exe, 0))
check(runtime.cudaDeviceSynchronize())
check(runtime.cudaMemcpy(c.ctypes.data, dc, c.nbytes, D2H))
assert (c == a + b).all(), c[:8]
check(runtime.cudaGraphExecDestroy(exe))
check(runtime.cudaGraphDestroy(graph))

# The same kernel through the driver, on the runtime's memory: c = a + a.
values[1] = ctypes.c_void_p(da)
pointers = (ctypes.c_void_p * 4)(*(ctypes.addressof(v) for v in values))
check(driver.cuLaunchKernel(int(kernel), (n + 127) // 128, 1, 1, 128, 1, 1, 0, 0, ctypes.addressof(pointers), 0))
check(runtime.cudaDeviceSynchronize())
check(runtime.cudaMemcpy(c.ctypes.data, dc, c.nbytes, D2H))
assert (c == a + a).all(), c[:8]

# Stream-ordered allocation.
stream = check(runtime.cudaStreamCreate())
p = check(runtime.cudaMallocAsync(4096, stream))
check(runtime.cudaMemsetAsync(p, 0x5A, 4096, stream))
out = np.zeros(4096, dtype=np.uint8)
check(runtime.cudaMemcpyAsync(out.ctypes.data, p, 4096, D2H, stream))
check(runtime.cudaFreeAsync(p, stream))
check(runtime.cudaStreamSynchronize(stream))
assert (out == 0x5A).all()
pool = check(runtime.cudaDeviceGetDefaultMemPool(0))
used = check(runtime.cudaMemPoolGetAttribute(pool, runtime.cudaMemPoolAttr.cudaMemPoolAttrUsedMemCurrent))
assert int(used) == 0, used
check(runtime.cudaStreamDestroy(stream))
for x in (da, db, dc):
    check(runtime.cudaFree(x))
check(runtime.cudaLibraryUnload(library))
print("cuda.bindings.runtime: ok")
