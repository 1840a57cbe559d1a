// Included by Main.td by its bare name, as a dialect's files include each other.
#ifndef PARTS_TD
#define PARTS_TD
class Part<string n> { string name = n; }
#endif
