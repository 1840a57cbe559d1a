"""The interpreter: runs kernels on the CPU with numpy, program by program over the grid.

The kernel's Python function runs as Python (so `print`, `breakpoint()` and debuggers work);
`tl.*` calls go through the same typing rules as when compiling (`tilecraft.language.semantic`)
and reach `InterpreterBuilder`, which computes on numpy arrays with the semantics of compiled
code: integer arithmetic wraps, C's truncating division, fp16 rounding by numpy, bf16 and fp8
rounding by bit manipulation (values kept as float32), masked lanes not read and given `other`,
atomics applied element by element in program order. Pointers are addresses in a virtual address
space where each array argument gets a range; an access outside every range is an error that
names the kernel's line, instead of a crash.
"""

from __future__ import annotations

import ast
import builtins
import math
import sys
import types

import numpy as np

from tilecraft.dialects.math_semantics import signed, unsigned
from tilecraft.frontend.errors import UnsupportedOpError
from tilecraft.generated.interpreter import SEMANTICS
from tilecraft.generated.language import OPS as LANGUAGE_OPS
from tilecraft.language import core as tl
from tilecraft.language import functions as tl_functions
from tilecraft.language import semantic
from tilecraft.language.builder import Builder
from tilecraft.language.core import block_type, pointer_type, tensor

# -- float formats -------------------------------------------------------------------------------

# How each fp8 format spends its top codes: "ieee" (all-ones exponent: inf and NaN), "fn" (no
# inf, S.1111.111 is NaN) or "fnuz" (no inf and no -0, 0x80 is NaN). fp8e4b15 reads as Triton's
# tests read it: e4m3 with bias 15, NaN where e4m3fn has it.
_FP8_FLAVORS = {"fp8e4nv": "fn", "fp8e5": "ieee", "fp8e4b15": "fn", "fp8e4b8": "fnuz",
                "fp8e5b16": "fnuz"}


def _fp8_table(name: str) -> np.ndarray:
    """The value of each of the 256 codes of an fp8 format."""
    exponent_bits, mantissa_bits, bias = tl.dtype.FP_FORMATS[name]
    flavor = _FP8_FLAVORS[name]
    top = (1 << exponent_bits) - 1
    values = np.zeros(256, dtype=np.float64)
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        exponent = (code >> mantissa_bits) & top
        mantissa = code & ((1 << mantissa_bits) - 1)
        if flavor == "fn" and exponent == top and mantissa == (1 << mantissa_bits) - 1:
            value = math.nan
        elif flavor == "ieee" and exponent == top:
            value = math.inf if mantissa == 0 else math.nan
        elif flavor == "fnuz" and code == 0x80:
            value = math.nan
        elif exponent == 0:
            value = mantissa / (1 << mantissa_bits) * 2.0 ** (1 - bias)
        else:
            value = (1 + mantissa / (1 << mantissa_bits)) * 2.0 ** (exponent - bias)
        values[code] = sign * value
    return values


_FP8_TABLES = {name: _fp8_table(name) for name in _FP8_FLAVORS}
_FP8_MAX = {name: float(np.max(table[np.isfinite(table)])) for name, table in _FP8_TABLES.items()}
_FP8_POSITIVE = {}
for _name, _table in _FP8_TABLES.items():
    _codes = np.arange(128)
    _finite = np.isfinite(_table[:128])
    _FP8_POSITIVE[_name] = (_table[:128][_finite], _codes[_finite].astype(np.uint8))


def round_to_format(x, name: str, mode: str = "rtne") -> np.ndarray:
    """``x`` rounded to the float format ``name`` (fp16, bf16 or an fp8 format), as float64;
    fp8 results saturate to the largest finite value (as PTX's ``.satfinite``)."""
    x = np.asarray(x, dtype=np.float64)
    _, mantissa_bits, bias = tl.dtype.FP_FORMATS[name]
    with np.errstate(all="ignore"):
        magnitude = np.abs(x)
        _, exponent = np.frexp(magnitude)
        exponent = np.maximum(exponent - 1, 1 - bias)
        quantum = np.ldexp(1.0, exponent - mantissa_bits)
        scaled = magnitude / quantum
        scaled = np.rint(scaled) if mode == "rtne" else np.trunc(scaled)
        result = scaled * quantum
        if name in _FP8_MAX:
            result = np.minimum(result, _FP8_MAX[name])
        else:
            largest = (2 - 2.0 ** -mantissa_bits) * 2.0 ** (
                (1 << tl.dtype.FP_FORMATS[name][0]) - 2 - bias)
            overflow = result > largest
            if mode == "rtz":
                result = np.where(overflow, largest, result)
            else:
                result = np.where(overflow, np.inf, result)
        result = np.where(np.isinf(magnitude),
                          _FP8_MAX[name] if name in _FP8_MAX else np.inf, result)
        result = np.copysign(result, x)
        result = np.where(np.isnan(x), np.nan, result)
    return result


