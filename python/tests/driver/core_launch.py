"""cuda.core on ptxvm's libcuda.so.1: NVRTC compiles a kernel to PTX, the PTX loads
as a library, the device's memory pool allocates, the kernel runs and the result is
checked against NumPy. Run under `ptxvm exec` by test_driver.py."""
import numpy as np
from cuda.bindings import driver
from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch

dev = Device()
assert dev.name == "ptxvm (sm_90)", dev.name
assert tuple(dev.compute_capability) == (9, 0)
dev.set_current()
stream = dev.create_stream()
code = r"""
extern "C" __global__ void scale_add(float *x, const float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + y[i];
}
"""
ptx = Program(code, code_type="c++", options=ProgramOptions(arch="sm_90")).compile("ptx")
kernel = ptx.get_kernel("scale_add")
n = 1000
x = np.arange(n, dtype=np.float32)
y = np.full(n, 0.5, dtype=np.float32)
dx = dev.allocate(n * 4, stream=stream)
dy = dev.allocate(n * 4, stream=stream)
for dst, src in ((dx, x), (dy, y)):
    (err,) = driver.cuMemcpyHtoD(int(dst.handle), src.ctypes.data, n * 4)
    assert err == driver.CUresult.CUDA_SUCCESS, err
launch(stream, LaunchConfig(grid=(n + 127) // 128, block=128), kernel, dx, dy, np.float32(3.0), np.int32(n))
stream.sync()
out = np.empty(n, dtype=np.float32)
(err,) = driver.cuMemcpyDtoH(out.ctypes.data, int(dx.handle), n * 4)
assert err == driver.CUresult.CUDA_SUCCESS, err
assert (out == 3.0 * x + 0.5).all(), out[:8]
dx.close(stream)
dy.close(stream)
print("cuda.core: ok")
