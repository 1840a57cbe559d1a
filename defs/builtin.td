//===- builtin.td - the builtin dialect -----------------------------------===//

#ifndef TILECRAFT_BUILTIN_TD
#define TILECRAFT_BUILTIN_TD

include "base/OpBase.td"

def Builtin_Dialect : Dialect {
  let name = "builtin";
  let summary = "The module and the casts every pipeline needs";
  let description = [{
    Ops of this dialect print without the `builtin.` prefix: the top of every IR file is a
    `module`.
  }];
}

def Builtin_ModuleOp : Op<Builtin_Dialect, "module",
    [IsolatedFromAbove, NoTerminator, SymbolTable, SingleBlock]> {
  let summary = "A top-level container of operations";
  let description = [{
    A module holds one region with one block and no terminator. Its attributes carry
    module-wide settings such as `"ttg.num-warps" = 4 : i32`.

    ```mlir
    module attributes {"ttg.num-warps" = 4 : i32} {
      tt.func @kernel() { tt.return }
    }
    ```
  }];
  let arguments = (ins OptionalAttr<SymbolNameAttr>:$sym_name,
                       OptionalAttr<StrAttr>:$sym_visibility);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "($sym_name^)? attr-dict-with-keyword $bodyRegion";
}

def Builtin_UnrealizedConversionCastOp : Op<Builtin_Dialect, "unrealized_conversion_cast",
    [Pure]> {
  let summary = "A cast between types that a conversion has not resolved yet";
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict";
}

#endif // TILECRAFT_BUILTIN_TD
