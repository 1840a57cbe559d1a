// Anonymous records print the template arguments as written; the same arguments written the
// same way give the same record, others a new one.
class Pair<int a, int b = 2, string s = "x"> { int first = a; int second = b; string tag = s; }
class User<int n> {
  Pair one = Pair<n>;
  Pair two = Pair<n, 3>;
  Pair three = Pair<n, 2>;
  int fromAnon = Pair<n, 5>.second;
}
def U : User<7>;
def V : User<7>;
def W { Pair p = Pair<7>; }
def : Pair<1>;
