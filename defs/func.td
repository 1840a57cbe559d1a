//===- func.td - MLIR's func dialect ---------------------------------------===//
//
// Functions, calls and returns with MLIR's op names and assembly formats, so that IR written by
// MLIR tools (`func.func @f(%a: i32) -> i32 { ... func.return %a : i32 }`) parses here. The
// function and its calls have the same symbol and call traits as `tt.func` and `tt.call`, so
// the call graph, the inliner and symbol-dce treat both dialects alike.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_FUNC_TD
#define TILECRAFT_FUNC_TD

include "base/OpBase.td"

def Func_Dialect : Dialect {
  let name = "func";
  let summary = "Functions, direct and indirect calls, returns";
  let description = [{
    MLIR's `func` dialect: `func.func` defines a function (a symbol), `func.call` calls one by
    name, `func.constant` turns a function's name into a value that `func.call_indirect`
    calls, and `func.return` ends a function's blocks.
  }];
}

class Func_Op<string mnemonic, list<Trait> traits = []> : Op<Func_Dialect, mnemonic, traits>;

// A function type held in a type attribute (a function's signature).
def Func_FunctionTypeAttr
    : Attr<CPred<"isinstance($_self, TypeAttr) and isinstance($_self.value, FunctionType)">,
           "type attribute of function type", "FunctionType"> {
  let returnValue = "$_self.value";
  let buildValue = "TypeAttr($_value)";
}

def Func_FunctionType : Type<CPred<"isinstance($_self, FunctionType)">, "function type",
                             "FunctionType">;

def Func_FuncOp : Func_Op<"func", [IsolatedFromAbove, Symbol, FunctionLike,
                                   DefaultDialect<"func">]> {
  let summary = "A function: a symbol with a signature and, unless declared only, a body";
  let description = [{
    The syntax is MLIR's: visibility, name, arguments with their attribute dictionaries,
    results, `attributes {...}`, and the body, absent for a declaration (which must not be
    public).

    ```mlir
    func.func private @callee(%arg0: i32) -> i32 {
      func.return %arg0 : i32
    }
    func.func private @extern(f32) -> f32
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Func_FunctionTypeAttr:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Func_CallOp : Func_Op<"call", [CallOpInterface]> {
  let summary = "Calls a function of an enclosing symbol table by name";
  let description = [{
    The operands and results match the callee's signature. `no_inline` keeps the inliner
    away from this call.

    ```mlir
    %r = func.call @callee(%x) : (i32) -> i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       UnitAttr:$no_inline);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
  let hasVerifier = 1;
}

def Func_CallIndirectOp : Func_Op<"call_indirect", [CallOpInterface]> {
  let summary = "Calls a value of function type";
  let description = [{
    The operands and results match the callee's function type, which the assembly format
    spells once. Canonicalization turns a call of a `func.constant` into a `func.call`.

    ```mlir
    %f = func.constant @callee : (i32) -> i32
    %r = func.call_indirect %f(%x) : (i32) -> i32
    ```
  }];
  let arguments = (ins Func_FunctionType:$callee, Variadic<AnyType>:$callee_operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$results);
  // `$callee ( $callee_operands ) attr-dict : type($callee)`: the operand and result types
  // come from the callee's type, which the declarative format cannot spread over groups.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  // A call of a `func.constant` becomes a `func.call` of its function.
  let hasCanonicalizer = 1;
}

def Func_ConstantOp : Func_Op<"constant", [ConstantLike, Pure, OpAsmOpInterface]> {
  let summary = "The value of a function, named by its symbol";
  let description = [{
    The result's function type is the referenced function's.

    ```mlir
    %f = func.constant @callee : (i32) -> i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$value);
  let results = (outs Func_FunctionType:$result);
  let assemblyFormat = "attr-dict $value `:` type($result)";
  let hasVerifier = 1;
}

def Func_ReturnOp : Func_Op<"return", [Pure, HasParent<"func.func">, ReturnLike, Terminator]> {
  let summary = "Returns from a function";
  let description = [{
    The operands match the enclosing function's results.

    ```mlir
    func.return %0, %1 : i32, f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

#endif // TILECRAFT_FUNC_TD
