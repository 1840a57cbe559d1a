// convert-triton-to-tritongpu: Triton's default blocked layouts for the options, the layouts
// that ops infer (reduce, expand_dims, broadcast, trans, join, split, cat, dot), the converts
// where a user reads another layout, structured and unstructured control flow, signatures,
// (a module already in ttg form: convert-triton-to-tritongpu-legal.mlir).
// RUN: tilecraft-opt %s --split-input-file -convert-triton-to-tritongpu='target=cuda:90' | filecheck %s
// RUN: tilecraft-opt %s --split-input-file -convert-triton-to-tritongpu='target=cuda:80 num-warps=2 threads-per-warp=16' \
// RUN:   | filecheck %s --check-prefix=W2
// RUN: tilecraft-opt %s --split-input-file '-convert-triton-to-tritongpu{target=cuda:90 num-ctas=2}' \
// RUN:   | filecheck %s --check-prefix=CTA2
// RUN: not tilecraft-opt %s --split-input-file -convert-triton-to-tritongpu 2>&1 \
// RUN:   | filecheck %s --check-prefix=NOTARGET

// NOTARGET: error: 'convert-triton-to-tritongpu' requires 'target' option to be set

// Threads of a warp, then warps, along the fastest dim first, as far as its size allows.
// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[B3:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[NARROW:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK:     module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK:     tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #[[B1]]>
// CHECK:     arith.constant dense<0.000000e+00> : tensor<16x64xf32, #[[B2]]>
// CHECK:     arith.constant dense<0.000000e+00> : tensor<2x4x8xf32, #[[B3]]>
// CHECK:     arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32, #[[B1]]>
// CHECK:     arith.constant dense<0.000000e+00> : tensor<128x4xf32, #[[NARROW]]>

// W2-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [2], order = [0]}>
// W2-DAG: #[[B2:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 2], order = [1, 0]}>
// W2-DAG: #[[B3:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 8], warpsPerCTA = [1, 2, 1], order = [2, 1, 0]}>
// W2-DAG: #[[NARROW:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
// W2:     module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 16 : i32}
// W2:     tensor<256x!tt.ptr<f32>, #[[B1]]>
// W2:     tensor<16x64xf32, #[[B2]]>
// W2:     tensor<2x4x8xf32, #[[B3]]>
// W2:     tensor<128x4xf32, #[[NARROW]]>

// With two CTAs, the slowest dim is split between them first, and each CTA lays out its part.
// CTA2-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CTA2-DAG: #[[B2:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CTA2:     module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CTA2:     tensor<256x!tt.ptr<f32>, #[[B1]]>
// CTA2:     tensor<16x64xf32, #[[B2]]>
tt.func @default_layouts(%p: !tt.ptr<f32>) {
  %a = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %b = arith.constant dense<0.0> : tensor<16x64xf32>
  %c = arith.constant dense<0.0> : tensor<2x4x8xf32>
  %d = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %e = arith.constant dense<0.0> : tensor<128x4xf32>
  tt.return
}

// -----

