//===- OpBase.td - base classes for tile dialect definitions -*- tablegen -*-===//
//
// Written for the tilecraft tests in the style of MLIR's OpBase.td: predicates
// wrapping C++ expressions, constraints, types, attributes, traits and the Op
// class that dialect definitions derive from.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OP_BASE
#define TILE_OP_BASE

//===----------------------------------------------------------------------===//
// Predicates
//===----------------------------------------------------------------------===//

class Pred;

// A leaf predicate: a C++ boolean expression where `$_self` stands for the
// checked entity.
class CPred<code pred> : Pred {
  code predExpr = "(" # pred # ")";
}

class PredCombinerKind;
def PredCombinerAnd : PredCombinerKind;
def PredCombinerOr : PredCombinerKind;
def PredCombinerNot : PredCombinerKind;
def PredCombinerSubst : PredCombinerKind;

class CombinedPred<PredCombinerKind k, list<Pred> c> : Pred {
  PredCombinerKind kind = k;
  list<Pred> children = c;
}

class And<list<Pred> children> : CombinedPred<PredCombinerAnd, children>;
class Or<list<Pred> children> : CombinedPred<PredCombinerOr, children>;
class Neg<Pred child> : CombinedPred<PredCombinerNot, [child]>;
class SubstLeaves<string pat, string repl, Pred child>
    : CombinedPred<PredCombinerSubst, [child]> {
  string pattern = pat;
  string replacement = repl;
}

//===----------------------------------------------------------------------===//
// Constraints and types
//===----------------------------------------------------------------------===//

class Constraint<Pred pred, string desc = ""> {
  Pred predicate = pred;
  string summary = desc;
}

class TypeConstraint<Pred predicate, string summary = "",
                     string cppClassNameParam = "::mlir::Type">
    : Constraint<predicate, summary> {
  string cppClassName = cppClassNameParam;
}

class Type<Pred condition, string descr = "",
           string cppClassName = "::mlir::Type">
    : TypeConstraint<condition, descr, cppClassName> {
  string description = "";
  string builderCall = "";
}

class BuildableType<code builder> {
  code builderCall = builder;
}

def AnyType : Type<CPred<"true">, "any type">;

class AnyTypeOf<list<Type> allowedTypes, string summary = "",
                string cppClassName = "::mlir::Type"> : Type<
    Or<!foreach(allowedType, allowedTypes, allowedType.predicate)>,
    !if(!eq(summary, ""),
        !interleave(!foreach(t, allowedTypes, t.summary), " or "),
        summary),
    cppClassName>;

class I<int width>
    : Type<CPred<"$_self.isSignlessInteger(" # width # ")">,
           width # "-bit signless integer", "::mlir::IntegerType">,
      BuildableType<"$_builder.getIntegerType(" # width # ")"> {
  int bitwidth = width;
}

class F<int width>
    : Type<CPred<"$_self.isF" # width # "()">, width # "-bit float",
           "::mlir::FloatType">,
      BuildableType<"$_builder.getF" # width # "Type()"> {
  int bitwidth = width;
}

def I1 : I<1>;
def I32 : I<32>;
def I64 : I<64>;
foreach w = [16, 32, 64] in
  def F#w : F<w>;

def Index : Type<CPred<"::llvm::isa<::mlir::IndexType>($_self)">, "index",
                 "::mlir::IndexType">,
            BuildableType<"$_builder.getIndexType()">;

class Variadic<Type type>
    : TypeConstraint<type.predicate, "variadic of " # type.summary,
                     type.cppClassName> {
  Type baseType = type;
}

class Optional<Type type>
    : TypeConstraint<type.predicate, type.summary, type.cppClassName> {
  Type baseType = type;
}

