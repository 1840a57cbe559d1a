"""The launch fast path: a launch with arguments of the kinds of an earlier one reuses its
compiled kernel and argument plan, and anything that changes the specialization does not."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import fast_launch


@tc.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * factor, mask=mask)


@pytest.fixture(autouse=True)
def _cpu(monkeypatch):
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")


def _launch(x, n, factor=2.0, block=32):
    out = np.full_like(x, np.nan)
    compiled = scale_kernel[(tc.cdiv(n, block),)](x, out, n, factor, BLOCK=block)
    return out, compiled


def test_second_launch_takes_the_fast_path_and_computes_the_same():
    x = np.random.default_rng(1).standard_normal(100).astype(np.float32)
    scale_kernel._fast.clear()
    first, compiled = _launch(x, 100)
    assert len(scale_kernel._fast) == 1
    second, again = _launch(x, 100, factor=3.0)
    assert again is compiled and len(scale_kernel._fast) == 1
    np.testing.assert_array_equal(first, x * np.float32(2.0))
    np.testing.assert_array_equal(second, x * np.float32(3.0))


def test_values_that_change_the_specialization_get_their_own_entry():
    x = np.random.default_rng(2).standard_normal(64).astype(np.float32)
    scale_kernel._fast.clear()
    _launch(x, 64)        # n divisible by 16
    _launch(x, 63)        # not divisible
    out, _ = _launch(x, 1)  # n == 1 is a constexpr in the specialization
    _launch(x[1:], 63)    # a misaligned pointer
    _launch(x.astype(np.float64), 64)  # another element type
    _launch(x, 64, block=64)  # another constexpr
    assert len(scale_kernel._fast) == 6
    np.testing.assert_array_equal(out[:1], x[:1] * np.float32(2.0))
    assert np.isnan(out[1:]).all()


def test_binder_applies_defaults_and_refuses_what_the_signature_refuses():
    def kernel(a, b, c=7, *, d=9):
        pass

    import inspect

    binder = fast_launch.make_binder(inspect.signature(kernel), "kernel")
    assert binder(1, 2) == (1, 2, 7, 9)
    assert binder(1, 2, d=4, c=3) == (1, 2, 3, 4)
    with pytest.raises(TypeError):
        binder(1)


def test_descriptions_of_integers_follow_the_specialization_rules():
    assert fast_launch.describe(16, False, True) != fast_launch.describe(17, False, True)
    assert fast_launch.describe(32, False, True) == fast_launch.describe(48, False, True)
    assert fast_launch.describe(1, False, True) != fast_launch.describe(3, False, True)
    assert fast_launch.describe(1, False, False) == fast_launch.describe(3, False, False)
    assert fast_launch.describe(2**31, False, True) != fast_launch.describe(2**30, False, True)
    with pytest.raises(TypeError):
        fast_launch.describe(object(), False, True)
