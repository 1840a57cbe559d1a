// Every op of the llvm dialect in MLIR 19's syntax: a global, declarations, a kernel with
// arithmetic, comparisons, casts, memory, aggregates, vectors, atomics, calls and branches.
module {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @__nv_expf(f32) -> f32
  llvm.func internal @never(%arg0: i32) {
    llvm.unreachable
  }
  llvm.func @kernel(%p: !llvm.ptr<1>, %n: i32, %f: f32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %v0 = llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>) : vector<2xf32>
    %t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
    %i0 = llvm.add %t, %n overflow<nsw, nuw> : i32
    %i1 = llvm.sub %i0, %n overflow<nsw> : i32
    %i2 = llvm.mul %i1, %n overflow<nuw> : i32
    %i3 = llvm.shl %i2, %c0 : i32
    %i4 = llvm.udiv %i3, %n : i32
    %i5 = llvm.sdiv %i4, %n : i32
    %i6 = llvm.urem %i5, %n : i32
    %i7 = llvm.srem %i6, %n : i32
    %i8 = llvm.and %i7, %n : i32
    %i9 = llvm.or %i8, %n : i32
    %i10 = llvm.xor %i9, %n : i32
    %i11 = llvm.lshr %i10, %c0 : i32
    %i12 = llvm.ashr %i11, %c0 : i32
    %f0 = llvm.fadd %f, %f {fastmathFlags = #llvm.fastmath<contract>} : f32
    %f1 = llvm.fsub %f0, %f {fastmathFlags = #llvm.fastmath<fast>} : f32
    %f2 = llvm.fmul %f1, %f : f32
    %f3 = llvm.fdiv %f2, %f : f32
    %f4 = llvm.frem %f3, %f : f32
    %f5 = llvm.fneg %f4 : f32
    %b0 = llvm.icmp "ult" %i12, %n : i32
    %b1 = llvm.fcmp "uno" %f5, %f : f32
    %s0 = llvm.select %b0, %f5, %f : i1, f32
    %w0 = llvm.sext %i12 : i32 to i64
    %w1 = llvm.zext %b1 : i1 to i32
    %w2 = llvm.trunc %w0 : i64 to i16
    %w3 = llvm.sitofp %w2 : i16 to f32
    %w4 = llvm.uitofp %w1 : i32 to f64
    %w5 = llvm.fptosi %w4 : f64 to i32
    %w6 = llvm.fptoui %s0 : f32 to i8
    %w7 = llvm.fpext %w3 : f32 to f64
    %w8 = llvm.fptrunc %w7 : f64 to f16
    %w9 = llvm.bitcast %w8 : f16 to i16
    %q0 = llvm.getelementptr inbounds %p[%w0] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %q1 = llvm.ptrtoint %q0 : !llvm.ptr<1> to i64
    %q2 = llvm.inttoptr %q1 : i64 to !llvm.ptr<1>
    %q3 = llvm.addrspacecast %q2 : !llvm.ptr<1> to !llvm.ptr
    %l0 = llvm.load %q0 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    llvm.store %l0, %q3 {alignment = 4 : i64} : f32, !llvm.ptr
    %a0 = llvm.alloca %c0 x f32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
    %g0 = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
    %g1 = llvm.getelementptr %g0[0, %i12] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<0 x i8>
    %u0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %u1 = llvm.insertvalue %i12, %u0[0] : !llvm.struct<(i32, f32)>
    %u2 = llvm.extractvalue %u1[1] : !llvm.struct<(i32, f32)>
    %e0 = llvm.extractelement %v0[%c0 : i32] : vector<2xf32>
    %e1 = llvm.insertelement %e0, %v0[%c0 : i32] : vector<2xf32>
    %r0 = llvm.atomicrmw fadd %q0, %l0 acq_rel : !llvm.ptr<1>, f32
    %r1 = llvm.cmpxchg %q0, %w5, %w5 acq_rel monotonic : !llvm.ptr<1>, i32
    %x0 = llvm.call @__nv_expf(%r0) : (f32) -> f32
    %x1 = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %i12 : (i32) -> i32
    llvm.cond_br %b0, ^bb1(%x1 : i32), ^bb2
  ^bb1(%y: i32):
    llvm.br ^bb2
  ^bb2:
    llvm.return
  }
}