// A reduction's results are its operand's layout sliced along the axis; users that read the
// default layout get a convert right after the reduction. expand_dims reads a slice of its
// result, whose layout inserts a dim of one thread into its operand's (order [0, 1]); a
// broadcast keeps its operand's layout.
// CHECK-DAG:   #[[X:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[E:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @reduce(
// CHECK-SAME:    %arg0: tensor<32x16xf32, #[[X]]>) -> (tensor<16xf32, #[[V]]>, tensor<32xi32, #[[V]]>, f32)
// CHECK:         %[[R:.+]] = "tt.reduce"(%arg0) <{axis = 0 : i32}>
// CHECK:         }) : (tensor<32x16xf32, #[[X]]>) -> tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[X]]}>>
// CHECK-NEXT:    %[[RV:.+]] = ttg.convert_layout %[[R]] : tensor<16xf32, #ttg.slice<{dim = 0, parent = #[[X]]}>> -> tensor<16xf32, #[[V]]>
// CHECK-NEXT:    %[[I:.+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #[[V]]>
// CHECK-NEXT:    %[[IS:.+]] = ttg.convert_layout %[[I]] : tensor<16xi32, #[[V]]> -> tensor<16xi32, #ttg.slice<{dim = 0, parent = #[[E]]}>>
// CHECK-NEXT:    %[[IE:.+]] = tt.expand_dims %[[IS]] {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #[[E]]}>> -> tensor<1x16xi32, #[[E]]>
// CHECK-NEXT:    %[[IX:.+]] = ttg.convert_layout %[[IE]] : tensor<1x16xi32, #[[E]]> -> tensor<1x16xi32, #[[X]]>
// CHECK-NEXT:    %[[IB:.+]] = tt.broadcast %[[IX]] : tensor<1x16xi32, #[[X]]> -> tensor<32x16xi32, #[[X]]>
// CHECK-NEXT:    %[[A:.+]]:2 = "tt.reduce"(%arg0, %[[IB]]) <{axis = 1 : i32}>
// CHECK:         }) : (tensor<32x16xf32, #[[X]]>, tensor<32x16xi32, #[[X]]>) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[X]]}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[X]]}>>)
// CHECK-NEXT:    %[[AV:.+]] = ttg.convert_layout %[[A]]#1 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[X]]}>> -> tensor<32xi32, #[[V]]>
// CHECK-NEXT:    %[[T:.+]] = "tt.reduce"(%[[RV]]) <{axis = 0 : i32}>
// CHECK:         }) : (tensor<16xf32, #[[V]]>) -> f32
// CHECK-NEXT:    tt.return %[[RV]], %[[AV]], %[[T]] : tensor<16xf32, #[[V]]>, tensor<32xi32, #[[V]]>, f32
tt.func @reduce(%x: tensor<32x16xf32>) -> (tensor<16xf32>, tensor<32xi32>, f32) {
  %r = "tt.reduce"(%x) ({
  ^bb0(%p: f32, %q: f32):
    %s = arith.maxnumf %p, %q : f32
    tt.reduce.return %s : f32
  }) {axis = 0 : i32} : (tensor<32x16xf32>) -> tensor<16xf32>
  %i = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ib = tt.expand_dims %i {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ii = tt.broadcast %ib : tensor<1x16xi32> -> tensor<32x16xi32>
  %v, %w = "tt.reduce"(%x, %ii) ({
  ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
    %gt = arith.cmpf ogt, %p, %q : f32
    %m = arith.select %gt, %p, %q : f32
    %mi = arith.select %gt, %pi, %qi : i32
    tt.reduce.return %m, %mi : f32, i32
  }) {axis = 1 : i32} : (tensor<32x16xf32>, tensor<32x16xi32>) -> (tensor<32xf32>, tensor<32xi32>)
  %t = "tt.reduce"(%r) ({
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tt.reduce.return %s : f32
  }) {axis = 0 : i32} : (tensor<16xf32>) -> f32
  tt.return %r, %w, %t : tensor<16xf32>, tensor<32xi32>, f32
}

// -----

// The accumulator gets 2x2 elements per thread from 4 per thread on, 4x4 from 16 on; A and B
// are read as its dot operands and C in its layout. Below 4 per thread the default layout is
// the accumulator's, and C needs no convert.
// CHECK-DAG:   #[[ACC2:.+]] = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[ACC4:.+]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[SMALL:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @dots(
// CHECK:         %[[Z32:.+]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #{{.+}}>
// CHECK-NEXT:    %[[Z64:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #{{.+}}>
// CHECK-NEXT:    %[[Z16:.+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #[[SMALL]]>
// CHECK-NEXT:    %[[A:.+]] = ttg.convert_layout %arg0 : {{.+}} -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #[[ACC2]]}>>
// CHECK-NEXT:    %[[B:.+]] = ttg.convert_layout %arg1 : {{.+}} -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #[[ACC2]]}>>
// CHECK-NEXT:    %[[C:.+]] = ttg.convert_layout %[[Z32]] : {{.+}} -> tensor<32x32xf32, #[[ACC2]]>
// CHECK-NEXT:    tt.dot %[[A]], %[[B]], %[[C]] : {{.+}} -> tensor<32x32xf32, #[[ACC2]]>
// CHECK:         tt.dot {{.+}} -> tensor<64x64xf32, #[[ACC4]]>
// CHECK-NEXT:    %[[E:.+]] = ttg.convert_layout %arg4 : {{.+}} -> tensor<16x8xf16, #ttg.dot_op<{opIdx = 0, parent = #[[SMALL]]}>>
// CHECK-NEXT:    %[[F:.+]] = ttg.convert_layout %arg5 : {{.+}} -> tensor<8x16xf16, #ttg.dot_op<{opIdx = 1, parent = #[[SMALL]]}>>
// CHECK-NEXT:    tt.dot %[[E]], %[[F]], %[[Z16]] : {{.+}} -> tensor<16x16xf32, #[[SMALL]]>
tt.func @dots(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<64x16xf16>, %d: tensor<16x64xf16>, %e: tensor<16x8xf16>, %f: tensor<8x16xf16>) {
  %z32 = arith.constant dense<0.0> : tensor<32x32xf32>
  %z64 = arith.constant dense<0.0> : tensor<64x64xf32>
  %z16 = arith.constant dense<0.0> : tensor<16x16xf32>
  %0 = tt.dot %a, %b, %z32 : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %1 = tt.dot %c, %d, %z64 : tensor<64x16xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
  %2 = tt.dot %e, %f, %z16 : tensor<16x8xf16> * tensor<8x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// A dot in a loop: its result is converted back to the carried value's default layout before
// the yield; the loop-invariant operands are converted inside the loop, where the dot reads
// them, as Triton does.
// CHECK-DAG:   #[[D:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[ACC:.+]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @dot_loop(
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC0:.+]] = %{{.+}}) -> (tensor<64x32xf32, #[[D]]>) : i32 {
// CHECK-NEXT:      ttg.convert_layout %arg0
// CHECK-NEXT:      ttg.convert_layout %arg1
// CHECK-NEXT:      %[[C:.+]] = ttg.convert_layout %[[ACC0]] : tensor<64x32xf32, #[[D]]> -> tensor<64x32xf32, #[[ACC]]>
// CHECK-NEXT:      %[[DOT:.+]] = tt.dot %{{.+}}, %{{.+}}, %[[C]] : {{.+}} -> tensor<64x32xf32, #[[ACC]]>
// CHECK-NEXT:      %[[Y:.+]] = ttg.convert_layout %[[DOT]] : tensor<64x32xf32, #[[ACC]]> -> tensor<64x32xf32, #[[D]]>
// CHECK-NEXT:      scf.yield %[[Y]] : tensor<64x32xf32, #[[D]]>
tt.func @dot_loop(%a: tensor<64x16xf16>, %b: tensor<16x32xf16>, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x32xf32>) : i32 {
    %d = tt.dot %a, %b, %acc : tensor<64x16xf16> * tensor<16x32xf16> -> tensor<64x32xf32>
    scf.yield %d : tensor<64x32xf32>
  }
  tt.return %r : tensor<64x32xf32>
}

