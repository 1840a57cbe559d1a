//===- arith.td - the arith dialect ---------------------------------------===//
//
// Integer and floating-point arithmetic on scalars and tensors, with MLIR's op names, operand
// order and assembly formats.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_ARITH_TD
#define TILECRAFT_ARITH_TD

include "base/OpBase.td"
include "base/PatternBase.td"

def Arith_Dialect : Dialect {
  let name = "arith";
  let summary = "Integer and floating-point arithmetic";
  let description = [{
    Elementwise arithmetic on scalars and tensors: constants, integer and float binary ops,
    comparisons, selects, and conversions between types.
  }];
}

class Arith_Op<string mnemonic, list<Trait> traits = []>
    : Op<Arith_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// Instructions per element charged to integer division and remainders (llvmLoweringCost).
defvar Arith_DivisionCost = 12;

// A tensor type of i1 with the shape and encoding of `$_self`, or i1 for a scalar.
defvar I1SameShape = "i1_like($_self)";

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Arith_ConstantOp : Arith_Op<"constant", [ConstantLike, OpAsmOpInterface,
                                             AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant scalar or tensor";
  let description = [{
    `arith.constant 1 : i32` and `arith.constant dense<0.000000e+00> : tensor<128xf32>`: the
    result has the type of the attribute.
  }];
  let arguments = (ins TypedAttr:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 0;
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

class Arith_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Arith_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType, Elementwise])> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
  let languageName = mnemonic;
  let languageKind = "binary";
}

class Arith_IntBinaryOp<string mnemonic, list<Trait> traits = []>
    : Arith_BinaryOp<mnemonic, SignlessIntegerLike, traits>;
class Arith_FloatBinaryOp<string mnemonic, list<Trait> traits = []>
    : Arith_BinaryOp<mnemonic, FloatLike, traits>;

