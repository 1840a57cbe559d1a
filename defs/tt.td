//===- tt.td - the Triton (tt) dialect ------------------------------------===//
//
// Triton's tile-level ops with Triton's op names, operand order and assembly formats, so that
// IR printed by `triton-opt` parses here: pointers `!tt.ptr<f32>`, program ids, tensor
// creation and reshaping, pointer arithmetic, loads and stores, atomics, `tt.dot`,
// reductions and scans with combine regions, gathers, tensor descriptors (`!tt.tensordesc`),
// casts, functions and debugging ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_TT_TD
#define TILECRAFT_TT_TD

include "base/OpBase.td"
include "base/AttrTypeBase.td"
include "base/PatternBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let summary = "Triton: programs over blocks (tiles) of data";
  let description = [{
    A Triton kernel is a `tt.func` run by many programs; each program computes on tensors
    (tiles) whose elements it addresses through tensors of pointers (`tensor<128x!tt.ptr<f32>>`).
    Every op here checks what Triton's verifier checks, including Triton's rule that a tensor
    has a power-of-two number of elements (at most 2^20).
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TT_PointerType : TypeDef<TT_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "A pointer to a scalar or to a tensor, in an address space";
  let description = [{
    `!tt.ptr<f32>` points into global memory (address space 1, the default, left out when
    printing); `!tt.ptr<f16, 3>` into address space 3. `!tt.ptr<tensor<64x64xf16>>` is a
    pointer to a block (a tensor pointer).
  }];
  let parameters = (ins TypeParameter:$pointeeType,
                        DefaultValuedParameter<IntParameter, "1">:$addressSpace);
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
}

def TT_TensorDescType : TypeDef<TT_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "A descriptor of blocks of a tensor in global memory (a TMA descriptor)";
  let description = [{
    `!tt.tensordesc<128x64xf16>` describes blocks of 128x64 f16 elements of a tensor whose
    base, shape and strides `tt.make_tensor_descriptor` gives; `tt.descriptor_load` and
    `tt.descriptor_store` move whole blocks. An integer element type may carry a signedness
    (`si8`); the optional layout (`!tt.tensordesc<128x64xf16, #shared>`) is the shared-memory
    encoding chosen when lowering. The element type must not be a tensor.
  }];
  let parameters = (ins IntArrayParameter:$shape, TypeParameter:$elementType,
                        DefaultValuedParameter<AttributeParameter, "None">:$sharedLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// `tensor<...x!tt.ptr<T>>` with the pointee as element type, or the pointee of `!tt.ptr<T>`
// (a tensor for a tensor pointer): the type that a load of `$_self` produces.
defvar PointeeOf = "(RankedTensorType($_self.shape, $_self.element_type.pointee_type, "
                   # "$_self.encoding) if isinstance($_self, RankedTensorType) else "
                   # "$_self.pointee_type)";
// The pointer type (or tensor of pointers, same shape and encoding) to values of `$_self`.
defvar PointerTo = "(RankedTensorType($_self.shape, PointerType($_self.element_type), "
                   # "$_self.encoding) if isinstance($_self, RankedTensorType) else "
                   # "PointerType($_self))";

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : Type<CPred<"$_self.is_float() and $_self.kind != 'tf32'">, "floating-point",
                    "FloatType">;
def TT_FloatTensor : TensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : TensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : TensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Tensor : TensorOf<[I32]>;
def TT_I64Tensor : TensorOf<[I64]>;
def TT_I32Like : AnyTypeOf<[I32, TT_I32Tensor]>;
def TT_I64Like : AnyTypeOf<[I64, TT_I64Tensor]>;

def TT_Ptr : Type<CPred<"isinstance($_self, PointerType)">, "ptr", "PointerType">;
def TT_PtrTensor : TensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_FpIntTensor : AnyTypeOf<[TT_FloatTensor, TT_IntTensor]>;
def TT_Tensor : AnyTypeOf<[TT_FpIntTensor, TT_PtrTensor]>;

def TT_TensorPtr : Type<CPred<"isinstance($_self, PointerType) and "
                              # "isinstance($_self.pointee_type, RankedTensorType)">,
                        "ptr to tensor", "PointerType">;

def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

def TT_TensorDesc : Type<CPred<"isinstance($_self, TensorDescType)">, "tensor descriptor type",
                         "TensorDescType">;
// Operands of tt.dot_scaled: floats, or fp4 values packed in pairs into i8.
def TT_ScaledDotOperand : TensorOf<[TT_Float, I8]>;

// A function type held in a type attribute (a function's signature).
def TT_FunctionTypeAttr
    : Attr<CPred<"isinstance($_self, TypeAttr) and isinstance($_self.value, FunctionType)">,
           "type attribute of function type", "FunctionType"> {
  let returnValue = "$_self.value";
  let buildValue = "TypeAttr($_value)";
}

//===----------------------------------------------------------------------===//
// Enums (stored as i32 attributes, as Triton does)
//===----------------------------------------------------------------------===//

def TT_CacheModifierAttr : I32EnumAttr<"CacheModifier", "cache modifier", [
  I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">,
]>;

def TT_MemSemanticAttr : I32EnumAttr<"MemSemantic", "memory semantics", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">, I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">, I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">,
]>;

def TT_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "eviction policy", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">, I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">,
]>;

