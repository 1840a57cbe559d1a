"""The launch fast path: a launch whose arguments specialize the kernel as an earlier launch's
did goes straight to that launch's compiled kernel, with no signature binding, no
specialization and no conversion beyond reading each argument's launch value.

Per kernel, `make_dispatcher` generates (as Python source, once) a function with the kernel's
own parameters, so that Python binds the arguments. For each parameter it computes, inline for
the common kinds, the part of the specialization the value decides and the value the launcher
packs:

- a numpy array: its dtype and 16-byte alignment; its address, read from the array object
  (the ``data`` field of numpy's ``PyArrayObject``, at an offset checked against
  ``__array_interface__`` when the dispatcher is made; where it does not match, arrays take the
  general description below) as an element of `_MEMORY`;
- a torch tensor (``torch.Tensor`` itself, where torch is imported when the dispatcher is
  made): its dtype, whether it is on a CUDA device and its 16-byte alignment; its
  ``data_ptr()``;
- an integer in the int32 range: whether it is 1 (then a constexpr) and divisible by 16; itself;
- a float: itself;
- a constexpr parameter: its type and value;
- anything else (other integers, bools, None, torch tensors of other classes...): `describe`.

Where the native launchers are built (`tilecraft.backends.native`) when the dispatcher is made,
one call of their ``Describer`` reads every parameter so, in C, instead of the generated
Python (the key then holds the parts as one tuple), and their ``Dispatcher`` does the whole
fast path in C (binding, backend, options, key, grid, launch), handing whatever it does not
take to the generated dispatcher, which then does everything again. It remembers its last
launch: a launch whose backend variables, options and argument traits are the same goes through
that launch's entry without building the key.

The tuple of those parts, with the backend the environment selects and the launch options, keys
an `Entry` made by the first launch that went the slow way (and only one that succeeded, so a
host array given to a GPU kernel keeps failing with its message). An entry is made only when the
values the dispatcher read are exactly those the slow path launched with, so both paths always
pack the same bytes. Whatever the dispatcher cannot describe cheaply sends the launch the slow
way, which then does everything, errors included.
"""

from __future__ import annotations

import ctypes
import inspect
import operator
import os
import sys
from collections.abc import Callable
from typing import Any

from tilecraft.language import core as tl

# Returned by a dispatcher that cannot launch: take the slow path.
MISS = object()

# Raw values of the variables that select the backend -> the backend they select (filled by the
# slow path), so that the fast path reads two dictionary entries instead of os.environ twice
# (0.4-0.9 us each).
BACKEND_BY_ENVIRONMENT: dict[tuple, str] = {}
_BACKEND_VARIABLES = ("TILECRAFT_INTERPRET", "TILECRAFT_BACKEND")

# Constexpr values whose hash and equality are their value's: anything else goes the slow way.
_PLAIN_CONSTEXPRS = frozenset({int, float, bool, str, type(None)})

_INT32 = (-2**31, 2**31)


def _environment_data() -> dict | None:
    """The dictionary behind ``os.environ`` (encoded keys and values), where it has one."""
    data = getattr(os.environ, "_data", None)
    return data if isinstance(data, dict) and callable(getattr(os.environ, "encodekey",
                                                                None)) else None


def _environment_reader() -> tuple[Callable[[Any], Any], tuple]:
    """(a getter, the keys it takes) for `_BACKEND_VARIABLES`: the dictionary behind
    ``os.environ`` where it has one (one dictionary lookup), else ``os.environ.get``."""
    data = _environment_data()
    if data is not None:
        return data.get, tuple(os.environ.encodekey(name) for name in _BACKEND_VARIABLES)
    return os.environ.get, _BACKEND_VARIABLES


_ENVIRONMENT_GET, _ENVIRONMENT_KEYS = _environment_reader()


