// A def name is a value read in name mode: `.field` and `[index]` apply to local variables
// (foreach iterators, local defvars, multiclass arguments) and to `Class<args>` values, while a
// name that no local variable holds, a top-level defvar's included, stands for its own text,
// there and right of `#`.
class Info<string n> { string Name = n; list<string> Names = [n, n # "_alt"]; }
class Mark { int m = 1; }
defvar top = "Top";
foreach info = [Info<"alpha">, Info<"beta">] in {
  def info.Name : Mark;
  def info.Names[1] # _x : Mark;
  def pre_ # info.Name;
  defvar local = "Local";
  def local # _ # info.Name;
}
def top # _def;
def Info<"gamma">.Name;
def with_ # top { string pasted = "p" # top; string direct = top; }
multiclass Named<string suffix> { def _ # suffix; def suffix; }
defm named : Named<"s">;