def TT_PaddingOptionAttr : I32EnumAttr<"PaddingOption", "padding of out-of-bounds loads", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">,
]>;

def TT_AtomicRMWAttr : I32EnumAttr<"RMWOp", "atomic read-modify-write operation", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">,
]>;

def TT_MemSyncScopeAttr : I32EnumAttr<"MemSyncScope", "memory synchronization scope", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">,
]>;

def TT_ProgramDim : I32EnumAttr<"ProgramIDDim", "program id dimension", [
  I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">, I32EnumAttrCase<"Z", 2, "z">,
]>;

def TT_RoundingModeAttr : I32EnumAttr<"RoundingMode", "rounding mode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">,
]>;

def TT_PropagateNanAttr : I32EnumAttr<"PropagateNan", "NaN propagation", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">,
]>;

def TT_InputPrecisionAttr : I32EnumAttr<"InputPrecision", "dot input precision", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">,
]>;

def TT_ScaleDotElemTypeAttr : I32EnumAttr<"ScaleDotElemType", "element type of a scaled dot", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">,
]>;

def TT_DescriptorReduceKindAttr : I32EnumAttr<"DescriptorReduceKind",
                                              "reduction of a descriptor store", [
  I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
  I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
  I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
  I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">,
]>;

//===----------------------------------------------------------------------===//
// Op base
//===----------------------------------------------------------------------===//

def TT_SameOperandsElementType : NativeOpTrait<"SameOperandsElementType">;

// Every tt op has a verifier hook: it checks Triton's tensor size rule (a power-of-two number
// of elements, at most 2^20) and then the op's own rules (tilecraft/dialects/tt.py).
class TT_Op<string mnemonic, list<Trait> traits = []> : Op<TT_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

class TT_CastOp<string mnemonic, Type from, Type to, string desc>
    : TT_Op<mnemonic, [Elementwise, SameOperandsAndResultShape, SameOperandsAndResultEncoding,
                       Pure]> {
  let summary = desc;
  let arguments = (ins from:$src);
  let results = (outs to:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_IntToPtrOp : TT_CastOp<"int_to_ptr", TT_I64Like, TT_PtrLike,
                              "Reinterprets an i64 as a pointer"> {
  let hasCanonicalizer = 1;
  // The CUDA backend's hook keeps the pointer's address space.
  let llvmLowering = [OpHook<"int_to_ptr">];
}
def TT_PtrToIntOp : TT_CastOp<"ptr_to_int", TT_PtrLike, TT_I64Like,
                              "Reinterprets a pointer as an i64"> {
  let llvmLowering = [OpHook<"ptr_to_int">];
}
def TT_BitcastOp : TT_CastOp<"bitcast", TT_Type, TT_Type,
                             "Reinterprets the bits of a value as another type of equal width"> {
  let hasFolder = 1;
  // arith.bitcast's hook: narrow floats through their memory bits, pointers through integers.
  let llvmLowering = [OpHook<"bitcast">];
}

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Elementwise, SameOperandsAndResultShape,
                                     SameOperandsAndResultEncoding, Pure]> {
  let summary = "Converts between floating-point types, including fp8";
  let description = [{
    A narrowing conversion needs an explicit rounding mode:
    `tt.fp_to_fp %x, rounding = rtne : tensor<128xf32> -> tensor<128xf8E4M3FN>`.
  }];
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)
  }];
  let hasFolder = 1;
  // arith.extf's and arith.truncf's hook, which also reads `rounding`.
  let llvmLowering = [OpHook<"float_cast">];
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

