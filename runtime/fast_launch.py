"""The launch fast path: a kernel launched again with arguments of the same kinds skips
specialization, compilation lookup and argument conversion.

Only launches that went through the slow path without error are remembered, so a host array
given to a GPU kernel keeps failing with its message. A generated binder turns ``(*args, **kwargs)`` into the tuple of parameter values (defaults
applied) at the cost of one Python call. Each value is described by what its specialization
depends on (`describe`): the type and element type of an array, its 16-byte alignment and
device; the range class of an integer, whether it is 1 and its divisibility by 16; the value of
a constexpr. Descriptions that are equal give equal specializations, so the tuple of them keys
an `Entry` that holds the compiled kernel and, per runtime argument, how to turn its value into
what the launcher packs. The first launch of each key goes the slow way and fills the entry.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tilecraft.language import core as tl

Converter = Callable[[Any], Any]

_INT32 = (-2**31, 2**31)


def make_binder(signature: inspect.Signature, name: str) -> Callable[..., tuple]:
    """A function with ``signature``'s parameters that returns their values as a tuple."""
    defaults: dict[str, Any] = {}
    params = []
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"{name}: kernels cannot take *args or **kwargs")
        if param.default is param.empty:
            params.append(param.name)
        else:
            defaults[param.name] = param.default
            params.append(f"{param.name}=_defaults[{param.name!r}]")
    names = [p.name for p in signature.parameters.values()]
    source = (f"def binder({', '.join(params)}):\n"
              f"    return ({', '.join(names)}{',' if names else ''})\n")
    namespace: dict[str, Any] = {"_defaults": defaults}
    exec(compile(source, f"<binder of {name}>", "exec"), namespace)  # noqa: S102 - our source
    return namespace["binder"]


def _int_class(value: int) -> int:
    if _INT32[0] <= value < _INT32[1]:
        return 0
    if 0 <= value < 2**32:
        return 1
    if -2**63 <= value < 2**63:
        return 2
    return 3


def describe(value: Any, constexpr: bool, specialize: bool) -> Any:
    """What the specialization of a parameter with ``value`` depends on (hashable), or
    raises TypeError when the value has no cheap description (the slow path decides then)."""
    kind = type(value)
    if constexpr or value is None or isinstance(value, tl.constexpr):
        key = tl._unwrap(value)
        hash(key)
        return ("c", key)
    if kind is bool:
        return (bool, value)
    if kind is int:
        if not specialize:
            return (int, _int_class(value))
        return (int, _int_class(value), value == 1, value % 16 == 0)
    if kind is float:
        return (float,)
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None and kind.__module__.startswith("torch"):
        aligned = specialize and data_ptr() % 16 == 0
        return (kind, value.dtype, value.is_cuda, aligned)
    if kind.__module__ == "numpy" and hasattr(value, "__array_interface__"):
        aligned = specialize and _address(value) % 16 == 0
        return (kind, value.dtype, aligned)
    if isinstance(value, (str, tl.dtype)):
        return ("s", value)
    raise TypeError("no fast description")


def _address(array: Any) -> int:
    return array.__array_interface__["data"][0]


@dataclass
class Entry:
    """A compiled kernel and how to turn each parameter value into a launch argument
    (``converters[i]`` for parameter ``runtime[i]``)."""

    compiled: Any
    runtime: tuple[int, ...]
    converters: tuple[Converter, ...]
    names: tuple[str, ...]

    def arguments(self, values: tuple) -> list:
        return [convert(values[i]) for i, convert in zip(self.runtime, self.converters)]


def _pointer(value: Any) -> int:
    return value.data_ptr()


def _same(value: Any) -> Any:
    return value


def converters_for(values: tuple, names: list[str], arg_types: dict, arg_kinds: list[str]
                   ) -> tuple[tuple[int, ...], tuple[Converter, ...]] | None:
    """The runtime parameters' positions and converters, or None where a value needs the slow
    path's conversion every time (host arrays, reinterpreted arrays, out-of-range integers)."""
    positions, converters = [], []
    for (name, _), kind in zip(arg_types.items(), arg_kinds):
        index = names.index(name)
        value = values[index]
        if kind == "ptr":
            module = type(value).__module__
            if module.startswith("torch") and hasattr(value, "data_ptr"):
                converters.append(_pointer)
            elif module == "numpy" and hasattr(value, "__array_interface__"):
                converters.append(_address)
            else:
                return None
        elif isinstance(value, float) or kind.startswith("fp"):
            converters.append(float)
        elif type(value) is int and kind.startswith("i") and kind != "i1" and \
                _INT32[0] <= value < _INT32[1]:
            converters.append(_same)
        elif type(value) is bool:
            converters.append(_same)
        else:
            return None
        positions.append(index)
    return tuple(positions), tuple(converters)
