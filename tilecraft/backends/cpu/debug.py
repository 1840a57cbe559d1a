"""`llvm.intr.assume` (LLVM's ``llvm.assume``), and `tt.print` and `tt.assert`
(``device_print``, ``device_assert``) through two runtime callbacks (see
`tilecraft.runtime.cpu_driver`):

* ``tilecraft_print(ctx, print_id, pid_x, pid_y, pid_z, index, operand, bits)`` once per printed
  element (``index`` -1 for scalars), the value as 64 bits: integers extended by their
  signedness, floats widened to f64, pointers as addresses;
* ``tilecraft_assert_fail(ctx, assert_id, pid_x, pid_y, pid_z, index)`` for the first failing
  element of a program, which then returns; the grid loop sees the abort flag and stops.

The tables ``KernelInfo.prints`` and ``KernelInfo.asserts`` describe each id.
"""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import FloatType, Operation

from . import types as T
from .lowering import FunctionLowering, is_tensor, lowers
from .tiles import I32, I64, row_major_strides


def _callback(fl: FunctionLowering, name: str, params: list) -> ir.Function:
    existing = fl.module.globals.get(name)
    if existing is not None:
        return existing
    return ir.Function(fl.module, ir.FunctionType(ir.VoidType(), params), name)


def _bits(fl: FunctionLowering, value: ir.Value, elem, signed: bool) -> ir.Value:
    b = fl.builder
    if isinstance(elem, FloatType):
        wide = value if value.type == T.F64 else b.fpext(value, T.F64)
        return b.bitcast(wide, I64)
    if value.type == T.PTR:
        return b.ptrtoint(value, I64)
    if value.type.width == 64:
        return value
    return b.sext(value, I64) if signed and value.type.width > 1 else b.zext(value, I64)


@lowers("ttg.barrier")
def _barrier(fl: FunctionLowering, op: Operation) -> None:
    """Nothing to wait for: each CPU thread runs whole programs, one at a time."""


@lowers("llvm.intr.assume")
def _assume(fl: FunctionLowering, op: Operation) -> None:
    """LLVM's ``llvm.assume`` (``tl.assume``)."""
    fl.builder.assume(fl.get(op.cond))


@lowers("tt.print")
def _print(fl: FunctionLowering, op: Operation) -> None:
    print_id = len(fl.info.prints)
    signed = list(op.is_signed) if op.is_signed is not None else [True] * len(op.args)
    fl.info.prints.append({
        "prefix": op.prefix, "hex": bool(op.hex),
        "kinds": [T.value_kind(v.type) for v in op.args],
        "shape": list(next((v.type.shape for v in op.args if is_tensor(v)), ())),
    })
    callback = _callback(fl, "tilecraft_print", [T.PTR, I32, I32, I32, I32, I64, I32, I64])
    b = fl.builder

    def emit(index: ir.Value, values: list) -> None:
        for operand, (value, arg) in enumerate(zip(values, op.args)):
            bits = _bits(fl, value, T.element_type(arg.type), bool(signed[operand]))
            b.call(callback, [fl.ctx, ir.Constant(I32, print_id), *fl.pid, index,
                              ir.Constant(I32, operand), bits])

    if not op.args or not any(is_tensor(v) for v in op.args):
        emit(ir.Constant(I64, -1), [fl.get(v) for v in op.args])
        if not op.args:
            b.call(callback, [fl.ctx, ir.Constant(I32, print_id), *fl.pid, ir.Constant(I64, -1),
                              ir.Constant(I32, -1), ir.Constant(I64, 0)])
        return
    tiles = [fl.as_tile(v) for v in op.args]
    shape = next(t.shape for t in tiles if t.shape)
    strides = row_major_strides(shape)
    fl.loop_nest(shape, lambda idx: emit(b.zext(fl.linear_index(idx, strides), I64),
                                         [t.emit(fl, idx) for t in tiles]))


@lowers("tt.assert", "cf.assert")
def _assert(fl: FunctionLowering, op: Operation) -> None:
    loc = op.location
    condition_value = op.condition if op.name == "tt.assert" else op.arg
    fl.info.asserts.append({
        "message": op.message if op.name == "tt.assert" else op.msg, "file": getattr(loc, "file", "<unknown>"),
        "line": getattr(loc, "line", 0), "function": fl.info.name,
        "shape": list(condition_value.type.shape) if is_tensor(condition_value) else [],
    })
    assert_id = len(fl.info.asserts) - 1
    callback = _callback(fl, "tilecraft_assert_fail", [T.PTR, I32, I32, I32, I32, I64])
    b = fl.builder

    def check(condition: ir.Value, index: ir.Value) -> None:
        holds = b.append_basic_block("assert.ok")
        fails = b.append_basic_block("assert.fail")
        if condition.type != T.I1:
            condition = b.icmp_unsigned("!=", condition, ir.Constant(condition.type, 0))
        b.cbranch(condition, holds, fails)
        b.position_at_end(fails)
        b.call(callback, [fl.ctx, ir.Constant(I32, assert_id), *fl.pid, index])
        b.ret_void()
        b.position_at_end(holds)

    if not is_tensor(condition_value):
        check(fl.get(condition_value), ir.Constant(I64, -1))
        return
    tile = fl.tile(condition_value)
    strides = row_major_strides(tile.shape)
    fl.loop_nest(tile.shape, lambda idx: check(tile.emit(fl, idx),
                                               b.zext(fl.linear_index(idx, strides), I64)))
