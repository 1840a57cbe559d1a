// !range (LLVM 16 and later) is filled in to !range(start, end, step).
class A<int n, list<int> l> {
  list<int> a = !range(n);
  list<int> b = !range(l);
  list<int> c = !range(1, n);
  list<int> d = !range(1, n, 2);
}
def X : A<3, [4, 5]>;
