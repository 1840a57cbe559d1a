//===- AttrTypeBase.td - dialect attributes and types --------------------===//
//
// `AttrDef` and `TypeDef` declare dialect attributes (`#ttg.blocked<...>`) and types
// (`!tt.ptr<f32>`) with `parameters`, a `mnemonic` and an `assemblyFormat`. Parameters are
// `AttrOrTypeParameter`s or, as in MLIR's files, C++ type names that map onto them
// (`"Type"`, `"unsigned"`, `"int"`, `"bool"`, `"StringRef"`, `"Attribute"`).
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_ATTRTYPEBASE_TD
#define TILECRAFT_ATTRTYPEBASE_TD

include "base/OpBase.td"

// A parameter of an attribute or type. `pyType` annotates it; `printer` and `parser` are Python
// expressions that print `$_self` with `$_printer` and parse one with `$_parser`; `converter`
// normalizes a value given to the constructor (`$_value`) into the stored, hashable form.
class AttrOrTypeParameter<string pyType = "object", string desc = ""> {
  string pyTypeName = pyType;
  string summary = desc;
  string printer = "$_printer.print_attribute($_self)";
  string parser = "$_parser.parse_attribute()";
  string converter = "$_value";
  // A Python expression for the value when the parameter is omitted; unset means required.
  string defaultValue = ?;
}

def TypeParameter : AttrOrTypeParameter<"Type", "a type"> {
  let printer = "$_printer.print_type($_self)";
  let parser = "$_parser.parse_type()";
}

def IntParameter : AttrOrTypeParameter<"int", "an integer"> {
  let printer = "$_printer.write(str($_self))";
  let parser = "$_parser.parse_integer()";
  let converter = "int($_value)";
}

def BoolParameter : AttrOrTypeParameter<"bool", "a boolean"> {
  let printer = "$_printer.write('true' if $_self else 'false')";
  let parser = "parse_boolean($_parser)";
  let converter = "bool($_value)";
}

def StringParameter : AttrOrTypeParameter<"str", "a string"> {
  let printer = "$_printer.print_string($_self)";
  let parser = "$_parser.parse_string()";
  let converter = "str($_value)";
}

def AttributeParameter : AttrOrTypeParameter<"Attribute", "an attribute">;

// A list of integers, printed `[1, 2, 3]`.
def IntArrayParameter : AttrOrTypeParameter<"tuple[int, ...]", "a list of integers"> {
  let printer = "$_printer.write('[' + ', '.join(map(str, $_self)) + ']')";
  let parser = "parse_int_list($_parser)";
  let converter = "tuple(int(_v) for _v in $_value)";
}

class ArrayRefParameter<string elementType, string desc = "">
    : AttrOrTypeParameter<"tuple", desc> {
  string element = elementType;
  let printer = "$_printer.write('[' + ', '.join(map(str, $_self)) + ']')";
  let parser = "parse_int_list($_parser)";
  let converter = "tuple($_value)";
}

class DefaultValuedParameter<AttrOrTypeParameter param, string value>
    : AttrOrTypeParameter<param.pyTypeName, param.summary> {
  let printer = param.printer;
  let parser = param.parser;
  let converter = param.converter;
  let defaultValue = value;
}

class AttrOrTypeDef<string kind, string name> {
  string defKind = kind;
  string cppName = name;
  // The name after the dialect prefix: `ptr` in `!tt.ptr<f32>`.
  string mnemonic = ?;
  string summary = "";
  string description = "";
  dag parameters = (ins);
  // The declarative format of what follows the mnemonic; unset with parameters means
  // `<` the parameters separated by commas `>`.
  string assemblyFormat = ?;
  bit hasCustomAssemblyFormat = 0;
  bit genVerifyDecl = 0;
  list<Trait> traits = [];
  // Accepted for compatibility with MLIR's files; meaningless here.
  code extraClassDeclaration = ?;
  list<OpBuilder> builders = ?;
}

class AttrDef<Dialect dialect, string name, list<Trait> attrTraits = [],
              string baseCppClass = "">
    : AttrOrTypeDef<"Attr", name> {
  Dialect attrDialect = dialect;
  let traits = attrTraits;
  // When set, the module printer names this attribute `#alias`, `#alias1`, ... at the top.
  string alias = "";
}

class TypeDef<Dialect dialect, string name, list<Trait> typeTraits = [],
              string baseCppClass = "">
    : AttrOrTypeDef<"Type", name> {
  Dialect typeDialect = dialect;
  let traits = typeTraits;
}

// A type constraint that accepts the TypeDef `def` (give the generated class name).
class DialectType<Dialect d, Pred pred, string summary = "", string pyType = "Type">
    : Type<pred, summary, pyType>;

#endif // TILECRAFT_ATTRTYPEBASE_TD
