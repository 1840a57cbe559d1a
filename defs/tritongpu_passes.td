//===- tritongpu_passes.td - passes to and on the GPU IR ------------------===//
//
// Triton's conversion from tile IR to GPU IR with layouts, and its GPU-IR passes, with their
// command-line names.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_TRITONGPU_PASSES_TD
#define TILECRAFT_TRITONGPU_PASSES_TD

include "base/PassBase.td"

def ConvertTritonToTritonGPU : Pass<"convert-triton-to-tritongpu", "builtin.module"> {
  let summary = "Give every tensor a layout: tile IR to GPU IR";
  let description = [{
    Every tensor type gets Triton's default `#ttg.blocked` layout for its shape (one element
    per thread, lanes then warps along the fastest dim first), except where an op fixes it: a
    reduction's results are its operand's layout sliced along the axis, `tt.expand_dims` reads
    a slice of its result's layout, and `tt.dot` reads its operands in `#ttg.dot_op` layouts of
    the accumulator's. `ttg.convert_layout` is inserted wherever an operand's layout differs
    from the one its user needs. The module gets `ttg.num-warps`, `ttg.threads-per-warp`,
    `ttg.num-ctas` and `ttg.target`.
  }];
  let dependentDialects = ["ttg"];
  let options = [
    Option<"target", "target", "string", "", "the target, e.g. `cuda:90`">,
    Option<"numWarps", "num-warps", "int", "4", "warps per program (CTA)">,
    Option<"threadsPerWarp", "threads-per-warp", "int", "32", "threads per warp">,
    Option<"numCtas", "num-ctas", "int", "1", "CTAs per cluster">,
    Option<"enableSourceRemat", "enable-source-remat", "bool", "false",
           "accepted for Triton's command lines; no effect">,
  ];
  let implModule = "tilecraft.transforms.triton_to_tritongpu";
}

#endif // TILECRAFT_TRITONGPU_PASSES_TD
