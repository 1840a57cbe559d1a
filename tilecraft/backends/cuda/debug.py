"""``llvm.intr.assume`` (LLVM's ``llvm.assume``), and ``tt.print`` and ``tt.assert`` on the GPU
through CUDA's device runtime: ``vprintf`` prints one line per element, ``pid (x, y, z) idx (i)
<prefix> <value>`` as Triton's do, and a failing assertion calls ``__assertfail`` with the
kernel's source line (the launch then fails with CUDA's assertion error). Only the thread
representing an element prints or checks it."""

from __future__ import annotations

import llvmlite.ir as ir

from tilecraft.ir import FloatType, Operation

from ..cpu import types as T
from .lowering import I8, I32, I64, Distributed, GPULowering, lowers

_GENERIC = ir.PointerType()


def _string(fl: GPULowering, text: str) -> ir.Value:
    """A pointer to a NUL-terminated global string."""
    data = bytearray(text.encode()) + b"\0"
    ty = ir.ArrayType(I8, len(data))
    name = fl.module.get_unique_name("str")
    var = ir.GlobalVariable(fl.module, ty, name)
    var.global_constant = True
    var.linkage = "internal"
    var.initializer = ir.Constant(ty, data)
    var.type = _GENERIC
    return var


def _printf_value(fl: GPULowering, value: ir.Value, t) -> tuple[ir.Value, str]:
    """``value`` as vprintf takes it and its conversion."""
    b = fl.builder
    if isinstance(T.element_type(t), FloatType):
        return (value if value.type == T.F64 else b.fpext(value, T.F64)), "%f"
    if isinstance(value.type, ir.PointerType):
        return b.ptrtoint(value, I64), "%p"
    if value.type.width < 32:
        return b.sext(value, I32) if value.type.width > 1 else b.zext(value, I32), "%d"
    return value, "%lld" if value.type.width == 64 else "%d"


def _vprintf(fl: GPULowering, fmt: str, args: list[ir.Value]) -> None:
    b = fl.builder
    struct = ir.LiteralStructType([a.type for a in args] or [I32])
    slot = fl.alloca(struct)
    for k, arg in enumerate(args):
        b.store(arg, b.gep(slot, [ir.Constant(I32, 0), ir.Constant(I32, k)],
                           source_etype=struct))
    vprintf = fl.declare("vprintf", I32, [_GENERIC, _GENERIC])
    b.call(vprintf, [_string(fl, fmt), b.addrspacecast(slot, _GENERIC)
                     if slot.type.addrspace else slot])


def _pids(fl: GPULowering) -> list[ir.Value]:
    return [fl.builder.call(fl.sreg(f"ctaid.{axis}"), []) for axis in "xyz"]


@lowers("ttg.barrier")
def _barrier(fl: GPULowering, op: Operation) -> None:
    """``bar.sync 0``: orders the program's shared and global memory accesses."""
    fl.barrier()


@lowers("llvm.intr.assume")
def _assume(fl: GPULowering, op: Operation) -> None:
    """LLVM's ``llvm.assume`` (``tl.assume``)."""
    fl.builder.assume(fl.get(op.cond))


@lowers("tt.print")
def _print(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    operands = [fl.get(v) for v in op.args]
    prefix = op.prefix
    pids = _pids(fl)
    if not any(isinstance(x, Distributed) for x in operands):
        with b.if_then(b.icmp_unsigned("==", fl.tid, ir.Constant(I32, 0))):
            converted = [_printf_value(fl, x, v.type) for x, v in zip(operands, op.args)]
            text = "pid (%d, %d, %d) " + prefix + " ".join(c for _, c in converted) + "\n"
            _vprintf(fl, text, pids + [v for v, _ in converted])
        return
    tensor = next(x for x in operands if isinstance(x, Distributed))
    representative = fl.is_representative(tensor.layout)
    for register in range(len(tensor.values)):
        coordinates = fl.coordinates(tensor.layout, register)
        values = [x.values[register] if isinstance(x, Distributed) else x for x in operands]
        converted = [_printf_value(fl, x, v.type) for x, v in zip(values, op.args)]
        index = "idx (" + ", ".join("%d" for _ in coordinates) + ") "
        text = "pid (%d, %d, %d) " + index + prefix + " ".join(c for _, c in converted) + "\n"
        if representative is None:
            _vprintf(fl, text, pids + coordinates + [v for v, _ in converted])
        else:
            with b.if_then(representative):
                _vprintf(fl, text, pids + coordinates + [v for v, _ in converted])


@lowers("tt.assert", "cf.assert")
def _assert(fl: GPULowering, op: Operation) -> None:
    b = fl.builder
    condition = fl.get(op.operands[0])
    loc, _ = op.location.diagnostic_position()
    file = getattr(loc, "file", None) or getattr(loc, "filename", None) or "<kernel>"
    line = getattr(loc, "line", 0) or 0
    message = _string(fl, op.message if hasattr(op, "message") else "assertion failed")
    where = _string(fl, str(file))
    function = _string(fl, fl.info.name)
    fail = fl.declare("__assertfail", ir.VoidType(), [_GENERIC, _GENERIC, I32, _GENERIC, I64])
    values = condition.values if isinstance(condition, Distributed) else [condition]
    for value in values:
        with b.if_then(b.not_(value), likely=True):
            b.call(fail, [message, where, ir.Constant(I32, line), function,
                          ir.Constant(I64, 1)])
