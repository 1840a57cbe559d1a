// `!cond` takes a trailing comma after its last clause; no other bang operator does.
class Kind<int n> {
  string name = !cond(
    !eq(n, 0) : "zero",
    !lt(n, 0) : "negative",
    true      : "positive",
  );
}
def K0 : Kind<0>;
def K5 : Kind<5>;
def KList { list<int> l = [1, 2,]; int c = !cond(false : 1, true : 2,); }
