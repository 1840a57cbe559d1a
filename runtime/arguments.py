"""What the arguments of a launch are: arrays (numpy, torch, ``__cuda_array_interface__``,
`reinterpret` views), their element types and addresses, and the language types of scalars.
Shared by the JIT, the backends' launch paths and the interpreter."""

from __future__ import annotations

import sys

from tilecraft.language import core as tl


class reinterpret:
    """An array viewed as another element type: ``tc.reinterpret(x_uint16, tl.bfloat16)`` passes
    the memory of ``x_uint16`` as a bf16 pointer (numpy has no bfloat16)."""

    def __init__(self, array, dtype) -> None:
        self.base = array.base if isinstance(array, reinterpret) else array
        self.dtype = tl._unwrap(dtype)

    def __repr__(self) -> str:
        return f"reinterpret({type(self.base).__name__}, {self.dtype!r})"


_NUMPY_DTYPES = {
    "bool": tl.int1, "int8": tl.int8, "int16": tl.int16, "int32": tl.int32, "int64": tl.int64,
    "uint8": tl.uint8, "uint16": tl.uint16, "uint32": tl.uint32, "uint64": tl.uint64,
    "float16": tl.float16, "float32": tl.float32, "float64": tl.float64,
    "bfloat16": tl.bfloat16, "float8_e4m3fn": tl.float8e4nv, "float8_e5m2": tl.float8e5,
}


def is_torch_tensor(value) -> bool:
    return type(value).__module__.startswith("torch") and hasattr(value, "data_ptr")


def is_tensor_descriptor(value) -> bool:
    """Whether ``value`` is a `tilecraft.runtime.tensor_descriptor.TensorDescriptor` (which only
    a caller that imported its module can have made: a launch without one does not load it)."""
    module = sys.modules.get("tilecraft.runtime.tensor_descriptor")
    return module is not None and isinstance(value, module.TensorDescriptor)


def is_array_like(value) -> bool:
    return (isinstance(value, reinterpret) or hasattr(value, "__array_interface__")
            or is_torch_tensor(value) or hasattr(value, "__cuda_array_interface__"))


def element_type_of(value) -> tl.dtype:
    """The language element type of an array argument."""
    if isinstance(value, reinterpret):
        return value.dtype
    name = str(getattr(value, "dtype", ""))
    name = name.replace("torch.", "")
    if name in _NUMPY_DTYPES:
        return _NUMPY_DTYPES[name]
    raise TypeError(f"unsupported array element type {name!r}")


def address_of(value) -> int:
    if isinstance(value, reinterpret):
        return address_of(value.base)
    if is_torch_tensor(value):
        return int(value.data_ptr())
    if hasattr(value, "__array_interface__"):
        return int(value.__array_interface__["data"][0])
    if hasattr(value, "__cuda_array_interface__"):
        return int(value.__cuda_array_interface__["data"][0])
    raise TypeError(f"cannot take the address of {type(value).__name__}")


def scalar_type_of(value) -> tl.dtype:
    if isinstance(value, bool):
        return tl.int1
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return tl.int32
        if 2**31 <= value < 2**32:
            return tl.uint32
        if -2**63 <= value < 2**63:
            return tl.int64
        if 2**63 <= value < 2**64:
            return tl.uint64
        raise ValueError(f"integer argument {value} does not fit in 64 bits")
    if isinstance(value, float):
        return tl.float32
    raise TypeError(f"unsupported scalar argument {value!r}")
