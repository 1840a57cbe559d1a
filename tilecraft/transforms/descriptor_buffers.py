"""Descriptors a loop makes, multi-buffered in global scratch memory (Triton's
``lowerTMADescriptors``), for `tma_store_pipeline`.

A ``tt.make_tensor_descriptor`` in a loop writes its map (a 128-byte ``CUtensorMap``) again each
iteration. Once the loop's TMA stores are asynchronous, the store of one iteration may still be
reading its map when the next iteration writes the next one, so each made descriptor gets
``slots`` maps used in turn::

    %maps = ttg.global_scratch_alloc {alignment = 128, nbytes = 128 * slots}   before the loop
    scf.for ... iter_args(..., %slot = 0)                      one counter per descriptor
      %map = tt.addptr %maps, 128 * %slot
      ttng.tensormap_create %map, ...                          (`tma_lowering.write_tensormap`)
      ttng.tensormap_fenceproxy_acquire %map
      %desc = ttng.reinterpret_tensor_descriptor %map          where the op's result was used
      yield ..., (%slot + 1) % slots

The loop is replaced by one with the counters carried last. Only descriptors made in the loop's
own body (not under an ``scf.if`` or in a nested loop) with a TMA layout and not yielded are
handled; `can_multi_buffer` says whether a loop has no others.
"""

from __future__ import annotations

from tilecraft.generated.arith import MulIOp
from tilecraft.generated.tt import AddPtrOp
from tilecraft.generated.ttg import GlobalScratchAllocOp
from tilecraft.ir import Builder, IntegerType, Operation, Value
from tilecraft.transforms.tma_lowering import (TENSORMAP_BYTES, scratch_pointer_type,
                                               tma_shared_encoding, write_tensormap)
from tilecraft.transforms.transform_utils import (constant_op, increment_modulo,
                                                  loop_with_iter_args)

__all__ = ["can_multi_buffer", "multi_buffer_descriptors"]

_MAKE = "tt.make_tensor_descriptor"
_I32 = IntegerType(32)


def _made_in_body(loop: Operation) -> list[Operation]:
    """The descriptors the loop's own body makes, in program order."""
    return [op for op in loop.regions[0].blocks[0] if op.name == _MAKE]


def can_multi_buffer(loop: Operation) -> bool:
    """Whether every descriptor made in ``loop`` is made by its own body, has a TMA layout
    (`tma_lowering.tma_shared_encoding`) and is used in its iteration only (yielded, a store
    of the next iteration could read the map while it is written again)."""
    made = [op for op in loop.walk() if op.name == _MAKE]
    return (len(made) == len(_made_in_body(loop))
            and all(tma_shared_encoding(op.results[0].type) is not None
                    and all(use.owner.name != "scf.yield" for use in op.results[0].uses)
                    for op in made))


def _i32(builder: Builder, value: int, location) -> Value:
    return builder.insert(constant_op(value, _I32, location)).results[0]


def multi_buffer_descriptors(loop: Operation, slots: int) -> Operation:
    """Gives each descriptor ``loop`` makes in its body ``slots`` maps used in turn (module
    docstring); returns the loop that replaces ``loop`` (``loop`` itself when it makes none).
    `can_multi_buffer` must hold."""
    made = _made_in_body(loop)
    if not made:
        return loop
    location = loop.location
    before = Builder.before(loop, location)
    maps = [before.insert(GlobalScratchAllocOp.build(
        scratch_pointer_type(), slots * TENSORMAP_BYTES, TENSORMAP_BYTES,
        location=make.location)).results[0] for make in made]
    zero = _i32(before, 0, location)
    new_loop = loop_with_iter_args(loop, list(loop.operands[3:]) + [zero] * len(made))
    body = new_loop.regions[0].blocks[0]
    counters = [body.add_argument(_I32, location) for _ in made]
    following = []
    for make, buffer, counter in zip(made, maps, counters):
        at = Builder.before(make, make.location)
        offset = at.insert(MulIOp.build(_i32(at, TENSORMAP_BYTES, make.location), counter,
                                        location=make.location)).results[0]
        slot = at.insert(AddPtrOp.build(buffer, offset, location=make.location)).results[0]
        make.results[0].replace_all_uses_with(write_tensormap(at, make, slot))
        following.append(increment_modulo(at, counter, slots, make.location)[0])
        make.erase()
    yield_op = body.last_op
    yield_op.set_operands(list(yield_op.operands) + following)
    for index, result in enumerate(loop.results):
        result.replace_all_uses_with(new_loop.results[index])
    loop.erase()
    return new_loop
