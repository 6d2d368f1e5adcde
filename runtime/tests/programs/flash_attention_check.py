#!/usr/bin/env python3
"""Checks flash_attention.cu's output against attention computed by numpy.

Usage: flash_attention_check.py FILE, where FILE is what `flash_attention FILE` wrote:
three int32 sizes (heads, L, D), then Q, K and V as f16 and the output as f32, raw.
The reference is softmax(Q K^T / sqrt(D)) V in float64 on the same f16 inputs. The
kernel rounds P to f16 on its way into the second product (2^-11 relative) and
|V| <= 1, so the bound is 1e-3 absolute. Prints the worst error; exits 1 past it.
"""

import sys

import numpy as np


def main():
    raw = open(sys.argv[1], "rb").read()
    heads, length, dim = np.frombuffer(raw[:12], dtype=np.int32)
    n = int(heads) * int(length) * int(dim)
    at = 12
    q, k, v = (np.frombuffer(raw[at + 2 * n * i: at + 2 * n * (i + 1)], dtype=np.float16) for i in range(3))
    out = np.frombuffer(raw[at + 6 * n: at + 10 * n], dtype=np.float32)
    shape = (int(heads), int(length), int(dim))
    q, k, v = (x.astype(np.float64).reshape(shape) for x in (q, k, v))
    got = out.astype(np.float64).reshape(shape)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dim)
    p = np.exp(s - s.max(axis=2, keepdims=True))
    p /= p.sum(axis=2, keepdims=True)
    want = p @ v
    worst = float(np.abs(got - want).max())
    print(f"flash_attention_check: worst absolute error {worst:.3g} against numpy")
    sys.exit(0 if worst <= 1e-3 else 1)


if __name__ == "__main__":
    main()
