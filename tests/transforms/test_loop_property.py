"""Property test: random ``scf.for`` loops (bodies drawn like the elementwise programs of
`test_elementwise_property`, reading the induction variable, iter_args and values from
outside; some iter_args starting equal) compute the same values before and after the loop
passes: LICM, triton-licm, loop-aware CSE and unrolling by a random factor, alone and together,
over trip counts from 0 to 7."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilecraft.ir import i32, parse_module, print_op
from tilecraft.transforms import PassManager

from .evaluator import Undefined, evaluate, same_values, to_value
from .test_elementwise_property import Program, _Drawer, draw_op, programs, type_text

PIPELINES = ("loop-invariant-code-motion", "triton-licm", "triton-loop-aware-cse",
             "triton-loop-unroll", "triton-licm,triton-loop-aware-cse,triton-loop-unroll")


@st.composite
def loops(draw):
    """(program text, argument values): a function whose body is one loop."""
    header, args = draw(programs())
    params = header.split("(", 1)[1].split(") ->", 1)[0]
    prog = Program()
    for param in params.split(", "):
        name, type_ = param.split(": ")
        element, shape = _parse_type(type_)
        prog.args.append((name, element, shape))
        prog.values.append((name, element, shape))
    data = _Drawer(draw)
    # iter_args: values of the arguments, some of them twice (equal inits)
    inits = [prog.pick(data) for _ in range(draw(st.integers(1, 4)))]
    if draw(st.booleans()):
        inits.append(inits[0])
    iter_args = [(f"%it{k}", init[1], init[2]) for k, init in enumerate(inits)]
    outside = list(prog.values)
    prog.values = outside + iter_args + [("%i", "i32", ())]
    for _ in range(draw(st.integers(1, 10))):
        draw_op(data, prog)
    yields = []
    for name, element, shape in iter_args:
        yields.append(prog.pick(data, element, shape))
    factor = draw(st.integers(1, 4))
    types = ", ".join(type_text(e, s) for _, e, s in iter_args)
    assigns = ", ".join(f"{name} = {init[0]}" for (name, _, _), init in zip(iter_args, inits))
    results = ", ".join(f"%r#{k}" for k in range(len(iter_args)))
    text = "\n".join([
        f"tt.func @f({params}, %lb: i32, %ub: i32) -> ({types}) {{",
        "  %c1 = arith.constant 1 : i32",
        f"  %r:{len(iter_args)} = scf.for %i = %lb to %ub step %c1 iter_args({assigns}) -> "
        f"({types}) : i32 {{",
        *["  " + line for line in prog.lines],
        f"    scf.yield {', '.join(v[0] for v in yields)} : {types}",
        f"  }} {{tt.loop_unroll_factor = {factor} : i32}}",
        f"  tt.return {results} : {types}",
        "}",
    ]) + "\n"
    return text, args


def _parse_type(text: str):
    if not text.startswith("tensor<"):
        return text, ()
    parts = text[len("tensor<"):-1].split("x")
    return parts[-1], tuple(int(p) for p in parts[:-1])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(loops(), st.sampled_from(PIPELINES), st.integers(-2, 2), st.integers(0, 7))
def test_loop_passes_keep_values(case, pipeline, lb, trips):
    text, args = case
    before = parse_module(text, "loop.mlir")
    args = [*args, to_value(i32, lb), to_value(i32, lb + trips)]
    try:
        expected = evaluate(before, "f", args)
    except Undefined:
        return
    after = parse_module(text, "loop.mlir")
    PassManager.parse(pipeline).run(after)
    after.verify()
    got = evaluate(after, "f", args)
    for index, (a, b) in enumerate(zip(got, expected)):
        assert same_values(a, b), (f"result #{index} differs after {pipeline}: {a!r} != {b!r}"
                                   f"\n--- before\n{text}--- after\n{print_op(after)}")
