// An index past the end of a list is left as written: no error unless a def must be fully
// resolved, so it may sit in the branch of an `!if` that is not taken or in a `Class<args>`
// value nobody reads.
class Pick<list<int> items> {
  int second = items[1];
  int safe = !if(!gt(!size(items), 1), items[1], -1);
}
def Long : Pick<[3, 4, 5]>;
def Short { int s = Pick<[7]>.safe; Pick p = Pick<[8]>; }
