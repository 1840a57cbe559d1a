"""Loads read where their value is consumed (no copy into a stack buffer), and the two versions
of a block's tail under a masked load: one where the mask is taken as true, one checking it."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl


pytestmark = pytest.mark.usefixtures("cpu_backend")


@tc.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    """A row read twice: by its maximum and by the exponential, which is stored (read by the
    sum and the division)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


@tc.jit
def persistent_softmax_kernel(out_ptr, in_ptr, stride, n_rows, n_cols, BLOCK: tl.constexpr):
    """The same in a loop over rows: the tail of the loop's body has the two versions."""
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)


def _softmax(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("n_cols", [256, 255, 129, 1])
@pytest.mark.parametrize("in_place", [False, True])
def test_a_row_read_by_its_max_and_its_exponential(n_cols, in_place):
    """Full rows (every mask holds) and ragged ones, written elsewhere or over the input: the
    loads are read before the store, whichever version runs."""
    rng = np.random.default_rng(n_cols)
    x = np.full((6, 256), np.nan, np.float32)  # past n_cols: never read
    x[:, :n_cols] = rng.standard_normal((6, n_cols)).astype(np.float32) * 4
    x[1, 1:n_cols:3] = -np.inf
    expected = _softmax(x[:, :n_cols])
    out = x if in_place else np.full_like(x, 7.0)
    compiled = softmax_kernel[(6,)](out, x, 256, n_cols, BLOCK=256)
    np.testing.assert_allclose(out[:, :n_cols], expected, rtol=2e-6, atol=1e-30)
    if not in_place:
        assert (out[:, n_cols:] == 7.0).all()
    assert "@llvm.memcpy" not in compiled.asm["llir"]  # not copied, even where the mask holds


@pytest.mark.parametrize("n_cols", [128, 100])
def test_the_tail_of_a_loop_body_has_two_versions(n_cols):
    x = np.random.default_rng(n_cols).standard_normal((37, 128)).astype(np.float32)
    out = np.full_like(x, np.nan)
    persistent_softmax_kernel[(4,)](out, x, 128, 37, n_cols, BLOCK=128)
    np.testing.assert_allclose(out[:, :n_cols], _softmax(x[:, :n_cols]), rtol=2e-6)
    assert np.isnan(out[:, n_cols:]).all()


@tc.jit
def sum_twice_kernel(x_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    """Sums x, doubles it in memory, then sums the loaded x again."""
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(sums_ptr, tl.sum(x, axis=0))
    tl.store(x_ptr + offs, x * 2.0, mask=mask)
    tl.store(sums_ptr + 1, tl.sum(x, axis=0))


@pytest.mark.parametrize("n", [64, 50])
def test_a_load_whose_memory_is_written_before_its_last_reader_is_copied(n):
    values = np.arange(64, dtype=np.float32)
    x = values.copy()
    sums = np.zeros(2, np.float32)
    sum_twice_kernel[(1,)](x, sums, n, BLOCK=64)
    assert sums.tolist() == [values[:n].sum()] * 2
    np.testing.assert_array_equal(x[:n], values[:n] * 2)
    np.testing.assert_array_equal(x[n:], values[n:])


@tc.jit
def stats_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Three reductions of one masked load (other than its mask's padding they all read)."""
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs, mask=offs < n, other=1.0)
    base = out_ptr + tl.program_id(0) * 3
    tl.store(base, tl.sum(x, axis=0))
    tl.store(base + 1, tl.max(x, axis=0))
    tl.store(base + 2, tl.min(x, axis=0))


@pytest.mark.parametrize("n", [32, 31, 0])
def test_reductions_of_a_masked_load_see_its_padding(n):
    x = np.random.default_rng(n).uniform(2.0, 3.0, (2, 32)).astype(np.float32)
    out = np.zeros((2, 3), np.float32)
    stats_kernel[(2,)](x, out, n, BLOCK=32)
    padded = np.where(np.arange(32) < n, x, np.float32(1.0))
    np.testing.assert_allclose(out, np.stack([padded.sum(1), padded.max(1), padded.min(1)], 1),
                               rtol=1e-6)


@tc.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """A masked load only stored, under the same mask."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def test_which_masked_loads_split_the_rest_of_their_block(monkeypatch):
    """The softmax's row load splits the rest of the kernel in two versions; a load that is
    only stored under its own mask does not (the store checks the mask itself)."""
    from tilecraft.backends.cpu import memory

    decided = []
    tail_mask = memory.tail_mask

    def spy(fl, ops, start):
        found = tail_mask(fl, ops, start)
        if ops[start].name == "tt.load":
            decided.append(found is not None)
        return found

    monkeypatch.setattr(memory, "tail_mask", spy)
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    x = np.ones((2, 64), np.float32)
    softmax_kernel.forget_compiled()
    softmax_kernel[(2,)](np.empty_like(x), x, 64, 50, BLOCK=64)
    assert decided == [True]
    decided.clear()
    scale_kernel[(2,)](x, np.empty_like(x), 100, BLOCK=64)
    assert decided == [False]


@tc.jit
def shift_kernel(x_ptr, STEP: tl.constexpr, BLOCK: tl.constexpr):
    """Element ``i`` of ``x`` stored ``STEP`` elements further on (``STEP`` added to the
    store's base, as ``x + 1 + offs`` reads)."""
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + STEP + offs, tl.load(x_ptr + offs))


@tc.jit
def offset_shift_kernel(x_ptr, BLOCK: tl.constexpr):
    """The same with the step added to the offsets."""
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + (offs + 1), tl.load(x_ptr + offs))


@tc.jit
def add_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))


@pytest.mark.parametrize("step", [1, 7, -3])
def test_a_store_that_overwrites_what_its_load_reads_later_stores_the_old_values(step):
    """In one program, a load's values are those before the store that writes into it (the
    interpreter's semantics; across programs, or between two pointer arguments that overlap,
    it is a race as on a GPU): such a load is copied, not read where it lies."""
    x = np.arange(1040, dtype=np.float32)
    start = 8
    expected = x.copy()
    expected[start + step:start + step + 1024] = x[start:start + 1024]
    shift_kernel[(1,)](x[start:], STEP=step, BLOCK=1024)
    np.testing.assert_array_equal(x, expected)
    y = np.arange(1025, dtype=np.float32)
    offset_shift_kernel[(1,)](y, BLOCK=1024)
    np.testing.assert_array_equal(y, np.concatenate([[0], np.arange(1024)]).astype(np.float32))


def test_an_in_place_update_still_reads_where_the_load_lies():
    """out = x (the same array, the same offsets): element i is read before it is written."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(4096).astype(np.float32)
    y = rng.standard_normal(4096).astype(np.float32)
    expected = x + y
    compiled = add_kernel[(4,)](x, y, x, BLOCK=1024)
    np.testing.assert_array_equal(x, expected)
    assert "@llvm.memcpy" not in compiled.asm["llir"]
