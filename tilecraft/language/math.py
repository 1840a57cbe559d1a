"""``tl.math``: element-wise math functions (the `math` dialect's ops, plus Triton's names)."""

from __future__ import annotations

from . import semantic
from .core import _unwrap, builtin, tensor
from .functions import (  # noqa: F401 - re-exported
    abs, ceil, cos, div_rn, erf, exp, exp2, fdiv, floor, fma, log, log2, rsqrt, sin, sqrt,
    sqrt_rn, umulhi,
)
from .functions import maximum as max  # noqa: F401,A004
from .functions import minimum as min  # noqa: F401,A004


def _unary(name: str, op: str):
    def fn(x) -> tensor:
        return semantic.unary_math(op, _unwrap(x))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The element-wise {name} of x (math.{op})."
    return builtin(fn)


def _binary(name: str, op: str):
    def fn(x, y) -> tensor:
        x, y = semantic.binary_op_type_checking_impl(_unwrap(x), _unwrap(y))
        if not x.dtype.is_floating():
            raise ValueError(f"{name} expects floating-point operands, got {x.dtype}")
        return semantic._binary(op, x, y)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The element-wise {name} of x and y (math.{op})."
    return builtin(fn)


tan = _unary("tan", "tan")
tanh = _unary("tanh", "tanh")
sinh = _unary("sinh", "sinh")
cosh = _unary("cosh", "cosh")
asin = _unary("asin", "asin")
acos = _unary("acos", "acos")
atan = _unary("atan", "atan")
asinh = _unary("asinh", "asinh")
acosh = _unary("acosh", "acosh")
atanh = _unary("atanh", "atanh")
log10 = _unary("log10", "log10")
log1p = _unary("log1p", "log1p")
expm1 = _unary("expm1", "expm1")
cbrt = _unary("cbrt", "cbrt")
erfc = _unary("erfc", "erfc")
trunc = _unary("trunc", "trunc")
round = _unary("round", "round")  # noqa: A001 - half away from zero
rint = _unary("rint", "roundeven")
nearbyint = rint
pow = _binary("pow", "powf")  # noqa: A001
atan2 = _binary("atan2", "atan2")
copysign = _binary("copysign", "copysign")


def _classify(name: str, op: str):
    def fn(x) -> tensor:
        x = semantic.to_tensor(_unwrap(x))
        if not x.dtype.is_floating():
            raise ValueError(f"{name} expects a floating-point tensor, got {x.dtype}")
        ret = semantic._bool_like(x)
        return tensor(semantic._b().unary(op, x.handle, ret), ret)

    fn.__name__ = fn.__qualname__ = name
    return builtin(fn)


isnan = _classify("isnan", "isnan")
isinf = _classify("isinf", "isinf")
isfinite = _classify("isfinite", "isfinite")
finitef = isfinite


def _int_unary(name: str, op: str):
    def fn(x) -> tensor:
        x = semantic.to_tensor(_unwrap(x))
        if not x.dtype.is_int():
            raise ValueError(f"{name} expects an integer tensor, got {x.dtype}")
        return tensor(semantic._b().unary(op, x.handle, x.type), x.type)

    fn.__name__ = fn.__qualname__ = name
    return builtin(fn)


clz = _int_unary("clz", "ctlz")
popc = _int_unary("popc", "ctpop")
