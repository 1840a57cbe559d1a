"""Hoisting of the layout conversions that backward rematerialization leaves, a phase of
`tritongpu-remove-layout-conversions` (Triton's ``hoistConvert*``):

- over extensions and broadcasts: a conversion whose slice stops at one ``arith.ext*``,
  ``tt.fp_to_fp`` upcast, ``tt.broadcast`` or ``tt.expand_dims`` is moved above it, where the
  tensor is smaller;
- into branches: inside a loop, a conversion of an ``scf.if`` result that only one branch can
  make in the wanted layout moves into the other branch;
- up to loads: before an mma dot, a conversion (to a dot operand layout, or one on the way to
  it) moves over element-wise ops and views up to the loads (where the pipeliner wants it).
"""

from __future__ import annotations

from tilecraft.generated.ttg import DotOperandEncodingAttr
from tilecraft.ir import Attribute, Builder, OpOperand, Operation, Value
from tilecraft.ir.traits import Elementwise

from .layout_inference import CONVERT, MMA_ENCODINGS, infer_src_encoding, with_encoding
from .layout_rematerialization import (Rematerializer, Slice, convert_cost, functions,
                                       is_remat_beneficial, yields)
from .effects import is_memory_effect_free

__all__ = ["hoist_conversions"]

VIEW_OPS = frozenset({"tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split"})
EXTENSIONS = frozenset({"arith.extsi", "arith.extui", "arith.extf", "tt.broadcast",
                        "tt.expand_dims"})


def hoist_over_extension(remat: Rematerializer, convert: Operation) -> bool:
    """Moves ``convert`` above the one extension or broadcast its slice stops at."""
    target = convert.results[0].type.encoding
    if isinstance(target, DotOperandEncodingAttr):
        return False

    def is_extension(op: Operation) -> bool:
        if op.name in EXTENSIONS:
            return True
        if op.name == "tt.fp_to_fp":
            src, dst = op.operands[0].type.element_type, op.results[0].type.element_type
            return getattr(src, "width", 0) < getattr(dst, "width", 0)
        return False

    piece = Slice()
    if not remat.slice_of(convert.op_operands[0], target, piece, is_extension):
        return False
    extension = None
    for value in list(piece.values):
        op = value.defining_op
        if op is None or not is_extension(op):
            continue
        source = infer_src_encoding(op, piece.layout[value])
        if source is None:
            return False
        if remat.slice_of(op.op_operands[0], source, piece):
            continue
        if extension is not None:
            return False
        extension = op
    if extension is None:
        return False
    result = extension.results[0]
    encoding = piece.layout[result]
    source = infer_src_encoding(extension, encoding)
    if source is None or not is_remat_beneficial(
            convert, piece, convert_cost(extension.operands[0])):
        return False
    builder = Builder.before(extension)
    operand = extension.operands[0]
    moved = builder.create(CONVERT, operands=[operand],
                           result_types=[with_encoding(operand.type, source)],
                           location=convert.location)
    clone = builder.insert(extension.clone())
    clone.set_operand(0, moved.results[0])
    clone.results[0].type = with_encoding(result.type, encoding)
    del piece.values[result]
    remat.rewrite_slice(piece, convert, {result: clone.results[0]})
    return True

