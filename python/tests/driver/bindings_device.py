"""cuda.bindings.driver lists ptxvm's device and its attributes."""
from cuda.bindings import driver

A = driver.CUdevice_attribute
(err,) = driver.cuInit(0)
assert err == driver.CUresult.CUDA_SUCCESS, err
err, count = driver.cuDeviceGetCount()
assert count == 1, count
err, dev = driver.cuDeviceGet(0)
err, name = driver.cuDeviceGetName(64, dev)
assert name.split(b"\0")[0] == b"ptxvm (sm_90)", name
want = {
    A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: 9,
    A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: 0,
    A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: 132,
    A.CU_DEVICE_ATTRIBUTE_WARP_SIZE: 32,
    A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 1024,
    A.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: 232448,
    A.CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: 1,
    A.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: 1,
    A.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: 1,
    A.CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: 1,
}
for attr, value in want.items():
    err, got = driver.cuDeviceGetAttribute(attr, dev)
    assert err == driver.CUresult.CUDA_SUCCESS and got == value, (attr, err, got)
err, total = driver.cuDeviceTotalMem(dev)
assert total > 1 << 30, total
err, version = driver.cuDriverGetVersion()
assert version >= 13000, version
print("cuda.bindings: ok")
