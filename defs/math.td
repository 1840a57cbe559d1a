//===- math.td - the math dialect -----------------------------------------===//
//
// Elementwise math functions on scalars and tensors, with MLIR's op names and assembly formats
// (`math.exp %x : tensor<128xf32>`). MLIR's optional fastmath flags are not modelled.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_MATH_TD
#define TILECRAFT_MATH_TD

include "base/OpBase.td"

def Math_Dialect : Dialect {
  let name = "math";
  let summary = "Elementwise mathematical functions";
  let description = [{
    Transcendental and rounding functions, integer bit counting and fused multiply-add, applied
    to a scalar or to every element of a tensor. The result has the type of the operands,
    except for the classification ops (`isnan`, ...), which return i1 of the operand's shape.
  }];
}

class Math_Op<string mnemonic, list<Trait> traits = []>
    : Op<Math_Dialect, mnemonic, !listconcat(traits, [Pure, Elementwise])>;

// One operand, one result of the same type.
class Math_UnaryOp<string mnemonic, Type type, string desc>
    : Math_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasFolder = 1;
}
class Math_FloatUnaryOp<string mnemonic, string desc>
    : Math_UnaryOp<mnemonic, FloatLike, desc>;
class Math_IntegerUnaryOp<string mnemonic, string desc>
    : Math_UnaryOp<mnemonic, SignlessIntegerLike, desc>;

// Two operands and a result of one type.
class Math_BinaryOp<string mnemonic, Type type, string desc>
    : Math_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = desc;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}
class Math_FloatBinaryOp<string mnemonic, string desc>
    : Math_BinaryOp<mnemonic, FloatLike, desc>;

// A floating-point classification: i1 (or a tensor of i1 of the operand's shape).
class Math_FloatClassificationOp<string mnemonic, string desc>
    : Math_Op<mnemonic, [TypesMatchWith<"result is i1 of the operand's shape", "operand",
                                        "result", "i1_like($_self)">]> {
  let summary = desc;
  let arguments = (ins FloatLike:$operand);
  let results = (outs BoolLike:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Floating-point functions of one value
//===----------------------------------------------------------------------===//

def Math_AbsFOp : Math_FloatUnaryOp<"absf", "Floating-point absolute value">;
def Math_AcosOp : Math_FloatUnaryOp<"acos", "Arcus cosine">;
def Math_AcoshOp : Math_FloatUnaryOp<"acosh", "Hyperbolic arcus cosine">;
def Math_AsinOp : Math_FloatUnaryOp<"asin", "Arcus sine">;
def Math_AsinhOp : Math_FloatUnaryOp<"asinh", "Hyperbolic arcus sine">;
def Math_AtanOp : Math_FloatUnaryOp<"atan", "Arcus tangent">;
def Math_AtanhOp : Math_FloatUnaryOp<"atanh", "Hyperbolic arcus tangent">;
def Math_CbrtOp : Math_FloatUnaryOp<"cbrt", "Cube root">;
def Math_CeilOp : Math_FloatUnaryOp<"ceil", "Rounds up to an integral value">;
def Math_CosOp : Math_FloatUnaryOp<"cos", "Cosine">;
def Math_CoshOp : Math_FloatUnaryOp<"cosh", "Hyperbolic cosine">;
def Math_ErfOp : Math_FloatUnaryOp<"erf", "Error function">;
def Math_ErfcOp : Math_FloatUnaryOp<"erfc", "Complementary error function">;
def Math_ExpOp : Math_FloatUnaryOp<"exp", "Base-e exponential">;
def Math_Exp2Op : Math_FloatUnaryOp<"exp2", "Base-2 exponential">;
def Math_ExpM1Op : Math_FloatUnaryOp<"expm1", "exp(x) - 1, accurate near zero">;
def Math_FloorOp : Math_FloatUnaryOp<"floor", "Rounds down to an integral value">;
def Math_LogOp : Math_FloatUnaryOp<"log", "Base-e logarithm">;
def Math_Log10Op : Math_FloatUnaryOp<"log10", "Base-10 logarithm">;
def Math_Log1pOp : Math_FloatUnaryOp<"log1p", "log(1 + x), accurate near zero">;
def Math_Log2Op : Math_FloatUnaryOp<"log2", "Base-2 logarithm">;
def Math_RoundOp : Math_FloatUnaryOp<"round",
                                     "Rounds to the nearest integral value, halfway away from zero">;
def Math_RoundEvenOp : Math_FloatUnaryOp<"roundeven",
                                         "Rounds to the nearest integral value, halfway to even">;
def Math_RsqrtOp : Math_FloatUnaryOp<"rsqrt", "Reciprocal of the square root">;
def Math_SinOp : Math_FloatUnaryOp<"sin", "Sine">;
def Math_SinhOp : Math_FloatUnaryOp<"sinh", "Hyperbolic sine">;
def Math_SqrtOp : Math_FloatUnaryOp<"sqrt", "Square root">;
def Math_TanOp : Math_FloatUnaryOp<"tan", "Tangent">;
def Math_TanhOp : Math_FloatUnaryOp<"tanh", "Hyperbolic tangent">;
def Math_TruncOp : Math_FloatUnaryOp<"trunc", "Rounds toward zero to an integral value">;

//===----------------------------------------------------------------------===//
// Floating-point functions of two or three values
//===----------------------------------------------------------------------===//

def Math_Atan2Op : Math_FloatBinaryOp<"atan2", "Two-argument arcus tangent atan2(lhs, rhs)">;
def Math_CopySignOp : Math_FloatBinaryOp<"copysign",
                                         "The magnitude of lhs with the sign of rhs">;
def Math_PowFOp : Math_FloatBinaryOp<"powf", "lhs raised to the power rhs">;

def Math_FPowIOp : Math_Op<"fpowi", [SameOperandsAndResultShape,
                                     AllTypesMatch<["lhs", "result"]>]> {
  let summary = "A float raised to a signless integer power";
  let arguments = (ins FloatLike:$lhs, SignlessIntegerLike:$rhs);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let hasFolder = 1;
}

def Math_FmaOp : Math_Op<"fma", [SameOperandsAndResultType]> {
  let summary = "Fused multiply-add a * b + c, rounded once";
  let arguments = (ins FloatLike:$a, FloatLike:$b, FloatLike:$c);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

def Math_IsFiniteOp : Math_FloatClassificationOp<"isfinite", "Whether a value is finite">;
def Math_IsInfOp : Math_FloatClassificationOp<"isinf", "Whether a value is an infinity">;
def Math_IsNaNOp : Math_FloatClassificationOp<"isnan", "Whether a value is NaN">;
def Math_IsNormalOp : Math_FloatClassificationOp<"isnormal",
                                                 "Whether a value is a normal number">;

//===----------------------------------------------------------------------===//
// Integer functions
//===----------------------------------------------------------------------===//

def Math_AbsIOp : Math_IntegerUnaryOp<"absi", "Integer absolute value (wraps for the minimum)">;
def Math_CountLeadingZerosOp : Math_IntegerUnaryOp<"ctlz", "Number of leading zero bits">;
def Math_CountTrailingZerosOp : Math_IntegerUnaryOp<"cttz", "Number of trailing zero bits">;
def Math_CtPopOp : Math_IntegerUnaryOp<"ctpop", "Number of set bits">;
def Math_IPowIOp : Math_BinaryOp<"ipowi", SignlessIntegerLike,
                                 "A signed integer raised to a signed integer power">;

#endif // TILECRAFT_MATH_TD
