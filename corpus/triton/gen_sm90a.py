#!/usr/bin/env python3
"""Generates OpenAI Triton's own output for sm_90a: tiled f16 GEMMs with f32
accumulation (64 x 64 tiles, K steps of 32, 4 warps, 3 stages), which Triton lowers
to wgmma.mma_async with shared-memory descriptors.

- corpus/triton/matmul_wgmma.ptx loads its tiles through pointers (cp.async stages);
- corpus/triton/matmul_tma.ptx through tensor descriptors it makes on the device
  (tl.make_tensor_descriptor: tensormap.replace on 128 zeroed bytes, then
  tensormap.cp_fenceproxy to its global scratch), TMA loads on mbarriers and a TMA
  store;
- corpus/triton/matmul_ws.ptx is the same with its loop warp-specialized
  (tl.range(..., warp_specialize=True)): a producer warp issues the TMA loads, the
  consumer warpgroup waits on mbarriers (passing try_wait.parity -(phase & 1)).

Triton compiles for a GPU target without a GPU:

    pip install triton          # 3.9.0 made the committed file
    python3 corpus/triton/gen_sm90a.py

Each kernel needs the dynamic shared memory printed, 128 threads per CTA, a
(M / 64, N / 64) grid, and two scratch pointers after its own parameters (Triton's
global scratch, of the printed bytes per CTA, and its profile scratch, unused).
tests/run_wgmma.rs runs both.
"""

import os

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a)
        y = tl.load(b)
        acc += tl.dot(x, y)
        a += BK * stride_ak
        b += BK * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c, acc)


@triton.jit
def matmul_tma(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc)


@triton.jit
def matmul_ws(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc)


def main():
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32", "stride_cm": "i32",
           "stride_cn": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    tma_sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
               "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    kernels = [(matmul, sig, "matmul_wgmma"), (matmul_tma, tma_sig, "matmul_tma"), (matmul_ws, tma_sig, "matmul_ws")]
    for fn, signature, name in kernels:
        src = ASTSource(fn=fn, signature=signature, constexprs={"BM": 64, "BN": 64, "BK": 32})
        kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4, "num_stages": 3})
        out = os.path.join(os.path.dirname(__file__), f"{name}.ptx")
        with open(out, "w") as f:
            f.write(kernel.asm["ptx"])
        scratch = getattr(kernel.metadata, "global_scratch_size", 0)
        print(f"{out}: {kernel.metadata.shared} bytes of shared memory, {scratch} of global scratch per CTA")


if __name__ == "__main__":
    main()