def round_bf16(x, mode: str = "rtne") -> np.ndarray:
    """float32 values rounded to bfloat16 (kept as float32), by bit manipulation."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32)
    if mode == "rtne":
        rounded = bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    else:
        rounded = bits
    rounded = (rounded & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), rounded).astype(np.float32)


def bf16_bits(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    bits = (x.view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), bits).astype(np.uint16)


def bf16_from_bits(bits) -> np.ndarray:
    bits = np.asarray(bits).astype(np.uint16).astype(np.uint32) << np.uint32(16)
    return bits.view(np.float32)


def fp8_codes(x, name: str) -> np.ndarray:
    """The codes of fp8 values (already on the format's grid)."""
    x = np.asarray(x, dtype=np.float64)
    values, codes = _FP8_POSITIVE[name]
    magnitude = np.abs(x)
    index = np.clip(np.searchsorted(values, magnitude), 0, len(values) - 1)
    result = codes[index].astype(np.uint8)
    result = np.where(np.signbit(x), result | np.uint8(0x80), result).astype(np.uint8)
    flavor = _FP8_FLAVORS[name]
    if flavor == "fnuz":  # no -0: a zero is code 0 whatever its sign
        result = np.where(result == 0x80, np.uint8(0), result)
    nan_code = {"fn": 0x7F, "ieee": 0x7E, "fnuz": 0x80}[flavor]
    result = np.where(np.isnan(x), np.uint8(nan_code), result)
    if flavor == "ieee":
        inf = np.where(np.signbit(x), np.uint8(0xFC), np.uint8(0x7C))
        result = np.where(np.isinf(x), inf, result)
    return result.astype(np.uint8)


def fp8_from_codes(codes, name: str) -> np.ndarray:
    return _FP8_TABLES[name][np.asarray(codes).astype(np.uint8)].astype(np.float32)


# -- numpy types of the language's types ---------------------------------------------------------

_COMPUTE = {
    "int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "fp16": np.float16, "bf16": np.float32, "fp32": np.float32, "fp64": np.float64,
    **{name: np.float32 for name in _FP8_FLAVORS},
}
_STORAGE = {"int1": np.int8, "bf16": np.uint16, **{name: np.uint8 for name in _FP8_FLAVORS}}
_UINT = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _compute_type(name: str):
    try:
        return _COMPUTE[name]
    except KeyError:
        raise UnsupportedOpError(f"the interpreter has no numpy type for '{name}' (add it to "
                                 "_COMPUTE in runtime/interpreter.py)") from None


def compute_dtype(ty) -> np.dtype:
    scalar = ty.scalar
    if scalar.is_ptr():
        return np.dtype(np.uint64)
    return np.dtype(_compute_type(scalar.name))


def storage_dtype(scalar) -> np.dtype:
    if scalar.is_ptr():
        return np.dtype(np.uint64)
    return np.dtype(_STORAGE.get(scalar.name) or _compute_type(scalar.name))


def to_storage(values, scalar) -> np.ndarray:
    if scalar.is_bf16():
        return bf16_bits(values)
    if scalar.is_fp8():
        return fp8_codes(values, scalar.name)
    return np.asarray(values).astype(storage_dtype(scalar))


def from_storage(raw, scalar) -> np.ndarray:
    if scalar.is_bf16():
        return bf16_from_bits(raw)
    if scalar.is_fp8():
        return fp8_from_codes(raw, scalar.name)
    if scalar.is_bool():
        return np.asarray(raw) != 0
    return np.asarray(raw).astype(compute_dtype(scalar))


def normalize(values, ty) -> np.ndarray:
    """``values`` as the array the interpreter keeps for type ``ty``: its compute dtype, its
    shape, and bf16/fp8 values rounded to their format."""
    scalar = ty.scalar
    array = np.asarray(values)
    if scalar.is_bf16():
        array = round_bf16(array.astype(np.float32)) if array.dtype != np.float64 else \
            round_to_format(array, "bf16").astype(np.float32)
    elif scalar.is_fp8():
        array = round_to_format(array, scalar.name).astype(np.float32)
    else:
        dtype = compute_dtype(ty)
        if array.dtype != dtype:
            array = array.astype(dtype)
    shape = tuple(ty.shape) if ty.is_block() else ()
    if array.shape != shape:
        if not shape and array.size == 1:
            array = array.reshape(())
        else:
            array = np.broadcast_to(array, shape)
    return array


def _bits(array: np.ndarray, scalar) -> np.ndarray:
    """The raw bits of values of type ``scalar`` as an unsigned integer array."""
    if scalar.is_bf16():
        return bf16_bits(array)
    if scalar.is_fp8():
        return fp8_codes(array, scalar.name)
    if scalar.is_bool():
        return np.asarray(array).astype(np.uint8)
    array = np.ascontiguousarray(np.asarray(array).astype(compute_dtype(scalar)))
    return array.view(_UINT[scalar.primitive_bitwidth])


def _from_bits(bits: np.ndarray, scalar) -> np.ndarray:
    if scalar.is_bf16():
        return bf16_from_bits(bits)
    if scalar.is_fp8():
        return fp8_from_codes(bits, scalar.name)
    if scalar.is_bool():
        return np.asarray(bits) != 0
    bits = np.ascontiguousarray(np.asarray(bits).astype(_UINT[scalar.primitive_bitwidth]))
    return bits.view(compute_dtype(scalar))


_CMPI = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "slt": lambda a, b: signed(a) < signed(b), "sle": lambda a, b: signed(a) <= signed(b),
    "sgt": lambda a, b: signed(a) > signed(b), "sge": lambda a, b: signed(a) >= signed(b),
    "ult": lambda a, b: unsigned(a) < unsigned(b),
    "ule": lambda a, b: unsigned(a) <= unsigned(b),
    "ugt": lambda a, b: unsigned(a) > unsigned(b),
    "uge": lambda a, b: unsigned(a) >= unsigned(b),
}


def _semantics(kind: str, name: str):
    """The numpy function of the language's `kind` op `name` ("binary", "unary": the `.td`
    field interpreterImpl of the op, from generated/interpreter.py; "cmpi": a predicate); an
    `UnsupportedOpError` naming the op and what to declare when there is none."""
    if kind == "cmpi":
        function = _CMPI.get(name)
        if function is None:
            raise UnsupportedOpError(f"the interpreter has no semantics for 'arith.cmpi {name}' "
                                     "(add the predicate to _CMPI in runtime/interpreter.py)")
        return function
    function = SEMANTICS.get(name)
    if function is None:
        entry = LANGUAGE_OPS.get(name)
        if entry is None:
            raise UnsupportedOpError(
                f"the interpreter has no semantics for the language's {kind} op '{name}' "
                f"(declare languageName = \"{name}\" and interpreterImpl on its op in defs/)")
        raise UnsupportedOpError(f"the interpreter has no semantics for '{entry.op}' (declare "
                                 f"interpreterImpl in {entry.td_file})")
    return function


_CMPF_BASE = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
              "le": np.less_equal, "ne": np.not_equal}


def _cmpf(predicate: str, a, b):
    if predicate == "true":
        return np.ones(np.broadcast(a, b).shape, bool)
    if predicate == "false":
        return np.zeros(np.broadcast(a, b).shape, bool)
    ordered = ~(np.isnan(a) | np.isnan(b))
    if predicate == "ord":
        return ordered
    if predicate == "uno":
        return ~ordered
    base = _CMPF_BASE[predicate[1:]](a, b)
    return (base & ordered) if predicate[0] == "o" else (base | ~ordered)


# -- memory --------------------------------------------------------------------------------------


class MemoryAccessError(IndexError):
    """An access outside every buffer the kernel was given."""


