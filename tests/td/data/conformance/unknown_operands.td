// Operators over values that are not known yet: a cast to the type a value already has is the
// value; !foreach and !foldl go through list literals whose items are unknown; !filter waits.
class R { int v = 1; }
class A<string s> {
  string c = !cast<string>(s);
  int n = 3;
  int d = !cast<int>(n);
  code e = [{x}];
  string f = !cast<string>(e);
}
class B<R a, R b> {
  list<int> l = !foreach(x, [a, b], x.v);
  int sum = !foldl(0, [a, b], acc, x, !add(acc, x.v));
  list<R> f = !filter(x, [a, b], x.v);
}
def r : R;
def X : A<"s">;
def Y : B<r, r>;
