// An unknown integer passed to a template argument of another integer type is cast to it.
class Base<bit b, bits<2> c> { bit x = !gt(b, 0); bits<2> y = c; int z = b; }
class D<int n> : Base<n, n>;
def X : D<1>;
