"""``enable-line-info``: Triton's LLVMDIScope pass, debug-info scopes for ``llvm.func`` ops.

Each ``llvm.func`` whose location carries no ``#llvm.di_subprogram`` gets its location fused
with one: ``loc(fused<#llvm.di_subprogram<...>>[<its location>])``. The subprogram names the
file (``#llvm.di_file<"kernel.py" in "/src">``, the base name and directory of the function's
file location; ``"<unknown>"`` without one), line and scope line, the flags
``"Definition|Optimized"`` and a compile unit (``producer = "triton"``, ``LineTablesOnly``, or
``Full`` when ``LLVM_EXTRACT_DI_LOCAL_VARIABLES`` is set; the module's own when its location
carries one) for a function with a body, ``"Optimized"`` and none for a declaration. Its
subroutine type lists the result (``#llvm.di_null_type`` for none) and each parameter: a
pointer as a ``DW_TAG_pointer_type`` of its ``tt.pointee_type`` argument attribute, scalars as
Triton's basic types (``int``, ``bool``, ``half``, ``float``, ``double``, ``vector``). An op
located at a call site (code inlined from another function) gets each leaf location fused with a
``#llvm.di_lexical_block_file`` of the function's subprogram and the leaf's file.
"""

from __future__ import annotations

import os

from tilecraft.generated import llvm as L
from tilecraft.generated.passes import LLVMDIScopePassBase
from tilecraft.ir import (
    CallSiteLoc, FileLineColLoc, FloatType, FusedLoc, IntegerType, Location, NameLoc,
    Operation, Type, VectorType,
)

__all__ = ["LLVMDIScope", "file_location"]

_FLOAT_NAMES = {"f16": "half", "f32": "float", "f64": "double"}


def file_location(loc: Location, caller: bool = True) -> FileLineColLoc:
    """The file location a location stands for (a call site's caller's, or its callee's when
    ``caller`` is false); ``<unknown>`` at line 0 when there is none."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, NameLoc) and loc.child is not None:
        return file_location(loc.child)
    if isinstance(loc, FusedLoc) and loc.locations:
        return file_location(loc.locations[0])
    if isinstance(loc, CallSiteLoc):
        return file_location(loc.caller if caller else loc.callee)
    return FileLineColLoc("<unknown>", 0, 0)


def _file(path: str) -> L.LLVMDIFileAttr:
    return L.LLVMDIFileAttr(os.path.basename(path), os.path.dirname(path))


def _basic(name: str, bits: int, encoding: str) -> L.LLVMDIBasicTypeAttr:
    return L.LLVMDIBasicTypeAttr("DW_TAG_base_type", name, bits, encoding)


def _scalar_type(t: Type | None) -> L.LLVMDIBasicTypeAttr:
    """Triton's ``LLVMDIUtils::convertType``."""
    if isinstance(t, IntegerType):
        if t.width == 1:
            return _basic("bool", 1, "DW_ATE_boolean")
        return _basic("int", t.width, "DW_ATE_signed")
    if isinstance(t, FloatType) and t.kind in _FLOAT_NAMES:
        return _basic(_FLOAT_NAMES[t.kind], t.width, "DW_ATE_float")
    if isinstance(t, VectorType) and isinstance(t.element_type, (IntegerType, FloatType)):
        return _basic("vector", t.num_elements * t.element_type.width, "DW_ATE_float")
    return _basic("unknown_type", 0, "DW_ATE_signed")


def _subroutine_type(function: Operation) -> L.LLVMDISubroutineTypeAttr:
    ftype = function.function_type
    result = ftype.return_type
    types = [L.LLVMDINullTypeAttr() if isinstance(result, L.LLVMVoidType)
             else _scalar_type(result)]
    arg_attrs = function.properties.get("arg_attrs")
    for index, param in enumerate(ftype.params):
        if isinstance(param, L.LLVMPointerType):
            attrs = dict(arg_attrs[index].items()) if arg_attrs is not None else {}
            pointee = attrs.get("tt.pointee_type")
            base = _scalar_type(pointee.value if pointee is not None else None)
            types.append(L.LLVMDIDerivedTypeAttr("DW_TAG_pointer_type", "pointer", base, 64,
                                                 param.address_space))
        else:
            types.append(_scalar_type(param))
    return L.LLVMDISubroutineTypeAttr("DW_CC_normal", tuple(types))


def _module_compile_unit(function: Operation) -> L.LLVMDICompileUnitAttr | None:
    module = function.parent_op
    loc = module.location if module is not None else None
    if isinstance(loc, FusedLoc) and isinstance(loc.metadata, L.LLVMDICompileUnitAttr):
        return loc.metadata
    return None


def _set_subprogram(function: Operation) -> None:
    loc = function.location
    if isinstance(loc, FusedLoc) and isinstance(loc.metadata, L.LLVMDISubprogramAttr):
        return
    where = file_location(loc)
    file = L.LLVMDIFileAttr("<unknown>", "") if where.file == "<unknown>" else _file(where.file)
    compile_unit = None
    flags = "Optimized"
    if function.body.blocks:
        compile_unit = _module_compile_unit(function)
        if compile_unit is None:
            full = os.environ.get("LLVM_EXTRACT_DI_LOCAL_VARIABLES", "").lower() in (
                "1", "true", "on", "yes")
            compile_unit = L.LLVMDICompileUnitAttr("DW_LANG_C", file, "triton", True,
                                                   "Full" if full else "LineTablesOnly")
        flags = "Definition|Optimized"
    subprogram = L.LLVMDISubprogramAttr(
        compile_unit=compile_unit, scope=file, name=function.sym_name,
        linkage_name=function.sym_name, file=file, line=where.line, scope_line=where.line,
        subprogram_flags=flags, type=_subroutine_type(function))
    function.location = FusedLoc([loc], subprogram)


def _scoped(loc: Location, scope: L.LLVMDISubprogramAttr) -> Location:
    if isinstance(loc, CallSiteLoc):
        return CallSiteLoc(_scoped(loc.callee, scope), _scoped(loc.caller, scope))
    leaf = file_location(loc, caller=False)
    block = L.LLVMDILexicalBlockFileAttr(scope, _file(leaf.file), 0)
    return FusedLoc([loc], block)


class LLVMDIScope(LLVMDIScopePassBase):
    """See the module docstring."""

    def run_on_operation(self, op: Operation) -> None:
        for inner in op.walk():
            if isinstance(inner, L.FuncOp):
                _set_subprogram(inner)
            elif isinstance(inner.location, CallSiteLoc):
                function = inner.parent_op
                while function is not None and not isinstance(function, L.FuncOp):
                    function = function.parent_op
                if function is not None:
                    inner.location = _scoped(inner.location, function.location.metadata)
