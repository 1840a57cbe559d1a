//===- ub.td - the ub (undefined behavior) dialect ------------------------===//
//
// MLIR's `ub` dialect: `ub.poison`, a value of any type that nothing may depend on (Triton uses
// it for values of loop-carried tensors that are never read).
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_UB_TD
#define TILECRAFT_UB_TD

include "base/OpBase.td"

def UB_Dialect : Dialect {
  let name = "ub";
  let summary = "Undefined behavior: poison values";
  let description = [{
    A poison value stands for any value of its type; an op that depends on it has an
    undefined result, so passes may pick whatever value suits them.
  }];
}

def UB_PoisonOp : Op<UB_Dialect, "poison", [Pure]> {
  let summary = "A poison value of any type";
  let description = [{
    `%p = ub.poison : tensor<128x64xf16>`. MLIR's optional `<#ub.poison>` value attribute is
    not modelled: every poison value here is the plain one.
  }];
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif // TILECRAFT_UB_TD
