"""Random element-wise and reduction kernels, written as source text, for the differential test
of the CPU backend against the interpreter (`test_differential.py`).

A `Program` is an expression DAG over 1-3 loaded inputs (1-D blocks, or 2-D blocks with
[BLOCK_M, BLOCK_N], [BLOCK_M, 1] and [1, BLOCK_N] operands), stored under a mask, and optionally
followed by a reduction or a scan of the result. `programs(dim, final)` is the hypothesis
strategy that draws one; `Program.source()` is the module text of its ``@tc.jit`` kernel.

Every node has a static dtype and shape, and an `exact` flag: a value is exact when it is
computed only with operations that IEEE (or integer arithmetic) defines to the bit, so that the
two backends must agree bit for bit. Math functions (exp, log, sigmoid, ...), fma, some
double-rounding conversions and float sums are not exact: their results are compared with a
running error bound (`error_bounds`), computed from the interpreter's values of every node (the
kernel stores them when its ``PROBE`` constexpr is set). Values that are not exact never reach an
operation that is discontinuous (comparison, cast to an integer, bitcast, floor, fmod, argmax),
where an ulp of difference could become any difference.

Undefined behaviour is avoided by construction: integer divisors are never 0 (nor -1 for signed
types), shift amounts are below the bit width, exp's argument is bounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

# -- types ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DType:
    name: str          # tl name: float32, int8, int1, ...
    kind: str          # 'f' float, 'i' signed, 'u' unsigned, 'b' bool
    bits: int
    numpy: object      # numpy dtype of its arrays (None: bfloat16, never in memory here)

    @property
    def tl(self) -> str:
        return f"tl.{self.name}"

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    # float formats: unit roundoff, smallest subnormal, largest finite
    @property
    def mantissa(self) -> int:
        return {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}[self.name]

    @property
    def u(self) -> float:
        return 2.0 ** -self.mantissa

    @property
    def eta(self) -> float:
        return {"float16": 2.0 ** -24, "bfloat16": 2.0 ** -133, "float32": 2.0 ** -149,
                "float64": 5e-324}[self.name]

    @property
    def max(self) -> float:
        return {"float16": 65504.0, "bfloat16": 3.3895313892515355e38,
                "float32": float(np.finfo(np.float32).max),
                "float64": float(np.finfo(np.float64).max)}[self.name]

    @property
    def int_range(self) -> tuple[int, int]:
        if self.kind == "u":
            return 0, 2 ** self.bits - 1
        return -(2 ** (self.bits - 1)), 2 ** (self.bits - 1) - 1


TYPES = {t.name: t for t in [
    DType("int1", "b", 1, np.bool_), DType("int8", "i", 8, np.int8),
    DType("int16", "i", 16, np.int16), DType("int32", "i", 32, np.int32),
    DType("int64", "i", 64, np.int64), DType("uint8", "u", 8, np.uint8),
    DType("uint32", "u", 32, np.uint32), DType("float16", "f", 16, np.float16),
    DType("bfloat16", "f", 16, None), DType("float32", "f", 32, np.float32),
    DType("float64", "f", 64, np.float64),
]}
T = TYPES
INPUT_TYPES = ["float32", "float32", "float32", "int32", "int32", "float16", "float64", "int8",
               "int16", "int64", "uint8", "uint32", "int1"]
ROOT_TYPES = ["float32", "float32", "float32", "int32", "int32", "float16", "float64",
              "bfloat16", "int8", "int16", "int64", "uint32", "int1"]
FLOAT_TYPES = ["float16", "bfloat16", "float32", "float64"]
INT_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32"]


def bitcast_partner(t: DType) -> DType | None:
    """The type of the same width and the other kind (float <-> int) for bitcasts."""
    partners = {"float16": "int16", "bfloat16": "int16", "float32": "int32",
                "float64": "int64", "int16": "float16", "int32": "float32",
                "uint32": "float32", "int64": "float64"}
    name = partners.get(t.name)
    return T[name] if name else None


def _fmt(value) -> str:
    """A literal as kernel source."""
    if isinstance(value, float):
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    return repr(value)


def _paren(text: str) -> str:
    return f"({text})" if text.startswith("-") else text


# -- the expression DAG --------------------------------------------------------------------------

SHAPES_2D = ("row", "col", "full")


def join_shapes(*shapes: str) -> str:
    """The broadcast of node shapes: '1d', or 2-D 'row' [BM,1] / 'col' [1,BN] / 'full'."""
    shapes = set(shapes) - {None}
    if shapes == {"1d"}:
        return "1d"
    if len(shapes) == 1:
        return shapes.pop()
    return "full"


def fits(shape: str, wanted: str) -> bool:
    return shape == wanted or wanted == "full"


@dataclass(eq=False)
class Literal:
    text: str
    value: object      # a Python number, or None for a scalar that is not a constant (pid)


@dataclass(eq=False)
class Node:
    kind: str          # input index cast bitcast binary unary math where minmax cmp logic fma ...
    op: str
    dtype: DType
    shape: str
    args: list         # Nodes and Literals
    exact: bool
    text: str = ""     # the right-hand side in the kernel
    name: str = ""     # its variable


@dataclass
class Input:
    dtype: DType
    shape: str         # '1d', 'row', 'col', 'full'
    other: object      # load's other= (None: no other)
    fortran: bool      # a 'full' 2-D input stored column-major
    style: str         # how its values are drawn (see `make_inputs`)
    node: Node = None


@dataclass
class Final:
    kind: str          # 'reduce' | 'scan'
    op: str            # sum max min argmax argmin xor_sum | cumsum cumprod
    axis: int
    reverse: bool = False

    def out_dtype(self, t: DType) -> DType:
        """Mirrors tilecraft.language.standard's result types (the kernel casts to it)."""
        if self.op in ("argmax", "argmin"):
            return T["int32"]
        if self.op in ("sum", "cumsum"):
            if t.kind == "b" or (t.kind == "i" and t.bits < 32):
                return T["int32"]
            if t.kind == "u" and t.bits < 32:
                return T["uint32"]
            return T["float32"] if t.name == "bfloat16" else t
        if self.op in ("max", "min"):
            if t.bits < 32:
                return T["float32"] if t.is_float else T["int32"]
            return t
        return t

    def neutral(self, t: DType):
        if self.op in ("sum", "cumsum", "xor_sum"):
            return False if t.kind == "b" else (0.0 if t.is_float else 0)
        if self.op == "cumprod":
            return 1
        low = self.op in ("max", "argmax")
        if t.kind == "b":
            return not low
        if t.is_float:
            return -math.inf if low else math.inf
        lo, hi = t.int_range
        return lo if low else hi


