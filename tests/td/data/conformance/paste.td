// `#` pastes right to left and folds only constant neighbours; non-strings are cast.
class Named<string name, int width> {
  string tag = name # "_" # width # "_" # "bits";
  string summary = name # " of " # "things";
  list<int> nums = [width] # [1, 2] # [3];
}
def A : Named<"a", 8>;
def B { string s = "x" # "y" # "z"; string t = A # "!"; }
def C # D { int x = 1; }
