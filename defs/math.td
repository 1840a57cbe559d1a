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

// Instructions per element charged to a function of a math library (llvmLoweringCost).
defvar Math_FunctionCost = 12;

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
  let languageName = mnemonic;
  let languageKind = "unary";
}
class Math_FloatUnaryOp<string mnemonic, string desc>
    : Math_UnaryOp<mnemonic, FloatLike, desc> {
  let mathFunction = 1;
  let llvmLoweringCost = Math_FunctionCost;
}
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
  let languageName = mnemonic;
  let languageKind = "binary";
}
class Math_FloatBinaryOp<string mnemonic, string desc>
    : Math_BinaryOp<mnemonic, FloatLike, desc> {
  let mathFunction = 1;
  let llvmLoweringCost = Math_FunctionCost;
}

// A floating-point classification: i1 (or a tensor of i1 of the operand's shape).
class Math_FloatClassificationOp<string mnemonic, string desc>
    : Math_Op<mnemonic, [TypesMatchWith<"result is i1 of the operand's shape", "operand",
                                        "result", "i1_like($_self)">]> {
  let summary = desc;
  let arguments = (ins FloatLike:$operand);
  let results = (outs BoolLike:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
  let languageName = mnemonic;
  let languageKind = "unary";
  let tlName = mnemonic;
  let tlSignature = "float_classify";
  let llvmLowering = [OpHook<"float_class">];
}

//===----------------------------------------------------------------------===//
// Floating-point functions of one value
//===----------------------------------------------------------------------===//

def Math_AbsFOp : Math_FloatUnaryOp<"absf", "Floating-point absolute value"> {
  let llvmLowering = [Intrinsic<"llvm.fabs">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.abs";
}
def Math_AcosOp : Math_FloatUnaryOp<"acos", "Arcus cosine"> {
  let llvmLowering = [Intrinsic<"llvm.acos", "cpu">, Libdevice<"acos">];
  let interpreterImpl = "np.arccos";
  let tlName = "acos";
  let tlSignature = "float_unary";
}
def Math_AcoshOp : Math_FloatUnaryOp<"acosh", "Hyperbolic arcus cosine"> {
  let llvmLowering = [Libm<"acosh">, Libdevice<"acosh">];
  let interpreterImpl = "np.arccosh";
  let tlName = "acosh";
  let tlSignature = "float_unary";
}
def Math_AsinOp : Math_FloatUnaryOp<"asin", "Arcus sine"> {
  let llvmLowering = [Intrinsic<"llvm.asin", "cpu">, Libdevice<"asin">];
  let interpreterImpl = "np.arcsin";
  let tlName = "asin";
  let tlSignature = "float_unary";
}
def Math_AsinhOp : Math_FloatUnaryOp<"asinh", "Hyperbolic arcus sine"> {
  let llvmLowering = [Libm<"asinh">, Libdevice<"asinh">];
  let interpreterImpl = "np.arcsinh";
  let tlName = "asinh";
  let tlSignature = "float_unary";
}
def Math_AtanOp : Math_FloatUnaryOp<"atan", "Arcus tangent"> {
  let llvmLowering = [Intrinsic<"llvm.atan", "cpu">, Libdevice<"atan">];
  let interpreterImpl = "np.arctan";
  let tlName = "atan";
  let tlSignature = "float_unary";
}
def Math_AtanhOp : Math_FloatUnaryOp<"atanh", "Hyperbolic arcus tangent"> {
  let llvmLowering = [Libm<"atanh">, Libdevice<"atanh">];
  let interpreterImpl = "np.arctanh";
  let tlName = "atanh";
  let tlSignature = "float_unary";
}
def Math_CbrtOp : Math_FloatUnaryOp<"cbrt", "Cube root"> {
  let llvmLowering = [Libm<"cbrt">, Libdevice<"cbrt">];
  let interpreterImpl = "np.cbrt";
  let tlName = "cbrt";
  let tlSignature = "float_unary";
}
def Math_CeilOp : Math_FloatUnaryOp<"ceil", "Rounds up to an integral value"> {
  let llvmLowering = [Intrinsic<"llvm.ceil">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.ceil";
  let tlName = "ceil";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_CosOp : Math_FloatUnaryOp<"cos", "Cosine"> {
  let llvmLowering = [Intrinsic<"llvm.cos", "cpu">, Libdevice<"cos">];
  let interpreterImpl = "np.cos";
  let tlName = "cos";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_CoshOp : Math_FloatUnaryOp<"cosh", "Hyperbolic cosine"> {
  let llvmLowering = [Intrinsic<"llvm.cosh", "cpu">, Libdevice<"cosh">];
  let interpreterImpl = "np.cosh";
  let tlName = "cosh";
  let tlSignature = "float_unary";
}
def Math_ErfOp : Math_FloatUnaryOp<"erf", "Error function"> {
  let llvmLowering = [FunctionHook<"erf_f32", "cpu", ["f32"]>, Libm<"erf">,
                      Libdevice<"erf">];
  let interpreterImpl = "erf";
  let tlName = "erf";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_ErfcOp : Math_FloatUnaryOp<"erfc", "Complementary error function"> {
  let llvmLowering = [Libm<"erfc">, Libdevice<"erfc">];
  let interpreterImpl = "erfc";
  let tlName = "erfc";
  let tlSignature = "float_unary";
}
// The CPU's f32 exp, exp2, log and log2 are inline code that LLVM vectorizes (mathlib.py).
def Math_ExpOp : Math_FloatUnaryOp<"exp", "Base-e exponential"> {
  let llvmLowering = [FunctionHook<"exp_f32", "cpu", ["f32"]>,
                      Intrinsic<"llvm.exp", "cpu", ["f64"]>,
                      Libdevice<"exp">];
  let interpreterImpl = "np.exp";
  let tlName = "exp";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_Exp2Op : Math_FloatUnaryOp<"exp2", "Base-2 exponential"> {
  // f32 on the GPU: what libdevice's exp2f is (ex2.approx), flushing results below 2^-126 to
  // zero as Triton's does (one MUFU op instead of a denormal-scaling sequence).
  let llvmLowering = [FunctionHook<"exp2_f32", "cpu", ["f32"]>,
                      Intrinsic<"llvm.exp2", "cpu", ["f64"]>,
                      Call<"llvm.nvvm.ex2.approx.ftz.f", "cuda", ["f32"]>, Libdevice<"exp2">];
  let interpreterImpl = "np.exp2";
  let tlName = "exp2";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_ExpM1Op : Math_FloatUnaryOp<"expm1", "exp(x) - 1, accurate near zero"> {
  let llvmLowering = [FunctionHook<"expm1_f32", "cpu", ["f32"]>, Libm<"expm1">,
                      Libdevice<"expm1">];
  let interpreterImpl = "np.expm1";
  let tlName = "expm1";
  let tlSignature = "float_unary";
}
def Math_FloorOp : Math_FloatUnaryOp<"floor", "Rounds down to an integral value"> {
  let llvmLowering = [Intrinsic<"llvm.floor">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.floor";
  let tlName = "floor";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_LogOp : Math_FloatUnaryOp<"log", "Base-e logarithm"> {
  let llvmLowering = [FunctionHook<"log_f32", "cpu", ["f32"]>,
                      Intrinsic<"llvm.log", "cpu", ["f64"]>,
                      Libdevice<"log">];
  let interpreterImpl = "np.log";
  let tlName = "log";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_Log10Op : Math_FloatUnaryOp<"log10", "Base-10 logarithm"> {
  let llvmLowering = [Intrinsic<"llvm.log10", "cpu">, Libdevice<"log10">];
  let interpreterImpl = "np.log10";
  let tlName = "log10";
  let tlSignature = "float_unary";
}
def Math_Log1pOp : Math_FloatUnaryOp<"log1p", "log(1 + x), accurate near zero"> {
  let llvmLowering = [FunctionHook<"log1p_f32", "cpu", ["f32"]>, Libm<"log1p">,
                      Libdevice<"log1p">];
  let interpreterImpl = "np.log1p";
  let tlName = "log1p";
  let tlSignature = "float_unary";
}
def Math_Log2Op : Math_FloatUnaryOp<"log2", "Base-2 logarithm"> {
  let llvmLowering = [FunctionHook<"log2_f32", "cpu", ["f32"]>,
                      Intrinsic<"llvm.log2", "cpu", ["f64"]>,
                      Libdevice<"log2">];
  let interpreterImpl = "np.log2";
  let tlName = "log2";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_RoundOp : Math_FloatUnaryOp<"round",
                                     "Rounds to the nearest integral value, halfway away from zero"> {
  let llvmLowering = [Intrinsic<"llvm.round">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "round_half_away";
  let tlName = "round";
  let tlSignature = "float_unary";
}
def Math_RoundEvenOp : Math_FloatUnaryOp<"roundeven",
                                         "Rounds to the nearest integral value, halfway to even"> {
  let llvmLowering = [Intrinsic<"llvm.roundeven">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.rint";
  let tlName = "rint";
  let tlSignature = "float_unary";
}
def Math_RsqrtOp : Math_FloatUnaryOp<"rsqrt", "Reciprocal of the square root"> {
  let llvmLowering = [FunctionHook<"rsqrt", "cpu">, Libdevice<"rsqrt">];
  let llvmLoweringCost = 4;
  let interpreterImpl = "lambda x: 1 / np.sqrt(x)";
  let tlName = "rsqrt";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_SinOp : Math_FloatUnaryOp<"sin", "Sine"> {
  let llvmLowering = [Intrinsic<"llvm.sin", "cpu">, Libdevice<"sin">];
  let interpreterImpl = "np.sin";
  let tlName = "sin";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_SinhOp : Math_FloatUnaryOp<"sinh", "Hyperbolic sine"> {
  let llvmLowering = [Intrinsic<"llvm.sinh", "cpu">, Libdevice<"sinh">];
  let interpreterImpl = "np.sinh";
  let tlName = "sinh";
  let tlSignature = "float_unary";
}
def Math_SqrtOp : Math_FloatUnaryOp<"sqrt", "Square root"> {
  let llvmLowering = [Intrinsic<"llvm.sqrt">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.sqrt";
  let tlName = "sqrt";
  let tlTopLevel = 1;
  let tlSignature = "float_unary";
}
def Math_TanOp : Math_FloatUnaryOp<"tan", "Tangent"> {
  let llvmLowering = [Intrinsic<"llvm.tan", "cpu">, Libdevice<"tan">];
  let interpreterImpl = "np.tan";
  let tlName = "tan";
  let tlSignature = "float_unary";
}
def Math_TanhOp : Math_FloatUnaryOp<"tanh", "Hyperbolic tangent"> {
  let llvmLowering = [FunctionHook<"tanh_f32", "cpu", ["f32"]>,
                      Intrinsic<"llvm.tanh", "cpu", ["f64"]>, Libdevice<"tanh">];
  let interpreterImpl = "np.tanh";
  let tlName = "tanh";
  let tlSignature = "float_unary";
}
def Math_TruncOp : Math_FloatUnaryOp<"trunc", "Rounds toward zero to an integral value"> {
  let llvmLowering = [Intrinsic<"llvm.trunc">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.trunc";
  let tlName = "trunc";
  let tlSignature = "float_unary";
}

//===----------------------------------------------------------------------===//
// Floating-point functions of two or three values
//===----------------------------------------------------------------------===//

def Math_Atan2Op : Math_FloatBinaryOp<"atan2", "Two-argument arcus tangent atan2(lhs, rhs)"> {
  let llvmLowering = [Intrinsic<"llvm.atan2", "cpu">, Libdevice<"atan2">];
  let interpreterImpl = "np.arctan2";
  let tlName = "atan2";
  let tlSignature = "float_binary";
}
def Math_CopySignOp : Math_FloatBinaryOp<"copysign",
                                         "The magnitude of lhs with the sign of rhs"> {
  let llvmLowering = [Intrinsic<"llvm.copysign">];
  let llvmLoweringCost = 1;
  let interpreterImpl = "np.copysign";
  let tlName = "copysign";
  let tlSignature = "float_binary";
}
def Math_PowFOp : Math_FloatBinaryOp<"powf", "lhs raised to the power rhs"> {
  let llvmLowering = [Intrinsic<"llvm.pow", "cpu">, Libdevice<"pow">];
  let interpreterImpl = "np.power";
  let tlName = "pow";
  let tlSignature = "float_binary";
}

def Math_FPowIOp : Math_Op<"fpowi", [SameOperandsAndResultShape,
                                     AllTypesMatch<["lhs", "result"]>]> {
  let llvmLowering = [OpHook<"fpowi">];
  let llvmLoweringCost = Math_FunctionCost;
  let summary = "A float raised to a signless integer power";
  let arguments = (ins FloatLike:$lhs, SignlessIntegerLike:$rhs);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let hasFolder = 1;
}

def Math_FmaOp : Math_Op<"fma", [SameOperandsAndResultType]> {
  let llvmLowering = [Intrinsic<"llvm.fma">];
  let mathFunction = 1;
  let summary = "Fused multiply-add a * b + c, rounded once";
  let arguments = (ins FloatLike:$a, FloatLike:$b, FloatLike:$c);
  let results = (outs FloatLike:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

def Math_IsFiniteOp : Math_FloatClassificationOp<"isfinite", "Whether a value is finite"> {
  let interpreterImpl = "np.isfinite";
}
def Math_IsInfOp : Math_FloatClassificationOp<"isinf", "Whether a value is an infinity"> {
  let interpreterImpl = "np.isinf";
}
def Math_IsNaNOp : Math_FloatClassificationOp<"isnan", "Whether a value is NaN"> {
  let interpreterImpl = "np.isnan";
}
def Math_IsNormalOp : Math_FloatClassificationOp<"isnormal",
                                                 "Whether a value is a normal number"> {
  let tlName = "";
  let tlSignature = "";
}

//===----------------------------------------------------------------------===//
// Integer functions
//===----------------------------------------------------------------------===//

def Math_AbsIOp : Math_IntegerUnaryOp<"absi", "Integer absolute value (wraps for the minimum)"> {
  let llvmLowering = [OpHook<"absi">];
  let interpreterImpl = "np.abs";
}
def Math_CountLeadingZerosOp : Math_IntegerUnaryOp<"ctlz", "Number of leading zero bits"> {
  let llvmLowering = [OpHook<"bit_count">];
  let interpreterImpl = "ctlz";
  let tlName = "clz";
  let tlSignature = "int_unary";
}
def Math_CountTrailingZerosOp : Math_IntegerUnaryOp<"cttz", "Number of trailing zero bits"> {
  let llvmLowering = [OpHook<"bit_count">];
}
def Math_CtPopOp : Math_IntegerUnaryOp<"ctpop", "Number of set bits"> {
  let llvmLowering = [Intrinsic<"llvm.ctpop">];
  let interpreterImpl = "ctpop";
  let tlName = "popc";
  let tlSignature = "int_unary";
}
def Math_IPowIOp : Math_BinaryOp<"ipowi", SignlessIntegerLike,
                                 "A signed integer raised to a signed integer power"> {
  let llvmLowering = [OpHook<"ipowi">];
  let llvmLoweringCost = Math_FunctionCost;
  let interpreterImpl = "ipowi";
}

#endif // TILECRAFT_MATH_TD
