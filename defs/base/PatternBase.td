//===- PatternBase.td - declarative rewrite patterns ---------------------===//
//
// Source -> result rewrite patterns, as MLIR's DRR writes them:
//
//   def CombineAddPtr : Pat<(TT_AddPtrOp (TT_AddPtrOp $ptr, $i), $j),
//                           (TT_AddPtrOp $ptr, (Arith_AddIOp $i, $j))>;
//
// A source dag names an op and its arguments in `arguments` order (operands and attributes);
// an argument is `$name` (bind it), a nested op dag (the operand's defining op must match), or
// a constraint with a name (`I32:$x`: check and bind). `(Op:$res ...)` binds the matched op;
// an absent optional operand or attribute binds None, and a nested op dag on an optional
// operand matches only when the operand is given.
// A result dag builds an op from bound values, nested result dags, `(NativeCodeCall<"expr">
// $a, ...)`, `(NoValue)` for an optional operand or attribute left out, and an optional
// trailing `(location $res)`. A `Pattern` with no result dag erases its root op, which must
// have no results. Constraints are
// `(Constraint<CPred<"...$0...">, "summary"> $a, ...)` with `$0`, `$1`, ... the arguments.
// tools/gen writes the patterns of each main file into `tilecraft.generated.patterns.<file>`.
//
// Every pattern says which pass applies it in `appliedBy`: "canonicalize" adds it to the
// canonicalization patterns of its root op (the op's generated `get_canonicalization_patterns`),
// any other pass argument (`triton-combine`) to that pass's generated `declared_patterns()`.
// A pattern that nothing applies is an error. Set it for a group with
// `let appliedBy = "triton-combine" in { ... }`.
//
//===----------------------------------------------------------------------===//

#ifndef TILECRAFT_PATTERNBASE_TD
#define TILECRAFT_PATTERNBASE_TD

include "base/Constraints.td"

def addBenefit;
def location;
// `(replaceWithValue $x)` as a result pattern: replace the root's result by a bound value.
def replaceWithValue;

class Pattern<dag source, list<dag> results, list<dag> preds = [],
              dag benefitAdded = (addBenefit 0)> {
  dag sourcePattern = source;
  list<dag> resultPatterns = results;
  list<dag> constraints = preds;
  dag benefitDelta = benefitAdded;
  string summary = "";
  string appliedBy = "";
}

class Pat<dag pattern, dag result, list<dag> preds = [], dag benefitAdded = (addBenefit 0)>
    : Pattern<pattern, [result], preds, benefitAdded>;

// A Python expression in a result pattern: `$0`, `$1`, ... are its arguments, `$_rewriter`
// the rewriter and `$_loc` the location of the matched root op.
class NativeCodeCall<string expr> {
  string expression = expr;
}

// `(NoValue)` in a result dag: an optional operand or attribute that the new op does not have.
def NoValue : NativeCodeCall<"None">;

#endif // TILECRAFT_PATTERNBASE_TD