class _Region:
    """A block of memory seen as a numpy uint8 array (through ``__array_interface__``); it
    holds ``owner`` so that the memory outlives the launch."""

    def __init__(self, owner, address: int, nbytes: int, readonly: bool) -> None:
        self.owner = owner
        self.__array_interface__ = {"data": (address, readonly), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}


def _span(array: np.ndarray) -> tuple[int, int]:
    """The address of the lowest byte ``array`` covers and the number of bytes up to its
    highest element's end (for any strides, negative ones included)."""
    address = array.__array_interface__["data"][0]
    if array.size == 0:
        return address, 0
    low = sum(min(0, s * (n - 1)) for s, n in zip(array.strides, array.shape))
    high = sum(max(0, s * (n - 1)) for s, n in zip(array.strides, array.shape))
    return address + low, high - low + array.itemsize


def _owner_of(array: np.ndarray) -> np.ndarray:
    """The outermost numpy array whose memory ``array`` views (``array`` itself when it owns
    its memory or views something that is not a numpy array)."""
    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    return owner


class Memory:
    """A virtual address space over the kernel's array arguments.

    Each argument's memory is registered as a region of bytes, shared, not copied: the whole
    buffer a numpy array views (its outermost base), the whole storage of a torch tensor, or,
    for other strided arrays, the bytes between their lowest and highest element. Arguments
    whose memory lies inside a region already registered (views of one buffer, a torch tensor
    and a numpy array sharing memory) get addresses inside that region, so pointer arithmetic
    between them and overlapping writes behave as on a device.
    """

    BASE = 1 << 32
    ALIGN = 256
    GAP = 1 << 16

    def __init__(self) -> None:
        self.bases: list[int] = []
        self.sizes: list[int] = []
        self.buffers: list[np.ndarray] = []  # uint8 views
        self.names: list[str] = []
        self.starts: list[int] = []  # the real address of each region's first byte
        self.next = self.BASE

    def _region(self, owner, start: int, nbytes: int, readonly: bool, name: str) -> int:
        """The index of a region holding the real bytes [start, start + nbytes)."""
        for index, (begin, size) in enumerate(zip(self.starts, self.sizes)):
            if begin <= start and start + nbytes <= begin + size:
                return index
        buffer = np.asarray(_Region(owner, start, nbytes, readonly)) if nbytes else \
            np.zeros(0, np.uint8)
        base = self.next
        self.bases.append(base)
        self.sizes.append(nbytes)
        self.buffers.append(buffer)
        self.names.append(name)
        self.starts.append(start)
        self.next = base + -(-(nbytes + self.GAP) // self.ALIGN) * self.ALIGN
        return len(self.bases) - 1

    def register_bytes(self, owner, start: int, nbytes: int, address: int, name: str,
                       readonly: bool = False) -> int:
        """The virtual address of the real ``address``, inside the region [start, start +
        nbytes) that ``owner`` keeps alive."""
        index = self._region(owner, start, nbytes, readonly, name)
        return self.bases[index] + (address - self.starts[index])

    def register(self, array: np.ndarray, name: str) -> int:
        """The address of ``array``'s first element (its memory is shared, not copied)."""
        address = array.__array_interface__["data"][0]
        owner = _owner_of(array)
        if not (owner.flags["C_CONTIGUOUS"] or owner.flags["F_CONTIGUOUS"]):
            owner = array
        start, nbytes = _span(owner)
        readonly = not owner.flags["WRITEABLE"]
        return self.register_bytes(owner, start, nbytes, address, name, readonly)

    def register_torch(self, value, name: str) -> int:
        """The address of a CPU torch tensor's first element; its whole storage is mapped."""
        storage = value.untyped_storage()
        return self.register_bytes(value, int(storage.data_ptr()), int(storage.nbytes()),
                                   int(value.data_ptr()), name)

    def _locate(self, addresses: np.ndarray, itemsize: int, what: str):
        bases = np.asarray(self.bases, dtype=np.uint64)
        index = np.searchsorted(bases, addresses, side="right").astype(np.int64) - 1
        valid = index >= 0
        safe = np.where(valid, index, 0)
        sizes = np.asarray(self.sizes, dtype=np.uint64)
        offsets = addresses - bases[safe] if len(self.bases) else addresses
        inside = valid & (offsets + np.uint64(itemsize) <= sizes[safe]) if len(self.bases) \
            else np.zeros(addresses.shape, bool)
        if not np.all(inside):
            bad = int(np.flatnonzero(~inside)[0])
            address = int(addresses[bad])
            near = ""
            if len(self.bases):
                i = int(safe[bad])
                near = (f" (the nearest buffer is argument '{self.names[i]}' at "
                        f"[{self.bases[i]:#x}, {self.bases[i] + self.sizes[i]:#x}))")
            raise MemoryAccessError(f"out-of-bounds {what} at address {address:#x}{near}; "
                                    "mask the access or check the offsets")
        aligned = (offsets % np.uint64(itemsize)) == 0
        if not np.all(aligned):
            bad = int(np.flatnonzero(~aligned)[0])
            raise MemoryAccessError(f"misaligned {what} of {itemsize} bytes at address "
                                    f"{int(addresses[bad]):#x}")
        return safe, offsets.astype(np.int64)

    def read(self, addresses: np.ndarray, dtype: np.dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        addresses = np.asarray(addresses, dtype=np.uint64).reshape(-1)
        out = np.zeros(addresses.shape, dtype=dtype)
        if addresses.size == 0:
            return out
        index, offsets = self._locate(addresses, dtype.itemsize, "load")
        for buffer_index in np.unique(index):
            lanes = index == buffer_index
            buffer = self.buffers[buffer_index]
            gather = offsets[lanes][:, None] + np.arange(dtype.itemsize)
            out[lanes] = buffer[gather].reshape(-1).view(dtype)
        return out

    def write(self, addresses: np.ndarray, values: np.ndarray) -> None:
        addresses = np.asarray(addresses, dtype=np.uint64).reshape(-1)
        values = np.ascontiguousarray(np.asarray(values).reshape(-1))
        if addresses.size == 0:
            return
        itemsize = values.dtype.itemsize
        index, offsets = self._locate(addresses, itemsize, "store")
        raw = values.view(np.uint8).reshape(-1, itemsize)
        for buffer_index in np.unique(index):
            lanes = index == buffer_index
            buffer = self.buffers[buffer_index]
            if not buffer.flags["WRITEABLE"]:
                raise MemoryAccessError(f"store into read-only memory (argument "
                                        f"'{self.names[buffer_index]}')")
            scatter = offsets[lanes][:, None] + np.arange(itemsize)
            buffer[scatter] = raw[lanes]


class TensorDescriptorHandle:
    """The handle of a tensor descriptor: the tensor's address, sizes and strides (in
    elements), what out-of-bounds elements read as ("zero" or "nan") and the block type."""

    def __init__(self, base: int, shape, strides, padding: str, block_ty) -> None:
        self.base, self.shape, self.strides = base, list(shape), list(strides)
        self.padding, self.block_ty = padding, block_ty

    def block(self, indices) -> "BlockPointer":
        """The block pointer to the block at ``indices``."""
        rank = len(self.block_ty.shape)
        return BlockPointer(self.base, self.shape, self.strides, [int(_arr(i)) for i in indices],
                            self.block_ty.shape, tuple(reversed(range(rank))),
                            self.block_ty.element_ty)

    def every_dimension(self) -> tuple[int, ...]:
        """All dimensions, as a block pointer's boundary check."""
        return tuple(range(len(self.block_ty.shape)))


class BlockPointer:
    """The handle of a block pointer (tl.make_block_ptr)."""

    def __init__(self, base: int, shape, strides, offsets, block_shape, order, element) -> None:
        self.base, self.shape, self.strides = base, list(shape), list(strides)
        self.offsets, self.block_shape, self.order = list(offsets), list(block_shape), order
        self.element = element

    def addresses(self, boundary_check):
        itemsize = storage_dtype(self.element).itemsize
        rank = len(self.block_shape)
        address = np.full(self.block_shape, self.base, dtype=np.int64)
        mask = np.ones(self.block_shape, dtype=bool)
        for dim in range(rank):
            shape = [1] * rank
            shape[dim] = self.block_shape[dim]
            index = (self.offsets[dim] + np.arange(self.block_shape[dim])).reshape(shape)
            address = address + index * self.strides[dim] * itemsize
            if dim in boundary_check:
                mask = mask & (index >= 0) & (index < self.shape[dim])
        return address.astype(np.uint64), mask


# -- the builder ---------------------------------------------------------------------------------


class DeviceAssertionError(AssertionError):
    """A tl.device_assert that failed."""


def _arr(x) -> np.ndarray:
    return np.asarray(x)


class InterpreterBuilder(Builder):
    """The builder interface on numpy arrays (0-d arrays for scalars)."""

    is_interpreter = True

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.pid = (0, 0, 0)
        self.grid = (1, 1, 1)

    # -- values
    def constant(self, value, ty):
        if ty.scalar.is_floating():
            value = float(value)
        elif ty.scalar.is_bool():
            value = bool(value)
        else:
            value = int(value)
            bits = ty.scalar.int_bitwidth
            value &= (1 << bits) - 1
            if ty.scalar.is_int_signed() and value >= 1 << (bits - 1):
                value -= 1 << bits
        if ty.scalar.is_bf16() or ty.scalar.is_fp8():
            return normalize(np.float64(value), ty)
        shape = ty.shape if ty.is_block() else ()
        return np.full(shape, value, dtype=compute_dtype(ty))

    def make_range(self, start, end, ty):
        return np.arange(start, end, dtype=np.int32)

    def program_id(self, axis):
        return np.array(self.pid[axis], dtype=np.int32)

    def num_programs(self, axis):
        return np.array(self.grid[axis], dtype=np.int32)

    # -- shapes
    def splat(self, x, ty):
        return np.full(ty.shape, _arr(x), dtype=_arr(x).dtype)

    def broadcast(self, x, ty):
        return np.broadcast_to(_arr(x), ty.shape)

    def expand_dims(self, x, axis, ty):
        return np.expand_dims(_arr(x), axis)

    def reshape(self, x, ty, can_reorder):
        return np.reshape(_arr(x), ty.shape)

    def trans(self, x, order, ty):
        return np.transpose(_arr(x), order)

    def cat(self, a, b, ty):
        return np.concatenate([_arr(a), _arr(b)])

    def join(self, a, b, ty):
        return np.stack([_arr(a), _arr(b)], axis=-1)

    def split(self, x, ty):
        x = _arr(x)
        return x[..., 0], x[..., 1]

    # -- element-wise
    def binary(self, op, a, b, ty):
        return normalize(_semantics("binary", op)(_arr(a), _arr(b)), ty)

    def unary(self, op, x, ty):
        x = _arr(x)
        if x.dtype.kind == "f" and op not in ("isnan", "isinf", "isfinite") and \
                (ty.scalar.is_bf16() or ty.scalar.is_fp8()):
            x = x.astype(np.float32)
        return normalize(_semantics("unary", op)(x), ty)

    def fma(self, a, b, c, ty):
        a, b, c = _arr(a), _arr(b), _arr(c)
        wide = np.longdouble if a.dtype == np.float64 else np.float64
        return normalize(a.astype(wide) * b.astype(wide) + c.astype(wide), ty)

    def cmpi(self, predicate, a, b, ty):
        return normalize(_semantics("cmpi", predicate)(_arr(a), _arr(b)), ty)

    def cmpf(self, predicate, a, b, ty):
        return normalize(_cmpf(predicate, _arr(a), _arr(b)), ty)

    def select(self, cond, a, b, ty):
        return normalize(np.where(_arr(cond), _arr(a), _arr(b)), ty)

    def clampf(self, x, lo, hi, propagate_nan, ty):
        x, lo, hi = _arr(x), _arr(lo), _arr(hi)
        if propagate_nan:
            return normalize(np.minimum(np.maximum(x, lo), hi), ty)
        return normalize(np.fmin(np.fmax(x, lo), hi), ty)

    def cast(self, op, x, src_ty, ty, rounding=None):
        x = _arr(x)
        scalar = ty.scalar
        dtype = compute_dtype(ty)
        if op == "int_cast_signed":
            return normalize(signed(x).astype(dtype), ty)
        if op == "int_cast_unsigned":
            return normalize(unsigned(x).astype(dtype) if x.dtype != np.bool_ else
                             x.astype(dtype), ty)
        if op in ("extf", "truncf", "fp_to_fp"):
            if scalar.is_bf16():
                if rounding == "rtz":
                    return normalize(round_to_format(x, "bf16", "rtz"), ty)
                return normalize(x.astype(np.float64), ty)
            if scalar.is_fp8():
                return round_to_format(x, scalar.name, rounding or "rtne").astype(np.float32)
            if rounding == "rtz" and scalar.is_fp16():
                return round_to_format(x, "fp16", "rtz").astype(np.float16)
            return normalize(x.astype(dtype), ty)
        if op in ("sitofp", "uitofp"):
            if x.dtype == np.bool_:
                source = x.astype(np.uint8)
            else:
                source = signed(x) if op == "sitofp" else unsigned(x)
            if scalar.is_bf16() or scalar.is_fp8():
                return normalize(source.astype(np.float64), ty)
            return normalize(source.astype(dtype), ty)
        if op in ("fptosi", "fptoui"):
            # saturating, NaN to 0; the bounds are compared in float64, where 2**63 - 1 rounds
            # up to 2**63, so int64's limits are never converted from an out-of-range float
            info = np.iinfo(dtype)
            values = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0))
            high, low = values >= float(info.max), values <= float(info.min)
            inside = np.where(high | low, 0, values).astype(dtype)
            return np.asarray(np.where(high, info.max, np.where(low, info.min, inside)),
                              dtype=dtype)
        if op == "bitcast":
            if scalar.is_ptr() or src_ty.scalar.is_ptr():
                return normalize(x.astype(np.uint64), ty)
            return normalize(_from_bits(_bits(x, src_ty.scalar), scalar), ty)
        if op == "int_to_ptr":
            return np.asarray(x.astype(np.int64)).astype(np.uint64)
        if op == "ptr_to_int":
            return np.asarray(x.astype(np.uint64)).astype(np.int64)
        raise ValueError(f"unknown cast {op}")

    # -- memory
    def addptr(self, ptr, offset, ty):
        itemsize = storage_dtype(ty.scalar.element_ty).itemsize
        offset = signed(_arr(offset)).astype(np.int64)
        with np.errstate(all="ignore"):
            delta = (offset * itemsize).astype(np.uint64) if offset.ndim else \
                np.asarray(offset * itemsize).astype(np.int64).astype(np.uint64)
            return normalize(_arr(ptr).astype(np.uint64) + delta, ty)

    def load(self, ptr, mask, other, ty, cache, evict, is_volatile):
        scalar = ty.scalar
        ptr = _arr(ptr)
        shape = ptr.shape
        flat = ptr.reshape(-1)
        lanes = np.ones(flat.shape, bool) if mask is None else \
            np.broadcast_to(_arr(mask), shape).reshape(-1)
        raw = self.memory.read(flat[lanes], storage_dtype(scalar))
        result = np.zeros(flat.shape, dtype=compute_dtype(ty))
        result[lanes] = from_storage(raw, scalar)
        if other is not None:
            fill = np.broadcast_to(_arr(other), shape).reshape(-1)
            result[~lanes] = fill[~lanes]
        return result.reshape(shape)

    def store(self, ptr, value, mask, ty, cache, evict):
        ptr = _arr(ptr)
        shape = ptr.shape
        flat = ptr.reshape(-1)
        lanes = np.ones(flat.shape, bool) if mask is None else \
            np.broadcast_to(_arr(mask), shape).reshape(-1)
        values = np.broadcast_to(_arr(value), shape).reshape(-1)
        self.memory.write(flat[lanes], to_storage(values[lanes], ty.scalar))

    def make_block_ptr(self, base, shape, strides, offsets, order, ty):
        return BlockPointer(int(_arr(base)), [int(_arr(s)) for s in shape],
                            [int(_arr(s)) for s in strides], [int(_arr(o)) for o in offsets],
                            ty.element_ty.shape, tuple(order), ty.element_ty.scalar)

    def advance(self, ptr, offsets, ty):
        return BlockPointer(ptr.base, ptr.shape, ptr.strides,
                            [o + int(_arr(d)) for o, d in zip(ptr.offsets, offsets)],
                            ptr.block_shape, ptr.order, ptr.element)

    def load_block(self, ptr, boundary_check, padding, ty, cache, evict, is_volatile):
        addresses, mask = ptr.addresses(boundary_check)
        scalar = ty.scalar
        raw = self.memory.read(addresses.reshape(-1)[mask.reshape(-1)], storage_dtype(scalar))
        fill = np.nan if padding == "nan" else 0
        result = np.full(addresses.size, fill, dtype=compute_dtype(ty))
        result[mask.reshape(-1)] = from_storage(raw, scalar)
        return result.reshape(addresses.shape)

    def store_block(self, ptr, value, boundary_check, cache, evict):
        addresses, mask = ptr.addresses(boundary_check)
        values = np.broadcast_to(_arr(value), addresses.shape).reshape(-1)
        lanes = mask.reshape(-1)
        self.memory.write(addresses.reshape(-1)[lanes], to_storage(values[lanes], ptr.element))

    def make_tensor_descriptor(self, base, shape, strides, padding, ty):
        return TensorDescriptorHandle(int(_arr(base)), [int(_arr(s)) for s in shape],
                                      [int(_arr(s)) for s in strides], padding, ty.block_type)

    def descriptor_load(self, desc, indices, ty):
        return self.load_block(desc.block(indices), desc.every_dimension(), desc.padding, ty,
                               "", "", False)

    def descriptor_store(self, desc, value, indices):
        self.store_block(desc.block(indices), value, desc.every_dimension(), "", "")

    def atomic_rmw(self, kind, ptr, val, mask, sem, scope, ty):
        scalar = ty.scalar
        ptr = _arr(ptr)
        shape = ptr.shape
        addresses = ptr.reshape(-1)
        values = np.broadcast_to(_arr(val), shape).reshape(-1)
        lanes = np.broadcast_to(_arr(mask), shape).reshape(-1)
        old = np.zeros(addresses.shape, dtype=compute_dtype(ty))
        storage = storage_dtype(scalar)
        for lane in np.flatnonzero(lanes):
            address = addresses[lane:lane + 1]
            current = from_storage(self.memory.read(address, storage), scalar)
            old[lane] = current[0]
            new = _rmw(kind, current, values[lane:lane + 1], scalar)
            self.memory.write(address, to_storage(normalize(new, scalar), scalar))
        return old.reshape(shape)

    def atomic_cas(self, ptr, cmp, val, sem, scope, ty):
        scalar = ty.scalar
        ptr = _arr(ptr)
        shape = ptr.shape
        addresses = ptr.reshape(-1)
        compare = np.broadcast_to(_arr(cmp), shape).reshape(-1)
        values = np.broadcast_to(_arr(val), shape).reshape(-1)
        old = np.zeros(addresses.shape, dtype=compute_dtype(ty))
        storage = storage_dtype(scalar)
        for lane in range(addresses.size):
            address = addresses[lane:lane + 1]
            raw = self.memory.read(address, storage)
            old[lane] = from_storage(raw, scalar)[0]
            if raw[0] == to_storage(compare[lane:lane + 1], scalar)[0]:
                self.memory.write(address, to_storage(values[lane:lane + 1], scalar))
        return old.reshape(shape)

    # -- compute
    def dot(self, a, b, c, input_precision, max_num_imprecise_acc, ty):
        a, b, c = _arr(a), _arr(b), _arr(c)
        if ty.scalar.is_int():
            product = np.matmul(a.astype(np.int64), b.astype(np.int64))
            return normalize(product + c.astype(np.int64), ty)
        product = np.matmul(a.astype(np.float64), b.astype(np.float64))
        return normalize(product + c.astype(np.float64), ty)

    def _types(self, arrays, elem_types):
        return [block_type(e, a.shape) if a.ndim else e for a, e in zip(arrays, elem_types)]

    def reduce(self, srcs, axis, region, ret_types, elem_types):
        xs = [_arr(s) for s in srcs]
        n = xs[0].shape[axis]
        while n > 1:
            even = [_take(x, axis, slice(0, n, 2)) for x in xs]
            odd = [_take(x, axis, slice(1, n, 2)) for x in xs]
            types_ = self._types(even, elem_types) + self._types(odd, elem_types)
            results = region(even + odd, types_, elem_types)
            xs = [np.broadcast_to(_arr(r), even[0].shape) for r in results]
            n //= 2
        return [np.take(x, 0, axis=axis) for x in xs]

    def scan(self, srcs, axis, reverse, region, types, elem_types):
        xs = [_arr(s) for s in srcs]
        if reverse:
            xs = [np.flip(x, axis) for x in xs]
        n = xs[0].shape[axis]
        distance = 1
        while distance < n:
            left = [_take(x, axis, slice(0, n - distance)) for x in xs]
            right = [_take(x, axis, slice(distance, n)) for x in xs]
            types_ = self._types(left, elem_types) + self._types(right, elem_types)
            combined = region(left + right, types_, elem_types)
            xs = [np.concatenate([_take(x, axis, slice(0, distance)),
                                  np.broadcast_to(_arr(c), left[0].shape)], axis=axis)
                  for x, c in zip(xs, combined)]
            distance *= 2
        if reverse:
            xs = [np.flip(x, axis) for x in xs]
        return [np.ascontiguousarray(x) for x in xs]

    def gather(self, src, index, axis, ty):
        return np.take_along_axis(_arr(src), signed(_arr(index)).astype(np.int64), axis)

    def histogram(self, x, ty):
        x = signed(_arr(x)).astype(np.int64)
        bins = ty.shape[0]
        inside = (x >= 0) & (x < bins)
        return np.bincount(x[inside], minlength=bins)[:bins].astype(np.int32)

    # -- hints and debugging
    def set_hint(self, x, name, values):
        pass

    def print(self, prefix, hex, args, types, is_signed):  # noqa: A002
        head = f"pid ({self.pid[0]}, {self.pid[1]}, {self.pid[2]})"
        if not args:
            builtins.print(f"{head} idx (){prefix}")
            return
        arrays = [_arr(a) for a in args]
        shape = np.broadcast_shapes(*[a.shape for a in arrays])
        arrays = [np.broadcast_to(a, shape) for a in arrays]
        for index in np.ndindex(*shape) if shape else [()]:
            texts = []
            for array, ty in zip(arrays, types):
                value = array[index]
                if hex:
                    bits = _bits(np.asarray(value), ty.scalar) if not ty.scalar.is_ptr() else \
                        np.asarray(value)
                    texts.append(f"0x{int(np.asarray(bits).reshape(-1)[0]):x}")
                else:
                    texts.append(_format_value(value, ty.scalar))
            position = ", ".join(str(i) for i in index)
            builtins.print(f"{head} idx ({position}){prefix}{', '.join(texts)}")

    def assert_(self, cond, message, ty):
        cond = _arr(cond)
        if not np.all(cond):
            index = np.unravel_index(int(np.flatnonzero(~cond.reshape(-1))[0]), cond.shape) \
                if cond.ndim else ()
            where = f" at index {tuple(int(i) for i in index)}" if cond.ndim else ""
            raise DeviceAssertionError(f"device assertion failed: {message} (program "
                                       f"{self.pid}{where})")

    def assume(self, cond, ty):
        pass

    def barrier(self):
        pass

    # -- Python protocols
    def to_bool(self, t) -> bool:
        value = _arr(t.handle)
        if value.size != 1:
            raise TypeError(f"the truth value of a block of type {t.type} is ambiguous; use "
                            "tl.where, or reduce it first")
        return bool(value.reshape(-1)[0])

    def to_index(self, t) -> int:
        if not t.dtype.is_int():
            raise TypeError(f"only integer scalars can be used as Python integers, got {t.type}")
        value = _arr(t.handle)
        if value.size != 1:
            raise TypeError(f"a block of type {t.type} cannot be used as a Python integer")
        return int(value.reshape(-1)[0])

    def to_float(self, t) -> float:
        value = _arr(t.handle)
        if value.size != 1:
            raise TypeError(f"a block of type {t.type} cannot be used as a Python float")
        return float(value.reshape(-1)[0])


