//===- llvm.td - MLIR's LLVM dialect ----------------------------------------===//
//
// The part of MLIR's `llvm` dialect that a GPU kernel lowered to LLVM needs, with MLIR 19's
// op names, assembly formats and generic attribute names: functions and globals, constants,
// integer and floating-point arithmetic, comparisons, casts, memory access, aggregates and
// vectors, atomics, calls (of functions, intrinsics and inline assembly) and branches. Types:
// literal structures, opaque pointers, arrays, `void` and function types; vectors are the
// builtin `vector<4xf32>`. `convert-triton-gpu-to-llvm` produces it and
// `tilecraft.backends.llvm_export` turns it into LLVM IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_LLVM_TD
#define TILECRAFT_LLVM_TD

include "base/OpBase.td"
include "base/AttrTypeBase.td"

def LLVM_Dialect : Dialect {
  let name = "llvm";
  let summary = "LLVM IR as MLIR ops (a subset of MLIR's LLVM dialect)";
  let description = [{
    An op per LLVM instruction, in SSA form with block arguments instead of phi nodes, as
    MLIR's LLVM dialect: `%s = llvm.add %a, %b overflow<nsw> : i32`. Values of these types
    also appear in Triton's IR before lowering, where a tensor is cast to the structure of its
    per-thread elements (`builtin.unrealized_conversion_cast`).
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

def LLVMVoidType : TypeDef<LLVM_Dialect, "LLVMVoid"> {
  let mnemonic = "void";
  let summary = "The result type of a function that returns nothing";
  let description = [{
    `!llvm.void`, only as the result of an `!llvm.func` type.
  }];
}

def LLVMFunctionType : TypeDef<LLVM_Dialect, "LLVMFunction"> {
  let mnemonic = "func";
  let summary = "The type of an LLVM function: one result and its parameters";
  let description = [{
    `!llvm.func<void (ptr<1>, i32)>`, `!llvm.func<i32 (ptr, ...)>` for a variadic function.
  }];
  let parameters = (ins TypeParameter:$returnType,
                        ArrayRefParameter<"Type", "parameter types">:$params,
                        DefaultValuedParameter<BoolParameter, "False">:$varArg);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def LLVMFastmathFlagsAttr : AttrDef<LLVM_Dialect, "LLVMFastmathFlagsAttr"> {
  let mnemonic = "fastmath";
  let summary = "Fast-math flags of a floating-point operation";
  let description = [{
    `#llvm.fastmath<contract, reassoc>`, `#llvm.fastmath<fast>` (all of them) or
    `#llvm.fastmath<none>`; the flags are LLVM's: nnan, ninf, nsz, arcp, contract, afn,
    reassoc.
  }];
  let parameters = (ins ArrayRefParameter<"str", "flags">:$flags);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def LLVMIntegerOverflowFlagsAttr : AttrDef<LLVM_Dialect, "LLVMIntegerOverflowFlagsAttr"> {
  let mnemonic = "overflow";
  let summary = "No-wrap flags of an integer operation";
  let description = [{
    `#llvm.overflow<nsw, nuw>`: the result is poison when the operation wraps as a signed
    (`nsw`) or unsigned (`nuw`) integer. Ops print it as `overflow<nsw>` after their operands.
  }];
  let parameters = (ins ArrayRefParameter<"str", "flags">:$flags);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def LLVMLinkageAttr : AttrDef<LLVM_Dialect, "LLVMLinkageAttr"> {
  let mnemonic = "linkage";
  let summary = "The linkage of a function or global";
  let description = [{
    `#llvm.linkage<internal>`: one of LLVM's linkage kinds (private, internal, external,
    weak, common, linkonce, linkonce_odr, weak_odr, available_externally, appending,
    extern_weak). Functions and globals print it as a keyword, and omit `external`.
  }];
  let parameters = (ins StringParameter:$linkage);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// Debug information, as `enable-line-info` attaches it to functions' locations. Each prints
// as MLIR's: `#llvm.di_file<"kernel.py" in "/src">`, the others as `<key = value, ...>` with
// keywords (DW_LANG_C, LineTablesOnly, DW_TAG_base_type, ...) bare and names quoted. Optional
// fields are left out while unset; the distinct ids of compile units and subprograms are not
// modelled.
class LLVM_DIAttr<string name, string attrMnemonic, string desc>
    : AttrDef<LLVM_Dialect, name> {
  let mnemonic = attrMnemonic;
  let summary = desc;
  let hasCustomAssemblyFormat = 1;
}

def LLVMDIFileAttr : LLVM_DIAttr<"LLVMDIFileAttr", "di_file", "A source file"> {
  let parameters = (ins StringParameter:$name, StringParameter:$directory);
}

def LLVMDICompileUnitAttr
    : LLVM_DIAttr<"LLVMDICompileUnitAttr", "di_compile_unit", "A compile unit"> {
  let parameters = (ins StringParameter:$sourceLanguage, AttributeParameter:$file,
                        StringParameter:$producer, BoolParameter:$isOptimized,
                        StringParameter:$emissionKind);
}

def LLVMDINullTypeAttr
    : LLVM_DIAttr<"LLVMDINullTypeAttr", "di_null_type", "No type (a void result)"> {
  let hasCustomAssemblyFormat = 0;
}

def LLVMDIBasicTypeAttr
    : LLVM_DIAttr<"LLVMDIBasicTypeAttr", "di_basic_type", "A scalar type"> {
  let parameters = (ins StringParameter:$tag, StringParameter:$name, IntParameter:$sizeInBits,
                        StringParameter:$encoding);
}

def LLVMDIDerivedTypeAttr
    : LLVM_DIAttr<"LLVMDIDerivedTypeAttr", "di_derived_type",
                  "A type made from another: a pointer"> {
  let parameters = (ins StringParameter:$tag, StringParameter:$name,
                        AttributeParameter:$baseType, IntParameter:$sizeInBits,
                        DefaultValuedParameter<IntParameter, "0">:$dwarfAddressSpace);
}

def LLVMDISubroutineTypeAttr
    : LLVM_DIAttr<"LLVMDISubroutineTypeAttr", "di_subroutine_type",
                  "A function's type: its result, then its parameters"> {
  let parameters = (ins StringParameter:$callingConvention,
                        ArrayRefParameter<"Attribute", "result and parameter types">:$types);
}

def LLVMDISubprogramAttr
    : LLVM_DIAttr<"LLVMDISubprogramAttr", "di_subprogram", "A function"> {
  let parameters = (ins DefaultValuedParameter<AttributeParameter, "None">:$compileUnit,
                        AttributeParameter:$scope, StringParameter:$name,
                        StringParameter:$linkageName, AttributeParameter:$file,
                        IntParameter:$line, IntParameter:$scopeLine,
                        StringParameter:$subprogramFlags,
                        AttributeParameter:$type);
}

def LLVMDILexicalBlockFileAttr
    : LLVM_DIAttr<"LLVMDILexicalBlockFileAttr", "di_lexical_block_file",
                  "A file's part of a scope (code inlined from another file)"> {
  let parameters = (ins AttributeParameter:$scope, AttributeParameter:$file,
                        IntParameter:$discriminator);
}

def LLVM_ICmpPredicate : I64EnumAttr<"ICmpPredicate", "llvm.icmp comparison predicate", [
  I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>, I64EnumAttrCase<"slt", 2>,
  I64EnumAttrCase<"sle", 3>, I64EnumAttrCase<"sgt", 4>, I64EnumAttrCase<"sge", 5>,
  I64EnumAttrCase<"ult", 6>, I64EnumAttrCase<"ule", 7>, I64EnumAttrCase<"ugt", 8>,
  I64EnumAttrCase<"uge", 9>,
]>;

def LLVM_FCmpPredicate : I64EnumAttr<"FCmpPredicate", "llvm.fcmp comparison predicate", [
  I64EnumAttrCase<"_false", 0, "false">, I64EnumAttrCase<"oeq", 1>, I64EnumAttrCase<"ogt", 2>,
  I64EnumAttrCase<"oge", 3>, I64EnumAttrCase<"olt", 4>, I64EnumAttrCase<"ole", 5>,
  I64EnumAttrCase<"one", 6>, I64EnumAttrCase<"ord", 7>, I64EnumAttrCase<"ueq", 8>,
  I64EnumAttrCase<"ugt", 9>, I64EnumAttrCase<"uge", 10>, I64EnumAttrCase<"ult", 11>,
  I64EnumAttrCase<"ule", 12>, I64EnumAttrCase<"une", 13>, I64EnumAttrCase<"uno", 14>,
  I64EnumAttrCase<"_true", 15, "true">,
]>;

def LLVM_AtomicBinOp : I64EnumAttr<"AtomicBinOp", "llvm.atomicrmw binary operation", [
  I64EnumAttrCase<"xchg", 0>, I64EnumAttrCase<"add", 1>, I64EnumAttrCase<"sub", 2>,
  I64EnumAttrCase<"_and", 3, "and">, I64EnumAttrCase<"nand", 4>, I64EnumAttrCase<"_or", 5, "or">,
  I64EnumAttrCase<"xor", 6>, I64EnumAttrCase<"max", 7>, I64EnumAttrCase<"min", 8>,
  I64EnumAttrCase<"umax", 9>, I64EnumAttrCase<"umin", 10>, I64EnumAttrCase<"fadd", 11>,
  I64EnumAttrCase<"fsub", 12>, I64EnumAttrCase<"fmax", 13>, I64EnumAttrCase<"fmin", 14>,
  I64EnumAttrCase<"uinc_wrap", 15>, I64EnumAttrCase<"udec_wrap", 16>,
]>;

def LLVM_AtomicOrdering : I64EnumAttr<"AtomicOrdering", "LLVM atomic ordering", [
  I64EnumAttrCase<"not_atomic", 0>, I64EnumAttrCase<"unordered", 1>,
  I64EnumAttrCase<"monotonic", 2>, I64EnumAttrCase<"acquire", 4>,
  I64EnumAttrCase<"release", 5>, I64EnumAttrCase<"acq_rel", 6>, I64EnumAttrCase<"seq_cst", 7>,
]>;

def LLVM_AsmDialect : I64EnumAttr<"AsmDialect", "inline assembly dialect", [
  I64EnumAttrCase<"AD_ATT", 0, "att">, I64EnumAttrCase<"AD_Intel", 1, "intel">,
]>;

// The attribute kinds above as op argument constraints.
def LLVM_FastmathFlagsAttr : Attr<CPred<"isinstance($_self, LLVMFastmathFlagsAttr)">,
                                  "LLVM fastmath flags", "LLVMFastmathFlagsAttr">;
def LLVM_IntegerOverflowFlagsAttr
    : Attr<CPred<"isinstance($_self, LLVMIntegerOverflowFlagsAttr)">, "LLVM integer overflow flags",
           "LLVMIntegerOverflowFlagsAttr">;
def LLVM_LinkageAttr : Attr<CPred<"isinstance($_self, LLVMLinkageAttr)">, "LLVM linkage",
                            "LLVMLinkageAttr">;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def LLVM_AnyPointer : Type<CPred<"isinstance($_self, LLVMPointerType)">, "LLVM pointer type",
                           "LLVMPointerType">;
def LLVM_AnyAggregate : Type<CPred<"isinstance($_self, (LLVMStructType, LLVMArrayType))">,
                             "LLVM aggregate type">;
def LLVM_AnyVector : Type<CPred<"isinstance($_self, VectorType)">, "vector type", "VectorType">;
def LLVM_IntLike : Type<CPred<"element_type_of($_self).is_signless_integer()">,
                        "signless integer or vector of them">;
def LLVM_FloatLike : Type<CPred<"element_type_of($_self).is_float()">,
                          "floating-point or vector of them">;
def LLVM_PointerLike : Type<CPred<"isinstance(element_type_of($_self), LLVMPointerType)">,
                            "LLVM pointer or vector of them">;
def LLVM_BoolLike : Type<CPred<"element_type_of($_self).is_signless_integer(1)">,
                         "i1 or vector of i1">;

//===----------------------------------------------------------------------===//
// Functions, globals and constants
//===----------------------------------------------------------------------===//

class LLVM_Op<string mnemonic, list<Trait> traits = []> : Op<LLVM_Dialect, mnemonic, traits>;

def LLVM_FuncOp : LLVM_Op<"func", [IsolatedFromAbove, Symbol]> {
  let summary = "An LLVM function: a symbol with a signature and, unless declared, a body";
  let description = [{
    MLIR's syntax: linkage (omitted when external), name, arguments, the result unless
    `void`, `attributes {...}` and the body. A GPU kernel carries `nvvm.kernel` and the
    threads per block it requires (`nvvm.reqntid`) or allows (`nvvm.maxntid`).

    ```mlir
    llvm.func @kernel(%arg0: !llvm.ptr<1>) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
      llvm.return
    }
    llvm.func @__nv_expf(f32) -> f32
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<Type<CPred<"isinstance($_self, LLVMFunctionType)">,
                                       "LLVM function type">>:$function_type,
                       OptionalAttr<LLVM_LinkageAttr>:$linkage,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_GlobalOp : LLVM_Op<"mlir.global", [Symbol]> {
  let summary = "A global variable";
  let description = [{
    Its address (`llvm.mlir.addressof`) is a pointer in `addr_space`; `value` is its
    initializer (a string for an array of i8), absent for an external global.

    ```mlir
    llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal constant @msg("hi\00") {addr_space = 0 : i32} : !llvm.array<3 x i8>
    ```
  }];
  let arguments = (ins TypeAttr:$global_type, UnitAttr:$constant, SymbolNameAttr:$sym_name,
                       LLVM_LinkageAttr:$linkage, OptionalAttr<AnyAttr>:$value,
                       OptionalAttr<I64Attr>:$alignment,
                       DefaultValuedAttr<I32Attr, "0">:$addr_space);
  let hasCustomAssemblyFormat = 1;
}

def LLVM_AddressOfOp : LLVM_Op<"mlir.addressof", [Pure]> {
  let summary = "The address of a global or a function";
  let description = [{
    `%p = llvm.mlir.addressof @global_smem : !llvm.ptr<3>`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$global_name);
  let results = (outs LLVM_AnyPointer:$res);
  let assemblyFormat = "$global_name attr-dict `:` qualified(type($res))";
}

def LLVM_ConstantOp : LLVM_Op<"mlir.constant", [Pure, ConstantLike]> {
  let summary = "A constant integer, float or vector";
  let description = [{
    `llvm.mlir.constant(1 : i32) : i32`,
    `llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>`.
  }];
  let arguments = (ins AnyAttr:$value);
  let results = (outs AnyType:$res);
  let assemblyFormat = "`(` $value `)` attr-dict `:` type($res)";
  let hasVerifier = 1;
}

class LLVM_ConstantLikeOp<string mnemonic, string desc>
    : LLVM_Op<"mlir." # mnemonic, [Pure, ConstantLike]> {
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

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

class LLVM_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : LLVM_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType])> {
  let summary = "LLVM's `" # mnemonic # "` instruction";
  let results = (outs type:$res);
}

// add, sub, mul and shl: `llvm.add %a, %b overflow<nsw, nuw> : i32`.
class LLVM_IntOverflowOp<string mnemonic, list<Trait> traits = []>
    : LLVM_BinaryOp<mnemonic, LLVM_IntLike, traits> {
  let arguments = (ins LLVM_IntLike:$lhs, LLVM_IntLike:$rhs,
                       OptionalAttr<LLVM_IntegerOverflowFlagsAttr>:$overflowFlags);
  let hasCustomAssemblyFormat = 1;
}

class LLVM_IntBinaryOp<string mnemonic, list<Trait> traits = []>
    : LLVM_BinaryOp<mnemonic, LLVM_IntLike, traits> {
  let arguments = (ins LLVM_IntLike:$lhs, LLVM_IntLike:$rhs);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($res)";
}

// `llvm.fadd %a, %b {fastmathFlags = #llvm.fastmath<contract>} : f32`.
class LLVM_FloatBinaryOp<string mnemonic, list<Trait> traits = []>
    : LLVM_BinaryOp<mnemonic, LLVM_FloatLike, traits> {
  let arguments = (ins LLVM_FloatLike:$lhs, LLVM_FloatLike:$rhs,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($res)";
}

def LLVM_AddOp : LLVM_IntOverflowOp<"add", [Commutative]>;
def LLVM_SubOp : LLVM_IntOverflowOp<"sub">;
def LLVM_MulOp : LLVM_IntOverflowOp<"mul", [Commutative]>;
def LLVM_ShlOp : LLVM_IntOverflowOp<"shl">;
def LLVM_UDivOp : LLVM_IntBinaryOp<"udiv">;
def LLVM_SDivOp : LLVM_IntBinaryOp<"sdiv">;
def LLVM_URemOp : LLVM_IntBinaryOp<"urem">;
def LLVM_SRemOp : LLVM_IntBinaryOp<"srem">;
def LLVM_AndOp : LLVM_IntBinaryOp<"and", [Commutative]>;
def LLVM_OrOp : LLVM_IntBinaryOp<"or", [Commutative]>;
def LLVM_XOrOp : LLVM_IntBinaryOp<"xor", [Commutative]>;
def LLVM_LShrOp : LLVM_IntBinaryOp<"lshr">;
def LLVM_AShrOp : LLVM_IntBinaryOp<"ashr">;
def LLVM_FAddOp : LLVM_FloatBinaryOp<"fadd">;
def LLVM_FSubOp : LLVM_FloatBinaryOp<"fsub">;
def LLVM_FMulOp : LLVM_FloatBinaryOp<"fmul">;
def LLVM_FDivOp : LLVM_FloatBinaryOp<"fdiv">;
def LLVM_FRemOp : LLVM_FloatBinaryOp<"frem">;

def LLVM_FNegOp : LLVM_Op<"fneg", [Pure, SameOperandsAndResultType]> {
  let summary = "LLVM's `fneg` instruction";
  let arguments = (ins LLVM_FloatLike:$operand,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let results = (outs LLVM_FloatLike:$res);
  let assemblyFormat = "$operand attr-dict `:` type($res)";
}

def LLVM_ICmpOp : LLVM_Op<"icmp", [Pure]> {
  let summary = "Integer or pointer comparison";
  let description = [{
    `%c = llvm.icmp "slt" %a, %b : i32`: the result is i1, or a vector of i1 for vectors.
  }];
  let arguments = (ins LLVM_ICmpPredicate:$predicate, AnyType:$lhs, AnyType:$rhs);
  let results = (outs LLVM_BoolLike:$res);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_FCmpOp : LLVM_Op<"fcmp", [Pure]> {
  let summary = "Floating-point comparison";
  let description = [{
    `%c = llvm.fcmp "olt" %a, %b : f32`.
  }];
  let arguments = (ins LLVM_FCmpPredicate:$predicate, LLVM_FloatLike:$lhs,
                       LLVM_FloatLike:$rhs,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let results = (outs LLVM_BoolLike:$res);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_SelectOp : LLVM_Op<"select", [Pure,
    AllTypesMatch<["trueValue", "falseValue", "res"]>]> {
  let summary = "Chooses one of two values by a condition";
  let description = [{
    `%r = llvm.select %c, %a, %b : i1, f32`.
  }];
  let arguments = (ins LLVM_BoolLike:$condition, AnyType:$trueValue, AnyType:$falseValue,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let results = (outs AnyType:$res);
  let assemblyFormat = "operands attr-dict `:` type($condition) `,` type($res)";
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

class LLVM_CastOp<string mnemonic, Type from, Type to>
    : LLVM_Op<mnemonic, [Pure]> {
  let summary = "LLVM's `" # mnemonic # "` instruction";
  let arguments = (ins from:$arg);
  let results = (outs to:$res);
  let assemblyFormat = "$arg attr-dict `:` type($arg) `to` type($res)";
}

def LLVM_BitcastOp : LLVM_CastOp<"bitcast", AnyType, AnyType>;
def LLVM_AddrSpaceCastOp : LLVM_CastOp<"addrspacecast", LLVM_PointerLike, LLVM_PointerLike>;
def LLVM_IntToPtrOp : LLVM_CastOp<"inttoptr", LLVM_IntLike, LLVM_PointerLike>;
def LLVM_PtrToIntOp : LLVM_CastOp<"ptrtoint", LLVM_PointerLike, LLVM_IntLike>;
def LLVM_SExtOp : LLVM_CastOp<"sext", LLVM_IntLike, LLVM_IntLike>;
def LLVM_ZExtOp : LLVM_CastOp<"zext", LLVM_IntLike, LLVM_IntLike>;
def LLVM_TruncOp : LLVM_CastOp<"trunc", LLVM_IntLike, LLVM_IntLike>;
def LLVM_SIToFPOp : LLVM_CastOp<"sitofp", LLVM_IntLike, LLVM_FloatLike>;
def LLVM_UIToFPOp : LLVM_CastOp<"uitofp", LLVM_IntLike, LLVM_FloatLike>;
def LLVM_FPToSIOp : LLVM_CastOp<"fptosi", LLVM_FloatLike, LLVM_IntLike>;
def LLVM_FPToUIOp : LLVM_CastOp<"fptoui", LLVM_FloatLike, LLVM_IntLike>;
def LLVM_FPExtOp : LLVM_CastOp<"fpext", LLVM_FloatLike, LLVM_FloatLike>;
def LLVM_FPTruncOp : LLVM_CastOp<"fptrunc", LLVM_FloatLike, LLVM_FloatLike>;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def LLVM_AllocaOp : LLVM_Op<"alloca", [MemAlloc]> {
  let summary = "Stack memory for `arraySize` values of `elem_type`";
  let description = [{
    `%p = llvm.alloca %n x f32 {alignment = 4 : i64} : (i32) -> !llvm.ptr`.
  }];
  let arguments = (ins AnySignlessInteger:$arraySize, OptionalAttr<I64Attr>:$alignment,
                       TypeAttr:$elem_type);
  let results = (outs LLVM_AnyPointer:$res);
  let hasCustomAssemblyFormat = 1;
}

def LLVM_GEPOp : LLVM_Op<"getelementptr", [Pure]> {
  let summary = "Address arithmetic over an element type";
  let description = [{
    Indices are constants (in `rawConstantIndices`) or values (`dynamicIndices`, one per
    `-2147483648` entry of `rawConstantIndices`), written in order between brackets.

    ```mlir
    %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %r = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    ```
  }];
  let arguments = (ins LLVM_PointerLike:$base, Variadic<LLVM_IntLike>:$dynamicIndices,
                       DenseI32ArrayAttr:$rawConstantIndices, TypeAttr:$elem_type,
                       UnitAttr:$inbounds);
  let results = (outs LLVM_PointerLike:$res);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_LoadOp : LLVM_Op<"load", [MemRead]> {
  let summary = "Loads a value from memory";
  let description = [{
    `%v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<1> -> f32`.
  }];
  let arguments = (ins LLVM_AnyPointer:$addr, OptionalAttr<I64Attr>:$alignment,
                       UnitAttr:$volatile_, UnitAttr:$nontemporal, UnitAttr:$invariant);
  let results = (outs AnyType:$res);
  let assemblyFormat = [{
    (`volatile` $volatile_^)? $addr (`invariant` $invariant^)?
    attr-dict `:` qualified(type($addr)) `->` type($res)
  }];
}

def LLVM_StoreOp : LLVM_Op<"store", [MemWrite]> {
  let summary = "Stores a value to memory";
  let description = [{
    `llvm.store %v, %p {alignment = 4 : i64} : f32, !llvm.ptr<1>`.
  }];
  let arguments = (ins AnyType:$value, LLVM_AnyPointer:$addr,
                       OptionalAttr<I64Attr>:$alignment, UnitAttr:$volatile_,
                       UnitAttr:$nontemporal);
  let assemblyFormat = [{
    (`volatile` $volatile_^)? $value `,` $addr attr-dict `:` type($value) `,`
    qualified(type($addr))
  }];
}

def LLVM_AtomicRMWOp : LLVM_Op<"atomicrmw", [MemRead, MemWrite,
    TypesMatchWith<"result type matches value type", "val", "res", "$_self">]> {
  let summary = "Atomically combines a value with memory and returns the old value";
  let description = [{
    `%old = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr<1>, i32`.
  }];
  let arguments = (ins LLVM_AtomicBinOp:$bin_op, LLVM_AnyPointer:$ptr, AnyType:$val,
                       LLVM_AtomicOrdering:$ordering, OptionalAttr<StrAttr>:$syncscope,
                       OptionalAttr<I64Attr>:$alignment, UnitAttr:$volatile_);
  let results = (outs AnyType:$res);
  let assemblyFormat = [{
    (`volatile` $volatile_^)? $bin_op $ptr `,` $val
    (`syncscope` `(` $syncscope^ `)`)? $ordering attr-dict `:`
    qualified(type($ptr)) `,` type($val)
  }];
}

def LLVM_AtomicCmpXchgOp : LLVM_Op<"cmpxchg", [MemRead, MemWrite,
    AllTypesMatch<["cmp", "val"]>,
    TypesMatchWith<"result is a structure of the value and i1", "val", "res",
                   "LLVMStructType([$_self, IntegerType(1)])">]> {
  let summary = "Atomically replaces memory equal to `cmp` by `val`";
  let description = [{
    The result is the old value and whether it was replaced:
    `%r = llvm.cmpxchg %p, %c, %v acq_rel monotonic : !llvm.ptr<1>, i32`.
  }];
  let arguments = (ins LLVM_AnyPointer:$ptr, AnyType:$cmp, AnyType:$val,
                       LLVM_AtomicOrdering:$success_ordering,
                       LLVM_AtomicOrdering:$failure_ordering,
                       OptionalAttr<StrAttr>:$syncscope, OptionalAttr<I64Attr>:$alignment,
                       UnitAttr:$weak, UnitAttr:$volatile_);
  let results = (outs LLVM_AnyAggregate:$res);
  let assemblyFormat = [{
    (`weak` $weak^)? (`volatile` $volatile_^)? $ptr `,` $cmp `,` $val
    (`syncscope` `(` $syncscope^ `)`)? $success_ordering $failure_ordering
    attr-dict `:` qualified(type($ptr)) `,` type($val)
  }];
}

//===----------------------------------------------------------------------===//
// Aggregates and vectors
//===----------------------------------------------------------------------===//

def LLVM_ExtractValueOp : LLVM_Op<"extractvalue", [Pure]> {
  let summary = "A member of a structure or array";
  let description = [{
    `%v = llvm.extractvalue %s[0] : !llvm.struct<(i32, f32)>`: the result has the type of
    the member at `position`.
  }];
  let arguments = (ins LLVM_AnyAggregate:$container, DenseI64ArrayAttr:$position);
  let results = (outs AnyType:$res);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_InsertValueOp : LLVM_Op<"insertvalue", [Pure,
    AllTypesMatch<["container", "res"]>]> {
  let summary = "A structure or array with one member replaced";
  let description = [{
    `%t = llvm.insertvalue %v, %s[1] : !llvm.struct<(i32, f32)>`.
  }];
  let arguments = (ins LLVM_AnyAggregate:$container, AnyType:$value,
                       DenseI64ArrayAttr:$position);
  let results = (outs LLVM_AnyAggregate:$res);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def LLVM_ExtractElementOp : LLVM_Op<"extractelement", [Pure,
    TypesMatchWith<"result type matches vector element type", "vector", "res",
                   "$_self.element_type">]> {
  let summary = "An element of a vector";
  let description = [{
    `%e = llvm.extractelement %v[%i : i32] : vector<2xf32>`.
  }];
  let arguments = (ins LLVM_AnyVector:$vector, AnySignlessInteger:$position);
  let results = (outs AnyType:$res);
  let assemblyFormat = [{
    $vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)
  }];
}

def LLVM_InsertElementOp : LLVM_Op<"insertelement", [Pure,
    TypesMatchWith<"argument type matches vector element type", "vector", "value",
                   "$_self.element_type">,
    AllTypesMatch<["res", "vector"]>]> {
  let summary = "A vector with one element replaced";
  let description = [{
    `%w = llvm.insertelement %x, %v[%i : i32] : vector<2xf32>`.
  }];
  let arguments = (ins LLVM_AnyVector:$vector, AnyType:$value,
                       AnySignlessInteger:$position);
  let results = (outs LLVM_AnyVector:$res);
  let assemblyFormat = [{
    $value `,` $vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)
  }];
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

def LLVM_CallOp : LLVM_Op<"call", [CallOpInterface]> {
  let summary = "Calls an LLVM function by name";
  let description = [{
    `%r = llvm.call @__nv_expf(%x) : (f32) -> f32`; a call of a `void` function has no
    result: `llvm.call @f(%x) : (i32) -> ()`. Calls have unknown memory effects.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$callee_operands,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = [{
    $callee `(` $callee_operands `)` attr-dict `:`
    functional-type($callee_operands, results)
  }];
  let hasVerifier = 1;
}

def LLVM_CallIntrinsicOp : LLVM_Op<"call_intrinsic"> {
  let summary = "Calls an LLVM intrinsic by its name";
  let description = [{
    The intrinsic's overloaded types are those of the operands and the result:
    `%t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32`. It has unknown
    memory effects.
  }];
  let arguments = (ins StrAttr:$intrin, Variadic<AnyType>:$args,
                       OptionalAttr<LLVM_FastmathFlagsAttr>:$fastmathFlags);
  let results = (outs Optional<AnyType>:$results);
  let assemblyFormat = [{
    $intrin `(` $args `)` `:` functional-type($args, $results) attr-dict
  }];
  let hasVerifier = 1;
}

def LLVM_InlineAsmOp : LLVM_Op<"inline_asm"> {
  let summary = "Inline assembly with its constraint string";
  let description = [{
    ```mlir
    %r = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %x : (i32) -> i32
    ```
    Without `has_side_effects` it reads no memory and writes none (it is pure).
  }];
  let arguments = (ins Variadic<AnyType>:$operands, StrAttr:$asm_string, StrAttr:$constraints,
                       UnitAttr:$has_side_effects, UnitAttr:$is_align_stack,
                       OptionalAttr<LLVM_AsmDialect>:$asm_dialect);
  let results = (outs Optional<AnyType>:$res);
  let assemblyFormat = [{
    (`has_side_effects` $has_side_effects^)?
    (`is_align_stack` $is_align_stack^)?
    (`asm_dialect` `=` $asm_dialect^)?
    attr-dict
    $asm_string `,` $constraints
    operands `:` functional-type(operands, results)
  }];
}

def LLVM_AssumeOp : LLVM_Op<"intr.assume"> {
  let summary = "Tells the optimizer that a condition holds";
  let description = [{
    `llvm.intr.assume %c : i1`, from `tl.assume(c)`: LLVM's `llvm.assume`. As in MLIR it
    declares no memory effects, so passes take it as having unknown ones and keep it.
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond `:` type($cond) attr-dict";
}

//===----------------------------------------------------------------------===//
// Terminators
//===----------------------------------------------------------------------===//

def LLVM_BrOp : LLVM_Op<"br", [Pure, Terminator]> {
  let summary = "Unconditional branch";
  let description = [{
    `llvm.br ^bb1(%x : i32)`: the operands are the successor's block arguments (an LLVM phi).
  }];
  let arguments = (ins Variadic<AnyType>:$destOperands);
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = [{
    $dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def LLVM_CondBrOp : LLVM_Op<"cond_br", [Pure, Terminator, AttrSizedOperandSegments]> {
  let summary = "Conditional branch";
  let description = [{
    `llvm.cond_br %c, ^bb1(%x : i32), ^bb2`.
  }];
  let arguments = (ins I1:$condition, Variadic<AnyType>:$trueDestOperands,
                       Variadic<AnyType>:$falseDestOperands);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let assemblyFormat = [{
    $condition `,`
    $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`
    $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def LLVM_ReturnOp : LLVM_Op<"return", [Pure, Terminator, ReturnLike,
                                       HasParent<"llvm.func">]> {
  let summary = "Returns from an LLVM function";
  let description = [{
    `llvm.return` or `llvm.return %x : i32`.
  }];
  let arguments = (ins Optional<AnyType>:$arg);
  let assemblyFormat = "attr-dict ($arg^ `:` type($arg))?";
  let hasVerifier = 1;
}

def LLVM_UnreachableOp : LLVM_Op<"unreachable", [Terminator]> {
  let summary = "Marks a point that control never reaches";
  let assemblyFormat = "attr-dict";
}

#endif // TILECRAFT_LLVM_TD
