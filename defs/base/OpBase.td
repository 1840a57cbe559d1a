//===- OpBase.td - dialects, operations, traits, regions, successors -----===//
//
// The vocabulary of MLIR's ODS: a `Dialect`, `Op<dialect, mnemonic, traits>` with `arguments`,
// `results`, `regions`, `successors`, `assemblyFormat` and hooks. `tools/gen` turns every def
// derived from `Op` into a Python class.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_OPBASE_TD
#define TILECRAFT_OPBASE_TD

include "base/Constraints.td"
include "base/LLVMLoweringBase.td"

//===----------------------------------------------------------------------===//
// Dialects
//===----------------------------------------------------------------------===//

class Dialect {
  // The prefix of the dialect's ops, types and attributes (`tt` in `tt.load`).
  string name = ?;
  string summary = "";
  string description = "";
  list<string> dependentDialects = [];
  // The Python module holding the dialect's hand-written hooks (verifiers, folders, custom
  // formats, canonicalization patterns); empty means `tilecraft.dialects.<name>`.
  string hooksModule = "";
  // Accepted for compatibility with MLIR's files; meaningless here.
  string cppNamespace = "";
  bit useDefaultTypePrinterParser = 1;
  bit useDefaultAttributePrinterParser = 1;
  bit usePropertiesForAttributes = 1;
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

// Something an op has. `pyTrait` is a Python expression naming a trait class of
// tilecraft.ir.traits (evaluated in the namespace of `from tilecraft.ir.traits import *`).
class Trait {
  string pyTrait = "";
}

class NativeOpTrait<string name> : Trait {
  let pyTrait = name;
}

// A trait with parameters: `pyTrait` calls the trait's `of(...)` with them.
class ParamNativeOpTrait<string name, string params> : Trait {
  let pyTrait = name # ".of(" # params # ")";
}

// A list of traits used as one.
class TraitList<list<Trait> traits> : Trait {
  list<Trait> traitList = traits;
}

// An op-level constraint: `pred` sees `$_op` and `$name` accessors.
class PredOpTrait<string descr, Pred pred> : Trait {
  string summary = descr;
  Pred predicate = pred;
}

def Commutative : NativeOpTrait<"Commutative">;
def Elementwise : NativeOpTrait<"Elementwise">;
def SameOperandsAndResultType : NativeOpTrait<"SameOperandsAndResultType">;
def SameOperandsAndResultShape : NativeOpTrait<"SameOperandsAndResultShape">;
def SameOperandsAndResultEncoding : NativeOpTrait<"SameOperandsAndResultEncoding">;
def SameOperandsAndResultElementType : NativeOpTrait<"SameOperandsAndResultElementType">;
def SameOperandsShape : NativeOpTrait<"SameOperandsShape">;
def SameOperandsEncoding : NativeOpTrait<"SameOperandsEncoding">;
def SameTypeOperands : NativeOpTrait<"SameTypeOperands">;
def Terminator : NativeOpTrait<"Terminator">;
def ReturnLike : NativeOpTrait<"ReturnLike">;
def SingleBlock : NativeOpTrait<"SingleBlock">;
def NoTerminator : NativeOpTrait<"NoTerminator">;
def IsolatedFromAbove : NativeOpTrait<"IsolatedFromAbove">;
def SameVariadicOperandSize : NativeOpTrait<"SameVariadicOperandSize">;
def SameVariadicResultSize : NativeOpTrait<"SameVariadicResultSize">;
def AttrSizedOperandSegments : NativeOpTrait<"AttrSizedOperandSegments">;
def AttrSizedResultSegments : NativeOpTrait<"AttrSizedResultSegments">;
def Symbol : NativeOpTrait<"Symbol">;
def SymbolTable : NativeOpTrait<"SymbolTable">;
def FunctionLike : NativeOpTrait<"FunctionLike">;
// A call: by its `callee` symbol, or (without one) through its first operand.
def CallOpInterface : NativeOpTrait<"CallOpInterface">;
def ConstantLike : NativeOpTrait<"ConstantLike">;
// The op names its results in printed IR: its hooks module defines `asm_result_name`.
def OpAsmOpInterface : NativeOpTrait<"OpAsmOpInterface">;
def RecursiveMemoryEffects : NativeOpTrait<"RecursiveMemoryEffects">;

// Memory effects.
def NoMemoryEffect : NativeOpTrait<"NoMemoryEffect">;
def MemRead : NativeOpTrait<"MemRead">;
def MemWrite : NativeOpTrait<"MemWrite">;
def MemAlloc : NativeOpTrait<"MemAlloc">;
def MemFree : NativeOpTrait<"MemFree">;
class MemoryEffects<list<Trait> effects> : TraitList<effects>;

// No side effects and speculatable: may be removed when unused, moved and deduplicated.
def Pure : NativeOpTrait<"Pure">;

// The op must sit directly inside one of the named ops.
class HasParent<string op> : ParamNativeOpTrait<"HasParent", "\"" # op # "\"">;
// Ops directly in the op's regions may leave out this dialect's prefix (`return` in func.func).
class DefaultDialect<string dialect>
    : ParamNativeOpTrait<"DefaultDialect", "\"" # dialect # "\"">;
class ParentOneOf<list<string> ops>
    : ParamNativeOpTrait<"HasParent", "\"" # !interleave(ops, "\", \"") # "\"">;

// The named operands, results or attributes all have the same type.
class AllTypesMatch<list<string> names>
    : PredOpTrait<"all of {" # !interleave(names, ", ") # "} have same type",
                  CPred<"all_equal(" # !interleave(!foreach(n, names, "$" # n # ".type"), ", ") #
                        ")">> {
  list<string> values = names;
}

// `transform` applied to the type of `lhsArg` (as `$_self`) gives the type of `rhsArg`.
class TypesMatchWith<string summary, string lhsArg, string rhsArg, string transform>
    : PredOpTrait<summary,
                  CPred<!subst("$_self", "$" # lhsArg # ".type", transform) # " == $" # rhsArg #
                        ".type">> {
  string lhs = lhsArg;
  string rhs = rhsArg;
  string transformer = transform;
}

// Like TypesMatchWith, but `rhsArg` is an optional operand and the check applies when present.
class OptionalTypesMatchWith<string summary, string lhsArg, string rhsArg, string transform>
    : PredOpTrait<summary,
                  CPred<"$" # rhsArg # " is None or " #
                        !subst("$_self", "$" # lhsArg # ".type", transform) # " == $" # rhsArg #
                        ".type">> {
  string lhs = lhsArg;
  string rhs = rhsArg;
  string transformer = transform;
}

//===----------------------------------------------------------------------===//
// Regions and successors
//===----------------------------------------------------------------------===//

class RegionConstraint<Pred pred, string summary = ""> : Constraint<pred, summary>;
class Region<Pred condition, string descr = ""> : RegionConstraint<condition, descr>;

def AnyRegion : Region<TruePred, "any region">;
class SizedRegion<int numBlocks>
    : Region<CPred<"len($_self.blocks) == " # numBlocks>, "region with " # numBlocks # " blocks">;
class MinSizedRegion<int numBlocks>
    : Region<CPred<"len($_self.blocks) >= " # numBlocks>,
             "region with at least " # numBlocks # " blocks">;
class VariadicRegion<Region region> : Region<region.predicate, region.summary> {
  Region baseRegion = region;
}

class SuccessorConstraint<Pred pred, string summary = ""> : Constraint<pred, summary>;
class Successor<Pred condition, string descr = ""> : SuccessorConstraint<condition, descr>;
def AnySuccessor : Successor<TruePred, "any successor">;
class VariadicSuccessor<Successor successor>
    : Successor<successor.predicate, successor.summary> {
  Successor baseSuccessor = successor;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// Markers of the dag operators in `arguments`, `results`, `regions`, `successors`.
def ins;
def outs;
def region;
def successor;

// Extra builders are accepted for compatibility with MLIR's files and ignored.
class OpBuilder<dag p, code b = ""> {
  dag dagParams = p;
  code body = b;
}

class Op<Dialect dialect, string mnemonic, list<Trait> props = []> {
  Dialect opDialect = dialect;
  string opName = mnemonic;
  list<Trait> traits = props;
  string summary = "";
  string description = "";

  dag arguments = (ins);
  dag results = (outs);
  dag regions = (region);
  dag successors = (successor);

  // The declarative assembly format; unset means the generic form.
  string assemblyFormat = ?;

  // Hooks written by hand in the dialect's hooks module.
  bit hasVerifier = 0;
  bit hasRegionVerifier = 0;
  bit hasFolder = 0;
  bit hasCanonicalizer = 0;
  bit hasCanonicalizeMethod = 0;
  bit hasCustomAssemblyFormat = 0;

  // Per-op facts for the kernel language and the interpreter (element-wise ops); tools/gen
  // writes them into generated/language.py and generated/interpreter.py.
  //
  // `languageName` is the name the language's builder builds the op by
  // (`IRBuilder.binary("addf", a, b)`), unique over all dialects; "" means not by name.
  // `languageKind` says how: "unary" and "binary" take the op's operands in order and give a
  // result of the operands' type (or of the type the language computed, for an op whose result
  // type `build` cannot infer), "cast" takes one operand and the result type.
  string languageName = "";
  string languageKind = "";
  // The op's numpy semantics for the interpreter: a Python expression for a function of one
  // numpy array per operand (`np.add`, `lambda x: 1 / np.sqrt(x)`), in the namespace of
  // `numpy as np` and tilecraft.dialects.math_semantics's helpers. Needs `languageName`.
  string interpreterImpl = "";
  // The `tilecraft.language` function that builds the op: `tl.math.<tlName>` (and `tl.<tlName>`
  // with the tensor method `x.<tlName>()` when `tlTopLevel`). `tlSignature` checks and converts
  // its arguments: "float_unary" (one floating-point tensor), "float_binary" (two, promoted to
  // one type), "int_unary" (one integer tensor), "float_classify" (one floating-point tensor
  // to i1 of its shape); `tlDtypes` limits the element type (Triton's names: "fp32").
  string tlName = "";
  bit tlTopLevel = 0;
  string tlSignature = "";
  list<string> tlDtypes = [];

  // How the CPU and CUDA backends lower the element-wise op to LLVM IR (base/LLVMLoweringBase.td;
  // tools/gen writes it into generated/lowering.py). `llvmLoweringCost` is the instructions per
  // element it costs (the CPU backend stores a costly expression that several users read
  // instead of computing it again); `llvmExactResult` says its f16/bf16 result, computed in f32,
  // needs no rounding (negation, selection, min/max); `mathFunction` makes the op also the math
  // function of its mnemonic, for hooks (`fl.math("maximumf", ...)`) and for library symbols of
  // `tt.extern_elementwise` (`erff`, `__nv_erff`).
  list<LLVMLowering> llvmLowering = [];
  int llvmLoweringCost = 1;
  bit llvmExactResult = 0;
  bit mathFunction = 0;

  // Accepted for compatibility with MLIR's files; meaningless here.
  list<OpBuilder> builders = ?;
  bit skipDefaultBuilders = 0;
  code extraClassDeclaration = ?;
  code extraClassDefinition = ?;
}

#endif // TILECRAFT_OPBASE_TD
