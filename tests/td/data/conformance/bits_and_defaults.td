// An unknown value stored in a bits field is kept as its bits; operands that may be left out
// (!find's start, !substr's length) are filled in; !if resolves only the branch it takes.
class A<string s, bits<2> b, int n> {
  int i = !find(s, "_");
  string t = !substr(s, 1);
  bits<2> c = b;
  bits<3> d = !cast<bits<3>>(n);
  string head = !if(!ge(i, 0), !substr(s, 0, i), s);
}
def X : A<"a_b", 2, 3>;
def Y : A<"ab", 1, 5>;
def Z { string u = !substr("abc", 1); int v = !find("abc", "c"); }
