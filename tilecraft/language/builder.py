"""The builder interface: the operations `semantic.py` asks for.

Two builders implement it: `tilecraft.frontend.ir_builder.IRBuilder` emits `tt`/`arith`/`math`
ops (handles are IR values), and `tilecraft.runtime.interpreter.InterpreterBuilder` computes on
numpy arrays (handles are arrays; 0-d for scalars). Every method gets the language type of its
result (``ty``: a `dtype`, `pointer_type` or `block_type`) so that neither builder needs to
re-derive types; all checking happens before, in `semantic.py`.

Names of operations are the MLIR mnemonics (``addi``, ``maxnumf``, ``exp``, ...); enumerated
options are Triton's keywords as strings (cache ``"ca"``, eviction ``"evict_last"``, semantic
``"acq_rel"``, scope ``"gpu"``, atomic kinds ``"add"``/``"fadd"``/``"umax"``/``"exch"``, input
precision ``"tf32"``/``"ieee"``).
"""

from __future__ import annotations

BINARY_OPS = (
    "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori", "shli",
    "shrsi", "shrui", "maxsi", "maxui", "minsi", "minui", "addf", "subf", "mulf", "divf", "remf",
    "maximumf", "minimumf", "maxnumf", "minnumf", "mulhiui", "precise_divf", "powf", "ipowi",
    "atan2", "copysign",
)
UNARY_OPS = (
    "negf", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "sinh",
    "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt",
    "erf", "erfc", "floor", "ceil", "trunc", "round", "roundeven", "absf", "absi",
    "precise_sqrt", "ctlz", "ctpop", "isnan", "isinf", "isfinite",
)
CAST_OPS = (
    "int_cast_signed", "int_cast_unsigned", "extf", "truncf", "fp_to_fp", "sitofp", "uitofp",
    "fptosi", "fptoui", "bitcast", "int_to_ptr", "ptr_to_int",
)


class Builder:
    """The operations of the kernel language; see the module docstring."""

    is_interpreter = False

    # values
    def constant(self, value, ty):
        """A scalar constant, or a block with every element equal to ``value``."""
        raise NotImplementedError

    def make_range(self, start: int, end: int, ty):
        raise NotImplementedError

    def program_id(self, axis: int):
        raise NotImplementedError

    def num_programs(self, axis: int):
        raise NotImplementedError

    # shapes
    def splat(self, x, ty):
        raise NotImplementedError

    def broadcast(self, x, ty):
        raise NotImplementedError

    def expand_dims(self, x, axis: int, ty):
        raise NotImplementedError

    def reshape(self, x, ty, can_reorder: bool):
        raise NotImplementedError

    def trans(self, x, order, ty):
        raise NotImplementedError

    def cat(self, a, b, ty):
        raise NotImplementedError

    def join(self, a, b, ty):
        raise NotImplementedError

    def split(self, x, ty):
        """Two handles of type ``ty``."""
        raise NotImplementedError

    # element-wise
    def binary(self, op: str, a, b, ty):
        """One of `BINARY_OPS` on operands of type ``ty``."""
        raise NotImplementedError

    def unary(self, op: str, x, ty):
        """One of `UNARY_OPS`; ``ty`` is the result type (i1-like for isnan/isinf/isfinite)."""
        raise NotImplementedError

    def fma(self, a, b, c, ty):
        raise NotImplementedError

    def cmpi(self, predicate: str, a, b, ty):
        raise NotImplementedError

    def cmpf(self, predicate: str, a, b, ty):
        raise NotImplementedError

    def select(self, cond, a, b, ty):
        raise NotImplementedError

    def clampf(self, x, lo, hi, propagate_nan: int, ty):
        raise NotImplementedError

    def cast(self, op: str, x, src_ty, ty, rounding: str | None = None):
        """One of `CAST_OPS` from ``src_ty`` to ``ty``; ``int_cast_*`` extends (sign or zero),
        truncates or keeps the bits as the widths say."""
        raise NotImplementedError

    # memory
    def addptr(self, ptr, offset, ty):
        raise NotImplementedError

    def load(self, ptr, mask, other, ty, cache: str, evict: str, is_volatile: bool):
        raise NotImplementedError

    def store(self, ptr, value, mask, ty, cache: str, evict: str) -> None:
        """Stores ``value`` (of type ``ty``) through ``ptr``."""
        raise NotImplementedError

    def make_block_ptr(self, base, shape, strides, offsets, order, ty):
        raise NotImplementedError

    def advance(self, ptr, offsets, ty):
        raise NotImplementedError

    def load_block(self, ptr, boundary_check, padding, ty, cache, evict, is_volatile):
        raise NotImplementedError

    def store_block(self, ptr, value, boundary_check, cache, evict) -> None:
        raise NotImplementedError

    def atomic_rmw(self, kind: str, ptr, val, mask, sem: str, scope: str, ty):
        raise NotImplementedError

    def atomic_cas(self, ptr, cmp, val, sem: str, scope: str, ty):
        raise NotImplementedError

    # compute
    def dot(self, a, b, c, input_precision: str, max_num_imprecise_acc: int, ty):
        raise NotImplementedError

    def reduce(self, srcs, axis: int, region, ret_types, elem_types):
        """Reduces along ``axis``; ``region(handles, types, elem_types)`` combines two
        elements of each source (2n handles) into n handles."""
        raise NotImplementedError

    def scan(self, srcs, axis: int, reverse: bool, region, types, elem_types):
        raise NotImplementedError

    def histogram(self, x, ty):
        raise NotImplementedError

    def gather(self, src, index, axis: int, ty):
        """The elements of ``src`` at ``index`` along ``axis`` (``tt.gather``)."""
        raise NotImplementedError

    # hints and debugging
    def set_hint(self, x, name: str, values) -> None:
        raise NotImplementedError

    def print(self, prefix: str, hex: bool, args, types, is_signed) -> None:  # noqa: A002
        raise NotImplementedError

    def assert_(self, cond, message: str, ty) -> None:
        raise NotImplementedError

    def assume(self, cond, ty) -> None:
        raise NotImplementedError

    def barrier(self) -> None:
        raise NotImplementedError

    # Python protocols on tensors (only the interpreter has values)
    def to_bool(self, t) -> bool:
        raise TypeError("a tensor has no Python truth value while compiling; use it in an "
                        "`if`/`while` condition or with tl.where")

    def to_index(self, t) -> int:
        raise TypeError("a tensor is not a compile-time integer; use a tl.constexpr here")

    def to_float(self, t) -> float:
        raise TypeError("a tensor is not a compile-time number; use a tl.constexpr here")
