"""The rewrite backend: `Pat`/`Pattern` defs (MLIR's DRR) become RewritePattern classes.

For each pattern, `match_and_rewrite` walks the source dag from the root op (checking each
nested op's name, binding `$names`, checking constraints) and then builds the result dags with
the generated op builders, replacing the root's results. Mistakes (an unknown op, a wrong
number of arguments, an unbound name, a result type that cannot be inferred) are TdErrors at
the pattern's definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import AttributeModel, OpModel, Operand
from ..predicates import PredicateChecker, UnknownPlaceholder, substitute
from ..td import DagValue, Record, TdError, Unset
from .ops import _docstring, builder_inferred_results, type_param

_ARG = re.compile(r"\$(\d+)")


@dataclass
class _State:
    """What a pattern's code has bound so far: `$name` -> Python expression."""

    values: dict[str, str] = field(default_factory=dict)
    ops: dict[str, str] = field(default_factory=dict)
    counter: int = 0
    num_ops: int = 0
    dialects: set[str] = field(default_factory=set)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"


class PatternEmitter:
    """Emits one pattern class; `ops` maps op def names to their models."""

    def __init__(self, rec: Record, ops: dict[str, OpModel], checker: PredicateChecker) -> None:
        self.rec = rec
        self.ops = ops
        self.checker = checker
        self.state = _State()
        self.lines: list[str] = []

    def error(self, message: str) -> TdError:
        return TdError(f"in pattern '{self.rec.name}': {message}", self.rec.loc)

    def emit(self, line: str, depth: int = 2) -> None:
        self.lines.append("    " * depth + line)

    def _op_of(self, dag: object, what: str) -> OpModel:
        if not isinstance(dag, DagValue) or not isinstance(dag.op, Record):
            raise self.error(f"{what} must be an op dag like '(Dialect_SomeOp $a, $b)'")
        op = self.ops.get(dag.op.name)
        if op is None:
            raise self.error(f"'{dag.op.name}' in {what} is not an op")
        return op

    @staticmethod
    def _arguments(op: OpModel) -> list[tuple[str, Operand | AttributeModel]]:
        """The op's `arguments` in declaration order: ("operand"|"attribute", model)."""
        order = [name for _, name in op.record["arguments"].args] if op.record.get(
            "arguments") is not None else []
        by_name = {o.name: ("operand", o) for o in op.operands}
        by_name.update({a.name: ("attribute", a) for a in op.attributes})
        return [by_name[name] for name in order]

    # -- matching ------------------------------------------------------------------------------

    def match(self, dag: DagValue, var: str) -> None:
        op = self._op_of(dag, "the source pattern")
        self.state.num_ops += 1
        self.state.dialects.add(op.dialect)
        if dag.op_name:
            self.state.ops[dag.op_name] = var
        arguments = self._arguments(op)
        if len(dag.args) != len(arguments):
            raise self.error(f"'{op.full_name}' takes {len(arguments)} arguments, the source "
                             f"pattern gives {len(dag.args)}")
        for (value, name), (kind, model) in zip(dag.args, arguments):
            if kind == "operand":
                expr = f"{var}.{model.accessor}"
                if isinstance(value, DagValue):
                    if model.kind == "variadic":
                        raise self.error(f"operand '{model.name}' of '{op.full_name}' is "
                                         f"{model.kind}: it cannot be matched by an op")
                    inner = self.state.fresh("m")
                    nested = self._op_of(value, "a nested source pattern")
                    if model.kind == "optional":  # matches only when the operand is given
                        self.emit(f"{inner} = {expr}")
                        self.emit(f"{inner} = None if {inner} is None else {inner}.defining_op")
                    else:
                        self.emit(f"{inner} = {expr}.defining_op")
                    self.emit(f"if {inner} is None or {inner}.name != {nested.full_name!r}:")
                    self.emit("    return False")
                    self.match(value, inner)
                    if name:
                        self._bind(name, expr)
                    continue
                if isinstance(value, Record):
                    self._check_constraint(value, f"{expr}.type", "TypeConstraint")
            else:
                expr = f"{var}.properties.get({model.name!r})"
                if isinstance(value, Record):
                    holder = self.state.fresh("a")
                    self.emit(f"{holder} = {expr}")
                    expr = holder
                    self.emit(f"if {holder} is None:")
                    self.emit("    return False")
                    self._check_constraint(value, holder, "AttrConstraint")
                elif isinstance(value, DagValue):
                    raise self.error(f"attribute '{model.name}' cannot be matched by an op")
            if name:
                self._bind(name, expr)

    def _bind(self, name: str, expr: str) -> None:
        if name in self.state.values:
            self.emit(f"if {expr} is not {self.state.values[name]}:")
            self.emit("    return False")
        else:
            self.state.values[name] = expr

    def _check_constraint(self, constraint: Record, subject: str, kind: str) -> None:
        if not constraint.isa(kind):
            raise self.error(f"'{constraint.name}' is not a {kind.replace('C', ' c').lower()}")
        base = constraint.get("baseType", constraint) if kind == "TypeConstraint" else constraint
        pred = self.checker.expression(base["predicate"]["predExpr"], self.rec, "sourcePattern")
        self.emit(f"if not ({substitute(pred, {'_self': subject})}):")
        self.emit("    return False")

    def constraints(self) -> None:
        for dag in self.rec.get("constraints", []):
            if not isinstance(dag, DagValue) or not isinstance(dag.op, Record) or not (
                    dag.op.isa("Constraint")):
                raise self.error("each constraint must be '(Constraint<CPred<...>> $a, ...)'")
            args = [self._value(name, ops_too=True) for value, name in dag.args]
            pred = dag.op["predicate"]["predExpr"]
            self.checker.expression(_ARG.sub(lambda m: f"_arg{m.group(1)}", pred), self.rec,
                                    "constraints", origin=dag.op)
            code = _ARG.sub(lambda m: self._nth(args, int(m.group(1))), pred)
            self.emit(f"if not ({code}):")
            self.emit("    return False")

    def _nth(self, args: list[str], index: int) -> str:
        if index >= len(args):
            raise self.error(f"a constraint uses ${index} but has {len(args)} arguments")
        return args[index]

    def _value(self, name: str | None, ops_too: bool = False) -> str:
        """The expression bound to `$name`; with `ops_too`, a bound op (`Op:$name`) as well."""
        if name in self.state.values:
            return self.state.values[name]
        if ops_too and name in self.state.ops:
            return self.state.ops[name]
        raise self.error(f"'${name}' is not bound by the source pattern")

    # -- rewriting -----------------------------------------------------------------------------

    def build(self, dag: DagValue, result_types: list[str] | None) -> str:
        """Emit the ops of a result dag; return the Python expression of its values (a
        sequence). `result_types` are expressions of the types the replaced results have."""
        if isinstance(dag.op, Record) and dag.op.name == "replaceWithValue":
            if len(dag.args) != 1:
                raise self.error("'replaceWithValue' takes one value")
            return f"[{self._value(dag.args[0][1])}]"
        if isinstance(dag.op, Record) and dag.op.isa("NativeCodeCall"):
            return f"[{self._native(dag)}]"
        op = self._op_of(dag, "a result pattern")
        self.state.dialects.add(op.dialect)
        args = list(dag.args)
        location = "op.location"
        if args and isinstance(args[-1][0], DagValue) and isinstance(args[-1][0].op, Record) \
                and args[-1][0].op.name == "location":
            loc_dag = args.pop()[0]
            bound = loc_dag.args[0][1] if loc_dag.args else None
            if bound not in self.state.ops:
                raise self.error(f"'(location ${bound})' needs an op bound in the source "
                                 "pattern")
            location = f"{self.state.ops[bound]}.location"
        arguments = self._arguments(op)
        if len(args) != len(arguments):
            raise self.error(f"'{op.full_name}' takes {len(arguments)} arguments, the result "
                             f"pattern gives {len(args)}")
        kwargs = []
        for (value, name), (kind, model) in zip(args, arguments):
            if isinstance(value, DagValue):
                expr = f"{self.build(value, None)}[0]"
            elif value is Unset and name is not None:
                expr = self._value(name)
            else:
                raise self.error(f"argument '{model.name}' of '{op.full_name}' in a result "
                                 "pattern must be a bound '$name' or a dag")
            kwargs.append(f"{model.accessor}={expr}")
        inferred = builder_inferred_results(op)
        for index, result in enumerate(op.results):
            if result.name in inferred:
                continue
            if result_types is None or result.kind != "single" or index >= len(result_types):
                raise self.error(f"the type of result '{result.name}' of '{op.full_name}' "
                                 "cannot be inferred in a nested result pattern")
            kwargs.append(f"{type_param(result)}={result_types[index]}")
        var = self.state.fresh("new")
        module = op.dialect
        self.emit(f"{var} = rewriter.insert(_{module}.{op.class_name}.build(")
        for kwarg in kwargs:
            self.emit(f"    {kwarg},")
        self.emit(f"    location={location},")
        self.emit("))")
        return f"{var}.results"

    def _native(self, dag: DagValue) -> str:
        args = [self._value(name) if value is Unset else f"{self.build(value, None)}[0]"
                for value, name in dag.args]
        self.checker.expression(_ARG.sub(lambda m: f"_arg{m.group(1)}", dag.op["expression"]),
                                self.rec, "resultPatterns", origin=dag.op)
        expr = substitute(dag.op["expression"],
                          {"_rewriter": "rewriter", "_loc": "op.location"})
        return _ARG.sub(lambda m: self._nth(args, int(m.group(1))), expr)

    # -- the class -----------------------------------------------------------------------------

    def emit_class(self) -> list[str]:
        source = self.rec["sourcePattern"]
        root = self._op_of(source, "the source pattern")
        self.match(source, "op")
        self.constraints()
        results = list(self.rec["resultPatterns"])
        if not results:
            if root.results:
                raise self.error(f"a pattern without result patterns erases its root op, but "
                                 f"'{root.full_name}' has results")
            self.emit("rewriter.erase_op(op)")
            self.emit("return True")
            return self._header(root) + self.lines
        values = []
        for index, dag in enumerate(results):
            if not isinstance(dag, DagValue):
                raise self.error("each result pattern must be a dag")
            count = len(root.results) if len(results) == 1 else 1
            first = 0 if len(results) == 1 else index
            types = [f"op.results[{first + i}].type" for i in range(count)]
            values.append(self.build(dag, types))
        replacement = values[0] if len(values) == 1 else " + ".join(
            f"list({v})" for v in values)
        self.emit(f"rewriter.replace_op(op, {replacement})")
        self.emit("return True")
        return self._header(root) + self.lines

    def _header(self, root: OpModel) -> list[str]:
        delta = self.rec["benefitDelta"].args[0][0] if self.rec.get("benefitDelta") else 0
        header = [f"class {self.rec.name}(RewritePattern):"]
        header += _docstring(self.rec.get("summary", ""), "",
                             fallback=f"`{root.full_name}` rewrite from {self._origin()}.")
        header += [
            "",
            f"    ROOT = {root.full_name!r}",
            f"    BENEFIT = {self.state.num_ops + int(delta)}",
            "",
            "    def match_and_rewrite(self, op: Operation, rewriter) -> bool:",
        ]
        return header

    def _origin(self) -> str:
        loc = self.rec.loc
        return f"{loc.file.rsplit('/', 1)[-1]}:{loc.line}" if loc and loc.file else "a .td file"


def pattern_module(records: list[Record], ops: dict[str, OpModel],
                   checker: PredicateChecker) -> tuple[list[str], set[str]]:
    """The classes of one file's patterns and the dialects they use."""
    classes, dialects = [], set()
    for rec in records:
        emitter = PatternEmitter(rec, ops, checker)
        try:
            classes.append("\n".join(emitter.emit_class()))
        except UnknownPlaceholder as err:
            raise emitter.error(f"unknown placeholder '${err.name}'") from None
        dialects |= emitter.state.dialects
    return classes, dialects