def _format_value(value, scalar) -> str:
    if scalar.is_floating():
        return repr(float(value))
    if scalar.is_bool():
        return str(int(bool(value)))
    return str(int(value))


def _take(x: np.ndarray, axis: int, index: slice) -> np.ndarray:
    selection = [slice(None)] * x.ndim
    selection[axis] = index
    return x[tuple(selection)]


def _rmw(kind: str, current, value, scalar):
    if kind in ("add", "fadd"):
        return current + value
    if kind == "max":
        return np.maximum(signed(current), signed(value))
    if kind == "min":
        return np.minimum(signed(current), signed(value))
    if kind == "umax":
        return np.maximum(unsigned(current), unsigned(value))
    if kind == "umin":
        return np.minimum(unsigned(current), unsigned(value))
    if kind == "and":
        return current & value
    if kind == "or":
        return current | value
    if kind == "xor":
        return current ^ value
    if kind == "exch":
        return value
    raise ValueError(f"unknown atomic kind {kind}")


# -- running kernels -----------------------------------------------------------------------------


def _tc_and(first, *rest):
    value = first
    for thunk in rest:
        if isinstance(value, tensor):
            value = semantic.logical_and(value, thunk())
        elif not value:
            return value
        else:
            value = thunk()
    return value


def _tc_or(first, *rest):
    value = first
    for thunk in rest:
        if isinstance(value, tensor):
            value = semantic.logical_or(value, thunk())
        elif value:
            return value
        else:
            value = thunk()
    return value