// -----

// Carried values, branch results and while arguments take the default layout.
// CHECK:       #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @control(
// CHECK-SAME:    %arg0: tensor<64xf32, #[[V]]>, %arg1: i32, %arg2: i1) -> tensor<64xf32, #[[V]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         scf.for {{.+}} iter_args(%[[ACC:.+]] = %arg0) -> (tensor<64xf32, #[[V]]>) : i32 {
// CHECK-NEXT:      %[[Y:.+]] = arith.addf %[[ACC]], %arg0 : tensor<64xf32, #[[V]]>
// CHECK-NEXT:      scf.yield %[[Y]] : tensor<64xf32, #[[V]]>
// CHECK:         scf.if %arg2 -> (tensor<64xf32, #[[V]]>) {
// CHECK:         scf.while (%{{.+}} = %{{.+}}) : (tensor<64xf32, #[[V]]>) -> tensor<64xf32, #[[V]]> {
// CHECK-NEXT:      scf.condition(%arg2) %{{.+}} : tensor<64xf32, #[[V]]>
// CHECK:         ^bb0(%{{.+}}: tensor<64xf32, #[[V]]>):
// CHECK-NOT:     ttg.convert_layout
tt.func @control(%x: tensor<64xf32>, %n: i32, %c: i1) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64xf32>) : i32 {
    %y = arith.addf %acc, %x : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  %s = scf.if %c -> (tensor<64xf32>) {
    scf.yield %r : tensor<64xf32>
  } else {
    scf.yield %x : tensor<64xf32>
  }
  %w = scf.while (%v = %s) : (tensor<64xf32>) -> tensor<64xf32> {
    scf.condition(%c) %v : tensor<64xf32>
  } do {
  ^bb0(%v: tensor<64xf32>):
    scf.yield %v : tensor<64xf32>
  }
  tt.return %w : tensor<64xf32>
}

