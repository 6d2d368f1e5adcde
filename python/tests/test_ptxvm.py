"""The Python package against NumPy and hand computation.

Expected values come from NumPy (float32 arithmetic, integer sums) or are worked out
by hand from the kernel's source; lines are found by searching the PTX text.
"""

import _thread
import signal
import struct
import threading
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import ptxvm

ROOT = Path(__file__).resolve().parents[2]
SAXPY = ROOT / "examples" / "saxpy.ptx"
KERNELS = Path(__file__).resolve().parent / "kernels"
REDUCE = KERNELS / "reduce.ptx"
# saxpy as mul.rn then add.rn (nvcc -fmad=false): NumPy's float32 a * x + y.
SAXPY_NOFMA = KERNELS / "saxpy_nofma.ptx"

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"

# out[ctaid.x * ntid.x + tid.x] = that index, with no bounds check.
FILL = HEADER + """
.visible .entry fill(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r1, %r1, %r2, %r3;
    mul.wide.s32 %rd3, %r1, 4;
    add.s64 %rd3, %rd2, %rd3;
    st.global.u32 [%rd3], %r1;
    ret;
}
"""

# out[y * width + x] = x + 1000 * y for the thread's global (x, y).
INDEX2D = HEADER + """
.visible .entry index2d(.param .u64 out, .param .u32 width)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r11, [width];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    mov.u32 %r1, %ctaid.y;
    mov.u32 %r2, %ntid.y;
    mov.u32 %r3, %tid.y;
    mad.lo.s32 %r5, %r1, %r2, %r3;
    mad.lo.s32 %r6, %r5, 1000, %r4;
    mad.lo.s32 %r7, %r5, %r11, %r4;
    mul.wide.u32 %rd2, %r7, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r6;
    ret;
}
"""

# out[0..4] = (double) a, b, c, d.
SCALARS = HEADER + """
.visible .entry scalars(.param .f32 a, .param .f64 b, .param .s8 c, .param .u16 d, .param .u64 out)
{
    .reg .f32 %f1;
    .reg .f64 %fd<5>;
    .reg .s16 %h1;
    .reg .u16 %u1;
    .reg .b64 %rd1;
    ld.param.f32 %f1, [a];
    ld.param.f64 %fd1, [b];
    ld.param.s8 %h1, [c];
    ld.param.u16 %u1, [d];
    ld.param.u64 %rd1, [out];
    cvt.f64.f32 %fd2, %f1;
    cvt.rn.f64.s16 %fd3, %h1;
    cvt.rn.f64.u16 %fd4, %u1;
    st.global.f64 [%rd1], %fd2;
    st.global.f64 [%rd1+8], %fd1;
    st.global.f64 [%rd1+16], %fd3;
    st.global.f64 [%rd1+24], %fd4;
    ret;
}
"""

SPIN = HEADER + """
.visible .entry spin()
{
$L_loop:
    bra.uni $L_loop;
}
"""


def line_of(src, text):
    """The 1-based line of `src` that holds `text` (once)."""
    lines = [i + 1 for i, line in enumerate(src.splitlines()) if text in line]
    assert len(lines) == 1, lines
    return lines[0]


def test_version_and_kernel_names():
    assert isinstance(ptxvm.__version__, str) and ptxvm.__version__.count(".") == 2
    assert ptxvm.Module(path=str(SAXPY)).kernel_names == ["saxpy"]
    assert ptxvm.Module(path=REDUCE).kernel_names == ["block_sum", "block_sum_dynamic"]
    f = ptxvm.Module(code=SCALARS).get_function("scalars")
    assert f.name == "scalars"
    assert f.param_types == [".f32", ".f64", ".s8", ".u16", ".u64"]


def f32_round(q):
    """The float32 nearest the rational `q` (ties to even), found exactly."""
    c = np.float32(float(q))
    candidates = [np.nextafter(c, np.float32(-np.inf)), c, np.nextafter(c, np.float32(np.inf))]
    return min(candidates, key=lambda v: (abs(Fraction(float(v)) - q), int(v.view(np.uint32)) & 1))