// A shaped container whose elements must satisfy one of `allowedTypes`.
class TensorOf<list<Type> allowedTypes> : Type<
    And<[CPred<"::llvm::isa<::mlir::RankedTensorType>($_self)">,
         SubstLeaves<"$_self",
                     "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                     AnyTypeOf<allowedTypes>.predicate>]>,
    "tensor of " # AnyTypeOf<allowedTypes>.summary # " values",
    "::mlir::RankedTensorType">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Attr<Pred condition, string summary = ""> :
    Constraint<condition, summary> {
  code storageType = ?;
  code returnType = ?;
  code convertFromStorage = "$_self";
  string defaultValue = ?;
  bit isOptional = 0;
  Attr baseAttr = ?;
}

class DefaultValuedAttr<Attr attr, string val> :
    Attr<attr.predicate, attr.summary> {
  let storageType = attr.storageType;
  let returnType = attr.returnType;
  let defaultValue = val;
  let baseAttr = attr;
}

class OptionalAttr<Attr attr> : Attr<attr.predicate, attr.summary> {
  let storageType = attr.storageType;
  let returnType = "::std::optional<" # attr.returnType # ">";
  let convertFromStorage = "$_self ? " # returnType # "(" #
                           attr.convertFromStorage # ") : (::std::nullopt)";
  let isOptional = 1;
  let baseAttr = attr;
}

class ConfinedAttr<Attr attr, list<Pred> constraints> : Attr<
    And<!listconcat([attr.predicate], constraints)>, attr.summary> {
  let storageType = attr.storageType;
  let returnType = attr.returnType;
  let baseAttr = attr;
}

class TypedAttrBase<string storage, string ret, Pred condition, string desc>
    : Attr<condition, desc> {
  let storageType = storage;
  let returnType = ret;
}

def I32Attr : TypedAttrBase<"::mlir::IntegerAttr", "uint32_t",
    CPred<[{::llvm::isa<::mlir::IntegerAttr>($_self) &&
            ::llvm::cast<::mlir::IntegerAttr>($_self).getType().isSignlessInteger(32)}]>,
    "32-bit signless integer attribute">;
def BoolAttr : TypedAttrBase<"::mlir::BoolAttr", "bool",
    CPred<"::llvm::isa<::mlir::BoolAttr>($_self)">, "bool attribute">;
def StrAttr : TypedAttrBase<"::mlir::StringAttr", "::llvm::StringRef",
    CPred<"::llvm::isa<::mlir::StringAttr>($_self)">, "string attribute">;

class IntMinValue<int n> : CPred<
    "::llvm::cast<::mlir::IntegerAttr>($_self).getInt() >= " # n>;

//===----------------------------------------------------------------------===//
// Traits, interfaces and the dialect
//===----------------------------------------------------------------------===//

class Trait;
class NativeOpTrait<string name, list<Trait> traits = []> : Trait {
  string trait = name;
  list<Trait> dependentTraits = traits;
}
class PredOpTrait<string descr, Pred pred> : Trait {
  string summary = descr;
  Pred predicate = pred;
}
class OpInterface<string name> : NativeOpTrait<"", []> {
  let trait = name # "::Trait";
  string cppInterfaceName = name;
}
class DeclareOpInterfaceMethods<OpInterface interface,
                                list<string> overridenMethods = []>
    : OpInterface<interface.cppInterfaceName> {
  list<string> alwaysOverriddenMethods = overridenMethods;
}

def Pure : NativeOpTrait<"Pure">;
def Commutative : NativeOpTrait<"IsCommutative">;
def Terminator : NativeOpTrait<"IsTerminator">;
def SameOperandsAndResultType : NativeOpTrait<"SameOperandsAndResultType">;
def MemoryEffectsOpInterface : OpInterface<"MemoryEffectOpInterface">;

class AllTypesMatch<list<string> names> : PredOpTrait<
    "all of {" # !interleave(names, ", ") # "} have same type",
    CPred<!foldl("true", !tail(names), acc, name,
                 acc # " && $" # !head(names) # ".getType() == $" # name # ".getType()")>>;

class Dialect {
  string name = ?;
  string cppNamespace = name;
  code extraClassDeclaration = "";
  bit usePropertiesForAttributes = 1;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

def ins;
def outs;
def region;

class OpBuilder<dag p, code b = ""> {
  dag dagParams = p;
  code body = b;
}

class Op<Dialect dialect, string mnemonic, list<Trait> props = []> {
  Dialect opDialect = dialect;
  string opName = mnemonic;
  string cppNamespace = dialect.cppNamespace;
  string summary = "";
  string description = "";
  dag arguments = (ins);
  dag results = (outs);
  dag regions = (region);
  list<OpBuilder> builders = ?;
  bit skipDefaultBuilders = 0;
  string assemblyFormat = ?;
  bit hasCustomAssemblyFormat = 0;
  bit hasVerifier = 0;
  bit hasFolder = 0;
  bit hasCanonicalizer = 0;
  list<Trait> traits = props;
  code extraClassDeclaration = ?;
  code extraClassDefinition = ?;
  string fullName = !if(!empty(dialect.name), mnemonic, dialect.name # "." # mnemonic);
}

#endif // TILE_OP_BASE
