"""Loads whose pointers run contiguously along the last dimension, read as vectors.

The axis info analysis (`tilecraft.analysis.axisinfo`, Triton's rules) says in how long runs
the last dimension of a tensor of pointers points to consecutive elements: a run of ``(start +
arange) % N`` is as long as N's divisibility allows. A load whose runs are at least two elements
long reads each run (or a power-of-two piece of it, at most one vector register) with a single
vector load from the address of its first element: one pointer in ``width`` is computed, so a
tensor of pointers carried around a loop, or an offset taken ``% N``, costs one scalar per piece
instead of a gather per element. A tensor of pointers that its loop advances by a step known
before the loop (`advancing`) has the piece of the next iteration prefetched as well, unless
a `tt.dot` that reads the tile prefetches it (`dot_prefetch`).

A masked load first checks that every element of its mask holds (`memory`: where the analysis
allows, one element per dimension decides, as the last offset does for ``offs < n``), and takes
the vector loads when it does; otherwise (the ragged edge of a grid) it reads element by
element, so a masked-off element is never read.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import Operation

from . import types as T
from .advancing import AdvancingTile
from .lowering import FunctionLowering, prefetch
from .tiles import I32, BufferTile, Tile, index_plus, index_times


def vector_width(fl: FunctionLowering, op: Operation) -> int:
    """How many consecutive elements of the last dimension one vector load of ``op`` (a
    `tt.load` of a tensor of pointers) may read: a power of two dividing the pointers'
    contiguity and the dimension, within one vector register; 1 when the pointers do not run
    contiguously."""
    shape = op.results[0].type.shape
    if fl.axis_info is None or not shape:
        return 1
    contiguity = fl.axis_info.get(op.ptr).contiguity[-1]
    element_bytes = T.byte_size(T.mem_type(T.element_type(op.results[0].type)))
    limit = min(shape[-1], max(1, T.vector_unit()[0] // element_bytes))
    width = 1
    while width * 2 <= limit and contiguity % (width * 2) == 0 and shape[-1] % (width * 2) == 0:
        width *= 2
    return width


def load_vectors(fl: FunctionLowering, pointers: Tile, out: BufferTile, elem, width: int,
                 prefetch_next: bool = True) -> None:
    """Fills ``out`` (row-major) with the elements ``pointers`` point to, ``width`` consecutive
    elements of the last dimension per vector load; with ``prefetch_next``, pointers that their
    loop advances also prefetch what the next iteration reads."""
    shape = out.shape
    storage = T.mem_type(elem)
    vector_ty = ir.VectorType(storage, width)
    converts = storage != out.ty or out.ty == T.I1

    def body(idx: tuple) -> None:
        b = fl.builder
        first = idx[:-1] + (index_times(b, idx[-1], width),)
        pointer = pointers.emit(fl, first)
        raw = b.load(pointer, typ=vector_ty, align=T.byte_size(storage))
        if prefetch_next and isinstance(pointers, AdvancingTile) and pointers.step is not None:
            prefetch(fl, b.gep(pointer, [pointers.step], source_etype=pointers.pointee))
        if not converts:
            fl.store_vector(out, first, raw)
            return
        for lane in range(width):
            value = T.from_memory(fl, b.extract_element(raw, ir.Constant(I32, lane)), elem)
            fl.store_element(out, first[:-1] + (index_plus(b, first[-1], lane),), value)

    fl.loop_nest(shape[:-1] + (shape[-1] // width,), body)