def test_saxpy_matches_numpy_float32():
    n = 1000
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    a = np.float32(2.5)
    expected = a * x + y  # float32: the product rounded, then the sum
    assert expected.dtype == np.float32
    f = ptxvm.Module(path=SAXPY_NOFMA).get_function("saxpy")
    x_before = x.copy()
    f(((n + 127) // 128,), (128,), (a, x, y, np.int32(n)))
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(x, x_before)


def test_saxpy_example_is_one_fused_rounding():
    # examples/saxpy.ptx (nvcc -O3) contracts a * x + y into fma.rn.f32: the exact
    # value rounded once to float32.
    assert "fma.rn.f32" in SAXPY.read_text()
    n = 300
    rng = np.random.default_rng(2)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    a = np.float32(1.1)
    expected = np.array(
        [f32_round(Fraction(float(a)) * Fraction(float(xi)) + Fraction(float(yi))) for xi, yi in zip(x, y)],
        dtype=np.float32,
    )
    assert (expected != a * x + y).any()  # the two roundings differ somewhere
    f = ptxvm.Module(path=SAXPY).get_function("saxpy")
    f(((n + 127) // 128,), (128,), (a, x, y, np.int32(n)))
    np.testing.assert_array_equal(y, expected)


def test_saxpy_with_python_scalars_and_int_dims():
    n = 100
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    f = ptxvm.Module(code=SAXPY.read_text()).get_function("saxpy")
    f(4, 32, (0.5, x, y, n))  # a Python float for .f32, an int for .u32
    np.testing.assert_array_equal(y, np.float32(0.5) * x + np.float32(1))


def test_same_array_twice_is_one_buffer():
    # saxpy(a, y, y): y = a * y + y, reading and writing the same device memory.
    n = 64
    y = np.arange(n, dtype=np.float32)
    expected = np.float32(3) * y + y
    f = ptxvm.Module(path=SAXPY).get_function("saxpy")
    f(1, 64, (np.float32(3), y, y, np.uint32(n)))
    np.testing.assert_array_equal(y, expected)


def test_views_of_one_array_overlap_as_on_a_gpu():
    # x = buf[0:32], y = buf[16:48], one warp: every lane loads x[i] and y[i] before
    # any lane stores y[i], so buf[16:48] = 2 * buf[0:32] + buf[16:48] as it was.
    buf = np.arange(48, dtype=np.float32)
    original = buf.copy()
    f = ptxvm.Module(path=SAXPY).get_function("saxpy")
    f(1, 32, (np.float32(2), buf[0:32], buf[16:48], np.int32(32)))
    np.testing.assert_array_equal(buf[:16], original[:16])
    np.testing.assert_array_equal(buf[16:48], np.float32(2) * original[0:32] + original[16:48])


@pytest.mark.parametrize("block", [32, 64, 256])
def test_shared_memory_reduction_matches_numpy_sum(block):
    n = 10_000
    rng = np.random.default_rng(block)
    data = rng.integers(-1000, 1000, size=n, dtype=np.int32)
    ctas = (n + block - 1) // block
    partial = np.zeros(ctas, dtype=np.int32)
    total = np.zeros(1, dtype=np.int32)
    f = ptxvm.Module(path=REDUCE).get_function("block_sum")
    f((ctas,), (block,), (data, partial, total, np.uint32(n)))
    padded = np.concatenate([data, np.zeros(ctas * block - n, dtype=np.int32)])
    np.testing.assert_array_equal(partial, padded.reshape(ctas, block).sum(axis=1))
    assert total[0] == data.sum()


def test_dynamic_shared_memory_is_the_launchs():
    n, block = 5000, 128
    data = np.arange(n, dtype=np.int32) % 97 - 48
    ctas = (n + block - 1) // block
    partial = np.zeros(ctas, dtype=np.int32)
    total = np.zeros(1, dtype=np.int32)
    f = ptxvm.Module(path=REDUCE).get_function("block_sum_dynamic")
    f(ctas, block, (data, partial, total, np.uint32(n)), shared_mem=block * 4)
    assert total[0] == data.sum()
    assert partial[0] == data[:block].sum()
    # Without the dynamic shared memory the first store to it is out of bounds.
    with pytest.raises(ptxvm.KernelFault) as e:
        f(ctas, block, (data, partial, total, np.uint32(n)), shared_mem=0)
    src = REDUCE.read_text()
    assert e.value.kernel == "block_sum_dynamic"
    entry = line_of(src, ".entry block_sum_dynamic(")
    stores = [i + 1 for i, line in enumerate(src.splitlines()) if "st.shared.u32" in line]
    assert e.value.line == min(n for n in stores if n > entry)  # its first store to shared memory
    assert e.value.ctaid == (0, 0, 0) and e.value.tid == (0, 0, 0)


def test_out_of_bounds_store_is_a_kernel_fault():
    out = np.full(40, -1, dtype=np.int32)
    f = ptxvm.Module(code=FILL).get_function("fill")
    with pytest.raises(ptxvm.KernelFault) as e:
        f((2,), (32,), (out,))
    fault = e.value
    # Thread 40 (CTA 1, tid 8) is the first to store past 40 ints.
    assert fault.kernel == "fill"
    assert fault.ctaid == (1, 0, 0)
    assert fault.tid == (8, 0, 0)
    assert fault.line == line_of(FILL, "st.global.u32")
    assert fault.instruction == "st.global.u32 [%rd3], %r1;"
    # out is args[0], 160 bytes; thread 40 stores its bytes 160 to 163.
    assert "(offset 160) reaches 4 bytes past the end of args[0] (160 bytes" in fault.cause
    assert fault.notes == [] and fault.calls == [] and fault.source is None
    assert isinstance(fault, Exception)
    assert f"<string>:{fault.line}:" in str(fault) and "tid=(8,0,0)" in str(fault)
    # CTA 0 ran to its end; its stores were copied back.
    np.testing.assert_array_equal(out[:32], np.arange(32))


def test_a_fault_carries_the_cuda_line_and_the_call_stack():
    # tests/data/run/lineinfo.cu, built with -lineinfo: load() (line 6 reads p[i])
    # is called from scale() at line 12; thread 19 of 20 reads x[20].
    m = ptxvm.Module(path=ROOT / "tests/data/run/lineinfo.ptx")
    x, y = np.zeros(20, dtype=np.float32), np.zeros(20, dtype=np.float32)
    with pytest.raises(ptxvm.KernelFault) as e:
        m.get_function("scale")(1, 32, (x, y, np.int32(20)))
    fault = e.value
    assert fault.tid == (19, 0, 0)
    assert fault.source == "tests/data/run/lineinfo.cu:6:5"
    [(line, _, text, source)] = fault.calls
    assert text.startswith("call.uni (retval0), _Z4loadPKfi") and source == "tests/data/run/lineinfo.cu:12:9"
    assert "note: at tests/data/run/lineinfo.cu:6:5" in str(fault)
    assert f"lineinfo.ptx:{line}:" in str(fault).splitlines()[2]


def test_sanitize_racecheck_and_initcheck():
    # tests/data/sanitize/sanitize.cu: racy_sum lacks the __syncthreads() between the
    # stores and thread 0's reads; block_sum has it.
    m = ptxvm.Module(path=ROOT / "tests/data/sanitize/sanitize.ptx")
    x = np.arange(1, 257, dtype=np.int32)
    out = np.zeros(2, dtype=np.int32)
    m.get_function("block_sum")(2, 128, (x, out), sanitize=["racecheck", "initcheck"])
    np.testing.assert_array_equal(out, [x[:128].sum(), x[128:].sum()])
    with pytest.raises(ptxvm.SanitizerError) as e:
        m.get_function("racy_sum")(2, 128, (x, out), sanitize=["racecheck"])
    raw = [h for h in e.value.hazards if h["kind"] == "read-after-write hazard"]
    assert raw, e.value.hazards
    h = raw[0]
    assert h["tid"] == (0, 0, 0) and h["source"] == "tests/data/sanitize/sanitize.cu:13:9"
    assert h["earlier"]["write"] and h["earlier"]["source"] == "tests/data/sanitize/sanitize.cu:10:5"
    assert "read-after-write hazard: kernel `racy_sum`" in str(e.value)
    with pytest.raises(ValueError):
        m.get_function("block_sum")(2, 128, (x, out), sanitize=["nope"])


def test_object_and_big_endian_arrays_are_refused():
    f = ptxvm.Module(code=FILL).get_function("fill")
    with pytest.raises(TypeError, match="not plain numbers"):
        f(1, 32, (np.array([None] * 32, dtype=object),))
    with pytest.raises(TypeError, match="big-endian"):
        f(1, 32, (np.zeros(32, dtype=">i4"),))


def test_step_limit_is_a_kernel_fault():
    f = ptxvm.Module(code=SPIN).get_function("spin")
    with pytest.raises(ptxvm.KernelFault) as e:
        f(1, 1, (), max_steps=1000)
    assert e.value.kernel == "spin"
    assert e.value.line == line_of(SPIN, "bra.uni")


def test_grid_and_block_tuples():
    width, height = 8, 6  # grid (2, 3) of blocks (4, 2)
    out = np.zeros(width * height, dtype=np.int32)
    f = ptxvm.Module(code=INDEX2D).get_function("index2d")
    f((2, 3), (4, 2), (out, np.uint32(width)))
    y, x = np.mgrid[0:height, 0:width]
    np.testing.assert_array_equal(out.reshape(height, width), x + 1000 * y)


def test_bad_dimensions():
    f = ptxvm.Module(code=INDEX2D).get_function("index2d")
    out = np.zeros(8, dtype=np.int32)
    for grid, block, error in [
        (0, 1, ValueError),
        (1, (1, 2, 3, 4), ValueError),
        (1, 2048, ValueError),
        (1, (32, 64), ValueError),  # 2048 threads
        (1.5, 1, TypeError),
    ]:
        with pytest.raises(error):
            f(grid, block, (out, np.uint32(1)))
    with pytest.raises(ValueError):
        f(1, 1, (out, np.uint32(1)), shared_mem=-1)


def test_scalars_by_numpy_type_and_python_value():
    out = np.zeros(4)
    f = ptxvm.Module(code=SCALARS).get_function("scalars")
    f(1, 1, (np.float32(1.5), np.float64(2.25), np.int8(-3), np.uint16(65535), out))
    np.testing.assert_array_equal(out, [1.5, 2.25, -3, 65535])
    f(1, 1, (0.1, 0.1, -128, 7, out))
    np.testing.assert_array_equal(out, [np.float64(np.float32(0.1)), 0.1, -128, 7])


def test_scalar_type_mismatch_is_a_type_error():
    out = np.zeros(4)
    f = ptxvm.Module(code=SCALARS).get_function("scalars")
    good = [np.float32(1), np.float64(2), np.int8(3), np.uint16(4), out]
    cases = [
        (0, np.float64(1), ["argument 0", ".f32", "float64"]),  # size
        (2, np.int16(3), ["argument 2", ".s8", "int16"]),  # size
        (1, np.int64(2), ["argument 1", ".f64", "int64"]),  # kind
        (0, 1, ["argument 0", ".f32", "int"]),  # a Python int for a float
        (3, 4.0, ["argument 3", ".u16", "float"]),  # a Python float for an integer
        (4, np.uint64(0), None),  # fine: an address as a scalar
        (3, out, ["argument 3", ".u16", "array"]),
        (1, "2", ["argument 1", "str"]),
    ]
    for k, value, words in cases:
        args = list(good)
        args[k] = value
        if words is None:
            continue
        with pytest.raises(TypeError) as e:
            f(1, 1, tuple(args))
        for w in words:
            assert w in str(e.value), (w, str(e.value))
    with pytest.raises(OverflowError):
        f(1, 1, (1.0, 2.0, 128, 4, out))
    with pytest.raises(OverflowError):
        f(1, 1, (1.0, 2.0, 3, -1, out))
    with pytest.raises(TypeError, match="takes 5 arguments, 4 given"):
        f(1, 1, tuple(good[:4]))


def test_arrays_must_be_contiguous_and_writeable():
    f = ptxvm.Module(path=SAXPY).get_function("saxpy")
    x = np.zeros(64, dtype=np.float32)
    with pytest.raises(TypeError, match="not contiguous"):
        f(1, 32, (np.float32(1), x[::2], np.zeros(32, dtype=np.float32), np.int32(32)))
    frozen = np.zeros(32, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="read-only"):
        f(1, 32, (np.float32(1), frozen, np.zeros(32, dtype=np.float32), np.int32(32)))


def test_invalid_ptx_is_a_ptx_error_with_its_line():
    src = HEADER + """
.visible .entry bad(.param .u64 out)
{
    .reg .b32 %r<3>;
    add.u32 %r1, %r2, %r9;
    ret;
}
"""
    line = line_of(src, "%r9")
    with pytest.raises(ptxvm.PtxError) as e:
        ptxvm.Module(code=src)
    assert issubclass(ptxvm.PtxError, Exception)
    assert f"<string>:{line}:" in str(e.value)
    assert [d[0] for d in e.value.diagnostics] == [line]
    col = src.splitlines()[line - 1].index("%r9") + 1
    assert e.value.diagnostics[0][1] == col


def test_ptx_error_names_the_file(tmp_path):
    path = tmp_path / "broken.ptx"
    path.write_text(HEADER + "\n.visible .entry k()\n{\n    frob.u32 %r1;\n}\n")
    line = line_of(path.read_text(), "frob")
    with pytest.raises(ptxvm.PtxError, match=rf"broken\.ptx:{line}:5: error: "):
        ptxvm.Module(path=str(path))
    with pytest.raises(FileNotFoundError):
        ptxvm.Module(path=str(tmp_path / "missing.ptx"))


def test_module_arguments_and_unknown_kernel():
    with pytest.raises(TypeError):
        ptxvm.Module()
    with pytest.raises(TypeError):
        ptxvm.Module(code=FILL, path=str(SAXPY))
    with pytest.raises(ValueError, match="no kernel named `nope`"):
        ptxvm.Module(code=FILL).get_function("nope")


def test_timeout_is_a_kernel_fault():
    f = ptxvm.Module(code=SPIN).get_function("spin")
    with pytest.raises(ptxvm.KernelFault) as e:
        f(1, 1, (), timeout=0.2)
    assert e.value.tid == (0, 0, 0) and e.value.line == line_of(SPIN, "bra.uni")


def test_ctrl_c_stops_a_launch():
    f = ptxvm.Module(code=SPIN).get_function("spin")
    # A process started with SIGINT ignored (a background job of a non-interactive
    # shell, as CI scripts often are) leaves Python's handler uninstalled, and then
    # interrupt_main does nothing: install it for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        # The timeout only bounds the test if the interrupt were lost (then a
        # KernelFault fails it); the step budget is more than 20 s can spend.
        with pytest.raises(KeyboardInterrupt):
            f(1, 1, (), timeout=20, max_steps=2**62)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_device_printf_goes_to_sys_stdout(capsys):
    f = ptxvm.Module(path=KERNELS / "hello.ptx").get_function("hello")
    f(1, 4, (np.int32(10),))
    assert capsys.readouterr().out == "".join(f"thread {t}: {10 + t}\n" for t in range(4))


def test_empty_arrays_and_many_launches():
    # 2,000 launches of one Function (each on a fresh device), and an empty array.
    f = ptxvm.Module(path=SAXPY).get_function("saxpy")
    y = np.zeros(8, dtype=np.float32)
    x = np.ones(8, dtype=np.float32)
    for _ in range(2000):
        f(1, 8, (np.float32(1), x, y, np.int32(8)))
    np.testing.assert_array_equal(y, np.full(8, 2000, dtype=np.float32))
    f(1, 8, (np.float32(1), np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.float32), np.int32(0)))


# A struct passed by value: out[0] = s.a + s.c for struct { int a; int b; int c; }.
PAIR = HEADER + """
.visible .entry pair(.param .align 4 .b8 s[12], .param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd1;
    ld.param.u32 %r1, [s];
    ld.param.u32 %r2, [s+8];
    ld.param.u64 %rd1, [out];
    add.s32 %r3, %r1, %r2;
    st.global.u32 [%rd1], %r3;
    ret;
}
"""


def test_struct_by_value_is_bytes():
    f = ptxvm.Module(code=PAIR).get_function("pair")
    assert f.param_types == [".b8[12]", ".u64"]
    out = np.zeros(1, dtype=np.int32)
    f(1, 1, (struct.pack("<iii", 5, -100, 7), out))
    assert out[0] == 12
    with pytest.raises(TypeError, match="8 bytes for parameter 0 of type .b8\\[12\\]"):
        f(1, 1, (struct.pack("<ii", 5, 7), out))


DIVIDE = HEADER + """
.visible .entry divide(.param .u64 out, .param .u32 d)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd1;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [d];
    mov.u32 %r2, 7;
    div.u32 %r2, %r2, %r1;
    st.global.u32 [%rd1], %r2;
    ret;
}
"""


def test_division_by_zero_is_all_ones_or_a_fault_when_checked():
    f = ptxvm.Module(code=DIVIDE).get_function("divide")
    out = np.zeros(1, dtype=np.uint32)
    f(1, 1, (out, 2))
    assert out[0] == 3
    f(1, 1, (out, 0))  # an H100 gives all ones
    assert out[0] == 0xFFFF_FFFF
    with pytest.raises(ptxvm.KernelFault) as e:
        f(1, 1, (out, 0), check=["div0"])
    assert e.value.line == line_of(DIVIDE, "div.u32")
    with pytest.raises(ValueError, match="unknown `nan`"):
        f(1, 1, (out, 0), check=["nan"])


# Warp 0 waits at barrier 0 and warp 1 at barrier 1: neither can complete.
STUCK = HEADER + """
.visible .entry stuck()
{
    .reg .b32 %r1;
    .reg .pred %p1;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra $L_a;
    bar.sync 1;
    ret;
$L_a:
    bar.sync 0;
    ret;
}
"""


def test_deadlock_names_every_waiting_instruction():
    f = ptxvm.Module(code=STUCK).get_function("stuck")
    with pytest.raises(ptxvm.KernelFault) as e:
        f(1, 64, ())
    fault = e.value
    assert "deadlock" in fault.cause
    waiting = {fault.line} | {line for line, _, _, _ in fault.notes}
    assert waiting == {line_of(STUCK, "bar.sync 0"), line_of(STUCK, "bar.sync 1")}
    assert {fault.instruction} | {text for _, _, text, _ in fault.notes} == {"bar.sync 0;", "bar.sync 1;"}


def test_a_texture_filters_and_gathers_as_the_guide_says():
    """A 2 x 2 float2 texture, linear: halfway and a quarter of the way between
    texel centres are the Guide's weighted means (weights of 1/256ths); channels the
    format lacks read 0; tld4.r returns the footprint's reds in the ISA's order."""
    f = ptxvm.Module(path=KERNELS / "fetch2d.ptx").get_function("fetch2d")
    texels = np.array([[[1, 10], [3, 30]], [[5, 50], [7, 70]]], dtype=np.float32)
    tex = ptxvm.Texture(texels, channels=2, filter="linear")
    xs = np.array([1.0, 0.75, 1.5], dtype=np.float32)
    ys = np.array([0.5, 0.5, 1.5], dtype=np.float32)
    out = np.zeros(12, dtype=np.float32)
    gathered = np.zeros(12, dtype=np.float32)
    f(1, 3, (tex, xs, ys, out, gathered))
    assert out.tolist() == [2, 20, 0, 0, 1.5, 15, 0, 0, 7, 70, 0, 0]
    assert gathered.tolist() == [5, 7, 3, 1, 5, 7, 3, 1, 7, 7, 7, 7]


def test_surfaces_are_read_and_written_back_into_their_arrays():
    f = ptxvm.Module(path=KERNELS / "surf_scale.ptx").get_function("surf_scale")
    src = np.arange(3 * 5 * 4, dtype=np.float32).reshape(3, 5, 4)
    dst = np.zeros_like(src)
    f(1, (5, 3), (ptxvm.Surface(src, channels=4), ptxvm.Surface(dst, channels=4)))
    assert (dst == 2 * src).all()
    assert (src == np.arange(60, dtype=np.float32).reshape(3, 5, 4)).all()
    # A surface reads its array as it is at the launch, not as it was when made.
    s = ptxvm.Surface(src, channels=4)
    src[:] = 7
    f(1, (5, 3), (s, ptxvm.Surface(dst, channels=4)))
    assert (dst == 14).all() and (src == 7).all()


def test_textures_cuda_refuses_raise_value_error():
    with pytest.raises(ValueError, match="linear filtering needs floats"):
        ptxvm.Texture(np.zeros(4, dtype=np.int16), filter="linear")
    with pytest.raises(ValueError, match="last axis holds the channels"):
        ptxvm.Texture(np.zeros((4, 3), dtype=np.float32), channels=4)
    with pytest.raises(TypeError, match="textures hold"):
        ptxvm.Texture(np.zeros(4, dtype=np.float64))


def test_a_handle_that_is_no_texture_faults():
    f = ptxvm.Module(path=KERNELS / "fetch2d.ptx").get_function("fetch2d")
    one = np.zeros(1, dtype=np.float32)
    with pytest.raises(ptxvm.KernelFault, match="not a live texture object"):
        f(1, 1, (np.uint64(77), one, one, np.zeros(4, np.float32), np.zeros(4, np.float32)))