@dataclass
class Program:
    dim: int
    inputs: list
    nodes: list
    root: Node
    final: Final | None
    block: tuple                      # (BLOCK,) or (BLOCK_M, BLOCK_N)
    size: tuple                       # (n,) or (M, N)
    index_nodes: dict = field(default_factory=dict)

    @property
    def grid(self) -> tuple:
        return tuple(-(-s // b) for s, b in zip(self.size, self.block))

    @property
    def exact(self) -> bool:
        """Whether every value the kernel stores must agree bit for bit."""
        if not all(n.exact for n in self.nodes):
            return False
        return not (self.final and self.root.dtype.is_float
                    and self.final.op in ("sum", "cumsum"))

    # -- source
    def source(self) -> str:
        d2 = self.dim == 2
        params = []
        for i, inp in enumerate(self.inputs):
            params.append(f"x{i}_ptr")
            if inp.shape == "full":
                params += [f"x{i}_sm", f"x{i}_sn"]
        params += ["out_ptr", "fin_ptr", "probe_ptr"]
        params += ["M", "N", "BLOCK_M: tl.constexpr", "BLOCK_N: tl.constexpr"] if d2 else \
            ["n", "BLOCK: tl.constexpr"]
        params.append("PROBE: tl.constexpr")
        lines = ["import tilecraft as tc", "import tilecraft.language as tl", "", "",
                 "@tc.jit", f"def kernel({', '.join(params)}):"]
        body = []
        if d2:
            body += ["pid_m = tl.program_id(0)", "pid_n = tl.program_id(1)",
                     "rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)",
                     "rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)",
                     "mask_m = rm[:, None] < M", "mask_n = rn[None, :] < N",
                     "mask = mask_m & mask_n"]
        else:
            body += ["pid = tl.program_id(0)", "offs = pid * BLOCK + tl.arange(0, BLOCK)",
                     "mask = offs < n"]
        for i, inp in enumerate(self.inputs):
            address, mask = {
                "1d": ("offs", "mask"),
                "full": (f"rm[:, None] * x{i}_sm + rn[None, :] * x{i}_sn", "mask"),
                "row": ("rm[:, None]", "mask_m"),
                "col": ("rn[None, :]", "mask_n"),
            }[inp.shape]
            other = "" if inp.other is None else f", other={_fmt(inp.other)}"
            body.append(f"{inp.node.name} = tl.load(x{i}_ptr + {address}, mask={mask}{other})")
        for node in self.nodes:
            if node.kind == "input":
                continue
            body.append(f"{node.name} = {node.text}")
            body.append(f"tl.static_assert({node.name}.dtype == {node.dtype.tl})")
        root = self.root.name
        if d2 and self.root.shape != "full":
            body.append(f"res = tl.broadcast_to({root}, (BLOCK_M, BLOCK_N))")
            root = "res"
        out_at = "rm[:, None] * N + rn[None, :]" if d2 else "offs"
        body.append(f"tl.store(out_ptr + {out_at}, {root}, mask=mask)")
        if self.final is not None:
            body += self._final_source(root)
        # with PROBE, every node's value, as f64 over the padded iteration space
        body.append("if PROBE:")
        if d2:
            body += ["    pm = tl.num_programs(0) * BLOCK_M",
                     "    pn = tl.num_programs(1) * BLOCK_N",
                     "    at = rm[:, None] * pn + rn[None, :]"]
        else:
            body += ["    pn = tl.num_programs(0) * BLOCK", "    at = offs"]
        for k, node in enumerate(self.nodes):
            value = f"{node.name}.to(tl.float64)"
            if d2 and node.shape != "full":
                value = f"tl.broadcast_to({value}, (BLOCK_M, BLOCK_N))"
            stride = "pm * pn" if d2 else "pn"
            body.append(f"    tl.store(probe_ptr + {k} * {stride} + at, {value})")
        return "\n".join(lines + ["    " + b for b in body]) + "\n"

    def _final_source(self, root: str) -> list:
        f = self.final
        t = self.root.dtype
        out = f.out_dtype(t)
        masked = f"tl.where(mask, {root}, {_fmt(f.neutral(t))})"
        if f.kind == "reduce":
            call = f"tl.{f.op}({masked}, axis={f.axis})"
            if self.dim == 1:
                return [f"fin = {call}", f"tl.store(fin_ptr + pid, fin.to({out.tl}))"]
            if f.axis == 1:
                return [f"fin = {call}",
                        "rm1 = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)",
                        f"tl.store(fin_ptr + pid_n * M + rm1, fin.to({out.tl}), mask=rm1 < M)"]
            return [f"fin = {call}",
                    "rn1 = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)",
                    f"tl.store(fin_ptr + pid_m * N + rn1, fin.to({out.tl}), mask=rn1 < N)"]
        reverse = ", reverse=True" if f.reverse else ""
        call = f"tl.{f.op}({masked}, axis={f.axis}{reverse})"
        at = "rm[:, None] * N + rn[None, :]" if self.dim == 2 else "offs"
        return [f"fin = {call}", f"tl.store(fin_ptr + {at}, fin.to({out.tl}), mask=mask)"]

    def describe(self) -> str:
        sizes = dict(zip(("M", "N") if self.dim == 2 else ("n",), self.size))
        blocks = dict(zip(("BLOCK_M", "BLOCK_N") if self.dim == 2 else ("BLOCK",), self.block))
        inputs = ", ".join(f"x{i}: {inp.dtype.name} {inp.shape}"
                           f"{' column-major' if inp.fortran else ''} ({inp.style})"
                           for i, inp in enumerate(self.inputs))
        return (f"sizes {sizes}, blocks {blocks}, grid {self.grid}\ninputs {inputs}\n"
                f"final {self.final}")


# -- the generator -------------------------------------------------------------------------------

FLOAT_LITERALS = [0.0, 0.5, 1.0, -1.0, 2.0, -2.5, 0.1, 3.0, 1e-3, 100.0, -0.0]
INT_LITERALS = [0, 1, 2, 3, 5, 7, -1, -3, -8, 100, -100, 127, -128, 255, 1000, 65535,
                2 ** 31 - 1, -(2 ** 31)]
EXP_LIMIT = {"float16": 8.0, "bfloat16": 20.0, "float32": 20.0, "float64": 50.0}
MATH_FUNCTIONS = ["exp", "exp2", "log", "log2", "sigmoid", "tanh", "sin", "cos", "erf"]


class _Generator:
    def __init__(self, draw, dim: int, inputs: list, budget: int) -> None:
        self.draw = draw
        self.dim = dim
        self.inputs = inputs
        self.budget = budget          # operations still to generate
        self.nodes: list[Node] = []
        self.index_nodes: dict[str, Node] = {}
        for inp in inputs:
            inp.node = self._add(Node("input", "load", inp.dtype, inp.shape, [], True))

    # -- choices
    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def chance(self, p: float) -> bool:
        # an integer draw shrinks towards 0, i.e. towards "yes" (a leaf, a literal, ...)
        return self.draw(st.integers(0, 99)) < round(p * 100)

    def _add(self, node: Node) -> Node:
        if node.kind == "input":
            node.name = f"x{sum(n.kind == 'input' for n in self.nodes)}"
        else:
            node.name = f"v{len(self.nodes)}"
        self.nodes.append(node)
        return node

    def child_shape(self, shape: str) -> str:
        if shape == "full":
            return self.pick(["full", "full", "row", "col"])
        return shape

    def literal(self, t: DType) -> Literal:
        if t.is_float:
            return Literal(_fmt(v := self.pick(FLOAT_LITERALS)), v)
        lo, hi = t.int_range
        if t.name == "int32" and self.chance(0.1):
            return Literal("pid_m" if self.dim == 2 else "pid", None)
        v = self.pick([v for v in INT_LITERALS if lo <= v <= hi])
        return Literal(_fmt(v), v)

    # -- leaves
    def index(self, shape: str) -> Node:
        node = self.index_nodes.get(shape)
        if node is None:
            text = {"1d": "offs", "row": "rm[:, None]", "col": "rn[None, :]",
                    "full": "rm[:, None] * 3 - rn[None, :]"}[shape]
            node = self._add(Node("index", "index", T["int32"], shape, [], True, text))
            self.index_nodes[shape] = node
        return node

    def leaf(self, t: DType, shape: str, exact: bool) -> Node:
        candidates = [n for n in self.nodes if n.dtype == t and fits(n.shape, shape)
                      and (n.exact or not exact)]
        fresh = [n for n in candidates if n.kind == "input"]
        if fresh and self.chance(0.6):
            return self.pick(fresh)
        if candidates and self.chance(0.7):
            return self.pick(candidates)
        if t.name == "int32" and self.chance(0.3):
            return self.index(self.pick([s for s in ("1d",) + SHAPES_2D if fits(s, shape)
                                         and (s == "1d") == (self.dim == 1)]))
        sources = [i.node for i in self.inputs if fits(i.shape, shape)]
        if not sources:
            sources = [self.index(shape)]
        source = self.pick(sources)
        if t.kind == "b" and source.dtype.kind != "b":
            return self.compare(source, self.literal(source.dtype), self.pick(CMP_OPS))
        if source.dtype == t:
            return source
        if exact and _inexact_cast(source.dtype, t):
            source = self.cast(source, T["float32"])
        return self.cast(source, t)

    # -- building nodes
    def cast(self, a: Node, t: DType) -> Node:
        exact = a.exact and not _inexact_cast(a.dtype, t)
        text = f"{a.name}.to({t.tl})"
        return self._add(Node("cast", "cast", t, a.shape, [a], exact, text))

    def compare(self, a, b, op: str) -> Node:
        nodes = [x for x in (a, b) if isinstance(x, Node)]
        shape = join_shapes(*(n.shape for n in nodes))
        return self._add(Node("cmp", op, T["int1"], shape, [a, b], True,
                              f"{_text(a)} {op} {_paren(_text(b))}"))

    def gen(self, t: DType, shape: str, depth: int, exact: bool, leaf_ok: bool = True) -> Node:
        if depth <= 0 or self.budget <= 0 or (leaf_ok and self.chance(0.1)):
            return self.leaf(t, shape, exact)
        self.budget -= 1
        if t.is_float:
            return self.gen_float(t, shape, depth, exact)
        if t.kind == "b":
            return self.gen_bool(shape, depth)
        return self.gen_int(t, shape, depth)

    def sub(self, t, shape, depth, exact) -> Node:
        return self.gen(t, self.child_shape(shape), depth - 1, exact)

    def operand(self, t, shape, depth, exact, literal_p=0.25):
        if self.chance(literal_p):
            return self.literal(t)
        return self.sub(t, shape, depth, exact)

    def _binary_node(self, kind, op, t, a, b, exact, text) -> Node:
        nodes = [x for x in (a, b) if isinstance(x, Node)]
        shape = join_shapes(*(n.shape for n in nodes))
        exact = exact and all(n.exact for n in nodes)
        return self._add(Node(kind, op, t, shape, [a, b], exact, text))

    def gen_float(self, t: DType, shape: str, depth: int, exact: bool) -> Node:
        ops = ["add", "sub", "mul", "div", "add", "mul", "minmax", "where", "neg", "abs",
               "sqrt", "cast", "mod", "round", "clamp", "bitcast", "where"]
        if not exact:
            ops += ["math", "math", "math", "math", "fma"]
        op = self.pick(ops)
        if op in ("add", "sub", "mul", "div"):
            a = self.sub(t, shape, depth, exact)
            b = self.operand(t, shape, depth, exact)
            if self.chance(0.2) and isinstance(b, Literal):
                a, b = b, a
            sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
            text = f"{_text(a)} {sym} {_paren(_text(b))}"
            if op == "div":
                text = f"({text}).to({t.tl})"
            return self._binary_node("binary", op, t, a, b, True, text)
        if op == "mod":   # fmod: discontinuous, so exact operands only
            a = self.sub(t, shape, depth, True)
            b = self.operand(t, shape, depth, True)
            return self._binary_node("binary", "mod", t, a, b, True,
                                     f"({_text(a)} % {_paren(_text(b))}).to({t.tl})")
        if op == "minmax":
            a = self.sub(t, shape, depth, exact)
            b = self.operand(t, shape, depth, exact)
            fn = self.pick(["maximum", "minimum"])
            nan = ", propagate_nan=tl.PropagateNan.ALL" if self.chance(0.3) else ""
            return self._binary_node("minmax", fn, t, a, b, True,
                                     f"tl.{fn}({_text(a)}, {_text(b)}{nan})")
        if op == "where":
            return self.where(t, shape, depth, exact)
        if op in ("neg", "abs", "sqrt", "round"):
            exact_child = exact or op == "round"
            a = self.sub(t, shape, depth, exact_child)
            fn = op
            text = {"neg": f"-{a.name}", "abs": f"tl.abs({a.name})",
                    "sqrt": f"tl.sqrt(tl.abs({a.name}))"}.get(op)
            if op == "round":
                fn = self.pick(["floor", "ceil", "trunc", "rint"])
                text = f"tl.{'math.' if fn in ('trunc', 'rint') else ''}{fn}({a.name})"
            return self._add(Node("unary", fn, t, a.shape, [a], a.exact, text))
        if op == "clamp":
            a = self.sub(t, shape, depth, exact)
            lo = self.pick([-2.0, -0.5, 0.0, 1.0])
            hi = lo + self.pick([0.5, 1.0, 10.0])
            bounds = [Literal(repr(lo), lo), Literal(repr(hi), hi)]
            return self._add(Node("clamp", "clamp", t, a.shape, [a, *bounds], a.exact,
                                  f"tl.clamp({a.name}, {lo!r}, {hi!r}).to({t.tl})"))
        if op == "math":
            a = self.sub(t, shape, depth, False)
            fn = self.pick(MATH_FUNCTIONS)
            if fn in ("exp", "exp2"):
                limit = EXP_LIMIT[t.name]     # NaN passes (propagate_nan=ALL), inf is cut
                text = f"tl.{fn}(tl.minimum({a.name}, {limit!r}, tl.PropagateNan.ALL))"
            elif fn in ("log", "log2"):
                text = f"tl.{fn}(tl.abs({a.name}) + 1.0)"
            elif fn == "tanh":
                text = f"tl.math.tanh({a.name})"
            else:
                text = f"tl.{fn}({a.name})"
            return self._add(Node("math", fn, t, a.shape, [a], False, f"({text}).to({t.tl})"))
        if op == "fma":
            args = [self.sub(t, shape, depth, False) for _ in range(3)]
            text = f"tl.fma({', '.join(a.name for a in args)})"
            return self._add(Node("fma", "fma", t, join_shapes(*(a.shape for a in args)),
                                  args, False, text))
        if op == "bitcast":
            source = bitcast_partner(t)
            a = self.sub(source, shape, depth, True)
            return self._add(Node("bitcast", "bitcast", t, a.shape, [a], a.exact,
                                  f"{a.name}.to({t.tl}, bitcast=True)"))
        # cast from another type
        source = T[self.pick([n for n in FLOAT_TYPES + INT_TYPES + ["int1"] if n != t.name
                              and not (exact and _inexact_cast(T[n], t))])]
        return self.cast(self.sub(source, shape, depth, exact), t)

    def where(self, t: DType, shape: str, depth: int, exact: bool) -> Node:
        c = self.sub(T["int1"], shape, depth, True)
        a = self.operand(t, shape, depth, exact, 0.15)
        b = self.operand(t, shape, depth, exact, 0.15 if isinstance(a, Node) else 0)
        nodes = [x for x in (c, a, b) if isinstance(x, Node)]
        return self._add(Node("where", "where", t, join_shapes(*(n.shape for n in nodes)),
                              [c, a, b], all(n.exact for n in nodes),
                              f"tl.where({c.name}, {_text(a)}, {_text(b)})"))

    def gen_int(self, t: DType, shape: str, depth: int) -> Node:
        ops = ["add", "sub", "mul", "floordiv", "mod", "and", "or", "xor", "shl", "shr",
               "minmax", "where", "neg", "invert", "abs", "cast", "bits", "where"]
        if bitcast_partner(t) is not None:
            ops.append("bitcast")
        if t.name in ("int32", "uint32", "int64"):
            ops.append("umulhi")
        op = self.pick(ops)
        sym = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|", "xor": "^",
               "floordiv": "//", "mod": "%", "shl": "<<", "shr": ">>"}
        if op in ("add", "sub", "mul", "and", "or", "xor"):
            a = self.sub(t, shape, depth, True)
            b = self.operand(t, shape, depth, True)
            if self.chance(0.2) and isinstance(b, Literal):
                a, b = b, a
            return self._binary_node("binary", op, t, a, b, True,
                                     f"{_text(a)} {sym[op]} {_paren(_text(b))}")
        if op in ("floordiv", "mod"):
            a = self.sub(t, shape, depth, True)
            if self.chance(0.3):     # a literal divisor, never 0 nor -1
                lo, hi = t.int_range
                v = self.pick([v for v in (3, 7, 2, 100, -3, -8, 127) if lo <= v <= hi])
                b, divisor = Literal(_fmt(v), v), _paren(_fmt(v))
            else:
                b = self.sub(t, shape, depth, True)
                if t.kind == "u" or self.chance(0.5):
                    divisor = f"(({b.name} & 15) + 1)"
                else:
                    divisor = f"tl.where(({b.name} == 0) | ({b.name} == -1), 7, {b.name})"
            return self._binary_node("binary", op, t, a, b, True,
                                     f"{_text(a)} {sym[op]} {divisor}")
        if op in ("shl", "shr"):
            a = self.sub(t, shape, depth, True)
            if self.chance(0.3):
                v = self.pick([v for v in (0, 1, 3, 7, 15, 31, 63) if v < t.bits])
                b, amount = Literal(_fmt(v), v), _fmt(v)
            else:
                b = self.sub(t, shape, depth, True)
                amount = f"({b.name} & {t.bits - 1})"
            return self._binary_node("binary", op, t, a, b, True,
                                     f"{a.name} {sym[op]} {amount}")
        if op == "minmax":
            a = self.sub(t, shape, depth, True)
            b = self.operand(t, shape, depth, True)
            fn = self.pick(["maximum", "minimum"])
            return self._binary_node("minmax", fn, t, a, b, True,
                                     f"tl.{fn}({_text(a)}, {_text(b)})")
        if op == "umulhi":
            a = self.sub(t, shape, depth, True)
            b = self.sub(t, shape, depth, True)
            return self._binary_node("binary", "umulhi", t, a, b, True,
                                     f"tl.umulhi({a.name}, {b.name})")
        if op == "where":
            return self.where(t, shape, depth, True)
        if op in ("neg", "invert", "abs", "bits"):
            a = self.sub(t, shape, depth, True)
            fn = op if op != "bits" else self.pick(["popc", "clz"])
            text = {"neg": f"-{a.name}", "invert": f"~{a.name}", "abs": f"tl.abs({a.name})",
                    "popc": f"tl.math.popc({a.name})", "clz": f"tl.math.clz({a.name})"}[fn]
            return self._add(Node("unary", fn, t, a.shape, [a], True, text))
        if op == "bitcast":
            a = self.sub(bitcast_partner(t), shape, depth, True)
            text = f"{a.name}.to({t.tl}, bitcast=True)"
            if a.kind != "input":
                # the sign and payload of a NaN that arithmetic made are not defined (LLVM may
                # flip them while it folds), so those NaNs are given fixed bits: all ones
                ones = -1 if t.kind == "i" else 2 ** t.bits - 1
                text = f"tl.where({a.name} == {a.name}, {text}, {ones})"
            return self._add(Node("bitcast", "bitcast", t, a.shape, [a], True, text))
        source = T[self.pick([n for n in FLOAT_TYPES + INT_TYPES + ["int1"] if n != t.name])]
        return self.cast(self.sub(source, shape, depth, True), t)

    def gen_bool(self, shape: str, depth: int) -> Node:
        op = self.pick(["cmp", "cmp", "cmp", "logic", "cast", "isnan"])
        if op == "cmp":
            u = T[self.pick(FLOAT_TYPES + INT_TYPES + ["float32", "int32", "int1"])]
            a = self.sub(u, shape, depth, True)
            b = self.operand(u, shape, depth, True) if u.kind != "b" else \
                self.sub(u, shape, depth, True)
            return self.compare(a, b, self.pick(CMP_OPS))
        if op == "logic":
            a = self.sub(T["int1"], shape, depth, True)
            b = self.sub(T["int1"], shape, depth, True)
            sym = self.pick(["&", "|", "^"])
            return self._binary_node("logic", sym, T["int1"], a, b, True,
                                     f"{a.name} {sym} {b.name}")
        if op == "isnan":
            a = self.sub(T[self.pick(FLOAT_TYPES)], shape, depth, True)
            return self._add(Node("unary", "isnan", T["int1"], a.shape, [a], True,
                                  f"tl.math.isnan({a.name})"))
        source = T[self.pick(FLOAT_TYPES + INT_TYPES)]
        return self.cast(self.sub(source, shape, depth, True), T["int1"])


CMP_OPS = ["<", "<=", ">", ">=", "==", "!="]


def _text(x) -> str:
    return x.name if isinstance(x, Node) else x.text


def _inexact_cast(source: DType, target: DType) -> bool:
    """Conversions the two backends may round differently (documented double roundings): f64 to
    bf16 rounds through f32 on the CPU backend; wide integers to bf16 likewise."""
    if target.name != "bfloat16":
        return False
    return source.name == "float64" or (source.is_int and source.bits > 16)


TILES_2D = [(4, 8), (8, 16), (16, 4), (2, 32), (8, 8), (16, 16), (1, 64), (32, 2), (4, 64),
            (32, 8), (1, 1), (2, 1), (64, 4)]


@st.composite
def programs(draw, dim: int, final: str | None = None, max_ops: int = 12) -> Program:
    """A random kernel: ``final`` is None (element-wise only), 'reduce' or 'scan'."""
    if dim == 1:
        block = (draw(st.sampled_from([16, 32, 64, 128, 4, 2, 1, 256])),)
        size = (draw(st.integers(1, 3 * block[0] + 5)),)
    else:
        # at most 256 elements: bigger tiles compile slowly (see the module's docstring)
        block = draw(st.sampled_from(TILES_2D))
        bm, bn = block
        size = (draw(st.integers(1, 2 * bm + 3)), draw(st.integers(1, 2 * bn + 3)))
    n_inputs = draw(st.integers(1, 3))
    inputs = []
    for i in range(n_inputs):
        t = T[draw(st.sampled_from(INPUT_TYPES))]
        shape = "1d" if dim == 1 else ("full" if i == 0 else
                                       draw(st.sampled_from(["full", "row", "col"])))
        other = None
        if draw(st.integers(0, 3)) == 0:
            other = {"f": 1.5, "b": True}.get(t.kind, 3)
        fortran = shape == "full" and draw(st.integers(0, 3)) == 0
        style = draw(st.sampled_from(["normal", "special", "small", "wide", "special",
                                      "tiny"]))
        inputs.append(Input(t, shape, other, fortran, style))
    g = _Generator(draw, dim, inputs, draw(st.integers(3, max_ops)))
    root_type = T[draw(st.sampled_from(ROOT_TYPES))]
    depth = draw(st.integers(3, 6))
    root = g.gen(root_type, "1d" if dim == 1 else "full", depth, False, leaf_ok=False)
    if root.kind in ("input", "index") or root.dtype.name == "bfloat16":
        # something to compute, and bf16 is stored as f32
        root = g.cast(root, T["float32"] if root.dtype.is_float else T["int64"])
    fin = None
    if final == "reduce":
        ops = ["sum", "max", "min", "sum"]
        if root.exact:
            ops += ["argmax", "argmin"]
        if root.dtype.is_int:
            ops.append("xor_sum")
        axis = draw(st.integers(0, 1)) if dim == 2 else 0
        fin = Final("reduce", draw(st.sampled_from(ops)), axis)
    elif final == "scan":
        ops = ["cumsum"] + (["cumprod"] if root.dtype.is_int else [])
        axis = draw(st.integers(0, 1)) if dim == 2 else 0
        fin = Final("scan", draw(st.sampled_from(ops)), axis, draw(st.booleans()))
    return Program(dim, inputs, g.nodes, root, fin, block, size, g.index_nodes)


# -- inputs --------------------------------------------------------------------------------------


def make_inputs(program: Program, seed: int) -> list:
    """The arrays of the program's inputs, drawn from ``seed`` in each input's style: 'normal'
    (scaled normal floats, mid-range ints), 'small' (small integers: ties, exact
    cancellations, zeros), 'wide' (large magnitudes, full-range ints), 'special' (normal values
    with zeros, -0.0, infinities and NaNs mixed in), 'tiny' (subnormal floats)."""
    rng = np.random.default_rng(seed)
    arrays = []
    for inp in program.inputs:
        if inp.shape == "1d":
            shape = program.size
        else:
            m, n = program.size
            shape = {"full": (m, n), "row": (m,), "col": (n,)}[inp.shape]
        t = inp.dtype
        if t.kind == "b":
            a = rng.random(shape) < 0.5
        elif t.is_float:
            if inp.style == "small":
                a = rng.integers(-4, 5, shape).astype(np.float64)
            elif inp.style == "wide":
                a = rng.standard_normal(shape) * (1e3 if t.name == "float16" else 1e6)
            elif inp.style == "tiny":    # subnormals and the smallest normals
                a = rng.standard_normal(shape) * {"float16": 3e-5, "float32": 1e-38,
                                                  "float64": 1e-308}[t.name]
            else:
                a = rng.standard_normal(shape) * rng.choice([0.5, 2.0, 10.0])
            if inp.style == "special":
                specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0])
                pick = rng.random(shape) < 0.25
                a = np.where(pick, rng.choice(specials, shape), a)
            a = a.astype(t.numpy)
        else:
            lo, hi = t.int_range
            if inp.style == "small":
                lo, hi = max(lo, -8), min(hi, 8)
            elif inp.style in ("normal", "special"):
                lo, hi = max(lo, -1000), min(hi, 1000)
            a = rng.integers(lo, hi, shape, dtype=t.numpy, endpoint=True)
        if inp.fortran:
            a = np.asfortranarray(a)
        arrays.append(a)
    return arrays


