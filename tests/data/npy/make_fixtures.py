#!/usr/bin/env python3
"""Writes the .npy fixtures of src/npy.rs's tests with real NumPy (numpy 2.4.6 made
the committed files): `pip install numpy && python3 tests/data/npy/make_fixtures.py`.

Each file's values are written out in the test that reads it, as computed here by
hand (small integers and exactly representable floats), so the test compares the
bytes NumPy wrote against values that do not come from ptxvm."""
import os
import numpy as np
from numpy.lib import format as npf

here = os.path.dirname(os.path.abspath(__file__))


def save(name, arr, version=None):
    path = os.path.join(here, name)
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as f:
            npf.write_array(f, arr, version=version)


save("f4.npy", np.array([1.0, -2.5, 0.125], dtype="<f4"))
save("f2.npy", np.array([1.0, -2.0, 65504.0], dtype="<f2"))
save("f8.npy", np.array([0.5, 1e300], dtype="<f8"))
save("i1.npy", np.array([-1, 2, -128], dtype="i1"))
save("u1.npy", np.array([0, 255], dtype="u1"))
save("i2.npy", np.array([-2, 300], dtype="<i2"))
save("u2.npy", np.array([65535, 1], dtype="<u2"))
save("i4.npy", np.array([-7, 1 << 30], dtype="<i4"))
save("u4.npy", np.array([4294967295, 3], dtype="<u4"))
save("i8.npy", np.array([-(1 << 62), 5], dtype="<i8"))
save("u8.npy", np.array([(1 << 64) - 1], dtype="<u8"))
save("b1.npy", np.array([True, False, True], dtype="?"))
save("scalar_f4.npy", np.array(3.0, dtype="<f4"))
save("empty_f4.npy", np.zeros(0, dtype="<f4"))
save("c_2x3_i4.npy", np.arange(6, dtype="<i4").reshape(2, 3))
save("fortran_2x3_i4.npy", np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3)))
save("v2_f4.npy", np.array([1.0, 2.0], dtype="<f4"), version=(2, 0))
save("v3_f4.npy", np.array([1.0, 2.0], dtype="<f4"), version=(3, 0))
save("big_f4.npy", np.array([1.0, 2.0], dtype=">f4"))
with open(os.path.join(here, "object.npy"), "wb") as f:
    npf.write_array(f, np.array([1, "a"], dtype=object), allow_pickle=True)
save("c8.npy", np.array([1 + 2j], dtype="<c8"))
save("structured.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
