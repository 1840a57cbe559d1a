// A list keeps the element type it was read with: `[I1]` written in a def and `[t]` resolved to
// `[I1]` are different lists, so the anonymous records built from them are different ones.
class T { int x = 0; }
class U : T;
def I1 : U;
class Holder<list<T> l> { list<T> items = l; }
class Shaped<list<T> l> { Holder h = Holder<l>; }
def A : Shaped<[I1]>;
class Wrap<T t> { Holder v = Shaped<[t]>.h; }
def B : Wrap<I1>;
def C { Holder h = Holder<[I1]>; }
def D { list<T> l = [I1]; Holder h = Holder<l>; }
