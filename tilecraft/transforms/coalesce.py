"""`tritongpu-coalesce`: layouts for global memory accesses that coalesce them, as Triton's
Coalesce pass chooses them.

For a load, store or atomic through a tensor of pointers: the dims are ordered by the pointers'
contiguity (axis info; most contiguous first, ties to the later dim), and a thread takes
``min(alignment, 128 bits)`` consecutive elements along the first (the alignment is the smaller
of the contiguity and the divisibility in elements), at most its share of the tensor. An access
whose pointers an op defines (not a block argument) takes the widest such width among the
accesses of the same shape and order in its function, except that an op that writes stays
within 128 bits per thread. The op's tensor operands are converted to that layout
and its results converted back (`tritongpu-remove-layout-conversions` then removes most of the
conversions).

Descriptor loads and stores (``tt.descriptor_load``/``_gather`` results,
``tt.descriptor_store``/``_reduce``/``_scatter`` sources) go through shared memory, not L1:
they get the default row-major blocked layout with up to 128 bits per thread along the last
dim (Triton's ``pickDescriptorLoadStoreLayout``); the row offsets of a gather or scatter keep
their layout.
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecraft.analysis.axisinfo import AxisInfo, AxisInfoAnalysis, RuleContext, rule
from tilecraft.dialects import ttg as ttg_hooks
from tilecraft.generated.passes import TritonGPUCoalescePassBase
from tilecraft.generated.tt import PointerType
from tilecraft.generated.ttg import BlockedEncodingAttr
from tilecraft.ir import Builder, Operation, RankedTensorType, Value

from .triton_to_tritongpu import default_blocked

__all__ = ["TritonGPUCoalescePass", "coalesce_module"]

MEMORY_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")
#: Descriptor ops whose layout is that of their result, and of their stored source.
DESCRIPTOR_LOADS = ("tt.descriptor_load", "tt.descriptor_gather")
DESCRIPTOR_STORES = ("tt.descriptor_store", "tt.descriptor_reduce", "tt.descriptor_scatter")


@rule("ttg.convert_layout")
def _convert_layout_axis_info(ctx: RuleContext) -> AxisInfo:
    """A layout conversion moves elements between threads, not values: the axis info of its
    operand (as Triton's AxisInfo treats it), so accesses through converted pointers keep
    their width."""
    return ctx.ins[0]


def _pointer(op: Operation) -> Value | None:
    """The tensor of pointers ``op`` accesses memory through (None for block pointers and
    scalars)."""
    if op.name not in MEMORY_OPS:
        return None
    ptr = op.operands[0]
    t = ptr.type
    if isinstance(t, RankedTensorType) and isinstance(t.element_type, PointerType):
        return ptr
    return None


def _order(contiguity: Sequence[int]) -> tuple[int, ...]:
    """Dims by decreasing contiguity, ties to the later dim (Triton's getOrderFromContiguity)."""
    dims = list(range(len(contiguity)))[::-1]
    return tuple(sorted(dims, key=lambda d: -contiguity[d]))


def _per_thread(info: AxisInfoAnalysis, ptr: Value, order: Sequence[int]) -> int:
    """How many consecutive, aligned elements along ``order[0]`` one access may cover."""
    t = ptr.type
    bits = _pointee_bits(t.element_type.pointee_type)
    elem_bytes = max(bits // 8, 1)
    dim = order[0]
    multiple = max(info.divisibility(ptr)[dim] // elem_bytes, 1)
    contiguity = min(info.contiguity(ptr)[dim], t.shape[dim])
    return max(1, min(multiple, contiguity, 128 // bits))


def _pointee_bits(t) -> int:
    if isinstance(t, PointerType):
        return 64
    return max(1, getattr(t, "width", 32))


def coalesce_module(module: Operation) -> None:
    """Gives every memory access in ``module`` its coalesced layout (see the module doc)."""
    num_warps = ttg_hooks.num_warps(module)
    threads_per_warp = ttg_hooks.threads_per_warp(module)
    num_ctas = ttg_hooks.num_ctas(module)
    info = AxisInfoAnalysis(module)
    accesses = [(op, ptr) for op in module.walk() if (ptr := _pointer(op)) is not None]
    orders = {op: _order(info.contiguity(ptr)) for op, ptr in accesses}
    chosen: dict[Operation, BlockedEncodingAttr] = {}
    for op, ptr in accesses:
        shape = tuple(ptr.type.shape)
        order = orders[op]
        threads = num_warps * threads_per_warp
        numel = 1
        for size in shape:
            numel *= size
        own = _per_thread(info, ptr, order)
        per_thread = own
        if numel > threads and ptr.defining_op is not None:
            for other, other_ptr in accesses:
                if other is not op and tuple(other_ptr.type.shape) == shape and \
                        orders[other] == order and _same_function(op, other):
                    per_thread = max(per_thread, _per_thread(info, other_ptr, order))
        per_thread = min(per_thread, max(numel // threads, 1))
        if op.name != "tt.load":
            per_thread = min(per_thread, own)
        size_per_thread = [1] * len(shape)
        size_per_thread[order[0]] = per_thread
        chosen[op] = default_blocked(shape, num_warps, threads_per_warp, num_ctas,
                                     size_per_thread, order)
    for op in module.walk():
        tensor = _descriptor_tensor(op)
        if tensor is not None:
            chosen[op] = _descriptor_layout(tensor.type, num_warps, threads_per_warp, num_ctas)
    for op, encoding in chosen.items():
        _retype_access(op, encoding)


def _descriptor_tensor(op: Operation) -> Value | None:
    """The tensor a descriptor op loads or stores (None for other ops)."""
    if op.name in DESCRIPTOR_LOADS and op.num_results == 1:
        return op.results[0]
    if op.name in DESCRIPTOR_STORES:
        return op.src
    return None


def _descriptor_layout(t: RankedTensorType, num_warps: int, threads_per_warp: int,
                       num_ctas: int) -> BlockedEncodingAttr:
    """Row-major, up to 128 bits per thread along the last dim, at most the thread's share."""
    numel = 1
    for size in t.shape:
        numel *= size
    per_thread = min(max(numel // (num_warps * threads_per_warp), 1),
                     max(128 // _pointee_bits(t.element_type), 1))
    size_per_thread = [1] * len(t.shape)
    size_per_thread[-1] = per_thread
    return default_blocked(tuple(t.shape), num_warps, threads_per_warp, num_ctas,
                           size_per_thread)


def _same_function(a: Operation, b: Operation) -> bool:
    def function(op: Operation) -> Operation | None:
        while op is not None and op.name != "tt.func":
            op = op.parent_op
        return op

    return function(a) is function(b)


def _with_encoding(t: RankedTensorType, encoding) -> RankedTensorType:
    return RankedTensorType(t.shape, t.element_type, encoding)


def _retype_access(op: Operation, encoding: BlockedEncodingAttr) -> None:
    """``op`` with its tensor operands converted to ``encoding`` (always, as Triton does; a
    conversion to the same layout folds away later; the row offsets of a descriptor gather or
    scatter excepted) and its results back."""
    before = Builder.before(op)
    kept = op.x_offsets if op.name in ("tt.descriptor_gather", "tt.descriptor_scatter") else None
    for index, operand in enumerate(op.operands):
        t = operand.type
        if isinstance(t, RankedTensorType) and operand is not kept:
            convert = before.create("ttg.convert_layout", operands=[operand],
                                    result_types=[_with_encoding(t, encoding)],
                                    location=op.location)
            op.set_operand(index, convert.results[0])
    after = Builder.after(op)
    for result in op.results:
        t = result.type
        if not isinstance(t, RankedTensorType) or t.encoding == encoding:
            continue
        users = [use for use in result.uses]
        result.type = _with_encoding(t, encoding)
        if not users:
            continue
        back = after.create("ttg.convert_layout", operands=[result], result_types=[t],
                            location=op.location)
        result.replace_uses_with_if(back.results[0], lambda use: use.owner is not back)


class TritonGPUCoalescePass(TritonGPUCoalescePassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        coalesce_module(op)