def environment_key() -> tuple:
    """The raw values of the variables that select the backend, as the dispatchers read them
    (the key of `BACKEND_BY_ENVIRONMENT`)."""
    return tuple(_ENVIRONMENT_GET(key) for key in _ENVIRONMENT_KEYS)


def _int_class(value: int) -> int:
    if _INT32[0] <= value < _INT32[1]:
        return 0
    if 0 <= value < 2**32:
        return 1
    if -2**63 <= value < 2**63:
        return 2
    return 3


def describe(value: Any, specialize: bool) -> tuple[Any, Any]:
    """(what the specialization of a runtime parameter given ``value`` depends on, the value
    the launcher packs), or ``(MISS, None)`` when there is no cheap description."""
    kind = type(value)
    if value is None or kind is tl.constexpr:
        unwrapped = tl._unwrap(value)
        if type(unwrapped) not in _PLAIN_CONSTEXPRS:
            return MISS, None
        return ("constexpr", type(unwrapped), unwrapped), None
    if kind is bool:
        return bool, int(value)  # packed as an i1 slot, as the slow path passes it
    if kind is int:
        if not specialize:
            return (int, _int_class(value)), value
        return (int, _int_class(value), value == 1, value % 16 == 0), value
    if kind is float:
        return float, value
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None and kind.__module__.startswith("torch"):
        address = data_ptr()
        return (kind, value.dtype, value.is_cuda, specialize and address % 16 == 0), address
    if kind.__module__ == "numpy" and hasattr(value, "__array_interface__") and \
            getattr(value, "shape", ()) != ():
        address = value.__array_interface__["data"][0]
        return (kind, value.dtype, specialize and address % 16 == 0), address
    return MISS, None


# The process's memory as 8-byte words: ``_MEMORY[address >> 3]`` reads the word at an 8-byte
# aligned address (0.08 us, against 0.29 us for ``c_uint64.from_address(address).value``,
# which makes a ctypes object per read). Nothing is allocated; only such reads are made.
_MEMORY = (ctypes.c_uint64 * (1 << 59)).from_address(0)