def _tc_not(value):
    if isinstance(value, tensor):
        return semantic.not_(value)
    return not value


class _BoolOpRewriter(ast.NodeTransformer):
    """``a and b`` -> ``__tc_and(a, lambda: b)``, ``not a`` -> ``__tc_not(a)``: Python's
    boolean operators on tensors act element-wise, as in compiled kernels."""

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        name = "__tc_and" if isinstance(node.op, ast.And) else "__tc_or"
        args = [node.values[0]]
        for value in node.values[1:]:
            lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                kwonlyargs=[], kw_defaults=[], kwarg=None,
                                                defaults=[]), body=value)
            args.append(ast.copy_location(lam, value))
        call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[])
        return ast.copy_location(call, node)

    @staticmethod
    def _sanitized(value):
        call = ast.Call(func=ast.Name(id="__tc_sanitize", ctx=ast.Load()), args=[value],
                        keywords=[])
        return ast.copy_location(call, value)

    def visit_Assign(self, node):
        self.generic_visit(node)
        node.value = self._sanitized(node.value)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is not None and "constexpr" not in ast.unparse(node.annotation):
            node.value = self._sanitized(node.value)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        load = ast.copy_location(ast.Name(id=node.target.id, ctx=ast.Load()), node.target)
        binop = ast.copy_location(ast.BinOp(left=load, op=node.op, right=node.value), node)
        assign = ast.Assign(targets=[node.target], value=self._sanitized(binop))
        return ast.copy_location(assign, node)

    def visit_NamedExpr(self, node):
        self.generic_visit(node)
        node.value = self._sanitized(node.value)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            call = ast.Call(func=ast.Name(id="__tc_not", ctx=ast.Load()), args=[node.operand],
                            keywords=[])
            return ast.copy_location(call, node)
        return node


