//===- combine.td - triton-combine's declarative patterns -----------------===//
//
// Peepholes on tile IR that `triton-combine` applies: folding an addition into a dot's
// accumulator and merging chained pointer offsets.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_COMBINE_TD
#define TILECRAFT_COMBINE_TD

include "base/PatternBase.td"
include "arith.td"
include "tt.td"

def DotAccIsZero : Constraint<CPred<"is_constant_zero($0)">, "the accumulator is zero">;
def SingleUse : Constraint<CPred<"$0.results[0].has_one_use()">, "the result has one use">;
def SameOffsetType : Constraint<CPred<"$0.type == $1.type">, "the offsets have one type">;

let appliedBy = "triton-combine" in {
// c + dot(a, b, 0) -> dot(a, b, c), and the same with the operands swapped.
def CombineDotAddI : Pat<
    (Arith_AddIOp $c, (TT_DotOp:$dot $a, $b, $zero, $precision, $maxImprecise)),
    (TT_DotOp $a, $b, $c, $precision, $maxImprecise, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;
def CombineDotAddIRev : Pat<
    (Arith_AddIOp (TT_DotOp:$dot $a, $b, $zero, $precision, $maxImprecise), $c),
    (TT_DotOp $a, $b, $c, $precision, $maxImprecise, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;
def CombineDotAddF : Pat<
    (Arith_AddFOp $c, (TT_DotOp:$dot $a, $b, $zero, $precision, $maxImprecise)),
    (TT_DotOp $a, $b, $c, $precision, $maxImprecise, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;
def CombineDotAddFRev : Pat<
    (Arith_AddFOp (TT_DotOp:$dot $a, $b, $zero, $precision, $maxImprecise), $c),
    (TT_DotOp $a, $b, $c, $precision, $maxImprecise, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;
// c + dot_scaled(a, b, 0) -> dot_scaled(a, b, c), either order (float accumulators only).
def CombineDotScaledAddF : Pat<
    (Arith_AddFOp $c, (TT_DotScaledOp:$dot $a, $b, $zero, $sa, $sb, $ta, $tb, $fast, $pa, $pb)),
    (TT_DotScaledOp $a, $b, $c, $sa, $sb, $ta, $tb, $fast, $pa, $pb, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;
def CombineDotScaledAddFRev : Pat<
    (Arith_AddFOp (TT_DotScaledOp:$dot $a, $b, $zero, $sa, $sb, $ta, $tb, $fast, $pa, $pb), $c),
    (TT_DotScaledOp $a, $b, $c, $sa, $sb, $ta, $tb, $fast, $pa, $pb, (location $dot)),
    [(DotAccIsZero $zero), (SingleUse $dot)]>;

// addptr(addptr(p, i), j) -> addptr(p, i + j)
def CombineAddPtr : Pat<
    (TT_AddPtrOp (TT_AddPtrOp $ptr, $i), $j),
    (TT_AddPtrOp $ptr, (Arith_AddIOp $i, $j)),
    [(SameOffsetType $i, $j)]>;
}

#endif // TILECRAFT_COMBINE_TD
