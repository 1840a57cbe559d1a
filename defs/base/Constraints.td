//===- Constraints.td - predicates, type and attribute constraints -------===//
//
// Predicates are Python expressions. `$_self` stands for the value being checked (a Type for
// type constraints, an Attribute for attribute constraints) and `$_op` for the operation; in op
// predicates `$name` stands for the operand, result or attribute accessor of that name.
// Expressions are evaluated in the namespace of `from tilecraft.ir import *`.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_CONSTRAINTS_TD
#define TILECRAFT_CONSTRAINTS_TD

//===----------------------------------------------------------------------===//
// Predicates
//===----------------------------------------------------------------------===//

// A condition, rendered as a Python expression in `predExpr`.
class Pred {
  string predExpr = "True";
}

// A predicate written directly as a Python expression.
class CPred<string pred> : Pred {
  let predExpr = "(" # pred # ")";
}

def TruePred : CPred<"True">;

// The conjunction of several predicates.
class And<list<Pred> children> : Pred {
  let predExpr = !if(!empty(children), "True",
                     "(" # !interleave(!foreach(p, children, p.predExpr), " and ") # ")");
}

// The disjunction of several predicates.
class Or<list<Pred> children> : Pred {
  let predExpr = !if(!empty(children), "False",
                     "(" # !interleave(!foreach(p, children, p.predExpr), " or ") # ")");
}

// The negation of a predicate.
class Neg<Pred child> : Pred {
  let predExpr = "(not " # child.predExpr # ")";
}

// `child` with every `pattern` replaced by `replacement` (e.g. `$_self` by its element type).
class SubstLeaves<string pattern, string replacement, Pred child> : Pred {
  let predExpr = !subst(pattern, replacement, child.predExpr);
}

// A predicate and the words that describe it in error messages.
class Constraint<Pred pred, string desc = ""> {
  Pred predicate = pred;
  string summary = desc;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

class TypeConstraint<Pred predicate, string summary = "", string pyType = "Type">
    : Constraint<predicate, summary> {
  // The Python class that a value of this constraint has, for annotations.
  string pyTypeName = pyType;
}

// A type constraint. `builderCall`, when not empty, is a Python expression that builds the one
// type the constraint accepts: builders and assembly formats use it to infer result types.
class Type<Pred condition, string descr = "", string pyType = "Type">
    : TypeConstraint<condition, descr, pyType> {
  string builderCall = "";
}

class BuildableType<string builder> {
  string builderCall = builder;
}

// Any of the listed types.
class AnyTypeOf<list<Type> allowedTypes, string summary = "", string pyType = "Type">
    : Type<Or<!foreach(t, allowedTypes, t.predicate)>,
           !if(!eq(summary, ""), !interleave(!foreach(t, allowedTypes, t.summary), " or "),
               summary),
           pyType>;

// A variadic operand or result: any number of values that each satisfy `type`.
class Variadic<Type type> : TypeConstraint<type.predicate, "variadic of " # type.summary> {
  Type baseType = type;
}

// An optional operand or result: zero or one value that satisfies `type`.
class Optional<Type type> : TypeConstraint<type.predicate, type.summary> {
  Type baseType = type;
}

def AnyType : Type<TruePred, "any type">;
def NoneType : Type<CPred<"isinstance($_self, NoneType)">, "none type">,
               BuildableType<"NoneType()">;
def Index : Type<CPred<"$_self.is_index()">, "index">, BuildableType<"index">;

class I<int width>
    : Type<CPred<"$_self.is_signless_integer(" # width # ")">, width # "-bit signless integer",
           "IntegerType">,
      BuildableType<"IntegerType(" # width # ")"> {
  int bitwidth = width;
}
def I1 : I<1>;
def I8 : I<8>;
def I16 : I<16>;
def I32 : I<32>;
def I64 : I<64>;

class SI<int width>
    : Type<CPred<"$_self.is_integer(" # width # ") and $_self.signedness == 'signed'">,
           width # "-bit signed integer", "IntegerType">,
      BuildableType<"IntegerType(" # width # ", 'signed')">;
class UI<int width>
    : Type<CPred<"$_self.is_integer(" # width # ") and $_self.signedness == 'unsigned'">,
           width # "-bit unsigned integer", "IntegerType">,
      BuildableType<"IntegerType(" # width # ", 'unsigned')">;

def AnyInteger : Type<CPred<"$_self.is_integer()">, "integer", "IntegerType">;
def AnySignlessInteger : Type<CPred<"$_self.is_signless_integer()">, "signless integer",
                              "IntegerType">;
def AnySignlessIntegerOrIndex
    : Type<CPred<"$_self.is_signless_integer() or $_self.is_index()">,
           "signless integer or index">;

class F<int width, string kind>
    : Type<CPred<"$_self == FloatType('" # kind # "')">, width # "-bit float", "FloatType">,
      BuildableType<"FloatType('" # kind # "')">;
def F16 : F<16, "f16">;
def BF16 : Type<CPred<"$_self == FloatType('bf16')">, "bfloat16 type", "FloatType">,
           BuildableType<"FloatType('bf16')">;
def F32 : F<32, "f32">;
def F64 : F<64, "f64">;
def TF32 : Type<CPred<"$_self == FloatType('tf32')">, "tf32 type", "FloatType">,
           BuildableType<"FloatType('tf32')">;
def F8E4M3FN : Type<CPred<"$_self == FloatType('f8E4M3FN')">, "f8E4M3FN type", "FloatType">,
               BuildableType<"FloatType('f8E4M3FN')">;
def F8E5M2 : Type<CPred<"$_self == FloatType('f8E5M2')">, "f8E5M2 type", "FloatType">,
             BuildableType<"FloatType('f8E5M2')">;
def AnyFloat : Type<CPred<"$_self.is_float()">, "floating-point", "FloatType">;

// A ranked tensor whose element type is one of `allowedTypes`.
class RankedTensorOf<list<Type> allowedTypes, string summary = "ranked tensor">
    : Type<And<[CPred<"isinstance($_self, RankedTensorType)">,
                SubstLeaves<"$_self", "$_self.element_type",
                            AnyTypeOf<allowedTypes>.predicate>]>,
           summary # " of " # AnyTypeOf<allowedTypes>.summary # " values", "RankedTensorType">;
class TensorOf<list<Type> allowedTypes> : RankedTensorOf<allowedTypes, "tensor">;

def AnyRankedTensor : Type<CPred<"isinstance($_self, RankedTensorType)">, "ranked tensor",
                           "RankedTensorType">;
def AnyTensor : Type<CPred<"isinstance($_self, RankedTensorType)">, "tensor",
                     "RankedTensorType">;

// A scalar of one of `allowedTypes` or a tensor of them.
class TypeOrTensorOf<list<Type> allowedTypes, string summary = "">
    : AnyTypeOf<[AnyTypeOf<allowedTypes>, TensorOf<allowedTypes>],
                !if(!eq(summary, ""),
                    AnyTypeOf<allowedTypes>.summary # " or tensor thereof", summary)>;

def SignlessIntegerLike : TypeOrTensorOf<[AnySignlessIntegerOrIndex],
                                         "signless-integer-like">;
def FloatLike : TypeOrTensorOf<[AnyFloat], "floating-point-like">;
def BoolLike : TypeOrTensorOf<[I1], "bool-like">;

//===----------------------------------------------------------------------===//
// Attribute constraints
//===----------------------------------------------------------------------===//

class AttrConstraint<Pred predicate, string summary = "">
    : Constraint<predicate, summary>;

// An attribute kind. The strings are Python expressions: `returnValue` turns the stored
// attribute `$_self` into what the accessor returns, `buildValue` turns a builder argument
// `$_value` into the attribute, `asmPrinter`/`asmParser` print and parse it in a custom
// assembly format (`$_printer`, `$_parser`); empty ones mean the generic attribute syntax with
// the type elided when it is `valueType`.
class Attr<Pred condition, string summary = "", string pyType = "Attribute">
    : AttrConstraint<condition, summary> {
  string pyTypeName = pyType;
  string returnValue = "$_self";
  string buildValue = "$_value";
  string valueType = "";
  string asmPrinter = "";
  string asmParser = "";
  bit isOptional = 0;
  // A Python expression for the accessor's value when the attribute is absent.
  string defaultValue = ?;
  Attr baseAttr = ?;
}

// An attribute that may be absent; its accessor returns None then.
class OptionalAttr<Attr attr> : Attr<attr.predicate, "optional " # attr.summary, attr.pyTypeName> {
  let returnValue = attr.returnValue;
  let buildValue = attr.buildValue;
  let valueType = attr.valueType;
  let asmPrinter = attr.asmPrinter;
  let asmParser = attr.asmParser;
  let isOptional = 1;
  let baseAttr = attr;
}

// An attribute whose accessor returns `val` (a Python expression) when it is absent.
class DefaultValuedAttr<Attr attr, string val>
    : Attr<attr.predicate, attr.summary, attr.pyTypeName> {
  let returnValue = attr.returnValue;
  let buildValue = attr.buildValue;
  let valueType = attr.valueType;
  let asmPrinter = attr.asmPrinter;
  let asmParser = attr.asmParser;
  let defaultValue = val;
  let baseAttr = attr;
}

// `attr` restricted further by `constraints`.
class ConfinedAttr<Attr attr, list<AttrConstraint> constraints>
    : Attr<And<!listconcat([attr.predicate], !foreach(c, constraints, c.predicate))>,
           !interleave(!listconcat([attr.summary], !foreach(c, constraints, c.summary)),
                       " whose value is "),
           attr.pyTypeName> {
  let returnValue = attr.returnValue;
  let buildValue = attr.buildValue;
  let valueType = attr.valueType;
  let asmPrinter = attr.asmPrinter;
  let asmParser = attr.asmParser;
  let baseAttr = attr;
}

class IntMinValue<int n>
    : AttrConstraint<CPred<"$_self.value >= " # n>, "at least " # n>;
class IntMaxValue<int n>
    : AttrConstraint<CPred<"$_self.value <= " # n>, "at most " # n>;
def IntNonNegative : AttrConstraint<CPred<"$_self.value >= 0">, "non-negative">;
def IntPositive : AttrConstraint<CPred<"$_self.value > 0">, "positive">;
class ArrayMinCount<int n>
    : AttrConstraint<CPred<"len($_self) >= " # n>, "with at least " # n # " elements">;
class ArrayCount<int n>
    : AttrConstraint<CPred<"len($_self) == " # n>, "with exactly " # n # " elements">;

def AnyAttr : Attr<TruePred, "any attribute">;

class TypedIntegerAttr<int width, string signedness = "signless">
    : Attr<CPred<"isinstance($_self, IntegerAttr) and $_self.type == IntegerType(" # width #
                 ", '" # signedness # "')">,
           width # "-bit " # signedness # " integer attribute", "int"> {
  let returnValue = "$_self.value";
  let buildValue = "IntegerAttr($_value, IntegerType(" # width # ", '" # signedness # "'))";
  let valueType = "IntegerType(" # width # ", '" # signedness # "')";
}
def I1Attr : TypedIntegerAttr<1>;
def I8Attr : TypedIntegerAttr<8>;
def I16Attr : TypedIntegerAttr<16>;
def I32Attr : TypedIntegerAttr<32>;
def I64Attr : TypedIntegerAttr<64>;
def SI32Attr : TypedIntegerAttr<32, "signed">;
def UI32Attr : TypedIntegerAttr<32, "unsigned">;

