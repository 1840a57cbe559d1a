"""The check of ``tt.dot``'s operand layouts against its result's ``ttg`` layout (Triton's
``verifyDotOpEncodingCompatibility`` of the TritonGPU layout interface): both operands are dot
operands or neither is, with the same ``kWidth``, and NVIDIA mma layouts are all present, of one
version, for element types and shapes that version takes (Triton's ``supportMMA``).

`tt.py`'s verifier of ``tt.dot`` calls the ``verify_dot_operands(op, a, b)`` hook of its result's
encoding; `ttg.py` gives it to every ttg attribute.
"""

from __future__ import annotations

from tilecraft.ir import IntegerType, Operation
from tilecraft.layouts.shared import per_cta_shape

from . import generated_module
from .tt import plain_error
from .ttg import context_num_warps

gen = generated_module(__name__, "ttg")
_tt = generated_module(__name__, "tt")

_FP8 = frozenset(("f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ"))


def _is_int(type_, width: int | None = None) -> bool:
    return isinstance(type_, IntegerType) and (width is None or type_.width == width)


def _operand_supports_mma(element, version: int) -> bool:
    """Triton's ``supportMMA(value, version)``: fp8 (widened to f16 where needed), f16 and bf16
    on every version; f32, f64 and i8 from version 2 on."""
    name = str(element)
    return (name in _FP8 or name in ("f16", "bf16")
            or (name in ("f32", "f64") and version >= 2)
            or (_is_int(element, 8) and version >= 2))


def supports_mma(op: Operation, version: int) -> bool:
    """Triton's ``supportMMA(dot, version)`` for the versions a ``tt.dot`` can carry (a Hopper
    B operand is never a dot operand, so version 3 does not reach here): version 5 needs K of at
    least 256 bits, M a multiple of 64 and N of 16 per CTA, rank 2, 4 or 8 warps, and i8 x i8
    -> i32 if any type is an integer; f32 operands need tf32 precision; otherwise both operand
    types must be ones the version takes."""
    a_type, b_type, d_type = op.operands[0].type, op.operands[1].type, op.results[0].type
    a, b, d = a_type.element_type, b_type.element_type, d_type.element_type
    if version == 5:
        *_, m, n = per_cta_shape(d_type.encoding.cga_layout, d_type.shape)
        if (_is_int(a) or _is_int(b) or _is_int(d)) and not (
                _is_int(a, 8) and _is_int(b, 8) and _is_int(d, 32)):
            return False
        return (d_type.rank == 2 and context_num_warps(op) in (4, 8)
                and a_type.shape[-1] * getattr(a, "width", 32) >= 256
                and m % 64 == 0 and n % 16 == 0)
    if str(a) == "f32" and str(b) == "f32":
        return op.input_precision == _tt.InputPrecision.TF32 and version >= 2
    return _operand_supports_mma(a, version) and _operand_supports_mma(b, version)


def verify_dot_operands(self, op: Operation, a, b) -> None:
    """Raise the error Triton gives (at the op, without its name, as its ``emitError``) for
    the operand layouts ``a`` and ``b`` of the ``tt.dot`` ``op`` whose result has this layout
    (``self``)."""
    if not isinstance(a, gen.DotOperandEncodingAttr) and \
            not isinstance(b, gen.DotOperandEncodingAttr):
        return
    if not isinstance(a, gen.DotOperandEncodingAttr) or \
            not isinstance(b, gen.DotOperandEncodingAttr):
        raise plain_error(op, "mismatching encoding between A and B operands")
    if a.k_width != b.k_width:
        raise plain_error(op, "mismatching kWidth between A and B operands")
    mmas = [e if isinstance(e, gen.NvidiaMmaEncodingAttr) else None
            for e in (a.parent, b.parent, self)]
    if not any(mmas):
        return
    if not all(mmas):
        raise plain_error(op, "mismatching MMA encoding")
    if len({m.version_major for m in mmas}) != 1:
        raise plain_error(op, "mismatched MMA version.")
    if not supports_mma(op, self.version_major):
        raise plain_error(op, "unsupported MMA version")
