//===- passes.td - the tile-IR passes ------------------------------------===//
//
// MLIR's generic passes and Triton's tile-IR passes, with their command-line names. Each pass's
// body is a subclass of its generated base class in the module named by `implModule`.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_PASSES_TD
#define TILECRAFT_PASSES_TD

include "base/PassBase.td"

def Canonicalizer : Pass<"canonicalize"> {
  let summary = "Fold ops and apply every op's canonicalization patterns";
  let description = [{
    Runs the greedy rewrite driver with the folders (`hasFolder`) and canonicalization
    patterns (`hasCanonicalizer`) of every registered op, removing dead ops on the way.
  }];
  let options = [
    Option<"topDown", "top-down", "bool", "true", "seed the worklist in pre-order">,
    Option<"maxIterations", "max-iterations", "int", "10",
           "how many times the driver may sweep the IR before giving up">,
    Option<"maxNumRewrites", "max-num-rewrites", "int", "-1",
           "stop after this many rewrites (-1: no limit)">,
    Option<"regionSimplify", "region-simplify", "string", "normal",
           "`normal`: simplify the regions after each sweep; `disabled`: do not">,
    Option<"testConvergence", "test-convergence", "bool", "false",
           "fail when the rewriting has not converged within max-iterations">,
  ];
  let statistics = [
    Statistic<"numFolded", "num-folded", "ops folded">,
    Statistic<"numRewrites", "num-rewrites", "patterns applied">,
    Statistic<"numErased", "num-erased", "dead ops erased">,
  ];
  let implModule = "tilecraft.transforms.canonicalize";
}

def CSE : Pass<"cse"> {
  let summary = "Eliminate common subexpressions";
  let description = [{
    Replaces an op by an earlier identical one (same name, operands, attributes, result types
    and regions) that dominates it, for ops without side effects, scoped by region.
  }];
  let statistics = [
    Statistic<"numCSE", "num-cse'd", "ops replaced by an earlier one">,
    Statistic<"numDCE", "num-dce'd", "dead ops erased">,
  ];
  let implModule = "tilecraft.transforms.cse";
}

def DCE : Pass<"dce"> {
  let summary = "Erase ops whose results are unused and that have no side effects";
  let statistics = [Statistic<"numErased", "num-erased", "dead ops erased">];
  let implModule = "tilecraft.transforms.dce";
}

def SymbolDCE : Pass<"symbol-dce"> {
  let summary = "Erase private symbols (functions) that nothing references";
  let statistics = [Statistic<"numDCE", "num-dce'd", "symbols erased">];
  let implModule = "tilecraft.transforms.symbol_dce";
}

def SCCP : Pass<"sccp"> {
  let summary = "Sparse conditional constant propagation";
  let description = [{
    Propagates constants through ops, block arguments and region control flow (`scf.if`,
    `scf.for`, `cf` branches), replaces values proven constant, and folds branches on known
    conditions.
  }];
  let implModule = "tilecraft.transforms.sccp";
}

def LoopInvariantCodeMotion : Pass<"loop-invariant-code-motion"> {
  let summary = "Hoist loop-invariant ops without side effects out of loops";
  let implModule = "tilecraft.transforms.licm";
}

def TritonLICM : Pass<"triton-licm"> {
  let summary = "Hoist loop invariants, including loads that are safe to hoist";
  let description = [{
    Like `loop-invariant-code-motion`, and also hoists a `tt.load` whose pointer and mask are
    loop invariant when nothing in the loop writes memory; the load is guarded by the loop's
    trip-count condition.
  }];
  let implModule = "tilecraft.transforms.licm";
}

def Inliner : Pass<"inline"> {
  let summary = "Inline function calls";
  let description = [{
    Inlines calls (`tt.call`, `func.call`) of functions defined in the module (`tt.func`,
    `func.func`), callees before callers (the call graph's post order); recursive functions,
    `noinline` functions, `no_inline` calls and indirect calls are left alone.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int", "4",
           "how many times to inline calls that inlining exposed">,
  ];
  let implModule = "tilecraft.transforms.inline";
}

def SCFToControlFlow : Pass<"convert-scf-to-cf"> {
  let summary = "Lower scf.for, scf.if and scf.while to blocks and cf branches";
  let description = [{
    MLIR's SCFToControlFlow: each loop or conditional becomes blocks of the enclosing region
    joined by `cf.br` and `cf.cond_br`. A `scf.for` gets a condition block taking the
    induction variable and the loop-carried values (`arith.cmpi slt`, or `ult` with
    `unsignedCmp`), its body and an `arith.addi` of the step; an `scf.if` branches to its
    regions, which branch to a block taking its results; an `scf.while` runs its `before`
    region, whose `scf.condition` branches to `after` or out. Ops in a region that may hold
    only one block (the combine region of a `tt.reduce`, say) stay, with a remark.
  }];
  let dependentDialects = ["cf", "arith"];
  let implModule = "tilecraft.transforms.scf_to_cf";
}

def TritonCombine : Pass<"triton-combine", "builtin.module"> {
  let summary = "Combine tile ops: dot with add, chained addptr, select of loads, ...";
  let dependentDialects = ["arith", "tt"];
  let implModule = "tilecraft.transforms.combine";
}

def TritonReorderBroadcast : Pass<"triton-reorder-broadcast", "builtin.module"> {
  let summary = "Move broadcasts and splats after elementwise ops";
  let description = [{
    `elementwise(broadcast(a))` becomes `broadcast(elementwise(a))`, and `splat` likewise, so
    that elementwise work happens on the smaller tensor.
  }];
  let dependentDialects = ["tt"];
  let implModule = "tilecraft.transforms.reorder_broadcast";
}

def TritonLoopUnroll : Pass<"triton-loop-unroll", "builtin.module"> {
  let summary = "Unroll scf.for loops marked with tt.loop_unroll_factor";
  let dependentDialects = ["scf", "arith"];
  let implModule = "tilecraft.transforms.loop_unroll";
}

def TritonLoopAwareCSE : Pass<"triton-loop-aware-cse", "builtin.module"> {
  let summary = "CSE that also merges loop-carried values that are always equal";
  let implModule = "tilecraft.transforms.loop_aware_cse";
}

def TritonTestLoopPeeling : Pass<"triton-test-loop-peeling", "builtin.module"> {
  let summary = "Test pass: peel the last iteration of loops marked __test_peel_epilogue";
  let description = [{
    Peels the last iteration of every `scf.for` with the unit attribute
    `__test_peel_epilogue` into an `scf.if (lb < ub)` after the loop, whose body is the loop
    body at the last induction value; the loop's upper bound becomes `ub - step`.
  }];
  let dependentDialects = ["scf", "arith"];
  let implModule = "tilecraft.transforms.loop_peeling";
}

def TritonRewriteTensorDescriptorToPointer
    : Pass<"triton-rewrite-tensor-descriptor-to-pointer", "builtin.module"> {
  let summary = "Rewrite tensor descriptor loads and stores into masked pointer loads and stores";
  let description = [{
    Each `!tt.tensordesc` value becomes its base pointer, its i64 sizes and strides and two
    i1 flags (NaN padding, TF32 rounding) through function signatures, calls, returns and
    `scf` control flow; `tt.descriptor_load`/`store`/`gather`/`scatter`/`reduce` become
    `tt.load`/`tt.store`/`tt.atomic_rmw` of the block's pointers, masked to the tensor's bounds.
  }];
  let dependentDialects = ["tt", "arith", "scf"];
  let implModule = "tilecraft.transforms.rewrite_tensor_descriptor";
}

#endif // TILECRAFT_PASSES_TD