def IndexAttr : Attr<CPred<"isinstance($_self, IntegerAttr) and $_self.type == index">,
                     "index attribute", "int"> {
  let returnValue = "$_self.value";
  let buildValue = "IntegerAttr($_value, index)";
  let valueType = "index";
}

def BoolAttr : Attr<CPred<"isinstance($_self, IntegerAttr) and $_self.type == i1">,
                    "bool attribute", "bool"> {
  let returnValue = "bool($_self.value)";
  let buildValue = "BoolAttr(bool($_value))";
}

class TypedFloatAttr<F type>
    : Attr<CPred<"isinstance($_self, FloatAttr) and $_self.type == " # type.builderCall>,
           type.summary # " attribute", "float"> {
  let returnValue = "$_self.value";
  let buildValue = "FloatAttr($_value, " # type.builderCall # ")";
  let valueType = type.builderCall;
}
def F32Attr : TypedFloatAttr<F32>;
def F64Attr : TypedFloatAttr<F64>;

def StrAttr : Attr<CPred<"isinstance($_self, StringAttr)">, "string attribute", "str"> {
  let returnValue = "$_self.value";
  let buildValue = "StringAttr($_value)";
}

def SymbolNameAttr : Attr<CPred<"isinstance($_self, StringAttr)">, "symbol name", "str"> {
  let returnValue = "$_self.value";
  let buildValue = "StringAttr($_value)";
  let asmPrinter = "$_printer.print_symbol_name($_self.value)";
  let asmParser = "StringAttr($_parser.parse_symbol_name())";
}

