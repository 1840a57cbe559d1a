// A multiclass may inherit the defs of other multiclasses, first and in order, with a body of its
// own or with `;`.
class Named<string n> { string name = n; }
multiclass Pair<string p> {
  def a : Named<p # "a">;
  def b : Named<p # "b">;
}
multiclass Single<string p> { def s : Named<p # "s">; }
multiclass Triple<string p> : Pair<p> {
  def c : Named<p # "c">;
}
multiclass Both<string q> : Pair<q # "1">, Single<q # "2">;
defm x : Triple<"x">;
defm y : Both<"y">;
defm : Triple<"anon">;
