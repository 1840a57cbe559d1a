//===- PassBase.td - passes, options and statistics ----------------------===//
//
// `Pass<"cli-arg", "anchor-op">` declares a pass: `tools/gen` writes a base class with typed
// options parsed from `name=value` text and statistics; the pass's body is written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_PASSBASE_TD
#define TILECRAFT_PASSBASE_TD

// A pass option. `type` is one of `bool`, `int`, `unsigned`, `int32_t`, `int64_t`, `float`,
// `double`, `string` or `std::string`; `default` is its value as the option text would spell it.
class Option<string varName, string arg, string valueType, string default, string desc,
             string additionalFlags = ""> {
  string cppName = varName;
  string argument = arg;
  string type = valueType;
  string defaultValue = default;
  string description = desc;
  string additionalOptFlags = additionalFlags;
}

// A comma-separated list option: `name=1,2,3`.
class ListOption<string varName, string arg, string valueType, string desc,
                 string additionalFlags = "">
    : Option<varName, arg, valueType, "", desc, additionalFlags>;

// A counter the pass increments; printed with `--mlir-pass-statistics`.
class Statistic<string varName, string statName, string desc> {
  string cppName = varName;
  string name = statName;
  string description = desc;
}

class PassBase<string passArg, string base> {
  string argument = passArg;
  string baseClass = base;
  string summary = "";
  string description = "";
  list<string> dependentDialects = [];
  list<Option> options = [];
  list<Statistic> statistics = [];
  // The Python module that implements the pass; empty means `tilecraft.transforms`.
  string implModule = "";
  // Accepted for compatibility with MLIR's files; meaningless here.
  code constructor = "";
}

// A pass that runs on operations named `anchor` (any operation when empty).
class Pass<string passArg, string anchor = ""> : PassBase<passArg, "OperationPass"> {
  string opName = anchor;
}

class InterfacePass<string passArg, string interface> : PassBase<passArg, "InterfacePass"> {
  string interfaceName = interface;
}

#endif // TILECRAFT_PASSBASE_TD
