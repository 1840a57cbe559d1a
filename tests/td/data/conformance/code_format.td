// Whether a string prints as "..." or [{...}]: pasting keeps code if either side is code;
// !interleave gives code when an item after the first is code; !subst gives a string;
// !substr and !if keep what they pick.
class A<string s> {
  string a = [{x}] # "y";
  string b = "y" # [{x}];
  string d = !strconcat([{x}], s);
  list<string> e = !foreach(x, ["a", "b"], x # [{c}]);
  string f = !subst("a", [{b}], "abc");
  string g = !subst("a", "b", [{abc}]);
  string h = !interleave(["a", [{b}]], [{,}]);
  string h1 = !interleave([[{x}], "y"], " ");
  string h2 = !interleave(["a", "b"], [{,}]);
  string h3 = !interleave([[{x}]], " ") # " ";
  code i = "q";
  string k = !if(1, [{a}], "b");
  string l = !substr([{abc}], 1, 1);
}
def X : A<[{s}]>;
def Y : A<"s">;
