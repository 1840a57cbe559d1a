// A small file for the --print-records golden test.
class Base<int w, string n = "x"> {
  int width = w;
  string name = n;
  bit flag = 0;
}
class Derived : Base<8> {
  let flag = 1;
  list<int> l = [1, 2];
  string tag = name # "_" # width;
}
def ins;
def D : Derived {
  let name = "d";
  dag args = (ins 1:$a, $b);
  code c = [{ foo }];
  bits<4> b = 5;
  string u = ?;
  field int f = 3;
}
def : Base<1>;