// -----

// trans permutes its operand's layout, join adds a last dim of two elements per thread and
// split reads that layout and drops it; cat widens sizePerThread until a thread holds both
// operands' elements; reshape takes the default layout.
// CHECK-DAG:   #[[X:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[T:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG:   #[[J:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG:   #[[Y:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[CAT:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @shapes(
// CHECK:         tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<16x32xf32, #[[X]]> -> tensor<32x16xf32, #[[T]]>
// CHECK-NEXT:    ttg.convert_layout
// CHECK-NEXT:    %[[JV:.+]] = tt.join %arg0, %arg0 : tensor<16x32xf32, #[[X]]> -> tensor<16x32x2xf32, #[[J]]>
// CHECK-NEXT:    tt.split %[[JV]] : tensor<16x32x2xf32, #[[J]]> -> tensor<16x32xf32, #[[X]]>
// CHECK-NEXT:    tt.cat %arg1, %arg1 : tensor<4x2xi32, #[[Y]]> -> tensor<8x2xi32, #[[CAT]]>
// CHECK-NEXT:    ttg.convert_layout
// CHECK-NEXT:    tt.reshape %arg0 : tensor<16x32xf32, #[[X]]> -> tensor<512xf32, #[[V]]>
tt.func @shapes(%x: tensor<16x32xf32>, %y: tensor<4x2xi32>) -> (tensor<32x16xf32>, tensor<16x32xf32>, tensor<8x2xi32>, tensor<512xf32>) {
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %j = tt.join %x, %x : tensor<16x32xf32> -> tensor<16x32x2xf32>
  %l, %r = tt.split %j : tensor<16x32x2xf32> -> tensor<16x32xf32>
  %c = tt.cat %y, %y : tensor<4x2xi32> -> tensor<8x2xi32>
  %m = tt.reshape %x : tensor<16x32xf32> -> tensor<512xf32>
  tt.return %t, %r, %c, %m : tensor<32x16xf32>, tensor<16x32xf32>, tensor<8x2xi32>, tensor<512xf32>
}

// -----

// A split of a tensor in the default layout, whose pairs are spread over threads: it is
// converted to the layout with each pair in a thread's registers.
// CHECK-DAG:   #[[L:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[P:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @split_of_load(
// CHECK:         %[[LV:.+]] = tt.load %{{.+}} : tensor<64x2x!tt.ptr<f32>, #[[L]]>
// CHECK-NEXT:    %[[PV:.+]] = ttg.convert_layout %[[LV]] : tensor<64x2xf32, #[[L]]> -> tensor<64x2xf32, #[[P]]>
// CHECK-NEXT:    tt.split %[[PV]] : tensor<64x2xf32, #[[P]]> -> tensor<64xf32, #[[V]]>
// CTA2-LABEL:  tt.func @split_of_load(
// CTA2:          tt.split
tt.func @split_of_load(%p: !tt.ptr<f32>) -> tensor<64xf32> {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<64x2x!tt.ptr<f32>>
  %v = tt.load %ptrs : tensor<64x2x!tt.ptr<f32>>
  %l, %r = tt.split %v : tensor<64x2xf32> -> tensor<64xf32>
  tt.return %l : tensor<64xf32>
}

// -----