def FlatSymbolRefAttr
    : Attr<CPred<"isinstance($_self, SymbolRefAttr) and not $_self.nested">,
           "flat symbol reference attribute", "str"> {
  let returnValue = "$_self.root";
  let buildValue = "SymbolRefAttr($_value)";
}

def UnitAttr : Attr<CPred<"isinstance($_self, UnitAttr)">, "unit attribute", "bool"> {
  let returnValue = "True";
  let buildValue = "UnitAttr()";
  let defaultValue = "False";
}

def TypeAttr : Attr<CPred<"isinstance($_self, TypeAttr)">, "type attribute", "Type"> {
  let returnValue = "$_self.value";
  let buildValue = "TypeAttr($_value)";
  let asmPrinter = "$_printer.print_type($_self.value)";
  let asmParser = "TypeAttr($_parser.parse_type())";
}

class TypeAttrOf<Type type>
    : Attr<And<[CPred<"isinstance($_self, TypeAttr)">,
                SubstLeaves<"$_self", "$_self.value", type.predicate>]>,
           "type attribute of " # type.summary, "Type"> {
  let returnValue = "$_self.value";
  let buildValue = "TypeAttr($_value)";
  let asmPrinter = "$_printer.print_type($_self.value)";
  let asmParser = "TypeAttr($_parser.parse_type())";
}

