// A def may name itself through NAME (`!cast<C>(NAME)`, `!exists<C>(NAME)`): the reference waits
// for the def's final resolution. The record of a `Class<args>` value gets no NAME, so there
// `!cast<C>(NAME)` stays as written.
class Node<string label> {
  Node self = !cast<Node>(NAME);
  bit known = !exists<Node>(NAME);
  string text = label;
}
def First : Node<"first">;
def Second : Node<"second"> { Node prev = !cast<Node>("First"); }
def : Node<"nameless">;
multiclass Pair<string l> { def _left : Node<l # "L">; def _right : Node<l # "R">; }
defm P : Pair<"p">;
def Holder { Node inner = Node<"inner">; }
