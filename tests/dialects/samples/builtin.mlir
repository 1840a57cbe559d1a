module @named attributes {"ttg.num-warps" = 4 : i32, tt.target = "cuda:90"} {
  %0 = "test.source"() : () -> i32
  %1 = "test.source"() : () -> f32
  %2:2 = builtin.unrealized_conversion_cast %0, %1 : i32, f32 to i64, f64
  %3 = builtin.unrealized_conversion_cast to i32
  module {
  }
}
