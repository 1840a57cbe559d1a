// Structured control flow: for loops (index and i32 bounds, with and without iter_args),
// if with and without results, while with before/after regions.
module {
  tt.func @loops(%n: i32, %c: i1, %lb: index, %ub: index, %t: tensor<128xf32>) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s = arith.constant 1 : index
    scf.for %i = %lb to %ub step %s {
      %x = arith.addi %c0, %c1 : i32
    }
    scf.for unsigned %i = %c0 to %n step %c1 : i32 {
    }
    %sum:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0, %v = %t) -> (i32, tensor<128xf32>) : i32 {
      %a = arith.addi %acc, %i : i32
      %w = arith.addf %v, %v : tensor<128xf32>
      scf.yield %a, %w : i32, tensor<128xf32>
    } {tt.loop_unroll_factor = 2 : i32}
    %r = scf.if %c -> (i32) {
      scf.yield %sum#0 : i32
    } else {
      scf.yield %c1 : i32
    }
    scf.if %c {
      %y = arith.addi %r, %r : i32
    } else {
    }
    scf.if %c {
    }
    %w:2 = scf.while (%a = %c0, %b = %n) : (i32, i32) -> (i32, i32) {
      %lt = arith.cmpi slt, %a, %b : i32
      scf.condition(%lt) %a, %b : i32, i32
    } do {
    ^bb0(%a2: i32, %b2: i32):
      %next = arith.addi %a2, %c1 : i32
      scf.yield %next, %b2 : i32, i32
    } attributes {tt.flag}
    scf.while : () -> () {
      scf.condition(%c)
    } do {
      scf.yield
    }
    tt.return %w#0 : i32
  }
}
