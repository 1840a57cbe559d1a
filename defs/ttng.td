//===- ttng.td - the TritonNvidiaGPU (ttng) dialect -------------------------===//
//
// Triton's NVIDIA-specific GPU dialect with Triton's names and textual forms: Hopper's
// asynchronous warp-group MMA (wgmma) and its wait, the TMA copy from global into shared memory,
// the TMA copies between global and shared memory with the mbarriers that complete them, and
// Blackwell's tensor memory (its encoding, its memory space and the ops that allocate, load and
// store it).
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_TTNG_TD
#define TILECRAFT_TTNG_TD

include "base/OpBase.td"
include "base/AttrTypeBase.td"
include "tt.td"
include "ttg.td"

def TTNG_Dialect : Dialect {
  let name = "ttng";
  let summary = "TritonNvidiaGPU: NVIDIA-specific ops (wgmma, TMA, tensor memory)";
  let description = [{
    Ops that only NVIDIA targets have: `ttng.warp_group_dot` (Hopper's wgmma, reading its
    operands from shared memory), `ttng.warp_group_dot_wait`, `ttng.async_tma_copy_global_to_local`,
    and Blackwell's tensor memory (`#ttng.tensor_memory`, `ttng.tmem_alloc`, `ttng.tmem_load`,
    `ttng.tmem_store`). Shared-memory effects of these ops are what the barrier analysis
    (`tilecraft.analysis.membar.shared_effects`) reads.
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def TTNG_TensorMemorySpaceAttr : AttrDef<TTNG_Dialect, "TensorMemorySpaceAttr"> {
  let mnemonic = "tensor_memory";
  let summary = "The memory space of a memory descriptor in tensor memory";
  let description = [{
    `!ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>`: a buffer in Blackwell's
    tensor memory, laid out in blocks of `blockM x blockN` over its 128 lanes.
  }];
}

def TTNG_TensorMemoryEncodingAttr : AttrDef<TTNG_Dialect, "TensorMemoryEncodingAttr"> {
  let mnemonic = "tensor_memory_encoding";
  let summary = "How a buffer is laid out in tensor memory";
  let description = [{
    `#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>`: blocks of
    `blockM` (64 or 128) rows by `blockN` (a power of two up to 512) columns, `colStride`
    (1, 2 or 4) columns between two elements of a row (1: packed), `twoCTAs` for the layout of
    MMAs spanning two CTAs; `CGALayout` (bases of the CTA index) is printed when there is more
    than one CTA. Triton's printer gives it the alias `tmem`; its fields are not in braces.
  }];
  let alias = "tmem";
  let parameters = (ins IntParameter:$blockM, IntParameter:$blockN, IntParameter:$colStride,
                        TTG_CGALayoutParameter:$CGALayout,
                        DefaultValuedParameter<BoolParameter, "False">:$twoCTAs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTNG_TensorMemoryScalesEncodingAttr : AttrDef<TTNG_Dialect, "TensorMemoryScalesEncodingAttr"> {
  let mnemonic = "tensor_memory_scales_encoding";
  let summary = "The layout of the block scales of a scaled MMA in tensor memory";
  let description = [{
    `#ttng.tensor_memory_scales_encoding<>`: the scales of `ttng.tc_gen5_mma_scaled` in tensor
    memory, in the chunks of 32 rows by 4 four-byte columns that the instruction reads, each
    chunk repeated over the 4 warps' 32-lane quarters of the 128 lanes. `CGALayout` (bases of
    the CTA index) is printed when there is more than one CTA. Triton's printer gives it the
    alias `tmem_scales`.
  }];
  let alias = "tmem_scales";
  let parameters = (ins TTG_CGALayoutParameter:$CGALayout);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

def TTNG_TensorOrMemDesc : AnyTypeOf<[TT_Tensor, TTG_MemDesc], "tensor or memory descriptor">;

class TTNG_Op<string mnemonic, list<Trait> traits = []> : Op<TTNG_Dialect, mnemonic, traits>;

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    MemRead, TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "Hopper's warp-group matrix product (wgmma): d = a * b + c";
  let description = [{
    `a` is a tensor in a dot-operand layout or a shared-memory descriptor, `b` a shared-memory
    descriptor, `c` and `d` tensors in a Hopper `#ttg.nvidia_mma` layout. The op reads its
    descriptor operands from shared memory; with `isAsync` it only starts the product, and
    `ttng.warp_group_dot_wait` waits for it. `useC` (optional) says whether `c` is added.
    ```mlir
    %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
    ```
  }];
  let arguments = (ins
    TTNG_TensorOrMemDesc:$a, TTG_MemDesc:$b, TT_FpIntTensor:$c, Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "InputPrecision.IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "False">:$isAsync
  );
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait"> {
  let summary = "Waits until at most pendings asynchronous warp-group dots are outstanding";
  let description = [{
    `inputs` are the results of the dots waited for and the descriptors they read; the outputs
    are the same values (of the same types), to be used once the wait is over:
    `%0:2 = ttng.warp_group_dot_wait %d, %a {pendings = 0 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>`.
  }];
  let arguments = (ins Variadic<TTNG_TensorOrMemDesc>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<TTNG_TensorOrMemDesc>:$outputs);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local", [
    AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Copies a box of a tensor descriptor into shared memory with the TMA unit";
  let description = [{
    Starts the copy of the box at `coord` of `desc` into the buffer `result`; the mbarrier
    `barrier` counts the bytes as they arrive. `pred` false skips the copy.
    ```mlir
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %true : !tt.tensordesc<64x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins
    TT_TensorDesc:$desc, Variadic<I32>:$coord, Variadic<I16>:$offsets,
    TTG_MemDesc:$barrier, TTG_MemDesc:$result, I1:$pred, UnitAttr:$multicast,
    DefaultValuedAttr<TT_CacheModifierAttr, "CacheModifier.NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "EvictionPolicy.NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "False">:$isVolatile
  );
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global", [
    MemRead, MemWrite]> {
  let summary = "Copies a shared-memory buffer into the box of a tensor descriptor with TMA";
  let description = [{
    Starts the copy of `src` into the box at `coord` of `desc`; elements outside the tensor
    are not written. `ttng.async_tma_store_wait` waits until the copies have read their
    buffers.
    ```mlir
    ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf : !tt.tensordesc<64x64xf16>, !ttg.memdesc<64x64xf16, #shared, #smem>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$coord, TTG_MemDesc:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce", [MemRead, MemWrite]> {
  let summary = "Reduces a shared-memory buffer into the box of a tensor descriptor with TMA";
  let description = [{
    Like `ttng.async_tma_copy_local_to_global`, but each element of the box becomes the
    reduction `kind` of its value and the buffer's (atomically per element, relaxed).
    ```mlir
    ttng.async_tma_reduce add, %desc[%x, %y] %buf : !tt.tensordesc<64x64xf32>, !ttg.memdesc<64x64xf32, #shared, #smem>
    ```
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc,
                       Variadic<I32>:$coord, TTG_MemDesc:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter", [MemRead, MemWrite]> {
  let summary = "Copies the rows of a shared-memory buffer to separately indexed rows with TMA";
  let description = [{
    Row `i` of `src` goes to row `x_offsets[i]` of the descriptor's tensor, from column
    `y_offset` (the asynchronous form of `tt.descriptor_scatter`).
    ```mlir
    ttng.async_tma_scatter %desc[%rows, %col] %buf : !tt.tensordesc<1x128xf32, #shared>, tensor<8xi32, #blocked>, i32, !ttg.memdesc<8x128xf32, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, TT_I32Tensor:$x_offsets, I32:$y_offset,
                       TTG_MemDesc:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)
  }];
}

def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "Views a pointer to a TMA descriptor in memory as a tensor descriptor";
  let description = [{
    `%d = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<64x64xf16, #shared>`:
    the 128-byte TMA descriptor at `%p` (a kernel parameter or global scratch) read as the
    descriptor of blocks of the result type.
  }];
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Writes a TMA descriptor (a 128-byte CUtensorMap) to global memory";
  let description = [{
    The map of the tensor at `global_address` is written to `desc_ptr`. The lists go innermost
    dimension first: `box_dim` the box a copy moves, `global_dim` the tensor's sizes,
    `global_stride` the byte strides of the dimensions after the innermost, `element_stride`
    the steps between the elements a box takes; the attributes are the map's element type,
    interleave, swizzle (0 none, 1 32 bytes, 2 64, 3 128) and out-of-bounds fill (1: NaN) codes.
    The map must be fenced (`ttng.tensormap_fenceproxy_acquire`) before a copy reads it.
    ```mlir
    ttng.tensormap_create %slot, %base, [%c32_i32, %c64_i32], [%n, %m], [%row_bytes], [%c1_i32, %c1_i32] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ```
  }];
  let arguments = (ins
    TT_Ptr:$desc_ptr, TT_Ptr:$global_address, Variadic<I32>:$box_dim, Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride, Variadic<I32>:$element_stride,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode
  );
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,`
    `[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [MemWrite]> {
  let summary = "Makes a TMA descriptor written in global memory visible to the TMA unit";
  let description = [{
    `ttng.tensormap_fenceproxy_acquire %slot : !tt.ptr<i8>`: the copies that follow read the
    map `ttng.tensormap_create` wrote at `%slot`, not a stale one (an acquire fence of the
    tensormap proxy).
  }];
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "Waits until at most pendings TMA stores still read their shared buffers";
  let description = [{
    `ttng.async_tma_store_wait {pendings = 0 : i32}`: the buffers of the earlier
    `ttng.async_tma_copy_local_to_global` copies may be written again.
  }];
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "Orders this thread's shared-memory accesses before later asynchronous-proxy ones";
  let description = [{
    `ttng.fence_async_shared {bCluster = false}`: what the thread wrote to shared memory is
    visible to the TMA and wgmma reads that follow (`fence.proxy.async.shared::cta`).
  }];
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

def TTNG_InitBarrierOp : TTNG_Op<"init_barrier", [MemWrite]> {
  let summary = "Initializes the mbarrier in a shared-memory buffer with its arrival count";
  let description = [{
    `ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>`: the barrier
    completes a phase when `count` threads arrived and the bytes they announced arrived.
  }];
  let arguments = (ins TTG_MemDesc:$alloc, I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier", [MemWrite]> {
  let summary = "Invalidates an mbarrier so that its memory may be used again";
  let description = [{
    `ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>`.
  }];
  let arguments = (ins TTG_MemDesc:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect", [MemWrite]> {
  let summary = "Arrives on an mbarrier announcing size bytes of asynchronous copies";
  let description = [{
    The phase completes once the bytes arrived (the TMA copies that name the barrier count
    them): `ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>`.
    One thread of the program arrives, where `pred` holds.
  }];
  let arguments = (ins TTG_MemDesc:$alloc, I32Attr:$size, I1:$pred);
  let assemblyFormat = [{
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  }];
  let hasVerifier = 1;
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Waits until the phase of parity `phase` of an mbarrier completed";
  let description = [{
    `ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>`; with
    `pred` false the thread does not wait. `deps` are buffers read after the wait (Triton's
    form; they only order the IR).
  }];
  let arguments = (ins TTG_MemDesc:$alloc, I32:$phase, Optional<I1>:$pred,
                       Variadic<TTG_MemDesc>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict `:` qualified(type($alloc))
    (`,` type($deps)^)?
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMAllocOp : TTNG_Op<"tmem_alloc", [MemAlloc]> {
  let summary = "Allocates a buffer in tensor memory, initialized from src when given";
  let description = [{
    As `ttg.local_alloc`, in tensor memory; the optional token orders later accesses:
    `%buf, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)`.
  }];
  let arguments = (ins Optional<TT_Tensor>:$src);
  let results = (outs TTG_MemDesc:$result, Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTNG_TMEMLoadOp : TTNG_Op<"tmem_load", [MemRead]> {
  let summary = "Loads a tensor-memory buffer into a distributed tensor";
  let description = [{
    `%t = ttng.tmem_load %buf : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>`;
    with tokens, `%t, %tok2 = ttng.tmem_load %buf[%tok] : ...` (`[]`: a token result
    without a dependency). Triton's optional reduction of the loaded rows (`redOp`) is not
    modelled.
  }];
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncToken>:$dep);
  let results = (outs TT_Tensor:$result, Optional<TTG_AsyncToken>:$token);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTNG_TMEMStoreOp : TTNG_Op<"tmem_store", [MemWrite]> {
  let summary = "Stores a distributed tensor into a tensor-memory buffer where pred holds";
  let description = [{
    `ttng.tmem_store %t, %buf, %true : tensor<128x64xbf16, #blocked> -> !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>`;
    with tokens, `%tok2 = ttng.tmem_store %t, %buf[%tok], %true : ...`.
  }];
  let arguments = (ins TTG_MemDesc:$dst, Optional<TTG_AsyncToken>:$dep, TT_Tensor:$src, I1:$pred);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTNG_TCGen5MMAOp : TTNG_Op<"tc_gen5_mma", [AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Blackwell's fifth-generation tensor-core matrix product: d += a * b";
  let description = [{
    `a` (shared or tensor memory) times `b` (shared memory) is added to the accumulator `d` in
    tensor memory, or written there when `useD` is false; nothing happens where `pred` is
    false. With `is_async` the op only starts the product and arrives on each of `barriers`
    whose predicate holds when it is done (a synchronous op has no barriers). The optional
    `[%acc_dep]` token orders the accesses to the accumulator, as the tensor-memory ops' tokens
    do; `two_ctas` spreads the product over a pair of CTAs, `is_unsigned` reads integers as
    unsigned.
    ```mlir
    %tok2 = ttng.tc_gen5_mma %a, %b, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ```
  }];
  let arguments = (ins
    TTG_MemDesc:$a, TTG_MemDesc:$b, TTG_MemDesc:$d, Optional<TTG_AsyncToken>:$acc_dep,
    I1:$useD, I1:$pred, Variadic<TTG_MemDesc>:$barriers, Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async, UnitAttr:$two_ctas, UnitAttr:$multicast, UnitAttr:$is_unsigned
  );
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TTNG_TCGen5MMAScaledOp : TTNG_Op<"tc_gen5_mma_scaled", [
    AttrSizedOperandSegments, MemRead, MemWrite]> {
  let summary = "Blackwell's block-scaled tensor-core product: d += scale(a) * scale(b)";
  let description = [{
    As `ttng.tc_gen5_mma`, with `a` and `b` scaled by the block scales `a_scale` and `b_scale`
    (in tensor memory, `#ttng.tensor_memory_scales_encoding`, or in shared memory) and their
    bits read as `a_type` and `b_type` (e2m1 values packed in pairs into i8).
    ```mlir
    %tok2 = ttng.tc_gen5_mma_scaled %a, %b, %acc[%tok], %sa, %sb, %true, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xi8, #shared, #smem>, !ttg.memdesc<64x128xi8, #shared1, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>
    ```
  }];
  let arguments = (ins
    TTG_MemDesc:$a, TTG_MemDesc:$b, TTG_MemDesc:$d, Optional<TTG_AsyncToken>:$acc_dep,
    TTG_MemDesc:$a_scale, TTG_MemDesc:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_type, TT_ScaleDotElemTypeAttr:$b_type,
    I1:$useD, I1:$pred, Variadic<TTG_MemDesc>:$barriers, Variadic<I1>:$barrier_preds,
    UnitAttr:$two_ctas, UnitAttr:$multicast, UnitAttr:$is_async
  );
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // TILECRAFT_TTNG_TD
