//===- cf.td - the cf (control flow) dialect ------------------------------===//
//
// Unstructured control flow between the blocks of a region, with MLIR's op names and
// assembly formats: `cf.br ^bb1(%x : i32)`, `cf.cond_br %c, ^bb1, ^bb2(%y : f32)`.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_CF_TD
#define TILECRAFT_CF_TD

include "base/OpBase.td"

def CF_Dialect : Dialect {
  let name = "cf";
  let summary = "Branches between blocks";
  let description = [{
    Terminators that transfer control to successor blocks of the same region, passing values
    to the successor's block arguments.
  }];
}

class CF_Op<string mnemonic, list<Trait> traits = []>
    : Op<CF_Dialect, mnemonic, !listconcat(traits, [Pure, Terminator])>;

def CF_BranchOp : CF_Op<"br"> {
  let summary = "Unconditional branch";
  let description = [{
    Jumps to `dest`, passing `destOperands` to its block arguments (their number and types
    must match).

    ```mlir
    cf.br ^bb2(%0, %1 : i32, f32)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$destOperands);
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = [{
    $dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def CF_CondBranchOp : CF_Op<"cond_br", [AttrSizedOperandSegments]> {
  let summary = "Conditional branch";
  let description = [{
    Jumps to `trueDest` when `condition` is true and to `falseDest` otherwise, passing each
    its operands.

    ```mlir
    cf.cond_br %c, ^bb1(%x : i32), ^bb2
    ```
  }];
  let arguments = (ins I1:$condition, Variadic<AnyType>:$trueDestOperands,
                       Variadic<AnyType>:$falseDestOperands);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let assemblyFormat = [{
    $condition `,`
    $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`
    $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def CF_AssertOp : Op<CF_Dialect, "assert", [MemWrite]> {
  let summary = "Aborts with a message when a condition is false";
  let arguments = (ins I1:$arg, StrAttr:$msg);
  let assemblyFormat = "$arg `,` $msg attr-dict";
}

#endif // TILECRAFT_CF_TD