def hoist_into_branches(remat: Rematerializer, convert: Operation) -> bool:
    """Inside a loop, moves ``convert`` into the branch of an ``scf.if`` that cannot make its
    value in the target layout when the other branch can."""
    def is_if(op: Operation) -> bool:
        return op.name == "scf.if"

    piece = Slice()
    target = convert.results[0].type.encoding
    if not remat.slice_of(convert.op_operands[0], target, piece, is_if):
        return False
    hoist_above: list[tuple[Value, OpOperand]] = []
    terminals: list[Value] = []
    index = 0
    while index < len(piece.values):
        value = list(piece.values)[index]
        index += 1
        op = value.defining_op
        if op is None or op.name != "scf.if":
            continue
        wanted = piece.layout[value]
        edges = [t.op_operands[value.index] for t in yields(op)]
        trial = piece.copy()
        fits = [remat.slice_of(edge, wanted, trial, is_if) for edge in edges]
        if all(fits):
            piece.values, piece.layout, piece.existing = (trial.values, trial.layout,
                                                          trial.existing)
        elif not any(fits) or op.parent_op is None or op.parent_op.name != "scf.for":
            terminals.append(value)
        else:
            piece.values, piece.layout, piece.existing = (trial.values, trial.layout,
                                                          trial.existing)
            hoist_above.append((value, edges[fits.index(False)]))
    if not hoist_above:
        return False
    mapping: dict[Value, Value] = {}

    def convert_before(builder: Builder, value: Value, encoding: Attribute) -> None:
        new = builder.create(CONVERT, operands=[value],
                             result_types=[with_encoding(value.type, encoding)],
                             location=convert.location)
        mapping[value] = new.results[0]
        piece.values.pop(value, None)

    for value in terminals:
        convert_before(Builder.after(value.defining_op), value, piece.layout[value])
    for value, edge in hoist_above:
        convert_before(Builder.before(edge.owner), edge.value, piece.layout[value])
    remat.rewrite_slice(piece, convert, mapping)
    return True

def hoist_dot_operand(remat: Rematerializer, convert: Operation) -> bool:
    """Moves a conversion over element-wise ops and views up to the loads it comes from, when
    a dot with mma operands follows it (as Triton, whatever the conversion's target: the
    conversions feeding a dot's operands then sit next to their loads, where the pipeliner
    wants them)."""
    target = convert.results[0].type.encoding
    if not _dot_follows(convert):
        return False

    def moves_no_data(op: Operation) -> bool:
        return (op.has_trait(Elementwise) and is_memory_effect_free(op)) or op.name in (
            "tt.broadcast", "ttg.fp4_to_fp", CONVERT) or op.name in VIEW_OPS

    piece = Slice()
    if not remat._collect(convert.op_operands[0], target, piece,
                         lambda op: not moves_no_data(op)):
        return False
    mapping: dict[Value, Value] = {}
    inner = Slice()
    inner.layout, inner.existing = piece.layout, piece.existing
    for value in piece.values:
        op = value.defining_op
        if op is None:
            return False
        if op.name not in ("tt.load", "tt.descriptor_load"):
            if op.name == "arith.constant" or moves_no_data(op):
                inner.values[value] = None
                continue
            return False
        result = op.results[0]
        moved = Builder.after(op).create(
            CONVERT, operands=[result],
            result_types=[with_encoding(result.type, piece.layout[result])],
            location=convert.location)
        mapping[result] = moved.results[0]
    if not inner.values:
        return False
    remat.rewrite_slice(inner, convert, mapping)
    return True

def _dot_follows(convert: Operation) -> bool:
    parent = convert.parent_op
    if parent is None:
        return False
    for op in parent.walk():
        if op.name not in ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot"):
            continue
        encoding = getattr(op.operands[0].type, "encoding", None)
        if not isinstance(encoding, DotOperandEncodingAttr) or not isinstance(
                encoding.parent, MMA_ENCODINGS):
            continue
        anchor = convert
        while anchor is not None and anchor.parent is not op.parent:
            anchor = anchor.parent_op
        if anchor is not None and anchor is not op and anchor.is_before_in_block(op):
            return True
    return False


def hoist_conversions(module: Operation) -> None:
    """Hoists the conversions that stay over extensions, into branches and up to loads."""
    for func in functions(module):
        for hoist in (hoist_over_extension, hoist_into_branches, hoist_dot_operand):
            remat = Rematerializer(func)
            remat.each_convert(lambda convert, remat=remat, hoist=hoist: hoist(remat, convert))
