// !not, !empty, !isa and !exists give ints, so a bit field holding one that is not resolved yet
// prints it as !cast<bit>(...); the comparisons give bits. !isa decides from static types where
// it can: a string is never a record, and a value whose type is a subclass always is one.
class Base;
class Derived : Base;
class Tests<string name, list<int> items, int n, Base b, Derived d> {
  bit isEmpty = !empty(items);
  bit isZero = !not(n);
  bit known = !exists<Base>(name);
  bit nameIsBase = !isa<Base>(name);
  bit derivedIsBase = !isa<Base>(d);
  bit baseIsDerived = !isa<Derived>(b);
  bit same = !eq(n, 1);
  int count = !size(items);
}
def D : Derived;
def T : Tests<"D", [], 0, D, D>;