def TT_ClampFOp : TT_Op<"clampf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "Clamps a float to [min, max]";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
  // The min and max functions that `propagateNan` chooses.
  let llvmLowering = [OpHook<"clampf">];
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "Correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let languageName = "precise_sqrt";
  let languageKind = "unary";
  let interpreterImpl = "np.sqrt";
  let tlName = "sqrt_rn";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
  let tlDtypes = ["fp32"];
  let llvmLowering = [Intrinsic<"llvm.sqrt">];
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "Correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
  let languageName = "precise_divf";
  let languageKind = "binary";
  let interpreterImpl = "np.divide";
  let llvmLowering = [Instruction<"fdiv">];
  let llvmLoweringCost = 4;
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "The high half of the double-width unsigned product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
  let languageName = "mulhiui";
  let languageKind = "binary";
  let interpreterImpl = "mulhiui";
  // The double-width product's high half.
  let llvmLowering = [OpHook<"mulhiui">];
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic, loads and stores
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
                                   SameOperandsAndResultEncoding,
                                   TypesMatchWith<"result type matches ptr type", "result",
                                                  "ptr", "$_self">]> {
  let summary = "Advances pointers by element offsets";
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasFolder = 1;
  // A getelementptr over the pointee's type with the offset widened to i64.
  let llvmLowering = [OpHook<"addptr">];
}

