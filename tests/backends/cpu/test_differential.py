"""Differential test of the CPU backend against the interpreter: random small element-wise kernels
(over 1-3 loaded inputs of every dtype, with masked edges, broadcast [BLOCK_M, 1] / [1, BLOCK_N]
operands in 2-D, casts, bitcasts, comparisons, where, integer division and shifts, math
functions), optionally followed by a reduction or a scan, must give the same results on both.

The kernels are generated as source text (`kernelgen.py`), written to a temporary module and
launched with ``TILECRAFT_BACKEND=interpret`` and ``=cpu``. Integer and boolean results, and float
results computed only with exactly rounded operations, must agree bit for bit (NaN positions
included); results of math functions, fma and float sums are compared within a running error
bound derived from the interpreter's value of every intermediate node (see
`kernelgen.error_bounds`). Every output buffer is poisoned first, and compared whole, so a store
outside its mask is caught too.

The examples are derandomized, so a run is reproducible; a failure prints the kernel's source,
its sizes and the seed of its inputs. ``TILECRAFT_DIFFERENTIAL_EXAMPLES=<n>`` scales the number of
examples (and ``TILECRAFT_DIFFERENTIAL_RANDOM=1`` draws fresh ones) for a longer hunt.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib.util
import os
import shutil
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from .kernelgen import T, Program, error_bounds, make_inputs, programs

_SCALE = float(os.environ.get("TILECRAFT_DIFFERENTIAL_EXAMPLES", "1"))
_RANDOM = os.environ.get("TILECRAFT_DIFFERENTIAL_RANDOM", "") not in ("", "0")


def _settings(examples: int):
    return settings(max_examples=max(1, round(examples * _SCALE)), deadline=None,
                    derandomize=not _RANDOM, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- launching -----------------------------------------------------------------------------------

_SOURCE_DIR = tempfile.mkdtemp(prefix="tilecraft-differential-")
atexit.register(shutil.rmtree, _SOURCE_DIR, ignore_errors=True)
_KERNELS: dict = {}


def load_kernel(source: str):
    """The ``kernel`` of ``source``, imported from a file (the frontend reads the source)."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:16]
    kernel = _KERNELS.get(digest)
    if kernel is None:
        name = f"tc_differential_{digest}"
        path = os.path.join(_SOURCE_DIR, name + ".py")
        with open(path, "w") as f:
            f.write(source)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        kernel = _KERNELS[digest] = module.kernel
    return kernel


@contextlib.contextmanager
def backend(name: str):
    saved = {k: os.environ.get(k) for k in ("TILECRAFT_BACKEND", "TILECRAFT_INTERPRET")}
    os.environ.pop("TILECRAFT_INTERPRET", None)
    os.environ["TILECRAFT_BACKEND"] = name
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def poisoned(shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype)
    if dtype.kind == "b":
        return np.ones(shape, dtype)
    return np.full(shape, 0x5A if dtype.itemsize == 1 else 0x5A5A, dtype)


def final_shape(program: Program) -> tuple:
    f = program.final
    if f.kind == "scan":
        return program.size
    if program.dim == 1:
        return program.grid
    gm, gn = program.grid
    m, n = program.size
    return (gn, m) if f.axis == 1 else (gm, n)


def padded_shape(program: Program) -> tuple:
    return tuple(g * b for g, b in zip(program.grid, program.block))


