"""Layer normalization, forward pass (Triton's tutorial 05, with tilecraft's imports).

    python examples/03_layer_norm.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty, empty_like, report, relative_error, show_ir, stride


@tc.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


def layer_norm(x, weight, bias, eps):
    M, N = x.shape
    y = empty_like(x)
    mean = empty((M, ), np.float32)
    rstd = empty((M, ), np.float32)
    BLOCK_SIZE = min(1024, tc.next_power_of_2(N))
    _layer_norm_fwd_fused[(M, )](x, y, weight, bias, mean, rstd, stride(x, 0), N, eps,
                                 BLOCK_SIZE=BLOCK_SIZE)
    return y, mean, rstd


if __name__ == "__main__":
    rng = np.random.default_rng()
    M, N = 64, 1000
    x_np = (-2.3 + 0.5 * rng.standard_normal((M, N))).astype(np.float16)
    weight_np = rng.random(N).astype(np.float16)
    bias_np = rng.random(N).astype(np.float16)
    x, weight, bias = (device_array(a) for a in (x_np, weight_np, bias_np))
    y, mean, rstd = layer_norm(x, weight, bias, 1e-5)
    show_ir(_layer_norm_fwd_fused, x, y, weight, bias, mean, rstd, N, N, 1e-5, BLOCK_SIZE=1024)
    wide = x_np.astype(np.float64)
    mu = wide.mean(1, keepdims=True)
    ref = (wide - mu) / np.sqrt(wide.var(1, keepdims=True) + 1e-5) * weight_np + bias_np
    report("layer norm", _layer_norm_fwd_fused, relative_error(y, ref), 2e-3)
