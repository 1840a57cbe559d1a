"""The launch fast path: a launch with arguments that specialize like an earlier one's reuses
its compiled kernel through the generated dispatcher, and anything that changes the
specialization, the backend or the options does not; both paths compute the same."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends import native
from tilecraft.runtime import fast_launch


@tc.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * factor, mask=mask)


@tc.jit
def flag_kernel(out_ptr, n, negate, *, BLOCK: tl.constexpr = 16):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    value = tl.where(negate, -1.0, 1.0)
    tl.store(out_ptr + offsets, value + offsets * 0.0, mask=offsets < n)


@pytest.fixture(autouse=True, params=["native", "python"])
def _cpu(monkeypatch, request):
    """Each test runs with the dispatchers reading the arguments in C (the native launchers'
    ``Describer``, where they are built) and in generated Python."""
    monkeypatch.delenv("TILECRAFT_INTERPRET", raising=False)
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    if request.param == "python":
        monkeypatch.setenv(native.SWITCH, "0")
    elif native.launchers(wait=True) is None:
        pytest.skip(f"no native launchers here: {native.unavailable_reason()}")
    scale_kernel.forget_compiled()
    flag_kernel.forget_compiled()
    yield
    scale_kernel.forget_compiled()
    flag_kernel.forget_compiled()


def test_the_dispatcher_and_its_reading_of_the_arguments_are_native_where_they_can(request):
    _launch(_data(16, 0), 16)
    dispatch = scale_kernel._dispatch
    native_on = "native" in request.node.callspec.id
    assert (type(dispatch).__name__ == "Dispatcher") is native_on
    generated = dispatch.fallback if native_on else dispatch
    describer = generated.__globals__["_tc_describer"]
    assert (type(describer).__name__ == "Describer") is native_on


@pytest.fixture
def slow_launches(monkeypatch):
    """How many launches took the slow path, as a one-element list."""
    count = [0]
    original = tc.JITFunction._run_slow

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(tc.JITFunction, "_run_slow", counting)
    return count


def _launch(x, n, factor=2.0, block=32, **options):
    out = np.full_like(x, np.nan)
    compiled = scale_kernel[(tc.cdiv(n, block),)](x, out, n, factor, BLOCK=block, **options)
    return out, compiled


def _data(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32)


def test_second_launch_takes_the_fast_path_and_computes_the_same(slow_launches):
    x = _data(100, 1)
    first, compiled = _launch(x, 100)
    assert slow_launches[0] == 1 and len(scale_kernel._fast) == 1
    second, again = _launch(x, 100, factor=3.0)
    other = _data(100, 2)
    third, _ = _launch(other, 100, factor=-0.5)  # another array of the same kind
    assert again is compiled and slow_launches[0] == 1 and len(scale_kernel._fast) == 1
    np.testing.assert_array_equal(first, x * np.float32(2.0))
    np.testing.assert_array_equal(second, x * np.float32(3.0))
    np.testing.assert_array_equal(third, other * np.float32(-0.5))


def test_values_that_change_the_specialization_get_their_own_entry(slow_launches):
    x = _data(64, 3)
    _launch(x, 64)        # n divisible by 16
    _launch(x, 63)        # not divisible
    out, _ = _launch(x, 1)  # n == 1 is a constexpr in the specialization
    _launch(x[1:], 63)    # a misaligned pointer
    _launch(x.astype(np.float64), 64)  # another element type
    _launch(x, 64, block=64)  # another constexpr
    _launch(x, 64, block=64, num_warps=8)  # other launch options
    assert len(scale_kernel._fast) == 7 and slow_launches[0] == 7
    np.testing.assert_array_equal(out[:1], x[:1] * np.float32(2.0))
    assert np.isnan(out[1:]).all()
    for n, block in ((48, 32), (31, 32), (1, 32), (64, 64)):  # each has its entry now
        result, _ = _launch(x, n, factor=4.0, block=block)
        np.testing.assert_array_equal(result[:n], x[:n] * np.float32(4.0))
    misaligned, _ = _launch(x[1:], 63, factor=4.0)
    np.testing.assert_array_equal(misaligned, x[1:] * np.float32(4.0))
    assert slow_launches[0] == 7


def test_launches_alternating_between_specializations_each_use_their_own(slow_launches):
    """The native dispatcher remembers its last launch and reuses its entry for a launch that
    reads alike: a launch that differs from the last in any part of the key (element type,
    divisibility, the constexpr one, another constexpr, a scalar's type, an option) must
    not."""
    x = _data(64, 10)
    doubles = x.astype(np.float64)
    cases = [(x, 64, 2.0, {}), (x, 63, 2.0, {}), (x, 1, 2.0, {}), (doubles, 64, 2.0, {}),
             (x[1:], 63, 2.0, {}), (x, 64, 3, {}), (x, 64, 2.0, {"block": 64}),
             (x, 64, 2.0, {"num_warps": 8})]
    compiled_by_case = {}
    for _ in range(3):
        for index, (data, n, factor, options) in enumerate(cases):
            out, compiled = _launch(data, n, factor, **options)
            assert compiled_by_case.setdefault(index, compiled) is compiled
            np.testing.assert_array_equal(out[:n], data[:n] * data.dtype.type(factor))
            assert np.isnan(out[n:]).all()
    assert slow_launches[0] == len(cases) == len(scale_kernel._fast)
    assert len({id(compiled) for compiled in compiled_by_case.values()}) == len(cases)


def test_launches_hold_no_memory_they_do_not_give_back():
    """Thousands of launches, alternating between specializations and kernels (each builds its
    key and replaces the remembered launch) and repeating one (each reuses it), leave the
    number of allocated memory blocks as it was: a reference the C dispatcher failed to drop
    would leave one block or more per launch."""
    import gc
    import sys

    x, doubles = _data(64, 11), _data(64, 12).astype(np.float64)
    out, out_doubles = np.empty_like(x), np.empty_like(doubles)
    launches = [lambda: scale_kernel[(2,)](x, out, 64, 2.0, BLOCK=32),
                lambda: scale_kernel[(2,)](x, out, 63, 2.0, BLOCK=32),
                lambda: scale_kernel[(2,)](doubles, out_doubles, 64, 2.0, BLOCK=32),
                lambda: scale_kernel[(1,)](x, out, 64, 3, BLOCK=64, num_warps=8),
                lambda: flag_kernel[(4,)](out, 64, True),  # a bool: described in Python
                lambda: flag_kernel[(4,)](out_ptr=out, n=64, negate=False)]
    for launch in launches:
        launch()
    gc.collect()
    before = sys.getallocatedblocks()
    for index in range(3000):
        launches[index % len(launches)]()
        launches[0]()
    gc.collect()
    assert sys.getallocatedblocks() - before < 300


def test_a_binding_held_across_forget_compiled_launches_what_was_compiled_since():
    """A ``kernel[grid]`` kept while the kernel forgets its compiled code, then launched after
    another binding compiled it again (its entries refilled to the count they had), launches
    the new compile, not the one it launched before."""
    x = _data(64, 13)
    out = np.empty_like(x)
    held = scale_kernel[(2,)]
    first = held(x, out, 64, 2.0, BLOCK=32)
    assert held(x, out, 64, 2.0, BLOCK=32) is first
    scale_kernel.forget_compiled()
    again = scale_kernel[(2,)](x, out, 64, 2.0, BLOCK=32)
    assert again is not first and len(scale_kernel._fast) == 1
    assert held(x, out, 64, 3.0, BLOCK=32) is again
    np.testing.assert_array_equal(out, x * np.float32(3.0))


def test_the_constexpr_one_leaves_its_argument_out(slow_launches):
    x = _data(16, 4)
    for _ in range(2):
        out, _ = _launch(x, 1, factor=5.0)
        np.testing.assert_array_equal(out[:1], x[:1] * np.float32(5.0))
        assert np.isnan(out[1:]).all()
    assert slow_launches[0] == 1


def test_grids_as_callables_ints_and_tuples_of_three(slow_launches):
    x = _data(100, 5)
    for grid in [lambda meta: (tc.cdiv(meta["n"], meta["BLOCK"]),), 4, (4, 1, 1), [4]]:
        out = np.full_like(x, np.nan)
        scale_kernel[grid](x, out, 100, 2.0, BLOCK=32)
        np.testing.assert_array_equal(out, x * np.float32(2.0))
    assert slow_launches[0] == 1


def test_keyword_only_defaults_bools_and_keywords(slow_launches):
    out = np.full(40, np.nan, np.float32)
    flag_kernel[(3,)](out, 40, True)
    np.testing.assert_array_equal(out, -1.0)
    flag_kernel[(3,)](out_ptr=out, n=40, negate=False)
    np.testing.assert_array_equal(out, 1.0)
    flag_kernel[(3,)](out, 40, True, BLOCK=16)
    np.testing.assert_array_equal(out, -1.0)
    assert slow_launches[0] == 1


def test_surplus_positional_arguments_are_counted_as_the_kernel_would():
    out = np.full(40, np.nan, np.float32)
    with pytest.raises(TypeError, match=r"flag_kernel\(\) takes 3 positional arguments but 4 "
                                        r"were given"):
        flag_kernel[(3,)](out, 40, True, 16)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) takes 5 positional arguments but 6"):
        scale_kernel[(1,)](out, out, 40, 2.0, 32, 9)


def test_torch_tensors_take_the_fast_path(slow_launches):
    """torch.Tensor is read inline by dispatchers made once torch is imported: its dtype, device
    and alignment key the entry, its data_ptr() is launched."""
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(_data(100, 9))
    for factor in (2.0, 3.0):
        out = torch.full((100,), float("nan"))
        scale_kernel[(4,)](x, out, 100, factor, BLOCK=32)
        np.testing.assert_array_equal(out.numpy(), x.numpy() * np.float32(factor))
    assert slow_launches[0] == 1
    doubles = x.double()
    out = torch.full((100,), float("nan"), dtype=torch.float64)
    scale_kernel[(4,)](doubles, out, 100, 2.0, BLOCK=32)  # another element type
    out32 = torch.full((99,), float("nan"))
    scale_kernel[(4,)](x[1:], out32, 99, 2.0, BLOCK=32)  # a misaligned pointer
    np.testing.assert_array_equal(out32.numpy(), x[1:].numpy() * np.float32(2.0))
    assert slow_launches[0] == 3


def test_the_backend_is_read_at_each_launch(slow_launches, monkeypatch):
    x = _data(32, 6)
    _launch(x, 32)
    _launch(x, 32)
    monkeypatch.setenv("TILECRAFT_BACKEND", "interpret")
    out, _ = _launch(x, 32, factor=3.0)
    np.testing.assert_allclose(out, x * np.float32(3.0))
    assert slow_launches[0] == 2
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    _launch(x, 32)
    assert slow_launches[0] == 2


def test_bad_arguments_are_named():
    x = _data(32, 7)
    _launch(x, 32)
    out = np.empty_like(x)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) missing 1 required positional "
                                        r"argument: 'factor'"):
        scale_kernel[(1,)](x, out, 32, BLOCK=32)
    with pytest.raises(TypeError, match=r"scale_kernel\(\) missing 1 required positional "
                                        r"argument: 'BLOCK'"):
        scale_kernel[(1,)](x, out, 32, 2.0, BLOK=32)
    with pytest.raises(TypeError, match="unsupported argument n="):
        scale_kernel[(1,)](x, out, object(), 2.0, BLOCK=32)
    with pytest.raises(TypeError, match="scale_kernel: got an unexpected keyword argument"):
        scale_kernel[(1,)](x, out, 32, 2.0, BLOCK=32, num_wraps=4)


def test_errors_raised_by_the_grid_are_not_swallowed():
    x = _data(32, 8)
    _launch(x, 32)

    def grid(meta):
        raise TypeError("the grid's own error")

    with pytest.raises(TypeError, match="the grid's own error"):
        scale_kernel[grid](x, np.empty_like(x), 32, 2.0, BLOCK=32)


def test_describe_follows_the_specialization_rules():
    def key(value, specialize=True):
        return fast_launch.describe(value, specialize)[0]

    assert key(16) != key(17)
    assert key(32) == key(48)
    assert key(1) != key(3)
    assert key(1, False) == key(3, False)
    assert key(2**31) != key(2**30)
    assert key(True) == key(False) and fast_launch.describe(True, True)[1] == 1
    assert key(None)[0] == "constexpr" and key(tl.constexpr(4)) != key(4)
    assert fast_launch.describe(object(), True) == (fast_launch.MISS, None)
    array = np.zeros(8, np.float32)
    assert fast_launch.describe(array, True)[1] == array.__array_interface__["data"][0]


def test_dispatchers_bind_as_the_kernel_does():
    def kernel(a, b, c=7, *, d=9):
        pass

    slow_calls = []

    def slow(args, kwargs, grid):
        slow_calls.append((args, kwargs, grid))
        return "slow"

    made = fast_launch.make_dispatcher(inspect.signature(kernel), "kernel", set(), set(), {},
                                       lambda grid, bound: grid, frozenset({"stream", "num_warps"}),
                                       slow)
    assert made is not None
    dispatch, key_of = made
    with pytest.raises(TypeError, match=r"kernel\(\) missing 1 required positional argument"):
        dispatch((1,), 1)
    with pytest.raises(TypeError, match="takes from 2 to 3 positional arguments but 4"):
        dispatch((1,), 1, 2, 3, 4)
    fast_launch.BACKEND_BY_ENVIRONMENT.setdefault(fast_launch.environment_key(), "cpu")
    assert dispatch((2,), 1, 2, d=4, stream=5) == "slow"  # no entry: the slow path
    assert slow_calls == [((), {"a": 1, "b": 2, "c": 7, "d": 4, "stream": 5}, (2,))]
    key, values = key_of((2,), 2, 3, d=4, stream=5)
    assert values == (2, 3, 7, 4) and key == key_of((2,), 5, 18, 5, d=20)[0]
    assert key != key_of((2,), 1, 3, d=4)[0]  # 1 is a constexpr
    assert key != key_of((2,), 2, 3, d=4, num_warps=2)[0]

    def variadic(a, *rest):
        pass

    assert fast_launch.make_dispatcher(inspect.signature(variadic), "variadic", set(), set(),
                                       {}, lambda grid, bound: grid, frozenset(), slow) is None


class _TensorLike:
    """Stands for torch.Tensor (which is not needed here): a dtype, a device flag and an
    address."""

    def __init__(self, address: int, dtype: str, is_cuda: bool) -> None:
        self.address, self.dtype, self.is_cuda = address, dtype, is_cuda

    def data_ptr(self) -> int:
        return self.address


def _keys_of(monkeypatch, native_on: bool, cases: list[tuple]) -> list:
    """What a dispatcher of ``f(a, b, c, d, K: constexpr)`` (``c`` not specialized) reads
    from each case, as (its key's parts, its values) or MISS."""
    if not native_on:
        monkeypatch.setenv(native.SWITCH, "0")
    monkeypatch.setattr(fast_launch, "_tensor_type", lambda: _TensorLike)

    def kernel(a, b, c, d, K):
        pass

    made = fast_launch.make_dispatcher(inspect.signature(kernel), "kernel", {"K"}, {"c"}, {},
                                       None, frozenset(), None)
    fast_launch.BACKEND_BY_ENVIRONMENT.setdefault(fast_launch.environment_key(), "cpu")
    dispatch, key_of = made
    assert (key_of.__globals__["_tc_describer"] is not None) is native_on
    monkeypatch.delenv(native.SWITCH, raising=False)
    keys = []
    for case in cases:
        keyed = key_of((1,), *case)
        if keyed is fast_launch.MISS:
            keys.append(keyed)
            continue
        key, values = keyed
        parts = key[2] if native_on else key[2:]
        keys.append((key[:2], tuple(parts), values))
    return keys


def test_the_native_and_python_readings_agree(monkeypatch, request):
    """The C ``Describer`` and the generated Python give the same key parts and values for
    arrays, tensors, integers of every range, floats, bools, None and constexprs."""
    if "native" not in request.node.callspec.id:
        pytest.skip("compares both readings once")
    array = np.zeros(64, np.float32)
    values = [array, array[1:], array.astype(np.float64), _TensorLike(4096, "f32", True),
              _TensorLike(4100, "f32", False), _TensorLike(2 ** 63 + 16, "bf16", True), 0, 1, 16,
              17, -16, -2 ** 31, 2 ** 31 - 1, 2 ** 31, 2 ** 32, -2 ** 40, 2 ** 64, 0.5, True,
              None, np.int32(5), "text"]
    constexprs = [4, 4.0, True, None, "s", (1, 2), tl.constexpr(8)]
    cases = [(a, b, c, d, k) for a, b, c, d, k in zip(
        values, values[1:] + values[:1], values[2:] + values[:2], values[3:] + values[:3],
        constexprs * 4)]
    cases += [(v, v, v, v, 16) for v in values]
    native_keys = _keys_of(monkeypatch, True, cases)
    python_keys = _keys_of(monkeypatch, False, cases)
    assert native_keys == python_keys
    assert sum(key is not fast_launch.MISS for key in native_keys) > len(cases) // 2


@tc.jit
def shadowing_kernel(out_ptr, type, len, int: tl.constexpr, float: tl.constexpr):  # noqa: A002
    offsets = tl.arange(0, 16)
    tl.store(out_ptr + offsets, offsets * 0 + type + len + int + float)


@pytest.mark.parametrize("native_on", [False, True], ids=["python", "native"])
def test_parameters_named_like_builtins_take_the_fast_path(slow_launches, monkeypatch,
                                                           native_on):
    """The dispatcher's own uses of ``type``, ``len``, ``int``... are not the kernel's
    parameters of those names (Triton's test_call passes ``type="inline"``), whether the
    generated Python or the native describer reads the arguments."""
    if not native_on:
        monkeypatch.setenv(native.SWITCH, "0")
    shadowing_kernel.forget_compiled()
    for value in (3, 5):
        out = np.zeros(16, np.int32)
        shadowing_kernel[(1,)](out, value, 10, 100, 1000)
        np.testing.assert_array_equal(out, np.full(16, value + 1110, np.int32))
    assert slow_launches[0] == 1


def test_a_grid_launched_again_reuses_its_binding_and_is_resolved_at_each_launch():
    grid = [1]  # a mutable grid: the launch must read it then, not when it was bound
    x = _data(64, 7)
    out = np.full_like(x, np.nan)
    bound = scale_kernel[grid]
    assert scale_kernel[grid] is bound and scale_kernel[[1]] is not bound
    bound(x, out, 64, 2.0, BLOCK=32)
    assert np.isnan(out[32:]).all()
    grid[0] = 2
    scale_kernel[grid](x, out, 64, 2.0, BLOCK=32)
    np.testing.assert_array_equal(out, x * np.float32(2.0))
