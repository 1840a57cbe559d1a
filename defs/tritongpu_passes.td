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

def TritonGPUCoalesce : Pass<"tritongpu-coalesce", "builtin.module"> {
  let summary = "Give global memory accesses layouts that coalesce them";
  let description = [{
    For each load, store and atomic through a tensor of pointers, the axis info of the
    pointers gives the order of the dims (most contiguous first) and how many consecutive,
    aligned elements one thread may access (at most 128 bits); the op's operands are converted
    to a `#ttg.blocked` layout with that many elements per thread along the contiguous dim,
    and its results back to their layout. Accesses with the same shape and order in the
    function share the widest of their widths (stores stay within 128 bits).
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.coalesce";
}

def TritonGPURemoveLayoutConversions
    : Pass<"tritongpu-remove-layout-conversions", "builtin.module"> {
  let summary = "Remove ttg.convert_layout by giving whole computations one layout";
  let description = [{
    Values that must share a layout (the operands and results of element-wise ops, of memory
    ops, and the values a loop or branch carries) form groups. A conversion between two groups
    is removed by giving one of them the other's layout, when that group is free to change:
    it holds no global memory access (whose layout `tritongpu-coalesce` chose), no result of a
    reduction, dot or other op that fixes its layout, and feeds no such op. Conversions to the
    same layout and conversions of conversions are folded.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.remove_layout_conversions";
}

def TritonGPUOptimizeThreadLocality
    : Pass<"tritongpu-optimize-thread-locality", "builtin.module"> {
  let summary = "Keep reductions, reshapes and gathers within threads or warps";
  let description = [{
    Three rewrites that cut the traffic between threads:
    - A `tt.reduce` of a loaded `#ttg.blocked` tensor along its last axis, whose result only
      updates a loop-carried accumulator (`acc = acc op reduce(x)` with the reduction's own
      `arith.addf`, `arith.mulf`, `arith.maximumf`, `arith.maxnumf`, `arith.minimumf` or
      `arith.minnumf`; the accumulator starting from a constant) and with more than one
      element per thread along that axis: inside the loop, each thread only combines its own
      elements (a `tt.reshape` splits the axis into the threads' part and a new last dim of
      the elements one thread holds, reduced along that new dim) into a new accumulator that
      starts from the operation's neutral element; the reduction across threads happens once,
      after the loop, and its result is combined with the old accumulator's start value.
    - A `tt.reshape` with `allow_reorder` whose results reductions read, all along one axis,
      gets a blocked layout with that axis held within threads (`efficient_layout`), and a
      `ttg.convert_layout` back to its old layout for its users.
    - A `tt.gather` of rank 2 or more gets a layout in which each warp covers whole columns
      along the gather axis (the gather stays within warps), with conversions of its operands
      and its result, and is marked `efficient_layout`.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.optimize_thread_locality";
}

def TritonGPUReduceDataDuplication
    : Pass<"tritongpu-reduce-data-duplication", "builtin.module"> {
  let summary = "Convert to dot operand layouts through swizzled shared memory";
  let description = [{
    A `ttg.convert_layout` from a distributed layout to a `#ttg.dot_op` layout that moves
    elements between threads becomes `ttg.local_alloc` of the source into shared memory with
    a `#ttg.swizzled_shared` layout chosen for the dot operand (Triton's choice of vec,
    perPhase and maxPhase for mma parents; no swizzle otherwise) and `ttg.local_load` of it.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.reduce_data_duplication";
}

def AllocateSharedMemory : Pass<"allocate-shared-memory", "builtin.module"> {
  let summary = "Place every function's shared-memory buffers and record their offsets";
  let description = [{
    Runs the shared-memory allocation analysis (`tilecraft.analysis.allocation`) and records
    `allocation.offset` (i32) on each op owning a buffer (`ttg.local_alloc`, ops with scratch
    memory, calls) and the module's total bytes as `ttg.shared` (i32), as Triton does.
  }];
  let implModule = "tilecraft.transforms.allocate_shared_memory";
}

def TritonGPUAccelerateMatmul : Pass<"tritongpu-accelerate-matmul", "builtin.module"> {
  let summary = "Put tt.dot on tensor cores: accumulators and operands in mma layouts";
  let description = [{
    On a `cuda:80` or newer target (`ttg.target`), each `tt.dot` whose operand types the
    tensor cores take (f16, bf16, f32 with `inputPrecision = tf32`, f64, i8, fp8) gets an
    `#ttg.nvidia_mma` accumulator (version 2: `mma.sync`, 16x8 tiles) with warps spread to
    balance the operand registers (all along one dim for chained dots), its operands converted
    to `#ttg.dot_op` layouts of it (kWidth from the narrowest type the operands were loaded
    as), and its result converted back. fp8 operands are widened to f16 where the target has
    no fp8 `mma.sync`. A dot left on CUDA cores with operands narrower than its result gets
    them widened (`arith.extf`, `tt.fp_to_fp`). Targets before sm_80 keep every dot on CUDA
    cores. On sm_90, dots that `wgmma` takes become `ttng.warp_group_dot` with a version 3
    accumulator and operands in `#ttg.nvmma_shared` buffers (A in registers when computed).
    A `tt.dot_scaled` is first decomposed into a `tt.dot` of upcast operands multiplied by
    their scales.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.accelerate_matmul";
}

def TritonGPUOptimizeDotOperands
    : Pass<"tritongpu-optimize-dot-operands", "builtin.module"> {
  let summary = "Move the transposes and reshapes of dot operands into shared memory views";
  let description = [{
    After a canonicalization of the module: a transposed tensor converted to an mma operand
    (`convert_layout(tt.trans(x))` read by a `tt.dot`) is stored untransposed to swizzled
    shared memory and loaded through a `ttg.memdesc_trans`; a `wgmma` operand stored from a
    `tt.trans` or `tt.reshape` (through any chain of them) is stored from the tensor before
    them and read through `ttg.memdesc_trans` / `ttg.memdesc_reshape` views whose layouts are
    inferred backwards from the buffer the dot reads; `ttg.local_alloc(tt.reshape(x))` becomes
    a `ttg.memdesc_reshape` of `x`'s buffer when that buffer keeps an NVMMA layout.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.optimize_dot_operands";
}

def TritonGPUAssignLatencies
    : Pass<"tritongpu-assign-latencies", "builtin.module"> {
  let summary = "Mark the loads a loop should pipeline with their latency in stages";
  let description = [{
    In each innermost `scf.for` with more than one stage (its `tt.num_stages`, else the
    option) and no `tt.latency` of the user's, the loads feeding a dot's A or B operand
    through the body (and, with `tt.num_stages`, the loads feeding anything) that pipelining
    pays for (a descriptor load; a `tt.load` whose `cp.async` moves 4 bytes or more and whose
    users agree on one shared layout; a scalar load of 32 bits or more) get
    `tt.latency = (num-stages - 1) / (levels of indirection)`. Loads reached at two
    indirection levels, or at a level of `num-stages - 1` or more, get none.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "3", "pipeline stages of loops without tt.num_stages">,
  ];
  let implModule = "tilecraft.transforms.assign_latencies";
}

def TritonGPUScheduleLoops
    : Pass<"tritongpu-schedule-loops", "builtin.module"> {
  let summary = "Turn op latencies into a coarse schedule of each loop body";
  let description = [{
    Takes the `tt.latency` attributes off the module and, for each innermost `scf.for` that
    yields no block argument, holds no barrier, assert or print, and has an op with a latency,
    writes `loop.stage` and `loop.cluster` on every op of the body and
    `tt.scheduled_max_stage` on the loop: ops downstream of a latency op are staged by their
    latency distance to the end of the body, their dependencies join their stage (or an
    earlier one), producers of loop-carried values read early go one stage later in a cluster
    before their reader, `scf.if` ops go to prologue or epilogue clusters, and the rest to the
    last stage.
  }];
  let implModule = "tilecraft.transforms.schedule_loops";
}

def TritonGPUPipeline : Pass<"tritongpu-pipeline", "builtin.module"> {
  let summary = "Software-pipeline the loads that feed shared memory in scf.for loops";
  let description = [{
    On a `cuda:80` or newer target, each innermost `scf.for` whose body stores loads to
    shared memory (`tt.load` whose only user is a `ttg.local_alloc`, as dot operands are after
    `tritongpu-reduce-data-duplication`) gets those loads issued `num-stages - 1` iterations
    ahead as `ttg.async_copy_global_to_local` into `num-stages` buffers per load
    (`ttg.memdesc_index` of one `ttg.local_alloc`), one `ttg.async_commit_group` per
    iteration, and a `ttg.async_wait` at the top of the body that leaves `num-stages - 2`
    groups in flight. The loads of the first iterations move before the loop, masked by the
    trip count; a loop's own `tt.num_stages` overrides the option, and 1 leaves it alone.
    Loads whose address depends on another load, with a non-zero `other`, or whose element
    groups are narrower than 4 bytes are not pipelined. On sm_90, a `tt.descriptor_load` into
    its descriptor's TMA layout becomes `ttng.async_tma_copy_global_to_local` copies completed
    by one mbarrier per stage (`ttng.barrier_expect`, `ttng.wait_barrier` with a carried
    phase). A loop carrying a schedule (`tritongpu-schedule-loops`) is pipelined by it in
    Triton's form: loads of stage 0 go as many iterations ahead as their users' stage (also
    loads read in registers, through a `ttg.local_load`), the copies where the clusters put
    them, into that many buffers (one more when a buffer is read after them or by a wgmma),
    one commit group per copy, insert and extract slot counters, and the loop's wgmma made
    asynchronous with `ttng.warp_group_dot_wait`s as Triton does; the schedule attributes
    are removed. Last, on sm_90 (or no target), in every loop of more than one stage, each
    `tt.descriptor_store` (`_reduce`, `_scatter`) becomes `ttng.async_tma_store_wait
    {pendings = 0}`, a `ttg.local_store` into one buffer allocated before the loop (per shape
    and element type), `ttng.fence_async_shared` and `ttng.async_tma_copy_local_to_global`
    (`ttng.async_tma_reduce`, `ttng.async_tma_scatter`); a wait follows the loop. When such a
    store goes through a descriptor the kernel makes, each `tt.make_tensor_descriptor` of the
    loop's body gets two maps (three with a `ttng.warp_group_dot` in the loop) in one
    `ttg.global_scratch_alloc` before the loop, written in turn (`ttng.tensormap_create`,
    `ttng.tensormap_fenceproxy_acquire`, `ttng.reinterpret_tensor_descriptor`; the slot is
    carried by the loop), since the store of the iteration before may still read its map; a
    loop making a descriptor under an `scf.if` or in a nested loop keeps its stores. TMA loads
    through a descriptor made or carried in the loop are not pipelined.
  }];
  let dependentDialects = ["ttg"];
  let options = [
    Option<"numStages", "num-stages", "int", "3", "pipeline stages (buffers per load)">,
  ];
  let implModule = "tilecraft.transforms.loop_pipeline";
}

def TritonNvidiaGPUTMALowering : Pass<"triton-nvidia-tma-lowering", "builtin.module"> {
  let summary = "Tensor-descriptor loads and stores as TMA copies through shared memory";
  let description = [{
    Each `tt.descriptor_load` the pipeliner left becomes a TMA copy into a `ttg.local_alloc` in
    the descriptor's `#ttg.nvmma_shared` layout, completed by an mbarrier (`ttng.init_barrier`,
    `ttng.barrier_expect` of the block's bytes, `ttng.async_tma_copy_global_to_local`,
    `ttng.wait_barrier` of phase 0, `ttng.inval_barrier`) and read with `ttg.local_load`; each
    `tt.descriptor_store` becomes a `ttg.local_alloc` of the value, `ttng.fence_async_shared`,
    `ttng.async_tma_copy_local_to_global` and `ttng.async_tma_store_wait {pendings = 0}`;
    each `tt.make_tensor_descriptor` becomes the map of the descriptor written to 128 bytes
    of global scratch memory of its own (`ttg.global_scratch_alloc`, `ttng.tensormap_create`,
    `ttng.tensormap_fenceproxy_acquire`) and read back (`ttng.reinterpret_tensor_descriptor`).
    Descriptors whose blocks TMA cannot move in one shared layout (`tma_shared_encoding`) are
    left alone.
  }];
  let dependentDialects = ["ttg", "ttng"];
  let implModule = "tilecraft.transforms.tma_lowering";
}

def TritonGPUPrefetch : Pass<"tritongpu-prefetch", "builtin.module"> {
  let summary = "In loops, read dot operands from shared memory one slice of K ahead";
  let description = [{
    In an `scf.for` whose one `tt.dot` has an `#ttg.nvidia_mma` (v2) result and operands
    loaded from shared memory (`ttg.local_load`, then single-use ops), where the buffers are
    loop-carried or recomputable (the pipeliner's `ttg.memdesc_index` and `ttg.async_wait`),
    the first K slice of each operand (one `mma.sync` K) is loaded before the loop and, for
    the next iteration, at the end of the body, carried in new loop arguments; the dot becomes
    a chain of dots over the slices, each later slice loaded from a `ttg.memdesc_subslice`
    right before its dot, the last dot sunk to the end of the body.
  }];
  let dependentDialects = ["ttg"];
  let implModule = "tilecraft.transforms.prefetch";
}

#endif // TILECRAFT_TRITONGPU_PASSES_TD
