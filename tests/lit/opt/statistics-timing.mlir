// Pass statistics and the timing report, on stderr.
// RUN: tilecraft-opt %s -test-greedy -test-func --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=STATS
// RUN: tilecraft-opt %s -test-greedy -test-func --mlir-timing 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=TIME

// STATS:      ===-------------------------------------------------------------------------===
// STATS-NEXT: ... Pass statistics report ...
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: 'builtin.module' Pipeline
// STATS-NEXT:   TestGreedy
// STATS-NEXT:     (S) 2 num-replaced - ops replaced
// STATS-NEXT:   'tt.func' Pipeline
// STATS-NEXT:     TestFunc
// STATS-NEXT:       (S) 2 num-funcs - functions visited

// TIME:      ... Execution time report ...
// TIME:      Total Execution Time: {{[0-9.]+}} seconds
// TIME:      ----Wall Time----  ----Name----
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Verifier
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  TestGreedy
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  'tt.func' Pipeline
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    TestFunc
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    Verifier
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// TIME-NEXT: {{[0-9.]+}} (100.0%)  Total

tt.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  tt.return %0 : i32
}
tt.func @g(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  tt.return %0 : i32
}
