// Unstructured control flow inside a function: branches with and without block arguments.
module {
  tt.func @branches(%c: i1, %x: i32, %y: f32) -> i32 {
    cf.br ^bb1
  ^bb1:
    cf.cond_br %c, ^bb2(%x, %y : i32, f32), ^bb3(%x : i32)
  ^bb2(%a: i32, %b: f32):
    cf.br ^bb3(%a : i32)
  ^bb3(%r: i32):
    cf.cond_br %c, ^bb4, ^bb5
  ^bb4:
    cf.assert %c, "c holds here"
    tt.return %r : i32
  ^bb5:
    cf.br ^bb1
  }
}
