// enable-line-info (Triton's LLVMDIScope): a function gets a di_subprogram fused into its
// location, a declaration one without compile unit, an inlined op (at a call site) lexical
// block files of the subprogram; the debug-info attributes read back as they print.
// RUN: tilecraft-opt %s --mlir-print-debuginfo -enable-line-info | tilecraft-opt --mlir-print-debuginfo | filecheck %s

// CHECK: llvm.func @ext(f32) -> f32 loc(#[[EXT:loc[0-9]*]])
// CHECK: llvm.func @k(%arg0: !llvm.ptr<1> {tt.pointee_type = f16} loc({{.*}}), %arg1: f32 loc({{.*}})) {
// CHECK: llvm.fadd %arg1, %arg1 : f32 loc(#[[INLINED:loc[0-9]*]])
// CHECK: } loc(#[[K:loc[0-9]*]])
// CHECK-DAG: #[[KERNEL:loc[0-9]*]] = loc("kernel.py":12:0)
// CHECK-DAG: #[[HELPER:loc[0-9]*]] = loc("/src/helper.py":3:8)
// CHECK-DAG: #[[EXT]] = loc(fused<#llvm.di_subprogram<scope = #llvm.di_file<"lib.py" in "">, name = "ext", linkageName = "ext", file = #llvm.di_file<"lib.py" in "">, line = 5, scopeLine = 5, subprogramFlags = "Optimized", type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "float", sizeInBits = 32, encoding = DW_ATE_float>, #llvm.di_basic_type<tag = DW_TAG_base_type, name = "float", sizeInBits = 32, encoding = DW_ATE_float>>>>[
// CHECK-DAG: #[[K]] = loc(fused<#llvm.di_subprogram<compileUnit = #llvm.di_compile_unit<sourceLanguage = DW_LANG_C, file = #llvm.di_file<"kernel.py" in "">, producer = "triton", isOptimized = true, emissionKind = LineTablesOnly>, scope = #llvm.di_file<"kernel.py" in "">, name = "k", linkageName = "k", file = #llvm.di_file<"kernel.py" in "">, line = 12, scopeLine = 12, subprogramFlags = "Definition|Optimized", type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #llvm.di_null_type, #llvm.di_derived_type<tag = DW_TAG_pointer_type, name = "pointer", baseType = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "half", sizeInBits = 16, encoding = DW_ATE_float>, sizeInBits = 64, dwarfAddressSpace = 1>, #llvm.di_basic_type<tag = DW_TAG_base_type, name = "float", sizeInBits = 32, encoding = DW_ATE_float>>>>[#[[KERNEL]]])
// CHECK-DAG: #[[INLINED]] = loc(callsite(#[[CALLEE:loc[0-9]*]] at #[[CALLER:loc[0-9]*]]))
// CHECK-DAG: #[[CALLEE]] = loc(fused<#llvm.di_lexical_block_file<scope = #llvm.di_subprogram<{{.*}}name = "k"{{.*}}>, file = #llvm.di_file<"helper.py" in "/src">, discriminator = 0>>[#[[HELPER]]])
// CHECK-DAG: #[[CALLER]] = loc(fused<#llvm.di_lexical_block_file<scope = #llvm.di_subprogram<{{.*}}>, file = #llvm.di_file<"kernel.py" in "">, discriminator = 0>>[{{.*}}])
module {
  llvm.func @ext(f32) -> f32 loc("lib.py":5:0)
  llvm.func @k(%arg0: !llvm.ptr<1> {tt.pointee_type = f16}, %arg1: f32) {
    %0 = llvm.fadd %arg1, %arg1 : f32 loc(callsite("/src/helper.py":3:8 at "kernel.py":14:4))
    llvm.return
  } loc("kernel.py":12:0)
}
