// A dialect that exercises every generator feature; the tests generate it into a temporary
// folder next to a copy of defs/.

include "base/OpBase.td"
include "base/AttrTypeBase.td"
include "base/PassBase.td"

def Demo_Dialect : Dialect {
  let name = "demo";
  let summary = "Generator test dialect";
  let hooksModule = "demo_hooks";
}

def Demo_PtrType : TypeDef<Demo_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "A pointer";
  let parameters = (ins "Type":$pointee, DefaultValuedParameter<IntParameter, "1">:$space);
  let assemblyFormat = "`<` $pointee (`,` $space^)? `>`";
}

def Demo_LayoutAttr : AttrDef<Demo_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "A blocked layout";
  let alias = "layout";
  let parameters = (ins IntArrayParameter:$sizePerThread, IntArrayParameter:$order);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Demo_Ptr : Type<CPred<"isinstance($_self, PtrType)">, "demo pointer", "PtrType">;

def Demo_Mode : I32EnumAttr<"Mode", "a mode", [
  I32EnumAttrCase<"Fast", 0, "fast">,
  I32EnumAttrCase<"Exact", 1, "exact">,
]>;

class Demo_Op<string mnemonic, list<Trait> traits = []> : Op<Demo_Dialect, mnemonic, traits>;

def Demo_AddOp : Demo_Op<"add", [Pure, Commutative, SameOperandsAndResultType]> {
  let summary = "Adds two integers";
  let arguments = (ins SignlessIntegerLike:$lhs, SignlessIntegerLike:$rhs,
                       DefaultValuedAttr<Demo_Mode, "Mode.Fast">:$mode);
  let results = (outs SignlessIntegerLike:$result);
  let assemblyFormat = "$mode $lhs `,` $rhs attr-dict `:` type($result)";
}

def Demo_ConstantOp : Demo_Op<"constant", [Pure, ConstantLike]> {
  let arguments = (ins I32Attr:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$value attr-dict";
}

def Demo_LoadOp : Demo_Op<"load", [
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result", "$_self.pointee">,
    OptionalTypesMatchWith<"mask is i1", "ptr", "mask", "IntegerType(1)">]> {
  let arguments = (ins Demo_Ptr:$ptr, Optional<I1>:$mask, UnitAttr:$isVolatile);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$ptr (`,` $mask^)? (`volatile` $isVolatile^)? attr-dict `:` type($ptr)";
}

def Demo_CallOp : Demo_Op<"call"> {
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$outs);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, $outs)";
}

def Demo_SelectOp : Demo_Op<"select", [AllTypesMatch<["a", "b", "result"]>]> {
  let arguments = (ins I1:$cond, AnyType:$a, AnyType:$b);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$cond `,` $a `,` $b attr-dict `:` type($result)";
}

def Demo_LoopOp : Demo_Op<"loop", [SingleBlock]> {
  let arguments = (ins Index:$count, Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
}

def Demo_BranchOp : Demo_Op<"br", [Terminator]> {
  let arguments = (ins I1:$cond);
  let successors = (successor AnySuccessor:$then, AnySuccessor:$else);
  let assemblyFormat = "$cond `,` $then `,` $else attr-dict";
}

def Demo_SegmentsOp : Demo_Op<"segments", [AttrSizedOperandSegments]> {
  let arguments = (ins Variadic<I32>:$a, Optional<I32>:$b, I32:$c);
  let assemblyFormat = "`(` $a `)` (`maybe` $b^)? $c attr-dict";
}

def Demo_MaybeOp : Demo_Op<"maybe"> {
  let summary = "Prints `none` when its optional operand is absent";
  let arguments = (ins Optional<I32>:$value);
  let assemblyFormat = "($value^) : (`none`)? attr-dict";
}

def Demo_CheckedOp : Demo_Op<"checked"> {
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$width);
  let hasVerifier = 1;
  let assemblyFormat = "$width attr-dict";
}

def Demo_Fuse : Pass<"demo-fuse", "builtin.module"> {
  let summary = "Fuses demo ops";
  let options = [
    Option<"factor", "factor", "int", "2", "how many to fuse">,
    Option<"aggressive", "aggressive", "bool", "false", "fuse across regions">,
    ListOption<"names", "names", "std::string", "ops to consider">,
  ];
  let statistics = [Statistic<"numFused", "num-fused", "ops fused">];
}