def Arith_AddIOp : Arith_IntBinaryOp<"addi", [Commutative]> {
  let llvmLowering = [Instruction<"add">];
  let summary = "Integer addition (wraps around)";
  let interpreterImpl = "np.add";
  let hasCanonicalizer = 1;
}
def Arith_SubIOp : Arith_IntBinaryOp<"subi"> {
  let llvmLowering = [Instruction<"sub">];
  let summary = "Integer subtraction (wraps around)";
  let interpreterImpl = "np.subtract";
  let hasCanonicalizer = 1;
}
def Arith_MulIOp : Arith_IntBinaryOp<"muli", [Commutative]> {
  let llvmLowering = [Instruction<"mul">];
  let summary = "Integer multiplication (wraps around)";
  let interpreterImpl = "np.multiply";
  let hasCanonicalizer = 1;
}
def Arith_DivSIOp : Arith_IntBinaryOp<"divsi"> {
  let llvmLowering = [OpHook<"divsi">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Signed integer division, rounding toward zero";
  let interpreterImpl = "divsi";
}
def Arith_DivUIOp : Arith_IntBinaryOp<"divui"> {
  let llvmLowering = [OpHook<"divui">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Unsigned integer division";
  let interpreterImpl = "divui";
}
def Arith_CeilDivSIOp : Arith_IntBinaryOp<"ceildivsi"> {
  let llvmLowering = [OpHook<"rounded_div">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Signed integer division, rounding toward positive infinity";
}
def Arith_FloorDivSIOp : Arith_IntBinaryOp<"floordivsi"> {
  let llvmLowering = [OpHook<"rounded_div">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Signed integer division, rounding toward negative infinity";
}
def Arith_RemSIOp : Arith_IntBinaryOp<"remsi"> {
  let llvmLowering = [OpHook<"remsi">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Signed integer remainder, with the sign of the dividend";
  let interpreterImpl = "remsi";
}
def Arith_RemUIOp : Arith_IntBinaryOp<"remui"> {
  let llvmLowering = [OpHook<"remui">];
  let llvmLoweringCost = Arith_DivisionCost;
  let summary = "Unsigned integer remainder";
  let interpreterImpl = "remui";
}
def Arith_AndIOp : Arith_IntBinaryOp<"andi", [Commutative]> {
  let llvmLowering = [Instruction<"and">];
  let summary = "Bitwise and";
  let interpreterImpl = "np.bitwise_and";
}
def Arith_OrIOp : Arith_IntBinaryOp<"ori", [Commutative]> {
  let llvmLowering = [Instruction<"or">];
  let summary = "Bitwise or";
  let interpreterImpl = "np.bitwise_or";
}
def Arith_XOrIOp : Arith_IntBinaryOp<"xori", [Commutative]> {
  let llvmLowering = [Instruction<"xor">];
  let summary = "Bitwise exclusive or";
  let interpreterImpl = "np.bitwise_xor";
}
def Arith_ShLIOp : Arith_IntBinaryOp<"shli"> {
  let llvmLowering = [OpHook<"shift">];
  let summary = "Shift left";
  let interpreterImpl = "shli";
}
def Arith_ShRSIOp : Arith_IntBinaryOp<"shrsi"> {
  let llvmLowering = [OpHook<"shift">];
  let summary = "Arithmetic (sign-extending) shift right";
  let interpreterImpl = "shrsi";
}
def Arith_ShRUIOp : Arith_IntBinaryOp<"shrui"> {
  let llvmLowering = [OpHook<"shift">];
  let summary = "Logical (zero-filling) shift right";
  let interpreterImpl = "shrui";
}
def Arith_MaxSIOp : Arith_IntBinaryOp<"maxsi", [Commutative]> {
  let llvmLowering = [OpHook<"int_minmax">];
  let summary = "Signed integer maximum";
  let interpreterImpl = "lambda a, b: np.maximum(signed(a), signed(b))";
}
def Arith_MaxUIOp : Arith_IntBinaryOp<"maxui", [Commutative]> {
  let llvmLowering = [OpHook<"int_minmax">];
  let summary = "Unsigned integer maximum";
  let interpreterImpl = "lambda a, b: np.maximum(unsigned(a), unsigned(b))";
}
def Arith_MinSIOp : Arith_IntBinaryOp<"minsi", [Commutative]> {
  let llvmLowering = [OpHook<"int_minmax">];
  let summary = "Signed integer minimum";
  let interpreterImpl = "lambda a, b: np.minimum(signed(a), signed(b))";
}
def Arith_MinUIOp : Arith_IntBinaryOp<"minui", [Commutative]> {
  let llvmLowering = [OpHook<"int_minmax">];
  let summary = "Unsigned integer minimum";
  let interpreterImpl = "lambda a, b: np.minimum(unsigned(a), unsigned(b))";
}

def Arith_AddFOp : Arith_FloatBinaryOp<"addf", [Commutative]> {
  let llvmLowering = [FastMathInstruction<"fadd">];
  let summary = "Floating-point addition";
  let interpreterImpl = "np.add";
}
def Arith_SubFOp : Arith_FloatBinaryOp<"subf"> {
  let llvmLowering = [FastMathInstruction<"fsub">];
  let summary = "Floating-point subtraction";
  let interpreterImpl = "np.subtract";
}
def Arith_MulFOp : Arith_FloatBinaryOp<"mulf", [Commutative]> {
  let llvmLowering = [FastMathInstruction<"fmul">];
  let summary = "Floating-point multiplication";
  let interpreterImpl = "np.multiply";
}
def Arith_DivFOp : Arith_FloatBinaryOp<"divf"> {
  // On CUDA an f32 division is PTX's div.full.f32 (2 ulp), as Triton lowers it (tl.div_rn and
  // tt.precise_divf round correctly).
  let llvmLowering = [OpHook<"div_full", "cuda", ["f32"]>, Instruction<"fdiv">];
  let llvmLoweringCost = 4;
  let summary = "Floating-point division";
  let interpreterImpl = "np.divide";
}
def Arith_RemFOp : Arith_FloatBinaryOp<"remf"> {
  let llvmLowering = [Instruction<"frem", "cpu">, Libdevice<"fmod">];
  let llvmLoweringCost = Arith_DivisionCost;
  let mathFunction = 1;
  let summary = "Floating-point remainder, with the sign of the dividend";
  let interpreterImpl = "np.fmod";
}
def Arith_MaximumFOp : Arith_FloatBinaryOp<"maximumf", [Commutative]> {
  let llvmLowering = [Intrinsic<"llvm.maximum", "cpu">, FunctionHook<"maximumf", "cuda">];
  let llvmExactResult = 1;
  let mathFunction = 1;
  let summary = "Floating-point maximum, propagating NaN";
  let interpreterImpl = "np.maximum";
}
def Arith_MinimumFOp : Arith_FloatBinaryOp<"minimumf", [Commutative]> {
  let llvmLowering = [Intrinsic<"llvm.minimum", "cpu">, FunctionHook<"minimumf", "cuda">];
  let llvmExactResult = 1;
  let mathFunction = 1;
  let summary = "Floating-point minimum, propagating NaN";
  let interpreterImpl = "np.minimum";
}
def Arith_MaxNumFOp : Arith_FloatBinaryOp<"maxnumf", [Commutative]> {
  // maximumnum ignores NaNs as maxnum does; LLVM 22 vectorizes maxnum reductions on the CPU
  // with a NaN check that trips an assertion in its cost model (and llvmlite's LLVM keeps
  // assertions). Either zero may be the maximum of -0 and +0, so `nsz` lets x86 skip the
  // blends that order them (a max reduction's loop: 3 instructions a vector instead of 5).
  let llvmLowering = [Intrinsic<"llvm.maximumnum", "cpu", [], ["nsz"]>,
                      Intrinsic<"llvm.maxnum", "cuda">];
  let llvmExactResult = 1;
  let mathFunction = 1;
  let summary = "Floating-point maximum, preferring numbers over NaN";
  let interpreterImpl = "np.fmax";
}
def Arith_MinNumFOp : Arith_FloatBinaryOp<"minnumf", [Commutative]> {
  let llvmLowering = [Intrinsic<"llvm.minimumnum", "cpu", [], ["nsz"]>,
                      Intrinsic<"llvm.minnum", "cuda">];
  let llvmExactResult = 1;
  let mathFunction = 1;
  let summary = "Floating-point minimum, preferring numbers over NaN";
  let interpreterImpl = "np.fmin";
}

def Arith_NegFOp : Arith_Op<"negf", [SameOperandsAndResultType, Elementwise]> {
  let llvmLowering = [Instruction<"fneg">];
  let llvmExactResult = 1;
  let summary = "Floating-point negation";
  let languageName = "negf";
  let languageKind = "unary";
  let interpreterImpl = "np.negative";
  let arguments = (ins FloatLike:$operand);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Comparisons and select
//===----------------------------------------------------------------------===//

def Arith_CmpIPredicate : I64EnumAttr<"CmpIPredicate", "integer comparison predicate", [
  I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>, I64EnumAttrCase<"slt", 2>,
  I64EnumAttrCase<"sle", 3>, I64EnumAttrCase<"sgt", 4>, I64EnumAttrCase<"sge", 5>,
  I64EnumAttrCase<"ult", 6>, I64EnumAttrCase<"ule", 7>, I64EnumAttrCase<"ugt", 8>,
  I64EnumAttrCase<"uge", 9>,
]>;

def Arith_CmpFPredicate : I64EnumAttr<"CmpFPredicate", "floating-point comparison predicate", [
  I64EnumAttrCase<"AlwaysFalse", 0, "false">, I64EnumAttrCase<"OEQ", 1, "oeq">,
  I64EnumAttrCase<"OGT", 2, "ogt">, I64EnumAttrCase<"OGE", 3, "oge">,
  I64EnumAttrCase<"OLT", 4, "olt">, I64EnumAttrCase<"OLE", 5, "ole">,
  I64EnumAttrCase<"ONE", 6, "one">, I64EnumAttrCase<"ORD", 7, "ord">,
  I64EnumAttrCase<"UEQ", 8, "ueq">, I64EnumAttrCase<"UGT", 9, "ugt">,
  I64EnumAttrCase<"UGE", 10, "uge">, I64EnumAttrCase<"ULT", 11, "ult">,
  I64EnumAttrCase<"ULE", 12, "ule">, I64EnumAttrCase<"UNE", 13, "une">,
  I64EnumAttrCase<"UNO", 14, "uno">, I64EnumAttrCase<"AlwaysTrue", 15, "true">,
]>;

class Arith_CompareOp<string mnemonic, Type type, Attr predicate>
    : Arith_Op<mnemonic, [SameTypeOperands, Elementwise,
                          TypesMatchWith<"result type has i1 element type and same shape as "
                                         # "operands", "lhs", "result", I1SameShape>]> {
  let arguments = (ins predicate:$predicate, type:$lhs, type:$rhs);
  let results = (outs BoolLike:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
}

def Arith_CmpIOp : Arith_CompareOp<"cmpi", SignlessIntegerLike, Arith_CmpIPredicate> {
  let llvmLowering = [OpHook<"cmpi">];
  let summary = "Integer comparison";
}
def Arith_CmpFOp : Arith_CompareOp<"cmpf", FloatLike, Arith_CmpFPredicate> {
  let llvmLowering = [OpHook<"cmpf">];
  let summary = "Floating-point comparison";
}

// MLIR's: a scalar i1 condition, or a condition of the result's shape.
class BooleanConditionOrMatchingShape<string condition, string result>
    : PredOpTrait<condition # " is signless i1 or has matching shape",
                  CPred<"$" # condition # ".type == IntegerType(1) or (isinstance($" # condition #
                        ".type, RankedTensorType) and isinstance($" # result #
                        ".type, RankedTensorType) and $" # condition # ".type.shape == $" #
                        result # ".type.shape)">>;

def Arith_SelectOp : Arith_Op<"select", [AllTypesMatch<["true_value", "false_value", "result"]>,
                                         BooleanConditionOrMatchingShape<"condition", "result">,
                                         Elementwise]> {
  let llvmLowering = [Instruction<"select">];
  let llvmExactResult = 1;
  let summary = "Chooses between two values by a condition";
  let description = [{
    The condition is an i1 scalar (selecting a whole value) or an i1 tensor of the same shape
    as the values (selecting element by element).
  }];
  let arguments = (ins BoolLike:$condition, AnyType:$true_value, AnyType:$false_value);
  let results = (outs AnyType:$result);
  // MLIR's format: `arith.select %c, %a, %b : i32` for an i1 condition, and
  // `: tensor<4xi1>, tensor<4xf32>` (condition type first) for a tensor condition.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

class Arith_CastOp<string mnemonic, Type from, Type to>
    : Arith_Op<mnemonic, [Elementwise, SameOperandsAndResultShape,
                          SameOperandsAndResultEncoding]> {
  let arguments = (ins from:$in);
  let results = (outs to:$out);
  let assemblyFormat = "$in attr-dict `:` type($in) `to` type($out)";
  let hasFolder = 1;
}

def IntegerLike : TypeOrTensorOf<[AnySignlessIntegerOrIndex], "integer-like">;

def Arith_ExtSIOp : Arith_CastOp<"extsi", SignlessIntegerLike, SignlessIntegerLike> {
  let llvmLowering = [OpHook<"extsi">];
  let summary = "Sign-extends an integer to a wider type";
}
def Arith_ExtUIOp : Arith_CastOp<"extui", SignlessIntegerLike, SignlessIntegerLike> {
  let llvmLowering = [CastInstruction<"zext">];
  let summary = "Zero-extends an integer to a wider type";
}
def Arith_TruncIOp : Arith_CastOp<"trunci", SignlessIntegerLike, SignlessIntegerLike> {
  let llvmLowering = [CastInstruction<"trunc">];
  let summary = "Truncates an integer to a narrower type";
}
def Arith_ExtFOp : Arith_CastOp<"extf", FloatLike, FloatLike> {
  let llvmLowering = [OpHook<"float_cast">];
  let summary = "Widens a floating-point value";
  let languageName = "extf";
  let languageKind = "cast";
}
def Arith_TruncFOp : Arith_CastOp<"truncf", FloatLike, FloatLike> {
  let llvmLowering = [OpHook<"float_cast">];
  let summary = "Narrows a floating-point value, rounding to nearest even";
  let languageName = "truncf";
  let languageKind = "cast";
}
def Arith_SIToFPOp : Arith_CastOp<"sitofp", SignlessIntegerLike, FloatLike> {
  let llvmLowering = [CastInstruction<"sitofp">];
  let summary = "Converts a signed integer to floating point";
  let languageName = "sitofp";
  let languageKind = "cast";
}
def Arith_UIToFPOp : Arith_CastOp<"uitofp", SignlessIntegerLike, FloatLike> {
  let llvmLowering = [CastInstruction<"uitofp">];
  let summary = "Converts an unsigned integer to floating point";
  let languageName = "uitofp";
  let languageKind = "cast";
}
def Arith_FPToSIOp : Arith_CastOp<"fptosi", FloatLike, SignlessIntegerLike> {
  let llvmLowering = [OpHook<"float_to_int">];
  let summary = "Converts floating point to a signed integer, rounding toward zero";
  let languageName = "fptosi";
  let languageKind = "cast";
}
def Arith_FPToUIOp : Arith_CastOp<"fptoui", FloatLike, SignlessIntegerLike> {
  let llvmLowering = [OpHook<"float_to_int">];
  let summary = "Converts floating point to an unsigned integer, rounding toward zero";
  let languageName = "fptoui";
  let languageKind = "cast";
}
def Arith_IndexCastOp : Arith_CastOp<"index_cast", IntegerLike, IntegerLike> {
  let llvmLowering = [OpHook<"extsi">];
  let summary = "Converts between index and a signless integer, sign-extending";
}
def Arith_BitcastOp : Arith_CastOp<"bitcast", AnyType, AnyType> {
  let llvmLowering = [OpHook<"bitcast">];
  let summary = "Reinterprets the bits of a value as another type of the same width";
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

// Integer widths, index counted as 64 bits.
def NarrowerThanResult : Constraint<
    CPred<"getattr(element_type_of($0.type), 'width', 64) < "
          "getattr(element_type_of($1.results[0].type), 'width', 64)">,
    "the value is narrower than the op's result">;

def IsBoolOfCondition : Constraint<CPred<"$0.type is $1.results[0].type">,
                                   "the select chooses between i1 values of the condition's type">;
def IsConstantOne : Constraint<CPred<"constant_value($0) == 1">, "the value is the constant 1">;
def IsConstantZero : Constraint<CPred<"constant_value($0) == 0">, "the value is the constant 0">;

// The predicate that holds exactly where the given one (an attribute of the enum) does not.
def InvertCmpIPredicate : NativeCodeCall<
    "_arith.CmpIPredicate[dict(eq='ne', ne='eq', slt='sge', sge='slt', sle='sgt', sgt='sle', "
    "ult='uge', uge='ult', ule='ugt', ugt='ule')[_arith.CmpIPredicate($0.value).name]]">;
def InvertCmpFPredicate : NativeCodeCall<
    "_arith.CmpFPredicate[dict(AlwaysFalse='AlwaysTrue', AlwaysTrue='AlwaysFalse', OEQ='UNE', "
    "UNE='OEQ', OGT='ULE', ULE='OGT', OGE='ULT', ULT='OGE', OLT='UGE', UGE='OLT', OLE='UGT', "
    "UGT='OLE', ONE='UEQ', UEQ='ONE', ORD='UNO', UNO='ORD')"
    "[_arith.CmpFPredicate($0.value).name]]">;

let appliedBy = "canonicalize" in {
// extsi(extui(x)) -> extui(x): the zero-extended value has a clear sign bit.
def ExtSIOfExtUI : Pat<(Arith_ExtSIOp (Arith_ExtUIOp $x)), (Arith_ExtUIOp $x)>;
// trunci(extsi(x)) -> extsi(x) and trunci(extui(x)) -> extui(x) when x is narrower than the
// result (the other widths are folds).
def TruncIOfExtSI : Pat<(Arith_TruncIOp:$op (Arith_ExtSIOp $x)), (Arith_ExtSIOp $x),
                        [(NarrowerThanResult $x, $op)]>;
def TruncIOfExtUI : Pat<(Arith_TruncIOp:$op (Arith_ExtUIOp $x)), (Arith_ExtUIOp $x),
                        [(NarrowerThanResult $x, $op)]>;

// MLIR's select canonicalizations after those of tilecraft/dialects/arith.py (benefit 0, tried
// in this order): select(c, true, x) -> ori(c, x) and select(c, x, false) -> andi(c, x) on i1
// values of the condition's type; select(c, select(c, a, b), d) -> select(c, a, d) and
// select(c, a, select(c, b, d)) -> select(c, a, d).
def SelectTrueIsOr : Pat<(Arith_SelectOp:$op $c, $true, $x), (Arith_OrIOp $c, $x),
                         [(IsBoolOfCondition $c, $op), (IsConstantOne $true)], (addBenefit -1)>;
def SelectFalseIsAnd : Pat<(Arith_SelectOp:$op $c, $x, $false), (Arith_AndIOp $c, $x),
                           [(IsBoolOfCondition $c, $op), (IsConstantZero $false)],
                           (addBenefit -1)>;
def SelectOfSelectTrue : Pat<(Arith_SelectOp $c, (Arith_SelectOp $c, $a, $b), $d),
                             (Arith_SelectOp $c, $a, $d), [], (addBenefit -2)>;
def SelectOfSelectFalse : Pat<(Arith_SelectOp $c, $a, (Arith_SelectOp $c, $b, $d)),
                              (Arith_SelectOp $c, $a, $d), [], (addBenefit -2)>;

// xori(cmpi(p, a, b), true) -> cmpi(!p, a, b), and the same of cmpf with the predicate that
// holds where p does not (unordered where p is ordered), as MLIR's XOrINotCmpI/XOrINotCmpF.
def XOrINotCmpI : Pat<(Arith_XOrIOp (Arith_CmpIOp $pred, $a, $b), $one),
                      (Arith_CmpIOp (InvertCmpIPredicate $pred), $a, $b),
                      [(IsConstantOne $one)]>;
def XOrINotCmpF : Pat<(Arith_XOrIOp (Arith_CmpFOp $pred, $a, $b), $one),
                      (Arith_CmpFOp (InvertCmpFPredicate $pred), $a, $b),
                      [(IsConstantOne $one)]>;
}

#endif // TILECRAFT_ARITH_TD