def _interp_min(*args, **kwargs):
    from tilecraft.frontend.code_generator import _tl_min

    if kwargs or not any(isinstance(a, tensor) for a in (args[0] if len(args) == 1 and
                                                          isinstance(args[0], (tuple, list))
                                                          else args)):
        return builtins.min(*args, **kwargs)
    return _tl_min(*args)


def _interp_max(*args, **kwargs):
    from tilecraft.frontend.code_generator import _tl_max

    if kwargs or not any(isinstance(a, tensor) for a in (args[0] if len(args) == 1 and
                                                          isinstance(args[0], (tuple, list))
                                                          else args)):
        return builtins.max(*args, **kwargs)
    return _tl_max(*args)


def _interp_print(*args, **kwargs):
    if any(isinstance(a, tensor) for a in args):
        from tilecraft.frontend.code_generator import _tl_print

        return _tl_print(*args, **kwargs)
    return builtins.print(*args, **kwargs)


def _tc_sanitize(value):
    """What an assignment stores in a kernel: Python numbers become tensors, as when
    compiling (see `tilecraft.frontend.code_generator._sanitize`)."""
    from tilecraft.frontend.code_generator import _sanitize

    return _sanitize(value)


def _interp_range(*args):
    """``range`` in interpreted kernels: the loop index is an integer tensor, as when
    compiling (i32, or i64 when a bound needs it)."""
    return tl_functions.range(*args)