def launch(program: Program, kernel, arrays: list, backend_name: str, probe: bool = False):
    """Runs the kernel on fresh poisoned outputs; returns (out, fin, probe) arrays."""
    args = []
    for inp, a in zip(program.inputs, arrays):
        args.append(a)
        if inp.shape == "full":
            args += [a.strides[0] // a.itemsize, a.strides[1] // a.itemsize]
    out = poisoned(program.size, program.root.dtype.numpy)
    fin = None
    if program.final is not None:
        fin = poisoned(final_shape(program),
                       program.final.out_dtype(program.root.dtype).numpy)
    probes = np.zeros((len(program.nodes), *padded_shape(program))) if probe else None
    args += [out, fin, probes, *program.size]
    names = ("BLOCK_M", "BLOCK_N") if program.dim == 2 else ("BLOCK",)
    constexprs = dict(zip(names, program.block), PROBE=probe)
    with backend(backend_name), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kernel[program.grid](*args, **constexprs)
    return out, fin, probes


# -- comparing -----------------------------------------------------------------------------------


class Mismatch(AssertionError):
    pass


def compare(what: str, expected: np.ndarray, got: np.ndarray, bound=None, dtype=None,
            skip=None) -> None:
    """``got`` equals ``expected`` exactly (NaNs in the same places), or, where ``bound`` is
    given, within twice that error bound (each backend may be off by ``bound``)."""
    assert expected.shape == got.shape and expected.dtype == got.dtype, what
    if expected.dtype.kind != "f":
        bad = expected != got
    else:
        with np.errstate(invalid="ignore"):
            e, g = expected.astype(np.float64), got.astype(np.float64)
        e_nan, g_nan = np.isnan(e), np.isnan(g)
        same = (e == g) | (e_nan & g_nan)
        if bound is None:
            bad = ~same
        else:
            with np.errstate(all="ignore"):
                tol = 2 * np.broadcast_to(bound, e.shape) + 2 * dtype.eta
                wild = ~np.isfinite(tol)
                close = np.abs(e - g) <= tol
                # overflow near the largest finite value can go either way
                huge = np.isinf(e) != np.isinf(g)
                near_max = np.maximum(np.where(np.isinf(e), 0, np.abs(e)),
                                      np.where(np.isinf(g), 0, np.abs(g))) + tol >= dtype.max / 2
                sign = np.sign(e) == np.sign(g)
                ok = same | (~e_nan & ~g_nan & (close | wild | (huge & near_max & sign)))
                ok |= wild & ~e_nan & g_nan
            bad = ~ok
    if skip is not None:
        bad &= ~skip
    if bad.any():
        where = np.argwhere(bad)[:8]
        lines = [f"{what}: {int(bad.sum())} of {bad.size} elements differ"]
        for idx in map(tuple, where):
            line = f"  at {idx}: interpreter {expected[idx]!r}, cpu {got[idx]!r}"
            if bound is not None:
                line += f", error bound {np.broadcast_to(bound, expected.shape)[idx]:.3g}"
            lines.append(line)
        raise Mismatch("\n".join(lines))


def _block_view(program: Program, padded: np.ndarray, axis: int) -> np.ndarray:
    """``padded`` (the kernel's whole padded iteration space) with each program's block along
    ``axis`` moved to the last dimension."""
    if program.dim == 1:
        return padded.reshape(program.grid[0], program.block[0])
    (gm, gn), (bm, bn) = program.grid, program.block
    if axis == 1:
        return padded.reshape(gm * bm, gn, bn)
    return np.moveaxis(padded.reshape(gm, bm, gn * bn), 1, -1)


def _from_block_view(program: Program, view: np.ndarray, axis: int) -> np.ndarray:
    if program.dim == 1:
        return view.reshape(-1)
    (gm, gn), (bm, bn) = program.grid, program.block
    if axis == 1:
        return view.reshape(gm * bm, gn * bn)
    return np.moveaxis(view, -1, 1).reshape(gm * bm, gn * bn)


def _reduced(program: Program, per_block: np.ndarray) -> np.ndarray:
    """A per-program reduction of the block view, laid out as the kernel stores it."""
    if program.dim == 1:
        return per_block
    m, n = program.size
    if program.final.axis == 1:
        return per_block.T[:, :m]
    return per_block[:, :n]


def _valid(program: Program) -> tuple:
    return tuple(slice(0, s) for s in program.size)


def _valid_mask(program: Program) -> np.ndarray:
    mask = np.zeros(padded_shape(program), bool)
    mask[_valid(program)] = True
    return mask


def _padded(program: Program, valid: np.ndarray, fill) -> np.ndarray:
    out = np.full(padded_shape(program), fill, valid.dtype)
    out[_valid(program)] = valid
    return out


def final_bound(program: Program, root_values: np.ndarray, root_bound: np.ndarray):
    """The error bound of a float reduction or scan of the root, from the root's values and
    bound: a sum of n terms is off by at most the sum of their bounds plus about n rounding
    errors of the accumulator's precision times the sum of their magnitudes."""
    f = program.final
    acc = f.out_dtype(program.root.dtype)
    mask = _valid_mask(program)
    with np.errstate(all="ignore"):
        magnitude = _block_view(program, np.where(mask, np.abs(root_values), 0), f.axis)
        bound = _block_view(program, np.where(mask, root_bound, 0), f.axis)
        if f.op in ("max", "min"):
            return _reduced(program, bound.max(-1))
        count = magnitude.shape[-1]
        if f.kind == "reduce":
            return _reduced(program, bound.sum(-1) + 2 * count * acc.u * magnitude.sum(-1)
                            + count * acc.eta)
        if f.reverse:
            magnitude, bound = magnitude[..., ::-1], bound[..., ::-1]
        steps = np.arange(1, count + 1)
        prefix = (np.cumsum(bound, -1) + 2 * steps * acc.u * np.cumsum(magnitude, -1)
                  + steps * acc.eta)
        if f.reverse:
            prefix = prefix[..., ::-1]
        return _from_block_view(program, prefix, f.axis)[_valid(program)]


def nan_blocks(program: Program, out: np.ndarray) -> np.ndarray:
    """Where an argmax/argmin's block holds a NaN (its result then depends on the order of the
    combines, as in Triton), laid out as the kernel stores the reduction."""
    if out.dtype.kind != "f":
        return np.zeros(final_shape(program), bool)
    nans = _padded(program, np.isnan(out), False)
    return _reduced(program, _block_view(program, nans, program.final.axis).any(-1))


def compare_nodes(program: Program, kernel, arrays, expected_probes, bounds) -> None:
    """Compares the value of every node (the kernel with ``PROBE`` set stores them all), in
    program order: the first that differs names the operation at fault."""
    _, _, probes = launch(program, kernel, arrays, "cpu", probe=True)
    valid = _valid(program)
    for node, expected, got in zip(program.nodes, expected_probes, probes):
        bound = None if node.exact else bounds[node][valid]
        compare(f"{node.name} = {node.text}", expected[valid], got[valid], bound,
                node.dtype if node.dtype.is_float else None)


def check(program: Program, seed: int, probe_cpu: bool = False) -> None:
    """Runs ``program`` on both backends and compares what it stores (the result, and its
    reduction or scan). With ``probe_cpu``, or when they differ, the value of every node is
    compared too (`compare_nodes`), and the first node that differs is reported."""
    source = program.source()
    note(source)
    note(program.describe())
    note(f"input seed {seed}")
    kernel = load_kernel(source)
    arrays = make_inputs(program, seed)
    expected_out, expected_fin, _ = launch(program, kernel, arrays, "interpret")
    out, fin, _ = launch(program, kernel, arrays, "cpu")
    _, _, expected_probes = launch(program, kernel, arrays, "interpret", probe=True)
    values = dict(zip(program.nodes, expected_probes))
    bounds = error_bounds(program, values)
    if probe_cpu:
        compare_nodes(program, kernel, arrays, expected_probes, bounds)
    root, final = program.root, program.final
    try:
        root_bound = None if root.exact else bounds[root][_valid(program)]
        compare("stored result", expected_out, out, root_bound, root.dtype)
        if final is not None:
            fin_bound = skip = None
            if root.dtype.is_float and final.op in ("sum", "cumsum", "max", "min") and \
                    not program.exact:
                fin_bound = final_bound(program, values[root], bounds[root])
            if final.op in ("argmax", "argmin"):
                skip = nan_blocks(program, expected_out)
            acc = final.out_dtype(root.dtype)
            compare(f"{final.kind} ({final.op})", expected_fin, fin, fin_bound,
                    acc if acc.is_float else None, skip)
    except Mismatch as mismatch:
        if not probe_cpu:
            try:
                compare_nodes(program, kernel, arrays, expected_probes, bounds)
            except Mismatch as first:
                raise Mismatch(f"{mismatch}\nthe first node that differs (PROBE=True):\n"
                               f"{first}") from None
        raise


# -- the tests -----------------------------------------------------------------------------------

SEEDS = st.integers(0, 2 ** 32 - 1)
# compiling the PROBE=True kernel costs about three plain ones: one example in four does it
PROBE_CPU = st.integers(0, 3).map(lambda x: x == 0)


@_settings(40)
@given(program=programs(1), seed=SEEDS, probe_cpu=PROBE_CPU)
def test_elementwise_1d(program, seed, probe_cpu):
    check(program, seed, probe_cpu)


@_settings(40)
@given(program=programs(2), seed=SEEDS, probe_cpu=PROBE_CPU)
def test_elementwise_2d_broadcast(program, seed, probe_cpu):
    check(program, seed, probe_cpu)


@_settings(25)
@given(program=programs(1, "reduce"), seed=SEEDS, probe_cpu=PROBE_CPU)
def test_reduction_1d(program, seed, probe_cpu):
    check(program, seed, probe_cpu)


@_settings(30)
@given(program=programs(2, "reduce"), seed=SEEDS, probe_cpu=PROBE_CPU)
def test_reduction_2d(program, seed, probe_cpu):
    check(program, seed, probe_cpu)


@_settings(25)
@given(program=st.one_of(programs(1, "scan"), programs(2, "scan")), seed=SEEDS, probe_cpu=PROBE_CPU)
def test_scan(program, seed, probe_cpu):
    check(program, seed, probe_cpu)


# -- bugs the generator found, pinned --------------------------------------------------------------

_TO_INT64 = '''import tilecraft as tc
import tilecraft.language as tl


@tc.jit
def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.int64), mask=mask)
'''


@pytest.mark.parametrize("backend_name", ["cpu", "interpret"])
def test_float_to_int64_saturates(backend_name):
    x = np.array([np.inf, 1e19, 2.0 ** 63, -np.inf, -1e19, np.nan, 3.5, -2.5], np.float32)
    y = np.zeros(len(x), np.int64)
    with backend(backend_name):
        load_kernel(_TO_INT64)[(1,)](x, y, len(x), BLOCK=8)
    big, small = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    np.testing.assert_array_equal(y, [big, big, big, small, small, 0, 3, -2])