# -- error bounds --------------------------------------------------------------------------------

MATH_ULPS = 8      # libm / numpy / mathlib accuracy allowed per math function, in ulps


def _smul(x, y):
    """x * y with 0 * inf = 0 (a zero error times an infinite value is no error)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return np.where((x == 0) | (y == 0), 0.0, x * y)


def error_bounds(program: Program, values: dict) -> dict:
    """For every float node, an element-wise bound of the distance between a correct
    implementation's value and the interpreter's (``values`` maps each node to its
    interpreter values as a float64 array; exact nodes have bound 0)."""
    bounds = {}

    def val(x):
        return values[x] if isinstance(x, Node) else np.float64(x.value)

    def bnd(x):
        return bounds.get(x, 0.0) if isinstance(x, Node) else 0.0

    with np.errstate(all="ignore"):
        for node in program.nodes:
            if node.exact or not node.dtype.is_float:
                bounds[node] = np.zeros_like(values[node])
                continue
            t = node.dtype
            v = np.abs(values[node])
            v = np.where(np.isinf(v), 0, v)     # an infinity is exact, or overflowed anyway
            args = node.args
            u_in = max((a.dtype.u for a in args if isinstance(a, Node) and a.dtype.is_float),
                       default=t.u)
            u = max(t.u, u_in)
            rnd = 2 * t.u * v + t.eta
            if node.kind == "cast":
                b = bnd(args[0]) + rnd
            elif node.kind == "binary" and node.op in ("add", "sub"):
                b = bnd(args[0]) + bnd(args[1]) + rnd
            elif node.kind == "binary" and node.op == "mul":
                a, c = np.abs(val(args[0])), np.abs(val(args[1]))
                ba, bc = bnd(args[0]), bnd(args[1])
                b = _smul(a, bc) + _smul(c, ba) + _smul(ba, bc) + rnd
            elif node.kind == "binary" and node.op == "div":
                c = np.abs(val(args[1]))
                ba, bc = bnd(args[0]), bnd(args[1])
                denominator = c - bc
                b = np.where(denominator > 0, (ba + _smul(v, bc)) / denominator, np.inf)
                b = b + rnd + 2 * u_in * v
            elif node.kind == "fma":
                a, c = np.abs(val(args[0])), np.abs(val(args[1]))
                ba, bc, bd = (bnd(x) for x in args)
                b = _smul(a, bc) + _smul(c, ba) + _smul(ba, bc) + bd + 2 * rnd
            elif node.kind in ("minmax", "clamp"):
                b = np.maximum(bnd(args[0]), bnd(args[1]))
            elif node.kind == "where":
                b = np.where(values[args[0]] != 0, bnd(args[1]), bnd(args[2]))
            elif node.kind == "unary" and node.op in ("neg", "abs"):
                b = bnd(args[0])
            elif node.kind == "unary" and node.op == "sqrt":
                a, ba = np.abs(val(args[0])), bnd(args[0])
                b = np.minimum(np.where(a > 0, ba / (2 * np.sqrt(a)), np.inf), np.sqrt(ba))
                b = b + rnd
            elif node.kind == "math":
                ba = bnd(args[0])
                k = MATH_ULPS * (u * v + t.eta)
                b = {
                    "exp": lambda: _smul(v, np.expm1(ba)),
                    "exp2": lambda: _smul(v, np.expm1(math.log(2) * ba)),
                    "log": lambda: ba + 2 * u_in,
                    "log2": lambda: (ba + 2 * u_in) / math.log(2),
                    "sigmoid": lambda: ba / 4 + 4 / T[args[0].dtype.name].max,
                    "tanh": lambda: ba + MATH_ULPS * u_in,
                    "sin": lambda: ba + MATH_ULPS * u_in,
                    "cos": lambda: ba + MATH_ULPS * u_in,
                    "erf": lambda: 1.13 * ba + MATH_ULPS * u_in,
                }[node.op]() + k
            else:
                raise AssertionError(f"no error bound for {node.kind} {node.op}")
            bounds[node] = np.asarray(b, np.float64)
    return bounds