// Signatures, calls and successor arguments are converted with the bodies.
// CHECK:       #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK:       tt.func private @callee(%arg0: tensor<64xf32, #[[V]]>) -> tensor<64xf32, #[[V]]>
// CHECK:       tt.func @caller(%arg0: tensor<64xf32, #[[V]]>, %arg1: i1) -> tensor<64xf32, #[[V]]>
// CHECK-NEXT:    %[[Y:.+]] = tt.call @callee(%arg0) : (tensor<64xf32, #[[V]]>) -> tensor<64xf32, #[[V]]>
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%[[Y]] : tensor<64xf32, #[[V]]>), ^bb1(%arg0 : tensor<64xf32, #[[V]]>)
// CHECK-NEXT:  ^bb1(%[[Z:.+]]: tensor<64xf32, #[[V]]>):
// CHECK-NEXT:    tt.return %[[Z]] : tensor<64xf32, #[[V]]>
tt.func private @callee(%x: tensor<64xf32>) -> tensor<64xf32> {
  tt.return %x : tensor<64xf32>
}

tt.func @caller(%x: tensor<64xf32>, %c: i1) -> tensor<64xf32> {
  %y = tt.call @callee(%x) : (tensor<64xf32>) -> tensor<64xf32>
  cf.cond_br %c, ^bb1(%y : tensor<64xf32>), ^bb1(%x : tensor<64xf32>)
^bb1(%z: tensor<64xf32>):
  tt.return %z : tensor<64xf32>
}

// -----

// A block pointer's pointee takes the layout of the tensor loaded through it.
// CHECK:       #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK:       tt.make_tensor_ptr {{.+}} : !tt.ptr<tensor<32x64xf16, #[[B]]>>
// CHECK-NEXT:  tt.load %{{.+}} : !tt.ptr<tensor<32x64xf16, #[[B]]>>
tt.func @block_pointer(%p: !tt.ptr<f16>, %n: i64) -> tensor<32x64xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %b = tt.make_tensor_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<32x64xf16>>
  %v = tt.load %b : !tt.ptr<tensor<32x64xf16>>
  tt.return %v : tensor<32x64xf16>
}

// -----

// Atomics and histograms read and write the default layouts.
// CHECK:       #[[V:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK:       tt.atomic_rmw add, relaxed, gpu, %{{.+}}, %arg1 : (tensor<128x!tt.ptr<i32>, #[[V]]>, tensor<128xi32, #[[V]]>) -> tensor<128xi32, #[[V]]>
// CHECK-NEXT:  tt.histogram %arg1 : tensor<128xi32, #[[V]]> -> tensor<8xi32, #[[V]]>
tt.func @atomics(%p: !tt.ptr<i32>, %x: tensor<128xi32>) -> (tensor<128xi32>, tensor<8xi32>) {
  %ptrs = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
  %old = tt.atomic_rmw add, relaxed, gpu, %ptrs, %x : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %h = tt.histogram %x : tensor<128xi32> -> tensor<8xi32>
  tt.return %old, %h : tensor<128xi32>, tensor<8xi32>
}

// -----

// The row offsets of a descriptor gather or scatter are read in packs of four per thread,
// the same on every warp and CTA; the gathered tile gets the default layout.
// CHECK:       #[[ROWS:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: @gather4
// CHECK:       %[[R:.+]] = ttg.convert_layout %arg1 : tensor<32xi32, #{{.+}}> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>
// CHECK-NEXT:  tt.descriptor_gather %arg0[%[[R]], %arg2] : (!tt.tensordesc<1x128xf32>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>, i32) -> tensor<32x128xf32, #{{.+}}>
// CHECK:       %[[S:.+]] = ttg.convert_layout %arg1 : tensor<32xi32, #{{.+}}> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>
// CHECK-NEXT:  tt.descriptor_scatter %arg0[%[[S]], %arg2]
// W2:          #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
tt.func @gather4(%d: !tt.tensordesc<1x128xf32>, %rows: tensor<32xi32>, %y: i32) {
  %g = tt.descriptor_gather %d[%rows, %y] : (!tt.tensordesc<1x128xf32>, tensor<32xi32>, i32) -> tensor<32x128xf32>
  tt.descriptor_scatter %d[%rows, %y], %g : !tt.tensordesc<1x128xf32>, tensor<32xi32>, i32, tensor<32x128xf32>
  tt.return
}