_OVERRIDES = {"min": _interp_min, "max": _interp_max, "print": _interp_print,
              "range": _interp_range, "__tc_and": _tc_and, "__tc_or": _tc_or,
              "__tc_not": _tc_not, "__tc_sanitize": _tc_sanitize}


class _Interpreted:
    """A @jit function's Python function, rewritten for the interpreter, with its globals."""

    def __init__(self, jit_fn) -> None:
        fn = jit_fn.fn
        self.original = fn
        self.namespace: dict = {}
        self.function = None
        try:
            source = jit_fn.source()
        except Exception:  # noqa: BLE001 - no source: run the function as it is
            source = None
        self._refresh()
        if source is not None:
            self.function = self._rewrite(fn, source)
        if self.function is None:
            self.function = types.FunctionType(fn.__code__, self.namespace, fn.__name__,
                                               fn.__defaults__, fn.__closure__)
            self.function.__kwdefaults__ = fn.__kwdefaults__

    def _refresh(self) -> None:
        self.namespace.clear()
        self.namespace.update(self.original.__globals__)
        self.namespace.update(_OVERRIDES)

    def _rewrite(self, fn, source):
        tree = source.tree
        tree = _copy(tree)
        tree.decorator_list = []
        for arg in (*tree.args.posonlyargs, *tree.args.args, *tree.args.kwonlyargs):
            arg.annotation = None
        if tree.args.vararg:
            tree.args.vararg.annotation = None
        if tree.args.kwarg:
            tree.args.kwarg.annotation = None
        tree.args.defaults = []
        tree.args.kw_defaults = [None] * len(tree.args.kwonlyargs)
        tree.returns = None
        tree = _BoolOpRewriter().visit(tree)
        freevars = list(fn.__code__.co_freevars)
        maker = ast.FunctionDef(
            name="__tc_make",
            args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=v) for v in freevars],
                               vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                               defaults=[]),
            body=[tree, ast.Return(value=ast.Name(id=tree.name, ctx=ast.Load()))],
            decorator_list=[], returns=None, type_params=[])
        module = ast.Module(body=[maker], type_ignores=[])
        ast.increment_lineno(module, source.line_offset)
        for node in (maker, maker.body[1], maker.body[1].value, maker.args):
            node.lineno, node.end_lineno = tree.lineno, tree.end_lineno
            node.col_offset, node.end_col_offset = 0, 0
        ast.fix_missing_locations(module)
        try:
            code = compile(module, source.filename, "exec")
        except SyntaxError:
            return None
        exec(code, self.namespace)  # noqa: S102 - the kernel's own code
        make = self.namespace.pop("__tc_make")
        cells = []
        for cell in fn.__closure__ or ():
            try:
                cells.append(cell.cell_contents)
            except ValueError:
                return None
        function = make(*cells)
        function.__defaults__ = fn.__defaults__
        function.__kwdefaults__ = fn.__kwdefaults__
        return function

    def __call__(self, *args, **kwargs):
        self._refresh()
        return self.function(*args, **kwargs)