def TT_LoadOp : TT_Op<"load", [
    AttrSizedOperandSegments, MemRead,
    TypesMatchWith<"result matches ptr type", "ptr", "result", PointeeOf>,
    OptionalTypesMatchWith<"mask type matches ptr type", "ptr", "mask",
                           !strconcat("i1_like(", PointeeOf, ")")>,
    OptionalTypesMatchWith<"other matches ptr type", "ptr", "other", PointeeOf>]> {
  let summary = "Loads through a pointer, a tensor of pointers or a tensor pointer";
  let description = [{
    Lanes whose `mask` is false are not read and take the value of `other` (undefined without
    it). Cache and eviction hints follow the operands in any order:

    ```mlir
    %x = tt.load %ptrs, %mask, %other cacheModifier = ca evictionPolicy = evict_last
        : tensor<128x!tt.ptr<f32>>
    ```

    The result type is the pointee type, so only the pointer's type is written.
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "()">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "CacheModifier.NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "EvictionPolicy.NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "False">:$isVolatile
  );
  let results = (outs TT_Type:$result);
  let hasCustomAssemblyFormat = 1;
}

def TT_StoreOp : TT_Op<"store", [
    MemWrite,
    TypesMatchWith<"value type matches ptr type", "ptr", "value", PointeeOf>,
    OptionalTypesMatchWith<"mask type matches ptr type", "ptr", "mask",
                           !strconcat("i1_like(", PointeeOf, ")")>]> {
  let summary = "Stores through a pointer, a tensor of pointers or a tensor pointer";
  let description = [{
    ```mlir
    tt.store %ptrs, %value, %mask cacheModifier = wb : tensor<128x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "()">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "CacheModifier.NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "EvictionPolicy.NORMAL">:$evict
  );
  let hasCustomAssemblyFormat = 1;
}

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [
    Pure, SameVariadicOperandSize,
    TypesMatchWith<"infer pointer type from the result type", "result", "base",
                   "(PointerType($_self.pointee_type.element_type, $_self.address_space) "
                   # "if isinstance($_self, PointerType) and "
                   # "isinstance($_self.pointee_type, RankedTensorType) else $_self)">]> {
  let summary = "A pointer to a block of a larger tensor in memory (a tensor pointer)";
  let description = [{
    The parent tensor has `shape` and `strides` (i64, one per dimension); the block starts at
    `offsets` (i32) and has the shape of the result's pointee; `order` lists the dimensions
    from the fastest-varying.

    ```mlir
    %p = tt.make_tensor_ptr %base, [%m, %k], [%sk, %c1], [%o0, %o1] {order = array<i32: 1, 0>}
        : !tt.ptr<tensor<128x64xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:`
    type($result)
  }];
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, TypesMatchWith<"result type matches ptr type",
                                                         "result", "ptr", "$_self">]> {
  let summary = "Moves a tensor pointer by element offsets";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [
    SameOperandsAndResultShape, SameOperandsAndResultEncoding, MemRead, MemWrite,
    TypesMatchWith<"ptr type matches value type", "val", "ptr", PointerTo>,
    OptionalTypesMatchWith<"mask type matches value type", "val", "mask", "i1_like($_self)">]> {
  let summary = "Atomic read-modify-write; returns the old value";
  let arguments = (ins TT_AtomicRMWAttr:$atomic_rmw_op, TT_PtrLike:$ptr, TT_Type:$val,
                       Optional<TT_BoolLike>:$mask, TT_MemSemanticAttr:$sem,
                       TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [
    SameOperandsAndResultShape, SameOperandsAndResultEncoding, MemRead, MemWrite,
    TypesMatchWith<"ptr type matches cmp type", "cmp", "ptr", PointerTo>,
    TypesMatchWith<"ptr type matches value type", "val", "ptr", PointerTo>]> {
  let summary = "Atomic compare-and-swap; returns the old value";
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val, TT_MemSemanticAttr:$sem,
                       TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:`
    functional-type(operands, $result)
  }];
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType,
                                 SameOperandsAndResultEncoding]> {
  let summary = "A tensor with every element equal to a scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [
    Pure, TypesMatchWith<"result is the element type of src", "src", "result",
                         "$_self.element_type">]> {
  let summary = "The element of a tensor with exactly one element, as a scalar";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Inserts a dimension of size 1 at `axis`";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reinterprets a tensor with another shape of the same number of elements";
  let description = [{
    With `allow_reorder` the compiler may also permute the elements; `efficient_layout`
    marks the result's encoding as chosen on purpose.
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder, UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict
    `:` type($src) `->` type($result)
  }];
  let hasFolder = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType,
                                         SameOperandsAndResultEncoding]> {
  let summary = "Repeats a tensor along its dimensions of size 1";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands,
                             SameOperandsAndResultElementType]> {
  let summary = "Concatenates two tensors (in an unspecified element order)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands]> {
  let summary = "Joins two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect,
                                 TypesMatchWith<"outLHS and outRHS types match", "outLHS",
                                                "outRHS", "$_self">]> {
  let summary = "Splits a tensor along its last dimension, which has size 2";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permutes the dimensions of a tensor";
  let description = [{
    `order` lists, for each result dimension, the source dimension it comes from:
    `tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>`.
  }];
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "The id of the running program along an axis of the launch grid";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "The number of programs along an axis of the launch grid";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "The 1-D i32 tensor start, start + 1, ..., end - 1";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Dot, reductions and scans
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, TypesMatchWith<"result's type matches accumulator's type",
                                                  "d", "c", "$_self">]> {
  let summary = "Matrix product plus accumulator: d = a * b + c";
  let description = [{
    2-D (or batched 3-D) operands: `a` is MxK, `b` is KxN, `c` and `d` are MxN.
    `inputPrecision` says how f32 inputs use tensor cores (tf32, tf32x3, ieee, ...).
  }];
  let arguments = (ins
    TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr, "InputPrecision.IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc
  );
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [
    Pure, AttrSizedOperandSegments,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "Matrix product of microscaled operands plus accumulator";
  let description = [{
    d = scale(a, a_scale) * scale(b, b_scale) + c, where each scale applies to a block of 16 or
    32 elements along K (the microscaling formats). `a_elem_type`/`b_elem_type` say how the
    operands' bits are read; e2m1 (fp4) values come packed in pairs into i8, along K unless
    `lhs_k_pack`/`rhs_k_pack` is false.

    ```mlir
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false}
        : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xf8E4M3FN>, tensor<128x2xi8>
        -> tensor<128x128xf32>
    ```
  }];
  let arguments = (ins
    TT_ScaledDotOperand:$a, TT_ScaledDotOperand:$b, TT_FloatTensor:$c,
    Optional<TT_ScaledDotOperand>:$a_scale, Optional<TT_ScaledDotOperand>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type, TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "True">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "True">:$rhs_k_pack
  );
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
}

def TT_ReduceOp : TT_Op<"reduce", [Pure, SameOperandsShape, SameOperandsEncoding,
                                   SingleBlock]> {
  let summary = "Reduces tensors along an axis with a combine region";
  let description = [{
    The combine region takes two elements of each operand (all firsts, then all seconds) and
    returns one combined element per operand with `tt.reduce.return`. Reducing the only axis
    of a 1-D tensor gives scalars. Printed in the generic form, as Triton does:

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<128xf32>) -> f32
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [HasParent<"tt.reduce">, Pure, Terminator,
                                                ReturnLike]> {
  let summary = "Ends the combine region of tt.reduce";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SameOperandsAndResultEncoding, SameOperandsAndResultShape,
                               SingleBlock]> {
  let summary = "Associative (inclusive) scan along an axis with a combine region";
  let description = [{
    Like `tt.reduce`, but every position gets the combination of the elements up to it
    (from the end with `reverse = true`); results have the operands' types.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [HasParent<"tt.scan">, Pure, Terminator,
                                            ReturnLike]> {
  let summary = "Ends the combine region of tt.scan";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [SameOperandsAndResultEncoding,
                                                    SameOperandsAndResultShape,
                                                    RecursiveMemoryEffects]> {
  let summary = "Maps a scalar region over the elements of tensors";
  let description = [{
    The region runs on `pack` consecutive elements of each operand at a time: its block takes
    `pack` scalars of each operand (operand by operand, `pack` in a row) and
    `tt.map_elementwise.return`s `pack` scalars of each result. `pack` is a power of 2. The
    region must not store (a masked-off lane would store too). Printed in the generic form:

    ```mlir
    %r = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
    ^bb0(%a: i32):
      tt.map_elementwise.return %a : i32
    }) : (tensor<256xi32>) -> tensor<256xi32>
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return",
                                      [HasParent<"tt.map_elementwise">, Pure, Terminator,
                                       ReturnLike]> {
  let summary = "Ends the region of tt.map_elementwise with the elements it computed";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// External functions, histograms, debugging
//===----------------------------------------------------------------------===//

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise,
                                                          SameOperandsAndResultEncoding,
                                                          SameVariadicOperandSize]> {
  let summary = "Calls an external library function element by element";
  let description = [{
    `symbol` from the library `libname` at `libpath`; `pure` says that the call has no side
    effects.
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname, StrAttr:$libpath,
                       StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
  // The symbol's math function where it names one, else a call of the symbol.
  let llvmLowering = [OpHook<"extern_elementwise">];
  let llvmLoweringCost = 12;
}

// Like Triton's, its encoding rule accepts zero operands (tilecraft/dialects/tt.py checks it).
def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise]> {
  let summary = "Inline assembly applied to packs of `packed_element` elements";
  let description = [{
    `asm_string` with its `constraints` gets `packed_element` elements of each argument at a
    time and produces as many of each result; `pure` says that it has no side effects.

    ```mlir
    %y = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r",
        packed_element = 4 : i32, pure = true} %x : tensor<512xi8> -> tensor<512xi8>
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)";
}

def TT_HistogramOp : TT_Op<"histogram", [
    Pure, OptionalTypesMatchWith<"mask type matches src type", "src", "mask", "i1_like($_self)">]> {
  let summary = "Counts the values 0 .. N-1 of an integer tensor into N bins";
  let description = [{
    The result has one bin per element; elements whose `mask` is false are not counted:
    `tt.histogram %x, %m : tensor<256xi32> -> tensor<8xi32>`.
  }];
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolLike>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "Gathers elements of a tensor along one axis at the given indices";
  let description = [{
    The result has the shape and encoding of `indices` and the element type of `src`; along
    `axis` an index picks the element of `src`, and along every other dimension the indices
    tensor has the size of `src`. `efficient_layout` marks layouts chosen on purpose.

    ```mlir
    %g = tt.gather %src[%idx] {axis = 0 : i32}
        : (tensor<128x4xf32>, tensor<256x4xi32>) -> tensor<256x4xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
}

def TT_PrintOp : TT_Op<"print", [SameVariadicOperandSize, MemWrite]> {
  let summary = "Prints a prefix and values from the device";
  let description = [{
    `isSigned` has one entry per argument (1 for signed integers).
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
}

def TT_AssertOp : TT_Op<"assert", [MemWrite]> {
  let summary = "Aborts with a message when a condition is false";
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "A descriptor of blocks of the tensor at `base` with `shape` and `strides`";
  let description = [{
    One i32 size and one i64 stride per dimension; the block shape is the descriptor's.
    `padding` says what out-of-bounds elements of a block read as.

    ```mlir
    %d = tt.make_tensor_descriptor %base, [%m, %n], [%sm, %c1_i64]
        : !tt.ptr<f16>, !tt.tensordesc<128x64xf16>
    ```

    Both types may be written without their dialect prefix (`: <f16>, <128x64xf16>`), which
    is how they print.
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       DefaultValuedAttr<TT_PaddingOptionAttr, "PaddingOption.PAD_ZERO">:$padding);
  let results = (outs TT_TensorDesc:$result);
  // `: !tt.ptr<f16>, !tt.tensordesc<...>`, or as Triton prints it, `: <f16>, <...>`.
  let hasCustomAssemblyFormat = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [MemRead]> {
  let summary = "Loads the block of a descriptor at the given indices";
  let description = [{
    The result has the block's element type (signless) and number of elements; cache and
    eviction hints follow the indices in any order, as for `tt.load`:

    ```mlir
    %x = tt.descriptor_load %desc[%i, %j] cacheModifier = ca
        : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>
    ```
  }];
  let arguments = (ins
    TT_TensorDesc:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "CacheModifier.NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "EvictionPolicy.NORMAL">:$evict
  );
  let results = (outs TT_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [MemRead, MemWrite]> {
  let summary = "Stores a tensor into the block of a descriptor at the given indices";
  let description = [{
    ```mlir
    tt.descriptor_store %desc[%i, %j], %x : !tt.tensordesc<128x64xf16>, tensor<128x64xf16>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [MemRead, MemWrite]> {
  let summary = "Combines a tensor into the block of a descriptor (an atomic reducing store)";
  let description = [{
    ```mlir
    tt.descriptor_reduce add, %desc[%i, %j], %x
        : !tt.tensordesc<128x64xf32>, tensor<128x64xf32>
    ```
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,`
    type($src)
  }];
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [MemRead]> {
  let summary = "Gathers rows of a descriptor into one tensor";
  let description = [{
    The descriptor's block is one row (`1xN`); row `x_offsets[i]` from column `y_offset` is row
    `i` of the 2-D result.

    ```mlir
    %r = tt.descriptor_gather %desc[%rows, %col]
        : (!tt.tensordesc<1x128xf32>, tensor<32xi32>, i32) -> tensor<32x128xf32>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, TT_I32Tensor:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [MemRead, MemWrite]> {
  let summary = "Scatters the rows of a tensor to rows of a descriptor";
  let description = [{
    The inverse of `tt.descriptor_gather`: row `i` of `src` goes to row `x_offsets[i]` from
    column `y_offset`.

    ```mlir
    tt.descriptor_scatter %desc[%rows, %col], %x
        : !tt.tensordesc<1x128xf32>, tensor<32xi32>, i32, tensor<32x128xf32>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, TT_I32Tensor:$x_offsets, I32:$y_offset,
                       TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [IsolatedFromAbove, Symbol, FunctionLike,
                               HasParent<"builtin.module">]> {
  let summary = "A function (a kernel, or a device function called by one)";
  let description = [{
    Printed as MLIR prints functions: visibility, name, arguments with their attribute
    dictionaries, results, `attributes {...}`, and the body (absent for a declaration).

    ```mlir
    tt.func public @kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32)
        attributes {noinline = false} {
      tt.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TT_FunctionTypeAttr:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface]> {
  let summary = "Calls a function of the enclosing module";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"tt.func">, ReturnLike, Terminator]> {
  let summary = "Returns from a function";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

def ResultTypeIs : Constraint<CPred<"$0.results[0].type == $1.type">,
                              "the op's result has the value's type">;
def ResultTypeIsNot : Constraint<CPred<"$0.results[0].type != $1.type">,
                                 "the op's result does not have the value's type">;
def NoEfficientLayout : Constraint<CPred<"$0 is None">,
                                   "the reshape does not fix an efficient layout">;
def IsGiven : Constraint<CPred<"$0 is not None">, "the optional operand is given">;
def IsTrueMask : Constraint<CPred<"$0 is not None and constant_value($0) not in (None, 0)">,
                            "the mask is a constant true (a scalar or a splat)">;
def IsFalseMask : Constraint<CPred<"$0 is not None and constant_value($0) == 0">,
                             "the mask is a constant false (a scalar or a splat)">;

let appliedBy = "canonicalize" in {
// broadcast(splat(x)) -> splat(x)
def BroadcastOfSplat : Pat<(TT_BroadcastOp (TT_SplatOp $x)), (TT_SplatOp $x)>;
// broadcast(broadcast(x)) -> broadcast(x)
def BroadcastOfBroadcast : Pat<(TT_BroadcastOp (TT_BroadcastOp $x)), (TT_BroadcastOp $x)>;
// expand_dims(splat(x)) -> splat(x)
def ExpandDimsOfSplat : Pat<(TT_ExpandDimsOp (TT_SplatOp $x), $axis), (TT_SplatOp $x)>;
// trans(splat(x)) -> splat(x)
def TransOfSplat : Pat<(TT_TransOp (TT_SplatOp $x), $order), (TT_SplatOp $x)>;
// reshape(splat(x)) -> splat(x), and reshape(reshape(x)) -> reshape(x) that may reorder if
// either reshape may; not for a reshape that fixes an efficient layout.
def ReshapeOfSplat : Pat<(TT_ReshapeOp (TT_SplatOp $x), $allow, $efficient), (TT_SplatOp $x),
                         [(NoEfficientLayout $efficient)]>;
def ReshapeOfReshape : Pat<
    (TT_ReshapeOp (TT_ReshapeOp $x, $innerAllow, $innerEfficient), $allow, $efficient),
    (TT_ReshapeOp $x,
                  (NativeCodeCall<"UnitAttr() if $0 is not None or $1 is not None else None">
                       $innerAllow, $allow),
                  $efficient),
    [(NoEfficientLayout $efficient)]>;
// int_to_ptr(ptr_to_int(p)) -> p, or tt.bitcast(p) when the pointer types differ.
def IntToPtrOfPtrToInt : Pat<(TT_IntToPtrOp:$op (TT_PtrToIntOp $p)), (replaceWithValue $p),
                             [(ResultTypeIs $op, $p)]>;
def IntToPtrOfPtrToIntCast : Pat<(TT_IntToPtrOp:$op (TT_PtrToIntOp $p)), (TT_BitcastOp $p),
                                 [(ResultTypeIsNot $op, $p)]>;
// Loads and stores under a constant mask, as Triton's CanonicalizeMaskedLoadPattern and
// CanonicalizeMaskedStorePattern (for scalar masks too): load(p, true, other) -> load(p) and
// load(p, false, other) -> other (a load without `other` under a false mask is left alone:
// its value is undefined); store(p, v, true) -> store(p, v) and store(p, v, false) goes.
def MaskedLoadOfTrue : Pat<
    (TT_LoadOp $ptr, $mask, $other, $boundaryCheck, $padding, $cache, $evict, $volatile),
    (TT_LoadOp $ptr, (NoValue), (NoValue), $boundaryCheck, $padding, $cache, $evict, $volatile),
    [(IsTrueMask $mask)]>;
def MaskedLoadOfFalse : Pat<
    (TT_LoadOp $ptr, $mask, $other, $boundaryCheck, $padding, $cache, $evict, $volatile),
    (replaceWithValue $other), [(IsFalseMask $mask), (IsGiven $other)]>;
def MaskedStoreOfTrue : Pat<
    (TT_StoreOp $ptr, $value, $mask, $boundaryCheck, $cache, $evict),
    (TT_StoreOp $ptr, $value, (NoValue), $boundaryCheck, $cache, $evict),
    [(IsTrueMask $mask)]>;
def MaskedStoreOfFalse : Pattern<
    (TT_StoreOp $ptr, $value, $mask, $boundaryCheck, $cache, $evict), [],
    [(IsFalseMask $mask)]>;
}

#endif // TILECRAFT_TT_TD
