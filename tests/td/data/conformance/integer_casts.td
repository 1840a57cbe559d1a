// An unknown value of another integer type stored in a field is cast to the field's type; a
// bit stored in a bits<1> is its only bit.
class R;
class Q : R;
class A<int n, bits<2> b, bit t, Q q, list<Q> lq> {
  bits<3> d = n;
  int x = b;
  bit f = n;
  int h = t;
  bits<1> i = t;
  R r = q;
  list<R> rl = lq;
}
def q : Q;
def X : A<1, 2, 1, q, [q]>;
