//===- llvm.td - a minimal LLVM dialect -----------------------------------===//
//
// The types of MLIR's `llvm` dialect that Triton's IR shows before lowering to LLVM (literal
// structs, opaque pointers, arrays), the ops that make undefined, poison and zero values of
// them, so that such IR parses, verifies and prints as MLIR prints it, and `llvm.intr.assume`,
// which Triton's `tl.assume` emits.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_LLVM_TD
#define TILECRAFT_LLVM_TD

include "base/OpBase.td"
include "base/AttrTypeBase.td"

def LLVM_Dialect : Dialect {
  let name = "llvm";
  let summary = "LLVM IR types and constants (a minimal subset of MLIR's LLVM dialect)";
  let description = [{
    Values of LLVM types appear in Triton's IR where a tensor is cast to the structure of its
    per-thread elements (`builtin.unrealized_conversion_cast`). Only the types, the constant
    ops and `llvm.intr.assume` are modelled; of them, only `llvm.intr.assume` is lowered.
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def LLVMStructType : TypeDef<LLVM_Dialect, "LLVMStruct"> {
  let mnemonic = "struct";
  let summary = "A literal structure: a sequence of member types";
  let description = [{
    `!llvm.struct<(i32, f32)>`, or `!llvm.struct<packed (i8, i32)>` without padding between
    the members. Identified (named, possibly recursive) structures are not modelled.
  }];
  let parameters = (ins ArrayRefParameter<"Type", "member types">:$body,
                        DefaultValuedParameter<BoolParameter, "False">:$packed);
  let hasCustomAssemblyFormat = 1;
}

def LLVMPointerType : TypeDef<LLVM_Dialect, "LLVMPointer"> {
  let mnemonic = "ptr";
  let summary = "An opaque pointer in an address space";
  let description = [{
    `!llvm.ptr` (address space 0) or `!llvm.ptr<3>`.
  }];
  let parameters = (ins DefaultValuedParameter<IntParameter, "0">:$addressSpace);
  let assemblyFormat = "(`<` $addressSpace^ `>`)?";
}

def LLVMArrayType : TypeDef<LLVM_Dialect, "LLVMArray"> {
  let mnemonic = "array";
  let summary = "A fixed number of elements of one type";
  let description = [{
    `!llvm.array<4 x i32>`.
  }];
  let parameters = (ins IntParameter:$numElements, TypeParameter:$elementType);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class LLVM_ConstantLikeOp<string mnemonic, string desc>
    : Op<LLVM_Dialect, "mlir." # mnemonic, [Pure]> {
  let summary = desc;
  let results = (outs AnyType:$res);
  let assemblyFormat = "attr-dict `:` type($res)";
}

def LLVM_UndefOp : LLVM_ConstantLikeOp<"undef", "An undefined value of any type"> {
  let description = [{
    `%u = llvm.mlir.undef : !llvm.struct<(i32, i32)>`.
  }];
}

def LLVM_PoisonOp : LLVM_ConstantLikeOp<"poison", "A poison value of any type">;

def LLVM_ZeroOp : LLVM_ConstantLikeOp<"zero",
                                      "The zero value of a type (null for a pointer)">;

def LLVM_AssumeOp : Op<LLVM_Dialect, "intr.assume"> {
  let summary = "Tells the optimizer that a condition holds";
  let description = [{
    `llvm.intr.assume %c : i1`, from `tl.assume(c)`: LLVM's `llvm.assume`. As in MLIR it
    declares no memory effects, so passes take it as having unknown ones and keep it.
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond `:` type($cond) attr-dict";
}

#endif // TILECRAFT_LLVM_TD
