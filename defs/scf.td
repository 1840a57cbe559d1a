//===- scf.td - the scf (structured control flow) dialect -----------------===//
//
// Loops and conditionals with regions, with MLIR's op names, operand order and assembly
// formats: `scf.for ... iter_args(...)`, `scf.if ... else`, `scf.while ... do`, `scf.yield`,
// `scf.condition`. The formats of for, if and while are written by hand
// (tilecraft/dialects/scf.py), as MLIR's are.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_SCF_TD
#define TILECRAFT_SCF_TD

include "base/OpBase.td"

def SCF_Dialect : Dialect {
  let name = "scf";
  let summary = "Structured control flow: loops and conditionals with regions";
  let description = [{
    Loop-carried values flow through `iter_args` and `scf.yield`; a conditional yields the
    values it defines from both branches.
  }];
}

class SCF_Op<string mnemonic, list<Trait> traits = []> : Op<SCF_Dialect, mnemonic, traits>;

class SCF_MaxSizedRegion<int numBlocks>
    : Region<CPred<"len($_self.blocks) <= " # numBlocks>,
             "region with at most " # numBlocks # " blocks">;

def SCF_ForOp : SCF_Op<"for", [RecursiveMemoryEffects, SingleBlock,
                               AllTypesMatch<["lowerBound", "upperBound", "step"]>]> {
  let summary = "A counted loop with loop-carried values";
  let description = [{
    Runs the body for `%iv` = lowerBound, lowerBound + step, ... while below upperBound. The
    body's block arguments are the induction variable and the loop-carried values, which
    start as `initArgs` and are replaced by what the body yields; the results are the last
    yielded values. Bounds of type index print no type, others do:

    ```mlir
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %next = arith.addf %acc, %x : f32
      scf.yield %next : f32
    }
    ```

    A loop without loop-carried values leaves its `scf.yield` out of the text. With the
    `unsigned` keyword (`unsignedCmp`) the bounds compare as unsigned integers.
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$lowerBound,
                       AnySignlessIntegerOrIndex:$upperBound,
                       AnySignlessIntegerOrIndex:$step,
                       Variadic<AnyType>:$initArgs,
                       UnitAttr:$unsignedCmp);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def SCF_IfOp : SCF_Op<"if", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "Runs one of two regions depending on a condition";
  let description = [{
    ```mlir
    %r = scf.if %c -> (i32) {
      scf.yield %a : i32
    } else {
      scf.yield %b : i32
    }
    ```

    The else region may be empty (and is then left out of the text) only when the op defines
    no values; yields without operands are left out of the text.
  }];
  let arguments = (ins I1:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SCF_MaxSizedRegion<1>:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def SCF_WhileOp : SCF_Op<"while", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "A loop that tests a condition computed by its 'before' region";
  let description = [{
    The `before` region receives the loop-carried values and ends with `scf.condition`: when
    the condition holds, its other operands go to the `after` region, whose `scf.yield` feeds
    the next `before`; when it fails they become the op's results.

    ```mlir
    %r = scf.while (%x = %init) : (i32) -> i32 {
      %c = arith.cmpi slt, %x, %n : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%y: i32):
      %z = arith.addi %y, %one : i32
      scf.yield %z : i32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$before, SizedRegion<1>:$after);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def SCF_ConditionOp : SCF_Op<"condition", [HasParent<"scf.while">, Pure, Terminator]> {
  let summary = "Ends the 'before' region of scf.while: continue with args, or exit";
  let arguments = (ins I1:$condition, Variadic<AnyType>:$args);
  let assemblyFormat = "`(` $condition `)` attr-dict ($args^ `:` type($args))?";
}

def SCF_YieldOp : SCF_Op<"yield", [Pure, ReturnLike, Terminator,
                                   ParentOneOf<["scf.for", "scf.if", "scf.while"]>]> {
  let summary = "Ends a region of scf.for, scf.if or scf.while, yielding values";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // TILECRAFT_SCF_TD
