"""Seeded dropout (Triton's tutorial 04, with tilecraft's imports): the mask comes from Philox
random numbers, so the same seed gives the same mask without storing it.

    python examples/06_dropout.py [--ir]
"""

import numpy as np

import tilecraft as tc
import tilecraft.language as tl
from _report import device_array, empty_like, report, relative_error, show_ir, to_numpy


@tc.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def seeded_dropout(x, p, seed):
    output = empty_like(x)
    n_elements = x.shape[0]
    grid = lambda meta: (tc.cdiv(n_elements, meta['BLOCK_SIZE']), )  # noqa: E731
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    rng = np.random.default_rng()
    x_np = rng.standard_normal(10000).astype(np.float32)
    x = device_array(x_np)
    out, again, other = (to_numpy(seeded_dropout(x, p=0.5, seed=seed))
                         for seed in (123, 123, 512))
    show_ir(_seeded_dropout, x, empty_like(x), x.shape[0], 0.5, 123, BLOCK_SIZE=1024)
    kept = out != 0
    assert np.array_equal(out, again) and not np.array_equal(out, other)
    print(f"dropout: kept {kept.mean():.1%} of the elements (p = 0.5); the same seed gives the "
          "same mask")
    report("dropout", _seeded_dropout, relative_error(out[kept], x_np[kept] * 2), 1e-6)
