"""The llvm dialect against the CUDA compiler: a kernel's GPU IR through
``convert-triton-gpu-to-llvm``, printed and parsed back, then exported to LLVM IR
(`llvm_export`), compiles to the very PTX that the normal compile produces; an edit of one op
shows in the PTX. No GPU is needed."""

from __future__ import annotations

import llvmlite.binding as llvm
import llvmlite.ir as ir
import pytest

import tilecraft as tc
from tilecraft.backends.cuda import toolchain
from tilecraft.backends.llvm_export import export_module
from tilecraft.backends.llvm_import import LLVMImportError, import_module
from tilecraft.ir import parse_module, print_op
from tilecraft.transforms.pass_manager import PassManager

from .test_kernels import SIGNATURES, needs_ptxas

# a vector add (masked loads and stores), a 2-D reduction (shuffles, shared memory, barriers),
# a loop with masks, and a matmul (mma, cp.async pipelining)
KERNELS = ("add", "sum_2d", "loop", "matmul_f16")


def _compiled(name: str):
    fn, signature, constexprs = SIGNATURES[name]
    return tc.compile(tc.ASTSource(fn, signature, constexprs),
                      target=tc.GPUTarget("cuda", 90, 32))


def _llvm_dialect_text(ttgir: str) -> str:
    module = parse_module(ttgir)
    PassManager.parse("builtin.module(convert-triton-gpu-to-llvm)").run(module)
    return print_op(module)


def _ptx(llvm_text: str) -> str:
    return toolchain.llvm_to_ptx(export_module(parse_module(llvm_text)), 90)


@needs_ptxas
@pytest.mark.parametrize("name", KERNELS)
def test_the_llvm_dialect_compiles_to_the_compilers_ptx(name: str) -> None:
    kernel = _compiled(name)
    text = _llvm_dialect_text(kernel.asm["ttgir"])
    assert "tt.func" not in text and "llvm.func @" in text
    assert _ptx(text) == kernel.asm["ptx"]


@needs_ptxas
def test_an_edited_op_shows_in_the_ptx() -> None:
    kernel = _compiled("add")
    text = _llvm_dialect_text(kernel.asm["ttgir"])
    edited = text.replace("llvm.fadd", "llvm.fsub", 1)
    assert edited != text
    ptx = _ptx(edited)
    assert ptx != kernel.asm["ptx"] and "sub.f32" in ptx


def test_the_import_names_what_it_does_not_model() -> None:
    module = ir.Module(name="m")
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), [ir.IntType(32)]), "f")
    builder = ir.IRBuilder(function.append_basic_block("entry"))
    done = function.append_basic_block("done")
    builder.switch(function.args[0], done)
    builder.position_at_end(done)
    builder.ret_void()
    with pytest.raises(LLVMImportError, match="the LLVM instruction 'switch' is not modelled"):
        import_module(module)


def test_phis_become_block_arguments_and_come_back() -> None:
    module = ir.Module(name="m")
    i32 = ir.IntType(32)
    function = ir.Function(module, ir.FunctionType(i32, [i32]), "count")
    entry, loop, done = (function.append_basic_block(n) for n in ("entry", "loop", "done"))
    builder = ir.IRBuilder(entry)
    builder.branch(loop)
    builder.position_at_end(loop)
    phi = builder.phi(i32)
    following = builder.add(phi, ir.Constant(i32, 1), flags=["nsw"])
    phi.add_incoming(ir.Constant(i32, 0), entry)
    phi.add_incoming(following, loop)
    builder.cbranch(builder.icmp_signed("<", following, function.args[0]), loop, done)
    builder.position_at_end(done)
    builder.ret(following)
    text = "module {\n" + "\n".join(print_op(op) for op in import_module(module)) + "\n}"
    assert "llvm.br ^bb1(%0 : i32)" in text
    assert "^bb1(%2: i32):" in text
    assert "llvm.cond_br %4, ^bb1(%3 : i32), ^bb2" in text
    exported = export_module(parse_module(text))
    llvm.parse_assembly(exported).verify()
    assert 'phi  i32 [0, %"entry"], [%".5", %"bb1"]' in exported
