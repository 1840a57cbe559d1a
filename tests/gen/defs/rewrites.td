// Declarative rewrite patterns over the arith and tt dialects, for the generator's tests.

include "base/PatternBase.td"
include "arith.td"
include "tt.td"

let appliedBy = "canonicalize" in {
// x + 0 -> x
def AddZero : Pat<(Arith_AddIOp $x, (Arith_ConstantOp $zero)), (replaceWithValue $x),
                  [(Constraint<CPred<"$0.value == 0">, "zero"> $zero)]>;

// (x + y) * z -> x * z + y * z, keeping the location of the multiplication
def Distribute : Pat<(Arith_MulIOp:$mul (Arith_AddIOp $x, $y), $z),
                     (Arith_AddIOp (Arith_MulIOp $x, $z), (Arith_MulIOp $y, $z), (location $mul)),
                     [], (addBenefit 2)>;

// x - x -> (x xor x), matching the same value twice
def SubSelf : Pat<(Arith_SubIOp $x, $x), (Arith_XOrIOp $x, $x)>;

// extsi on an i32 only
def ExtOfI32 : Pat<(Arith_ExtSIOp I32:$x), (Arith_ExtUIOp $x)>;

// a load under a constant mask becomes one without its mask and other value (an op matched
// on an optional operand; absent optional operands in the result)
def Unmask : Pat<(TT_LoadOp $p, (Arith_ConstantOp $mask), $o, $bc, $pad, $c, $e, $v),
                 (TT_LoadOp $p, (NoValue), (NoValue), $bc, $pad, $c, $e, $v)>;

// an evict_first store goes (no result pattern: the root is erased)
def DropStore : Pattern<(TT_StoreOp $p, $v, $m, $bc, $c, $e), [],
                        [(Constraint<CPred<"$0 is not None and $0.value == 2">,
                                     "evict_first"> $e)]>;
}
