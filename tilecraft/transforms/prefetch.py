"""`tritongpu-prefetch`: dots on tensor cores read their operands from shared memory a slice
of K at a time, as Triton's Prefetch pass splits them.

A ``tt.dot`` with an ``#ttg.nvidia_mma`` result whose two operands are ``ttg.local_load``\\ s
(read by the dot alone) of rank-2 descriptors becomes a chain of dots over slices of K:
``ttg.memdesc_subslice`` views of ``[0, k]`` in A and ``[k, 0]`` in B, each loaded (with the
original load's token) right before its dot, the accumulator threaded through. A slice is one
``mma.sync`` instruction's K (16 for 16-bit types, 32 for 8-bit, 8 for 32-bit), so the
registers of one slice are live at a time and the instruction scheduler can overlap each
slice's loads with the previous slice's instructions. (Triton's pass also loads the first
slice of the next iteration at the end of a loop body; this one does not yet.)
"""

from __future__ import annotations

from tilecraft.generated.passes import TritonGPUPrefetchPassBase
from tilecraft.generated.tt import DotOp
from tilecraft.generated.ttg import (LocalLoadOp, MemDescSubsliceOp, MemDescType,
                                     NvidiaMmaEncodingAttr)
from tilecraft.dialects.foldutils import element_type
from tilecraft.ir import Builder, Operation, RankedTensorType, Value

__all__ = ["TritonGPUPrefetchPass", "prefetch_dots", "slice_width"]


def slice_width(element_bits: int) -> int:
    """K of one ``mma.sync`` for operands of ``element_bits``."""
    return 256 // element_bits if element_bits <= 16 else 8


def _operand_load(dot: Operation, index: int) -> Operation | None:
    value = dot.operands[index]
    load = value.owner
    if not isinstance(load, LocalLoadOp) or len(list(value.uses)) != 1:
        return None
    return load


def _slice(builder: Builder, load: Operation, offsets: tuple[int, int],
           shape: tuple[int, int]) -> Value:
    """``load`` of the box at ``offsets`` of ``shape``: a subslice view and its load."""
    source = load.operands[0]
    memdesc: MemDescType = source.type
    view_type = MemDescType(shape, memdesc.element_type, memdesc.encoding,
                            memdesc.memory_space, memdesc.mutable_memory,
                            memdesc.alloc_shape or memdesc.shape)
    view = builder.insert(MemDescSubsliceOp.build(view_type, source, offsets,
                                                  location=load.location)).results[0]
    result: RankedTensorType = load.results[0].type
    loaded = LocalLoadOp.build(RankedTensorType(shape, result.element_type, result.encoding),
                               view, load.token, attributes=dict(load.attributes),
                               location=load.location)
    return builder.insert(loaded).results[0]


def _split(dot: Operation, a_load: Operation, b_load: Operation, width: int) -> None:
    a_type: RankedTensorType = dot.operands[0].type
    b_type: RankedTensorType = dot.operands[1].type
    (m, k), n = a_type.shape, b_type.shape[1]
    builder = Builder.before(dot, dot.location)
    accumulator = dot.operands[2]
    for start in range(0, k, width):
        a = _slice(builder, a_load, (0, start), (m, width))
        b = _slice(builder, b_load, (start, 0), (width, n))
        chained = builder.insert(DotOp.build(a, b, accumulator, dot.results[0].type,
                                             dot.input_precision, dot.max_num_imprecise_acc,
                                             attributes=dict(dot.attributes),
                                             location=dot.location))
        accumulator = chained.results[0]
    dot.results[0].replace_all_uses_with(accumulator)
    dot.erase()
    a_load.erase()
    b_load.erase()


def prefetch_dots(module: Operation) -> int:
    """Splits the module's dots as the module docstring says; returns how many."""
    count = 0
    for dot in [op for op in module.walk() if op.name == "tt.dot"]:
        result: RankedTensorType = dot.results[0].type
        if not isinstance(result.encoding, NvidiaMmaEncodingAttr) or len(result.shape) != 2:
            continue
        a_load, b_load = _operand_load(dot, 0), _operand_load(dot, 1)
        if a_load is None or b_load is None:
            continue
        width = slice_width(element_type(dot.operands[0].type).width)
        k = dot.operands[0].type.shape[1]
        if k <= width or k % width:
            continue
        _split(dot, a_load, b_load, width)
        count += 1
    return count


class TritonGPUPrefetchPass(TritonGPUPrefetchPassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        prefetch_dots(op)
