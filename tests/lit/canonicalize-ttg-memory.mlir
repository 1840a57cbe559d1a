// The canonicalization of ttg's buffer views and warp specialization: a subslice of a subslice
// is one subslice; a warp_specialize drops the results nothing uses, its partitions the
// captures no partition uses and the repeated ones.
// RUN: tilecraft-opt %s -allow-unregistered-dialect --split-input-file -canonicalize | filecheck %s

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: tt.func @subslice_of_subslice
// CHECK-NEXT:    %[[BUF:.+]] = ttg.local_alloc
// CHECK-NEXT:    %[[VIEW:.+]] = ttg.memdesc_subslice %[[BUF]][24, 48] : !ttg.memdesc<32x64xf16, #{{.+}}, #{{.+}}, mutable> -> !ttg.memdesc<8x16xf16, #{{.+}}, #{{.+}}, mutable, 32x64>
// CHECK-NEXT:    tt.return %[[VIEW]]
tt.func @subslice_of_subslice() -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64> {
  %0 = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
  %1 = ttg.memdesc_subslice %0[16, 32] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64>
  %2 = ttg.memdesc_subslice %1[8, 16] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64> -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>
  tt.return %2 : !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>
}
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: tt.func @unused_results_and_captures
// CHECK-NEXT:    %[[WS:.+]] = ttg.warp_specialize(%arg1)
// CHECK-NEXT:    default {
// CHECK-NEXT:      ttg.warp_yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    partition0(%[[Y:.+]]: i32) num_warps(4) {
// CHECK-NEXT:      "use"(%[[Y]], %[[Y]]) : (i32, i32) -> ()
// CHECK-NEXT:      ttg.warp_return
// CHECK-NEXT:    } : (i32) -> i32
// CHECK-NEXT:    tt.return %[[WS]] : i32
tt.func @unused_results_and_captures(%a: i32, %b: i32) -> i32 {
  %0:2 = ttg.warp_specialize(%a, %b, %b)
  default {
    ttg.warp_yield %a, %b : i32, i32
  }
  partition0(%x: i32, %y: i32, %z: i32) num_warps(4) {
    "use"(%y, %z) : (i32, i32) -> ()
    ttg.warp_return
  } : (i32, i32, i32) -> (i32, i32)
  tt.return %0#1 : i32
}

// Every result used and every capture used once: nothing changes.
// CHECK-LABEL: tt.func @all_used
// CHECK-NEXT:    %[[WS:.+]]:2 = ttg.warp_specialize(%arg0, %arg1)
// CHECK:         partition0(%{{.+}}: i32, %{{.+}}: i32) num_warps(4) {
// CHECK:         } : (i32, i32) -> (i32, i32)
tt.func @all_used(%a: i32, %b: i32) -> (i32, i32) {
  %0:2 = ttg.warp_specialize(%a, %b)
  default {
    ttg.warp_yield %a, %b : i32, i32
  }
  partition0(%x: i32, %y: i32) num_warps(4) {
    "use"(%x, %y) : (i32, i32) -> ()
    ttg.warp_return
  } : (i32, i32) -> (i32, i32)
  tt.return %0#0, %0#1 : i32, i32
}
}
