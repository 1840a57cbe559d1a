// The llvm dialect's ops print as MLIR 19 prints them and read back the same (written in
// MLIR's syntax here, printed, printed again).
// RUN: tilecraft-opt %s | filecheck %s
// RUN: tilecraft-opt %s | tilecraft-opt | filecheck %s
// RUN: tilecraft-opt %s --mlir-print-op-generic | tilecraft-opt | filecheck %s

// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32}
// CHECK-NEXT: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.mlir.global internal constant @msg("hi\00") {addr_space = 0 : i32}
// CHECK-NEXT: llvm.func @__nv_expf(f32) -> f32
// CHECK-NEXT: llvm.func internal @helper(%{{.*}}: i32) -> i32 {
// CHECK-NEXT:   llvm.return %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NEXT: llvm.func @kernel(%[[P:.+]]: !llvm.ptr<1>, %[[N:.+]]: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
module attributes {"ttg.num-warps" = 4 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal constant @msg("hi\00") {addr_space = 0 : i32}
  llvm.func @__nv_expf(f32) -> f32
  llvm.func internal @helper(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func @kernel(%arg0: !llvm.ptr<1>, %arg1: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
    // CHECK-NEXT: %[[C0:.+]] = llvm.mlir.constant(0 : i32) : i32
    // CHECK-NEXT: %[[F1:.+]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
    // CHECK-NEXT: %[[V0:.+]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>
    // CHECK-NEXT: %[[T:.+]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
    // CHECK-NEXT: %[[A:.+]] = llvm.add %[[T]], %[[N]] overflow<nsw, nuw> : i32
    // CHECK-NEXT: %[[M:.+]] = llvm.mul %[[A]], %[[C0]] : i32
    // CHECK-NEXT: %[[X:.+]] = llvm.xor %[[A]], %[[M]] : i32
    // CHECK-NEXT: llvm.sub %[[X]], %[[A]] overflow<nsw> : i32
    // CHECK-NEXT: llvm.shl %[[X]], %[[A]] : i32
    // CHECK-NEXT: %[[C:.+]] = llvm.icmp "slt" %[[X]], %[[N]] : i32
    // CHECK-NEXT: %[[E:.+]] = llvm.sext %[[X]] : i32 to i64
    // CHECK-NEXT: %[[G:.+]] = llvm.getelementptr inbounds %[[P]][%[[E]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    // CHECK-NEXT: %[[L:.+]] = llvm.load %[[G]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    // CHECK-NEXT: %[[S:.+]] = llvm.fadd %[[L]], %[[F1]] {fastmathFlags = #llvm.fastmath<contract>} : f32
    // CHECK-NEXT: %[[Q:.+]] = llvm.fcmp "olt" %[[S]], %[[F1]] : f32
    // CHECK-NEXT: %[[R:.+]] = llvm.select %[[Q]], %[[S]], %[[F1]] : i1, f32
    // CHECK-NEXT: %[[EX:.+]] = llvm.call @__nv_expf(%[[R]]) : (f32) -> f32
    // CHECK-NEXT: llvm.store %[[EX]], %[[G]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
    // CHECK-NEXT: %[[U:.+]] = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    // CHECK-NEXT: %[[U1:.+]] = llvm.insertvalue %[[X]], %[[U]][0] : !llvm.struct<(i32, f32)>
    // CHECK-NEXT: llvm.extractvalue %[[U1]][1] : !llvm.struct<(i32, f32)>
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %[[X]] : (i32) -> i32
    // CHECK-NEXT: %[[GS:.+]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
    // CHECK-NEXT: llvm.getelementptr %[[GS]][0, %[[X]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<0 x i8>
    // CHECK-NEXT: llvm.alloca %[[C0]] x f32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
    // CHECK-NEXT: %[[VE:.+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<2xf32>
    // CHECK-NEXT: llvm.insertelement %[[VE]], %[[V0]][%[[C0]] : i32] : vector<2xf32>
    // CHECK-NEXT: llvm.atomicrmw add %[[G]], %[[L]] monotonic : !llvm.ptr<1>, f32
    // CHECK-NEXT: llvm.cmpxchg %[[G]], %[[X]], %[[X]] acq_rel monotonic : !llvm.ptr<1>, i32
    // CHECK-NEXT: llvm.fptrunc %[[S]] : f32 to f16
    // CHECK-NEXT: llvm.ptrtoint %[[G]] : !llvm.ptr<1> to i64
    // CHECK-NEXT: llvm.addrspacecast %[[G]] : !llvm.ptr<1> to !llvm.ptr
    // CHECK-NEXT: llvm.fneg %[[S]] : f32
    // CHECK-NEXT: llvm.call @helper(%[[X]]) : (i32) -> i32
    // CHECK-NEXT: llvm.intr.assume %[[C]] : i1
    // CHECK-NEXT: llvm.cond_br %[[C]], ^bb1(%[[X]] : i32), ^bb2
    // CHECK-NEXT: ^bb1(%[[Y:.+]]: i32):
    // CHECK-NEXT: llvm.br ^bb2
    // CHECK-NEXT: ^bb2:
    // CHECK-NEXT: llvm.return
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %f1 = llvm.mlir.constant(1.0 : f32) : f32
    %v0 = llvm.mlir.constant(dense<0.0> : vector<2xf32>) : vector<2xf32>
    %t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
    %a = llvm.add %t, %arg1 overflow<nuw, nsw> : i32
    %b = llvm.mul %a, %c0 overflow<none> : i32
    %x = llvm.xor %a, %b : i32
    %sb = llvm.sub %x, %a overflow<nsw> : i32
    %sh = llvm.shl %x, %a : i32
    %c = llvm.icmp "slt" %x, %arg1 : i32
    %e = llvm.sext %x : i32 to i64
    %p = llvm.getelementptr inbounds %arg0[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %l = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %s = llvm.fadd %l, %f1 {fastmathFlags = #llvm.fastmath<contract>} : f32
    %q = llvm.fcmp "olt" %s, %f1 : f32
    %r = llvm.select %q, %s, %f1 : i1, f32
    %ex = llvm.call @__nv_expf(%r) : (f32) -> f32
    llvm.store %ex, %p {alignment = 4 : i64} : f32, !llvm.ptr<1>
    %u = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %u1 = llvm.insertvalue %x, %u[0] : !llvm.struct<(i32, f32)>
    %u2 = llvm.extractvalue %u1[1] : !llvm.struct<(i32, f32)>
    %ia = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %x : (i32) -> i32
    %g = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
    %g1 = llvm.getelementptr %g[0, %x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<0 x i8>
    %al = llvm.alloca %c0 x f32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
    %ve = llvm.extractelement %v0[%c0 : i32] : vector<2xf32>
    %vi = llvm.insertelement %ve, %v0[%c0 : i32] : vector<2xf32>
    %old = llvm.atomicrmw add %p, %l monotonic : !llvm.ptr<1>, f32
    %cx = llvm.cmpxchg %p, %x, %x acq_rel monotonic : !llvm.ptr<1>, i32
    %fp = llvm.fptrunc %s : f32 to f16
    %pi = llvm.ptrtoint %p : !llvm.ptr<1> to i64
    %pg = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr
    %ng = llvm.fneg %s : f32
    %h = llvm.call @helper(%x) : (i32) -> i32
    llvm.intr.assume %c : i1
    llvm.cond_br %c, ^bb1(%x : i32), ^bb2
  ^bb1(%y: i32):
    llvm.br ^bb2
  ^bb2:
    llvm.return
  }
}
