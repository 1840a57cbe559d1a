// Identifiers may start with digits; 0x.. and 0b.. stay integers.
class 0DThing<int n> { int value = n; }
class 2Wide : 0DThing<2>;
def 3rd : 2Wide;
def hex { int a = 0x1F; int b = 0b101; int c = -12; bits<4> d = 0b1010; }
def 8i8 : 0DThing<0x10>;
multiclass M<int w> { def _#w#i : 0DThing<w>; }
defm 1x : M<8>;
