"""The element-wise functions that `.td` declares (an op's `tlName`, `tlTopLevel`, `tlSignature`
and `tlDtypes`, listed in generated/language.py's `TL_FUNCTIONS`): each is `tl.math.<name>`, and
those declared top level are also `tl.<name>` and the tensor method ``x.<name>()``.

A function checks and converts its arguments as its signature says, then asks the builder for
the op by its `languageName`; the frontend builds the IR op, the interpreter runs its numpy
semantics.
"""

from __future__ import annotations

from collections.abc import Callable

from tilecraft.generated.language import TL_FUNCTIONS, TlFunction

from . import semantic
from .core import _tensor_member_fn, _unwrap, builtin, tensor


def _float_unary(spec: TlFunction) -> Callable[..., tensor]:
    def fn(x) -> tensor:
        return semantic.unary_math(spec.language_name, _unwrap(x), spec.dtypes or None)

    return fn


def _float_binary(spec: TlFunction) -> Callable[..., tensor]:
    def fn(x, y) -> tensor:
        x, y = semantic.binary_op_type_checking_impl(_unwrap(x), _unwrap(y))
        if spec.dtypes and x.dtype.name not in spec.dtypes:
            raise ValueError(f"expected dtype {list(spec.dtypes)} but got {x.dtype.name}")
        if not x.dtype.is_floating():
            raise ValueError(f"{spec.name} expects floating-point operands, got {x.dtype}")
        return semantic._binary(spec.language_name, x, y)

    return fn


def _int_unary(spec: TlFunction) -> Callable[..., tensor]:
    def fn(x) -> tensor:
        x = semantic.to_tensor(_unwrap(x))
        if not x.dtype.is_int() or spec.dtypes and x.dtype.name not in spec.dtypes:
            raise ValueError(f"{spec.name} expects an integer tensor, got {x.dtype}")
        return tensor(semantic._b().unary(spec.language_name, x.handle, x.type), x.type)

    return fn


def _float_classify(spec: TlFunction) -> Callable[..., tensor]:
    def fn(x) -> tensor:
        x = semantic.to_tensor(_unwrap(x))
        if not x.dtype.is_floating() or spec.dtypes and x.dtype.name not in spec.dtypes:
            raise ValueError(f"{spec.name} expects a floating-point tensor, got {x.dtype}")
        ret = semantic._bool_like(x)
        return tensor(semantic._b().unary(spec.language_name, x.handle, ret), ret)

    return fn


_SIGNATURES: dict[str, Callable[[TlFunction], Callable[..., tensor]]] = {
    "float_unary": _float_unary, "float_binary": _float_binary, "int_unary": _int_unary,
    "float_classify": _float_classify,
}


def declared_function(spec: TlFunction) -> Callable[..., tensor]:
    """The language function ``spec`` declares (a builtin; a tensor method when top level)."""
    fn = _SIGNATURES[spec.signature](spec)
    fn.__name__ = fn.__qualname__ = spec.name
    fn.__doc__ = f"{spec.doc}, element-wise (the op that `.td` names '{spec.language_name}')."
    fn = builtin(fn)
    return _tensor_member_fn(fn) if spec.top_level else fn


# Every declared function by name (what `tl.math` exposes).
FUNCTIONS = {spec.name: declared_function(spec) for spec in TL_FUNCTIONS}

__all__ = sorted(spec.name for spec in TL_FUNCTIONS if spec.top_level)
globals().update({name: FUNCTIONS[name] for name in __all__})