def _copy(tree):
    import copy

    return copy.deepcopy(tree)


def interpreted(jit_fn) -> _Interpreted:
    if jit_fn._interpreted is None:
        jit_fn._interpreted = _Interpreted(jit_fn)
    return jit_fn._interpreted


def call_interpreted(jit_fn, args, kwargs):
    """A call of a @jit function from an interpreted kernel."""
    args = [tl._unwrap(a) for a in args]
    kwargs = {k: tl._unwrap(v) for k, v in kwargs.items()}
    return interpreted(jit_fn)(*args, **kwargs)


def _register_array(value, name: str, memory: Memory):
    """The virtual address of an array argument's first element, and a function copying
    results back (None when the kernel works on the argument's own memory)."""
    from .arguments import is_torch_tensor, reinterpret

    if isinstance(value, reinterpret):
        return _register_array(value.base, name, memory)
    if is_torch_tensor(value):
        if value.device.type == "cpu":
            return memory.register_torch(value, name), None
        host = value.detach().cpu()

        def copy_back(host=host, target=value):
            target.data.copy_(host.to(target.device))

        return memory.register_torch(host, name), copy_back
    if isinstance(value, np.ndarray):
        return memory.register(value, name), None
    return memory.register(np.asarray(value), name), None


def _kernel_args(jit_fn, bound: dict, memory: Memory):
    from .arguments import element_type_of, is_array_like, scalar_type_of
    from .tensor_descriptor import TensorDescriptor

    args, copy_backs = {}, []
    for name, value in bound.items():
        value = tl._unwrap(value)
        if name in jit_fn.constexpr_names or value is None:
            args[name] = value
            continue
        if is_array_like(value):
            element = element_type_of(value)
            address, copy_back = _register_array(value, name, memory)
            if copy_back is not None:
                copy_backs.append(copy_back)
            args[name] = tensor(np.array(address, dtype=np.uint64), pointer_type(element))
        elif isinstance(value, TensorDescriptor):
            address, copy_back = _register_array(value.base, name, memory)
            if copy_back is not None:
                copy_backs.append(copy_back)
            ty = value.language_type()
            handle = TensorDescriptorHandle(address, value.shape, value.strides, value.padding,
                                            ty.block_type)
            args[name] = tensor(handle, ty)
        elif isinstance(value, (bool, int, float)) or (type(value).__module__ == "numpy"
                                                        and np.ndim(value) == 0):
            value = value.item() if hasattr(value, "item") else value
            ty = scalar_type_of(value)
            args[name] = tensor(normalize(np.asarray(value), ty), ty)
        elif isinstance(value, tensor):
            args[name] = value
        else:
            args[name] = value
    return args, copy_backs


def run_grid(jit_fn, grid: tuple[int, int, int], bound: dict):
    """Runs ``jit_fn`` once per program of ``grid`` (x fastest), in program order."""
    memory = Memory()
    builder = InterpreterBuilder(memory)
    builder.grid = grid
    args, copy_backs = _kernel_args(jit_fn, bound, memory)
    function = interpreted(jit_fn)
    try:
        with tl.use_builder(builder), np.errstate(all="ignore"):
            for z in range(grid[2]):
                for y in range(grid[1]):
                    for x in range(grid[0]):
                        builder.pid = (x, y, z)
                        function(**args)
    except Exception as error:  # noqa: BLE001 - located at the kernel's line when possible
        located = _locate_error(error)
        if located is not None:
            from tilecraft.frontend.errors import without_traceback

            raise located.with_traceback(None) from without_traceback(error)
        raise
    finally:
        for copy_back in copy_backs:
            copy_back()
    return None


_LIBRARY_PREFIXES = None


def _library_dirs() -> tuple[str, ...]:
    global _LIBRARY_PREFIXES
    if _LIBRARY_PREFIXES is None:
        import os

        import tilecraft

        package = os.path.dirname(os.path.abspath(tilecraft.__file__))
        runtime = os.path.dirname(os.path.abspath(__file__))
        _LIBRARY_PREFIXES = (package + os.sep, runtime + os.sep, np.__path__[0] + os.sep)
    return _LIBRARY_PREFIXES


def _locate_error(error: Exception):
    """A user-facing error at the kernel's line for errors raised by the language (typing
    errors, out-of-bounds accesses, failed device assertions); None for the user's own."""
    import os

    from tilecraft.codegen.diagnostics import SourceLoc
    from tilecraft.frontend.errors import CompilationError, InterpreterError, debug_enabled

    if debug_enabled() or isinstance(error, CompilationError):
        return None
    if not isinstance(error, (TypeError, ValueError, MemoryAccessError, DeviceAssertionError,
                              NotImplementedError)):
        return None
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if not frames:
        return None
    innermost = os.path.abspath(frames[-1].tb_frame.f_code.co_filename)
    if not innermost.startswith(_library_dirs()):
        return None
    for frame in reversed(frames):
        filename = os.path.abspath(frame.tb_frame.f_code.co_filename)
        if not filename.startswith(_library_dirs()):
            import linecache

            line = frame.tb_lineno
            text = linecache.getline(frame.tb_frame.f_code.co_filename, line)
            col = len(text) - len(text.lstrip()) + 1 if text else 1
            loc = SourceLoc(frame.tb_frame.f_code.co_filename, line, col)
            return InterpreterError(str(error), loc)
    return None


_ = sys