def DictionaryAttr : Attr<CPred<"isinstance($_self, DictionaryAttr)">, "dictionary attribute">;

def ArrayAttr : Attr<CPred<"isinstance($_self, ArrayAttr)">, "array attribute", "ArrayAttr">;

class TypedArrayAttrBase<Attr element, string summary>
    : Attr<And<[CPred<"isinstance($_self, ArrayAttr)">,
                CPred<"all(" # !subst("$_self", "_e", element.predicate.predExpr) #
                      " for _e in $_self)">]>,
           summary, "ArrayAttr">;
def I32ArrayAttr : TypedArrayAttrBase<I32Attr, "32-bit integer array attribute">;
def I64ArrayAttr : TypedArrayAttrBase<I64Attr, "64-bit integer array attribute">;
def StrArrayAttr : TypedArrayAttrBase<StrAttr, "string array attribute">;
def DictArrayAttr : TypedArrayAttrBase<DictionaryAttr, "array of dictionary attributes">;

class DenseArrayAttrOf<Type element, string summary>
    : Attr<CPred<"isinstance($_self, DenseArrayAttr) and $_self.element_type == " #
                 element.builderCall>,
           summary, "tuple"> {
  let returnValue = "tuple($_self.values)";
  let buildValue = "DenseArrayAttr(" # element.builderCall # ", tuple($_value))";
}
def DenseBoolArrayAttr : DenseArrayAttrOf<I1, "i1 dense array attribute">;
def DenseI32ArrayAttr : DenseArrayAttrOf<I32, "i32 dense array attribute">;
def DenseI64ArrayAttr : DenseArrayAttrOf<I64, "i64 dense array attribute">;

def ElementsAttr : Attr<CPred<"isinstance($_self, DenseElementsAttr)">, "constant vector/tensor attribute">;

// A typed attribute: integer, float or dense elements, printed with its type.
def TypedAttr : Attr<CPred<"isinstance($_self, (IntegerAttr, FloatAttr, DenseElementsAttr))">,
                     "TypedAttr instance">;

def LocationAttr : Attr<CPred<"isinstance($_self, Location)">, "location">;

//===----------------------------------------------------------------------===//
// Enum attributes
//===----------------------------------------------------------------------===//

// One case of an enum: its Python name, its integer value, and its keyword in the assembly.
class EnumAttrCase<string sym, int intVal, string strVal = sym> {
  string symbol = sym;
  int value = intVal;
  string str = strVal;
}
class I32EnumAttrCase<string sym, int intVal, string strVal = sym>
    : EnumAttrCase<sym, intVal, strVal>;
class I64EnumAttrCase<string sym, int intVal, string strVal = sym>
    : EnumAttrCase<sym, intVal, strVal>;

// An enum stored as an integer attribute of `width` bits. The generator writes a Python
// `IntEnum` named `name`; custom assembly formats print and parse the case's keyword.
class IntEnumAttr<int width, string name, string summary, list<EnumAttrCase> cases>
    : Attr<CPred<"isinstance($_self, IntegerAttr) and $_self.type == IntegerType(" # width #
                 ") and $_self.value in " # name # "._value2member_map_">,
           summary, name> {
  string className = name;
  int bitwidth = width;
  list<EnumAttrCase> enumerants = cases;
  let returnValue = name # "($_self.value)";
  let buildValue = "IntegerAttr(int($_value), IntegerType(" # width # "))";
  let valueType = "IntegerType(" # width # ")";
  let asmPrinter = "$_printer.write(" # name # "($_self.value).keyword)";
  let asmParser = "IntegerAttr(" # name # ".parse($_parser), IntegerType(" # width # "))";
}
class I32EnumAttr<string name, string summary, list<EnumAttrCase> cases>
    : IntEnumAttr<32, name, summary, cases>;
class I64EnumAttr<string name, string summary, list<EnumAttrCase> cases>
    : IntEnumAttr<64, name, summary, cases>;

#endif // TILECRAFT_CONSTRAINTS_TD
