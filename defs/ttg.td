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
  let genVerifyDecl = 1;
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncodingAttr", "slice"> {
  let summary = "The parent layout with dimension dim squeezed out";
  let description = [{
    The layout of a reduction's result or of an `expand_dims` operand:
    `#ttg.slice<{dim = 1, parent = #blocked}>`. Triton's printer gives it no alias.
  }];
  let parameters = (ins IntParameter:$dim, AttributeParameter:$parent);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
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
  let genVerifyDecl = 1;
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
  let genVerifyDecl = 1;
}

def TTG_LinearEncodingAttr : TTG_Attr<"LinearEncodingAttr", "linear"> {
  let summary = "A layout given as a linear map from (register, lane, warp, block) to coordinates";
  let description = [{
    Each list holds the tensor coordinates of the bases of one input dimension:
    `#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [[4, 0]], block = []}>`.
  }];
  let alias = "linear";
  let parameters = (ins TTG_BasesParameter:$register, TTG_BasesParameter:$lane,
                        TTG_BasesParameter:$warp, TTG_BasesParameter:$block);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TTG_AMDMfmaEncodingAttr : TTG_Attr<"AMDMfmaEncodingAttr", "amd_mfma"> {
  let summary = "The accumulator layout of AMD's MFMA instructions (CDNA GPUs)";
  let description = [{
    `#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>`:
    `version` is the CDNA generation (1: gfx908 ... 4: gfx950), `instrShape` the (M, N, K) of
    one instruction, `isTransposed` whether each thread holds a row instead of a column of the
    result. `tilesPerWarp` (printed unless all ones) lets a warp compute adjacent tiles and
    `elementBitWidth` (printed unless 32) is that of the result elements. Layout queries that
    need its linear map are not supported yet.
  }];
  let alias = "mma";
  let parameters = (ins IntParameter:$version, IntArrayParameter:$warpsPerCTA,
                        IntArrayParameter:$instrShape, BoolParameter:$isTransposed,
                        TTG_CGALayoutParameter:$CGALayout,
                        DefaultValuedParameter<IntArrayParameter, "()">:$tilesPerWarp,
                        DefaultValuedParameter<IntParameter, "32">:$elementBitWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AMDWmmaEncodingAttr : TTG_Attr<"AMDWmmaEncodingAttr", "amd_wmma"> {
  let summary = "The accumulator layout of AMD's WMMA instructions (RDNA GPUs, gfx1250)";
  let description = [{
    `#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}}>`:
    `version` is 1 (RDNA3), 2 (RDNA4) or 3 (gfx1250); `ctaLayout` gives the tile coordinates
    (in units of one instruction's tile) of the bases of the `register` and `warp` indices,
    the empty ones left out of the text; `instrShape` (printed unless 16x16x16) is the (M, N, K)
    of one instruction. `rank` is read and printed only when no basis gives the rank (default
    2). Layout queries that need its linear map are not supported yet.
  }];
  let alias = "mma";
  let parameters = (ins IntParameter:$version,
                        DefaultValuedParameter<TTG_BasesParameter, "()">:$ctaRegister,
                        DefaultValuedParameter<TTG_BasesParameter, "()">:$ctaWarp,
                        DefaultValuedParameter<BoolParameter, "False">:$isTransposed,
                        TTG_CGALayoutParameter:$CGALayout,
                        DefaultValuedParameter<IntArrayParameter, "(16, 16, 16)">:$instrShape,
                        DefaultValuedParameter<IntParameter, "2">:$rank);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory encodings and memory spaces
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr : TTG_Attr<"SwizzledSharedEncodingAttr", "swizzled_shared"> {
  let summary = "Shared memory rows whose vec-element groups are XOR-swizzled by phase";
  let description = [{
    `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`: groups of
    `vec` elements of a row are permuted by the row's phase (`row / perPhase % maxPhase`).
  }];
  let alias = "shared";
  let parameters = (ins IntParameter:$vec, IntParameter:$perPhase, IntParameter:$maxPhase,
                        IntArrayParameter:$order, TTG_CGALayoutParameter:$CGALayout);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TTG_NVMMASharedEncodingAttr : TTG_Attr<"NVMMASharedEncodingAttr", "nvmma_shared"> {
  let summary = "The shared memory layout that NVIDIA's wgmma and TMA read and write";
  let description = [{
    `#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>`;
    `fp4Padded = true` for the padded fp4 operands of scaled MMAv5, and `rank` for tensors of
    another rank than 2 held by a single CTA.
  }];
  let alias = "shared";
  let parameters = (ins IntParameter:$swizzlingByteWidth, BoolParameter:$transposed,
                        IntParameter:$elementBitWidth,
                        DefaultValuedParameter<BoolParameter, "False">:$fp4Padded,
                        TTG_CGALayoutParameter:$CGALayout,
                        DefaultValuedParameter<IntParameter, "2">:$rank);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTG_PaddedSharedEncodingAttr : TTG_Attr<"PaddedSharedEncodingAttr", "padded_shared"> {
  let summary = "Shared memory with padding after fixed intervals and a linear element order";
  let description = [{
    `#ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 1], [0, 2], [1, 0]], block = []}>`: the
    element at linear offset `i` (of the `offset` bases' map; `block` for the CTA index) is
    stored at `i + sum_k (i / interval_k) * padding_k`. An identity map is written in the
    short form `{order = [1, 0], shape = [16, 32]}`. `shape` holds the sizes of the map's
    output dimensions (each the power of two just above its largest coordinate).
  }];
  let alias = "shared";
  let parameters = (ins IntArrayParameter:$intervals, IntArrayParameter:$paddings,
                        TTG_BasesParameter:$offset, TTG_CGALayoutParameter:$block,
                        IntArrayParameter:$shape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedLinearEncodingAttr : TTG_Attr<"SharedLinearEncodingAttr", "shared_linear"> {
  let summary = "A shared memory layout given as a linear map from (offset, block) to coordinates";
  let description = [{
    `#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}, alignment = 16>`:
    the tensor coordinates of the bases of the element offset and of the block (CTA) index
    (left out when there is a single CTA), and the alignment of the buffer in bytes.
  }];
  let alias = "shared";
  let parameters = (ins TTG_BasesParameter:$offset, TTG_CGALayoutParameter:$block,
                        IntParameter:$layoutAlignment);
  let hasCustomAssemblyFormat = 1;
}

def TTG_PartitionedSharedEncodingAttr
    : TTG_Attr<"PartitionedSharedEncodingAttr", "partitioned_shared"> {
  let summary = "A shared tensor split along one dimension into separately allocated partitions";
  let description = [{
    `#ttg.partitioned_shared<{numPartitions = 2, numGroups = 4, partitionDim = 0, partitionLayout = #shared}>`:
    the tensor is cut along `partitionDim` into `numPartitions * numGroups` equal pieces laid
    out by `partitionLayout`; piece `i` belongs to partition `i % numPartitions`, and each
    partition is one buffer holding its `numGroups` pieces one after the other. The buffers of
    one tensor must sit in different physical partitions of shared memory (when the target
    partitions it), which avoids conflicts between them.
  }];
  let alias = "shared";
  let parameters = (ins IntParameter:$numPartitions, IntParameter:$numGroups,
                        IntParameter:$partitionDim, AttributeParameter:$partitionLayout);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpaceAttr", "shared_memory"> {
  let summary = "The memory space of a memory descriptor in shared memory";
  let alias = "smem";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The IR core treats a type with this trait as shaped (`shape` and `elementType` parameters).
def ShapedTypeInterface : Trait;

def TTG_AsyncTokenType : TypeDef<TTG_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "The token of asynchronous copies, to group and wait on them";
}

def TTG_MemDescType : TypeDef<TTG_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "A descriptor of a buffer in shared (or tensor) memory";
  let description = [{
    `!ttg.memdesc<64x64xf16, #shared, #smem, mutable>`: the logical shape and element type,
    the buffer's encoding and memory space, whether it may be written, and, printed last when
    it differs from the shape, the shape of the whole allocation it views
    (`!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 2x64x64>`). `allocShape` is `()` for
    a descriptor of a whole allocation (`tilecraft.dialects.ttg.alloc_shape` gives the shape in
    both cases).
  }];
  let parameters = (ins IntArrayParameter:$shape, TypeParameter:$elementType,
                        AttributeParameter:$encoding, AttributeParameter:$memorySpace,
                        DefaultValuedParameter<BoolParameter, "False">:$mutableMemory,
                        DefaultValuedParameter<IntArrayParameter, "()">:$allocShape);
  let hasCustomAssemblyFormat = 1;
}

def TTG_MemDesc : Type<CPred<"isinstance($_self, MemDescType)">, "memory descriptor type",
                       "MemDescType">;
def TTG_AsyncToken : Type<CPred<"isinstance($_self, AsyncTokenType)">, "async token type",
                          "AsyncTokenType"> {
  let builderCall = "AsyncTokenType()";
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
  let hasCanonicalizer = 1;
}

def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "Unpacks fp4 (e2m1) pairs held in i8 elements into bf16 or f16";
  let description = [{
    Each i8 of `src` holds two e2m1 values, the first in its low four bits; they become two
    consecutive elements of the result along `axis`, which is twice as long there:
    `%1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked1>`.
    With layouts, the result's layout is the source's with each thread's two halves of an i8
    side by side along `axis`.
  }];
  let arguments = (ins TensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "Waits until at most num groups of asynchronous copies are outstanding";
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "Closes the pending asynchronous copies into a group that can be waited on";
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local",
                                          [AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Copies from global memory into a shared memory buffer, asynchronously";
  let description = [{
    As `tt.load`, with the destination a memory descriptor:
    `%t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %o cacheModifier = ca : tensor<64x!tt.ptr<f16>, #blocked> -> <64xf16, #shared, #smem, mutable>`.
  }];
  let arguments = (ins TT_PtrTensor:$src, TTG_MemDesc:$result, Optional<TT_BoolTensor>:$mask,
                       Optional<TT_Type>:$other,
                       DefaultValuedAttr<TT_CacheModifierAttr, "CacheModifier.NONE">:$cache,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "EvictionPolicy.NORMAL">:$evict,
                       DefaultValuedAttr<BoolAttr, "False">:$isVolatile,
                       DefaultValuedAttr<I32Attr, "1">:$contiguity);
  let results = (outs TTG_AsyncToken:$token);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [MemAlloc]> {
  let summary = "Allocates a shared memory buffer, initialized from src when given";
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<I32Attr>:$alignment);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc", [MemFree]> {
  let summary = "Frees a shared memory buffer";
  let arguments = (ins TTG_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "The index-th buffer of a multi-buffer descriptor (along dimension 0)";
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "A view of a box of the descriptor starting at constant offsets";
  let description = [{
    `%1 = ttg.memdesc_subslice %0[0, 16] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x16xf16, #shared, #smem, 64x64>`.
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "A transposed view of the descriptor";
  let description = [{
    The source's dimensions permuted by `order` (the last dimensions of the allocation shape
    likewise), in the layout that keeps every element at its offset: the transposed layout
    that `tt.trans` infers, or one laid out the same way.
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "A view of the descriptor with another shape of as many elements";
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "The descriptor seen with another shape and element type";
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load", [MemRead]> {
  let summary = "Loads a shared memory buffer into a distributed tensor";
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncToken>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTG_LocalStoreOp : TTG_Op<"local_store", [MemWrite]> {
  let summary = "Stores a distributed tensor into a shared memory buffer";
  let arguments = (ins TT_Tensor:$src, TTG_MemDesc:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc", [MemAlloc]> {
  let summary = "Allocates a buffer of global memory that belongs to the program";
  let description = [{
    `%p = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>`:
    `nbytes` bytes at a multiple of `alignment`, in the kernel's global scratch memory (the
    launcher passes it; each program has its own part, and each allocation its own offset in
    it, fixed when the kernel is lowered).
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$nbytes,
                       ConfinedAttr<I32Attr, [IntPositive]>:$alignment);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TTG_BarrierOp : TTG_Op<"barrier"> {
  let summary = "Synchronizes the CTA's threads and the selected address spaces";
  let description = [{
    `addrSpace` is a bit mask of `local` (1), `global_read` (2), `global_write` (4),
    `tensor_read` (8) and `tensor_write` (16), printed as `ttg.barrier local|global_read`
    (`none` for 0, `all` for all five).
  }];
  let arguments = (ins I32Attr:$addrSpace);
  let hasCustomAssemblyFormat = 1;
}

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "Runs different code on different groups of warps at the same time";
  let description = [{
    The default region runs on the current warps and may use values defined outside it; each
    partition region runs on its own `num_warps` warps (a power of two) and sees only the
    explicit captures, as block arguments. All groups join at the end of the op, whose results
    are what the default region yields.

    ```mlir
    %0 = ttg.warp_specialize(%a)
    default {
      ttg.warp_yield %b : i32
    }
    partition0(%arg0: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> i32
    ```

    The partition regions live in a `ttg.warp_specialize.partitions` op, the only op of the
    second region, since they are isolated from above and the default region is not.
  }];
  let arguments = (ins DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion, SizedRegion<1>:$partitionOpHolder);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
  let hasCanonicalizer = 1;
}

def TTG_WarpSpecializePartitionsOp
    : TTG_Op<"warp_specialize.partitions", [IsolatedFromAbove, RecursiveMemoryEffects,
                                            Terminator, HasParent<"ttg.warp_specialize">]> {
  let summary = "The holder of the isolated partition regions of `ttg.warp_specialize`";
  let description = [{
    Its operands are the explicit captures, passed to each partition region as its block
    arguments.
  }];
  let arguments = (ins Variadic<AnyType>:$explicitCaptures);
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [Pure, Terminator, ReturnLike,
                                            HasParent<"ttg.warp_specialize">]> {
  let summary = "Ends the default region of `ttg.warp_specialize`, giving the op's results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
  let hasVerifier = 1;
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [Pure, Terminator, ReturnLike,
                                              HasParent<"ttg.warp_specialize.partitions">]> {
  let summary = "Ends a partition region of `ttg.warp_specialize`";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

// Whether two orders of tt.trans, the inner one and the outer one, compose to the identity.
def OrdersComposeToIdentity : Constraint<
    CPred<"[tuple($0)[i] for i in $1] == list(range(len($1)))">,
    "the two transposes undo each other">;
def OrdersDoNotComposeToIdentity : Constraint<
    CPred<"[tuple($0)[i] for i in $1] != list(range(len($1)))">,
    "the two transposes do not undo each other">;

let appliedBy = "canonicalize" in {
// trans(trans(x)): x when the orders undo each other (a ttg.convert_layout of x when only the
// layouts differ, which is why these tt patterns live here), else one trans with the composed
// order.
def TransOfTransIsIdentity : Pat<(TT_TransOp:$op (TT_TransOp $x, $inner), $outer),
                                 (replaceWithValue $x),
                                 [(OrdersComposeToIdentity $inner, $outer),
                                  (ResultTypeIs $op, $x)]>;
def TransOfTransIsConvert : Pat<(TT_TransOp:$op (TT_TransOp $x, $inner), $outer),
                                (TTG_ConvertLayoutOp $x),
                                [(OrdersComposeToIdentity $inner, $outer),
                                 (ResultTypeIsNot $op, $x)]>;
def TransOfTrans : Pat<(TT_TransOp (TT_TransOp $x, $inner), $outer),
                       (TT_TransOp $x,
                                   (NativeCodeCall<"[tuple($0)[i] for i in $1]"> $inner, $outer)),
                       [(OrdersDoNotComposeToIdentity $inner, $outer)]>;

// local_alloc(convert_layout(x)) -> local_alloc(x) and local_store(convert_layout(x), d) ->
// local_store(x, d): shared memory takes a tensor in any layout (Triton's
// CanonicalizeConvertFromAlloc and CanonicalizeConvertFromLocalStore; the alignment is kept).
def LocalAllocOfConvert : Pat<(TTG_LocalAllocOp (TTG_ConvertLayoutOp $x), $alignment),
                              (TTG_LocalAllocOp $x, $alignment)>;
def LocalStoreOfConvert : Pat<(TTG_LocalStoreOp (TTG_ConvertLayoutOp $x), $dst),
                              (TTG_LocalStoreOp $x, $dst)>;

// memdesc_subslice(memdesc_subslice(x, a), b) -> memdesc_subslice(x, a + b), as Triton's folder
// of MemDescSubsliceOp.
def SubsliceOfSubslice : Pat<
    (TTG_MemDescSubsliceOp (TTG_MemDescSubsliceOp $x, $inner), $outer),
    (TTG_MemDescSubsliceOp $x,
        (NativeCodeCall<"[a + b for a, b in zip($0, $1)]"> $inner, $outer))>;
}

#endif // TILECRAFT_TTG_TD
