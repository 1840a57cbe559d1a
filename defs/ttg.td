//===- ttg.td - the TritonGPU (ttg) dialect --------------------------------===//
//
// Triton's GPU dialect with Triton's names and textual forms, so that IR printed by
// `triton-opt` parses and prints back unchanged: the layouts of distributed tensors
// (`#ttg.blocked`, `#ttg.slice`, `#ttg.dot_op`, `#ttg.nvidia_mma`, `#ttg.linear`), the layouts
// of shared memory, the memory descriptor type `!ttg.memdesc` and the ops that move data
// between layouts, registers and shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_TTG_TD
#define TILECRAFT_TTG_TD

include "base/OpBase.td"
include "base/AttrTypeBase.td"
include "tt.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let summary = "TritonGPU: tensors with explicit layouts over threads, warps and CTAs";
  let description = [{
    A TritonGPU tensor type carries an encoding that says which thread of which warp of which
    CTA holds each element (`tensor<128x64xf16, #blocked>`); shared memory buffers are
    `!ttg.memdesc` values. The module's discardable attributes `ttg.num-warps`,
    `ttg.threads-per-warp`, `ttg.num-ctas` and `ttg.target` give the launch shape and the
    target (`tilecraft.dialects.ttg` reads them).
  }];
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// `[[0, 1], [1, 0]]`: a list of integer vectors (the bases of a linear layout).
def TTG_BasesParameter
    : AttrOrTypeParameter<"tuple[tuple[int, ...], ...]", "a list of integer vectors"> {
  let printer = "$_printer.write('[' + ', '.join('[' + ', '.join(map(str, _b)) + ']' "
                # "for _b in $_self) + ']')";
  let parser = "(lambda _a: tuple(tuple(_v.value for _v in _b.elements) for _b in _a.elements) "
               # "if isinstance(_a, ArrayAttr) and all(isinstance(_b, ArrayAttr) and "
               # "all(type(_v) is IntegerAttr for _v in _b.elements) for _b in _a.elements) "
               # "else $_parser.error('expected a list of integer lists'))"
               # "($_parser.parse_attribute())";
  let converter = "tuple(tuple(int(_v) for _v in _b) for _b in $_value)";
}

// The CTA layout of a distributed or shared encoding: the tensor coordinates of each basis of
// the block (CTA) index, left out of the text when there is a single CTA (no bases).
def TTG_CGALayoutParameter : DefaultValuedParameter<TTG_BasesParameter, "()">;

//===----------------------------------------------------------------------===//
// Distributed encodings
//===----------------------------------------------------------------------===//

class TTG_Attr<string name, string attrMnemonic> : AttrDef<TTG_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncodingAttr", "blocked"> {
  let summary = "Each thread holds blocks of sizePerThread contiguous elements";
  let description = [{
    The tensor is tiled by `sizePerThread` elements per thread, `threadsPerWarp` threads per
    warp and `warpsPerCTA` warps, repeated over the tensor; `order` lists the dimensions from
    the fastest-varying one.

    ```mlir
    #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
    ```
  }];
  let alias = "blocked";
  let parameters = (ins IntArrayParameter:$sizePerThread, IntArrayParameter:$threadsPerWarp,
                        IntArrayParameter:$warpsPerCTA, IntArrayParameter:$order,
                        TTG_CGALayoutParameter:$CGALayout);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncodingAttr", "slice"> {
  let summary = "The parent layout with dimension dim squeezed out";
  let description = [{
    The layout of a reduction's result or of an `expand_dims` operand:
    `#ttg.slice<{dim = 1, parent = #blocked}>`. Triton's printer gives it no alias.
  }];
  let parameters = (ins IntParameter:$dim, AttributeParameter:$parent);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTG_DotOperandEncodingAttr : TTG_Attr<"DotOperandEncodingAttr", "dot_op"> {
  let summary = "The layout of operand opIdx (0: A, 1: B) of a dot whose result has parent";
  let description = [{
    `kWidth` is the number of consecutive elements along K held by a thread (0, left out of
    the text, when the parent layout does not use it):
    `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`.
  }];
  let parameters = (ins IntParameter:$opIdx, AttributeParameter:$parent,
                        DefaultValuedParameter<IntParameter, "0">:$kWidth);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTG_NvidiaMmaEncodingAttr : TTG_Attr<"NvidiaMmaEncodingAttr", "nvidia_mma"> {
  let summary = "The accumulator layout of NVIDIA's mma (v2) and wgmma (v3) instructions";
  let description = [{
    `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`.
    As Triton's printer does, `versionMinor` is always printed (it reads as 0 when absent) and
    `CGALayout` is printed before `instrShape` when there is more than one CTA.
  }];
  let alias = "mma";
  let parameters = (ins IntParameter:$versionMajor, IntParameter:$versionMinor,
                        IntArrayParameter:$warpsPerCTA, TTG_CGALayoutParameter:$CGALayout,
                        IntArrayParameter:$instrShape);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class TTG_Op<string mnemonic, list<Trait> traits = []> : Op<TTG_Dialect, mnemonic, traits>;

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [SameOperandsAndResultShape,
                                                    SameOperandsAndResultElementType, Pure]> {
  let summary = "Moves a tensor to another layout";
  let description = [{
    `%1 = ttg.convert_layout %0 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>`
    gives the same values in the result's layout (through shared memory or shuffles).
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

#endif // TILECRAFT_TTG_TD
