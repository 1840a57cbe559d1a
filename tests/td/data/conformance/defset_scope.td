// A defset's list is a global variable, also when the defset sits inside another, and its body
// is no scope of its own: a defvar there is global too.
class Item { int weight = 1; }
defset list<Item> All = {
  defset list<Item> Light = {
    def feather : Item;
  }
  def anvil : Item { let weight = 100; }
  defvar count = 2;
}
def Summary { list<Item> light = Light; list<Item> all = All; int n = count; }
