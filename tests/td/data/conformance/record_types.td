// A record is typed by its direct superclasses, a list literal by the common type of its items
// and a !foreach by its body: lists of the same records with different types give different
// anonymous records.
class Pred;
class Or<list<Pred> children> : Pred { list<Pred> kids = children; }
class Type<Pred p> { Pred predicate = p; }
class AnyTypeOf<list<Type> allowed> : Type<Or<!foreach(t, allowed, t.predicate)>>;
class I<int w> : Type<Or<[]>> { int width = w; }
class F<int w> : Type<Or<[]>> { int width = w; }
def I8 : I<8>;
def F32 : F<32>;
def AnyFloat : Type<Or<[]>>;
class Holder<list<Type> l> { list<Type> items = l; }
class Wrap<Type t> { Holder h = Holder<[t]>; }
def Mixed : AnyTypeOf<[I8, F32]>;
def Direct { Pred p = Or<[I8.predicate, F32.predicate]>; }
def A : Wrap<AnyFloat>;
def B { Holder h = Holder<[AnyFloat]>; }
def C { Holder h = Holder<[I8, F32]>; }
def D : Wrap<I8>;
