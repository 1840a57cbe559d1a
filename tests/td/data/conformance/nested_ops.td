// Variadic operators are read as binary ones nested from the right.
class Ops<int a, string s> {
  int sum = !add(a, 1, 2, 3);
  int prod = !mul(2, 3, a);
  int ored = !or(a, 1, 2);
  string cat = !strconcat("p", "q", s, "r", "t");
  list<int> l = !listconcat([1], [a], [2], [3]);
}
def X : Ops<4, "s">;