def _ndarray_address_offset() -> tuple[type, int] | None:
    """(numpy.ndarray, the offset of its data pointer in the array object), when numpy is
    imported and the offset is the one numpy's C layout has (after the object header, 8-byte
    aligned, as `_MEMORY` reads it)."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    offset = object.__basicsize__  # PyObject_HEAD, then PyArrayObject's ``char *data``
    if offset % 8:
        return None
    probes = [numpy.empty(3, numpy.float32), numpy.empty(5, numpy.int8)[1:]]
    for probe in probes:
        if _MEMORY[(id(probe) + offset) >> 3] != probe.__array_interface__["data"][0]:
            return None
    return numpy.ndarray, offset


def _tensor_type() -> type | None:
    """``torch.Tensor`` where torch is imported (it is never imported here), else None."""
    torch = sys.modules.get("torch")
    tensor = getattr(torch, "Tensor", None)
    return tensor if isinstance(tensor, type) else None


class Entry:
    """A compiled kernel and how to launch it with the values a dispatcher read (one per
    parameter that is not constexpr): ``launch(grid, stream, *values)`` is the backend
    launcher's, given those values, or, where the specialization made some of those parameters
    constexpr (an integer equal to 1, None), the ones at the positions ``runtime`` lists, which
    ``select`` picks."""

    __slots__ = ("compiled", "launch", "select")

    def __init__(self, compiled: Any, launch: Callable[..., None], runtime: list[int],
                 count: int) -> None:
        self.compiled = compiled
        self.launch = launch
        if runtime == list(range(count)):
            self.select = None
        elif len(runtime) == 1:
            position = runtime[0]
            self.select = lambda values: (values[position],)
        elif not runtime:
            self.select = lambda values: ()
        else:
            self.select = operator.itemgetter(*runtime)


def _native_describer(params: list[inspect.Parameter], constexpr_names: set[str],
                      do_not_specialize: set[str], tensor: type | None,
                      located: tuple[type, int] | None) -> Any:
    """The native module's ``Describer`` for these parameters (what the generated Python reads
    otherwise, computed in C), or None where there is no native module."""
    from tilecraft.backends import native

    module = native.launchers()
    if module is None:
        return None
    roles = "".join("c" if p.name in constexpr_names else "n" if p.name in do_not_specialize
                    else "s" for p in params)
    array_type, offset = located if located is not None else (None, 0)
    return module.Describer(roles, tensor, array_type, offset, _PLAIN_CONSTEXPRS, describe,
                            MISS)


def make_dispatcher(signature: inspect.Signature, name: str, constexpr_names: set[str],
                    do_not_specialize: set[str], entries: dict, resolve_grid: Callable,
                    launch_options: frozenset[str], slow: Callable
                    ) -> tuple[Callable, Callable] | None:
    """(dispatch, key_of) for a kernel with ``signature``, or None for a signature the fast
    path does not take (``*args``, ``**kwargs``, or names it uses itself).

    ``dispatch(grid, *args, **kwargs)`` takes the grid, then the kernel's parameters (so Python
    binds them, and its TypeError names a missing argument or counts surplus ones as the
    kernel's would) and launches through the `Entry` of ``entries`` that the arguments' key
    names, returning its compiled kernel; where there is none, it returns ``slow(args, kwargs,
    grid)``. ``key_of`` takes the same arguments and returns (key, values) where dispatch would
    look an entry up, or `MISS`."""
    params = list(signature.parameters.values())
    names = [p.name for p in params]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params) or \
            any(n.startswith("_tc_") for n in names):
        return None
    located = _ndarray_address_offset()
    tensor = _tensor_type()
    own: list[str] = []  # the kernel's own parameter list
    defaults: dict[str, Any] = {}
    for index, p in enumerate(params):
        if p.kind is p.KEYWORD_ONLY and "*" not in own:
            own.append("*")
        if p.default is p.empty:
            own.append(p.name)
        else:
            defaults[p.name] = p.default
            own.append(f"{p.name}=_tc_defaults[{p.name!r}]")
        if p.kind is p.POSITIONAL_ONLY and (index + 1 == len(params) or
                                            params[index + 1].kind is not p.POSITIONAL_ONLY):
            own.append("/")
    # The grid comes first and positionally (kernel[grid] is a partial of it, which passes the
    # caller's keywords on without merging dictionaries); surplus positional arguments, caught
    # by *_tc_more, are reported by _tc_bind, a function with the kernel's own parameters.
    header = ["_tc_grid", *([] if "/" in own else ["/"]),
              *("*_tc_more" if item == "*" else item for item in own)]
    if "*_tc_more" not in header:
        header.append("*_tc_more")
    header.append("**_tc_options")
    passed = ", ".join([p.name for p in params
                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
                       + ["*_tc_more"])
    positional = "".join(f"{p.name}, " for p in params if p.kind is p.POSITIONAL_ONLY)
    keywords = "".join(f"{p.name!r}: {p.name}, " for p in params
                       if p.kind is not p.POSITIONAL_ONLY)
    slow_call = f"return _tc_slow(({positional}), {{{keywords}**_tc_options}}, _tc_grid)"
    describer = _native_describer(params, constexpr_names, do_not_specialize, tensor, located)
    body, keys, values = [], [], []
    for index, p in enumerate(params):
        if describer is not None:
            break
        v = p.name
        if p.name in constexpr_names:
            body.append(f"    if _tc_type({v}) not in _tc_plain: MISS")
            keys.append(f"(_tc_type({v}), {v})")
            values.append("None")
            continue
        specialize = p.name not in do_not_specialize
        array_key = f"({v}.dtype, not _tc_v{index} & 15)" if specialize else f"({v}.dtype,)"
        int_key = f"(0, {v} == 1, not {v} & 15)" if specialize else "(0,)"
        tensor_key = (f"({v}.dtype, {v}.is_cuda, not _tc_v{index} & 15)" if specialize
                      else f"({v}.dtype, {v}.is_cuda)")
        body.append(f"    _tc_t = _tc_type({v})")
        branches = []
        if tensor is not None:
            branches += [("_tc_t is _tc_tensor", [f"_tc_v{index} = {v}.data_ptr()",
                                                   f"_tc_k{index} = {tensor_key}"])]
        if located is not None:
            branches += [("_tc_t is _tc_ndarray",
                          [f"_tc_v{index} = _tc_memory[(_tc_id({v}) + _tc_offset) >> 3]",
                           f"_tc_k{index} = {array_key}"])]
        branches += [(f"_tc_t is _tc_int and -2147483648 <= {v} < 2147483648",
                      [f"_tc_v{index} = {v}", f"_tc_k{index} = {int_key}"]),
                     ("_tc_t is _tc_float", [f"_tc_v{index} = {v}", f"_tc_k{index} = _tc_float"])]
        for number, (condition, lines) in enumerate(branches):
            body.append(f"    {'if' if number == 0 else 'elif'} {condition}:")
            body += [f"        {line}" for line in lines]
        body += ["    else:",
                 f"        _tc_k{index}, _tc_v{index} = _tc_describe({v}, {specialize})",
                 f"        if _tc_k{index} is _tc_MISS: MISS"]
        keys.append(f"_tc_k{index}")
        values.append(f"_tc_v{index}")
    prologue = [
        f"    if _tc_more: return _tc_bind({passed})",
        "    _tc_backend = _tc_backends.get((" + "".join(
            f"_tc_env(_tc_env_keys[{i}]), " for i in range(len(_BACKEND_VARIABLES))) + "))",
        "    if _tc_backend is None: MISS",
        "    if _tc_options:",
        "        _tc_stream = _tc_options.get('stream')",
        "        if not _tc_launch_options.issuperset(_tc_options): MISS",
        "        for _tc_t in _tc_options.values():",
        "            if _tc_type(_tc_t) not in _tc_plain: MISS",
        "        _tc_option_key = _tc_tuple(_tc_sorted(_tc_t for _tc_t in _tc_options.items() "
        "if _tc_t[0] != 'stream'))",
        "    else:",
        "        _tc_stream = None",
        "        _tc_option_key = ()",
    ]
    if describer is None:
        key = f"(_tc_backend, _tc_option_key, {', '.join(keys)}{',' if keys else ''})"
        runtime_values = [value for value, p in zip(values, params)
                          if p.name not in constexpr_names]
        candidates = ", ".join(runtime_values)
        value_tuple = f"({candidates}{',' if runtime_values else ''})"
    else:
        body = [f"    _tc_described = _tc_describer({', '.join(names)})",
                "    if _tc_described is None: MISS",
                "    _tc_keys, _tc_values = _tc_described"]
        key = "(_tc_backend, _tc_option_key, _tc_keys)"
        candidates = "*_tc_values"
        value_tuple = "_tc_values"
    grid_arguments = ", ".join(f"{n!r}: {n}" for n in names)
    dispatch_tail = [
        f"    _tc_entry = _tc_entries.get({key})",
        "    if _tc_entry is None: MISS",
        "    if _tc_type(_tc_grid) is _tc_tuple and _tc_len(_tc_grid) == 1 "
        "and _tc_type(_tc_grid[0]) is _tc_int "
        "and _tc_grid[0] >= 0:",
        "        _tc_grid = (_tc_grid[0], 1, 1)",
        "    else:",
        f"        if _tc_callable(_tc_grid): _tc_grid = _tc_grid({{{grid_arguments}}})",
        "        _tc_grid = _tc_resolve(_tc_grid, None)",
        "    if _tc_entry.select is None:",
        f"        _tc_entry.launch(_tc_grid, _tc_stream, {candidates})",
        "    else:",
        f"        _tc_entry.launch(_tc_grid, _tc_stream, *_tc_entry.select({value_tuple}))",
        "    return _tc_entry.compiled",
    ]
    key_tail = [f"    return {key}, {value_tuple}"]
    function_name = name if name.isidentifier() and not name.startswith("_tc_") else "kernel"
    signature_text = ", ".join(header)

    def written(lines: list[str], miss: str) -> list[str]:
        return [line[:-len("MISS")] + miss if line.endswith(" MISS") else line
                for line in lines]

    source = "\n".join([f"def {function_name}({', '.join([*own, '**_tc_options'])}):",
                        "    pass",
                        "_tc_bind = " + function_name,
                        f"def {function_name}({signature_text}):",
                        *written(prologue + body + dispatch_tail, slow_call),
                        f"def _tc_key_of({signature_text}):",
                        *written(prologue + body + key_tail, "return _tc_MISS")]) + "\n"
    namespace: dict[str, Any] = {
        "_tc_defaults": defaults, "_tc_MISS": MISS, "_tc_plain": _PLAIN_CONSTEXPRS,
        "_tc_backends": BACKEND_BY_ENVIRONMENT, "_tc_env": _ENVIRONMENT_GET,
        "_tc_env_keys": _ENVIRONMENT_KEYS, "_tc_launch_options": launch_options,
        "_tc_describe": describe, "_tc_entries": entries, "_tc_resolve": resolve_grid,
        "_tc_id": id, "_tc_memory": _MEMORY, "_tc_slow": slow, "_tc_tensor": tensor,
        "_tc_describer": describer,
        # builtins under reserved names: a kernel parameter may be called `type` or `len`
        "_tc_type": type, "_tc_int": int, "_tc_float": float, "_tc_tuple": tuple,
        "_tc_len": len, "_tc_sorted": sorted, "_tc_callable": callable,
    }
    if located is not None:
        namespace["_tc_ndarray"], namespace["_tc_offset"] = located
    exec(compile(source, f"<launch dispatcher of {name}>", "exec"), namespace)  # noqa: S102
    dispatch = namespace[function_name]
    if describer is not None and _environment_data() is not None:
        dispatch = _native_dispatcher(params, defaults, describer, entries, resolve_grid,
                                      launch_options, dispatch)
    return dispatch, namespace["_tc_key_of"]


def _native_dispatcher(params: list[inspect.Parameter], defaults: dict[str, Any],
                       describer: Any, entries: dict, resolve_grid: Callable,
                       launch_options: frozenset[str], fallback: Callable) -> Any:
    """The native module's ``Dispatcher``: the generated dispatcher ``fallback``'s fast path in
    C, which hands every launch it does not take to ``fallback``."""
    from tilecraft.backends import native

    kinds = [p.kind for p in params]
    positional = sum(kind in (inspect.Parameter.POSITIONAL_ONLY,
                              inspect.Parameter.POSITIONAL_OR_KEYWORD) for kind in kinds)
    positional_only = sum(kind is inspect.Parameter.POSITIONAL_ONLY for kind in kinds)
    return native.launchers().Dispatcher(
        names=tuple(sys.intern(p.name) for p in params), positional=positional,
        positional_only=positional_only,
        defaults=tuple(defaults.get(p.name, MISS) for p in params), required=MISS,
        describer=describer, environ=_environment_data(), environ_keys=_ENVIRONMENT_KEYS,
        backends=BACKEND_BY_ENVIRONMENT, launch_options=launch_options,
        plain=_PLAIN_CONSTEXPRS, entries=entries, resolve=resolve_grid, fallback=fallback)


def same_values(read: list, launched: list) -> bool:
    """Whether the values a dispatcher read are exactly the slow path's launch arguments (the
    same types and values), so that an entry made from them launches the same bytes."""
    return len(read) == len(launched) and all(
        type(a) is type(b) and a == b for a, b in zip(read, launched))
