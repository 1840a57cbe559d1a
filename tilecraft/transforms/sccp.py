"""``sccp``: sparse conditional constant propagation (Wegman and Zadeck), as MLIR's SCCP does
it over values, block arguments and region control flow.

Every value has a lattice state: unknown (nothing known yet: optimistic), one constant, or
overdefined. Blocks start unexecutable; the entry blocks of the op the pass runs on (and of each
function) become executable, and an op is evaluated once its block is executable and none of
its operands is unknown. Evaluation is the op's ``fold`` with the constants known so far (as
MLIR's SCCP does: so ``muli(x, 0)`` is 0 even when ``x`` is not constant); an in-place fold is
simulated on a copy, never kept. Control flow:

- ``cf.br`` makes its successor executable and joins its operands into the block arguments;
  ``cf.cond_br`` does so for the successor its (constant) condition picks, or both;
- ``scf.if`` runs the region its condition picks (both when overdefined), its results joining
  the values the executed regions yield;
- ``scf.for``: region arguments and results join the initial values and what the body yields
  (the induction variable is overdefined); a loop that runs no iteration (constant bounds)
  never executes its body;
- ``scf.while``: the before region gets the initial values and what the after region yields;
  the ``scf.condition`` sends its values to the after region and/or the results as its
  condition says;
- other ops with regions (functions, ``tt.reduce``, ...) run their regions with overdefined
  arguments; their results are overdefined, as are the results of calls.

Then values proven constant are replaced by constants (materialized by the dialect that folded
them, at the top of the function), ops left trivially dead are erased, branches on constant
conditions are folded (``cf.cond_br`` becomes ``cf.br``, an ``scf.if`` becomes the region that
runs) and blocks that cannot execute are erased.
"""

from __future__ import annotations

import importlib
from collections import deque

from tilecraft.generated.passes import SCCPPassBase
from tilecraft.ir import Attribute, Block, BlockArgument, Operation, OpResult, Value
from tilecraft.ir.traits import ConstantLike, FunctionLike, IsolatedFromAbove

from .effects import is_trivially_dead
from .folding import fold_hook, materializer
from .region_simplify import erase_unreachable_blocks, fold_constant_branches
from .rewriter import PatternRewriter

__all__ = ["SCCP", "sccp", "OVERDEFINED"]

#: The lattice's top: not a constant.
OVERDEFINED = "<overdefined>"


def _splat(attr: Attribute):
    from tilecraft.dialects.foldutils import splat_value

    return splat_value(attr)


def _dialect_materializer(dialect: str):
    """``materialize_constant`` of the dialect's hooks module, else arith's."""
    for name in (dialect, "arith"):
        try:
            module = importlib.import_module(f"tilecraft.dialects.{name}")
        except ModuleNotFoundError:
            continue
        function = getattr(module, "materialize_constant", None)
        if function is not None:
            return function
    return None


class _Solver:
    def __init__(self, root: Operation) -> None:
        self.root = root
        self.state: dict[Value, object] = {}  # Value -> (attr, materializer) | OVERDEFINED
        self.executable: set[Block] = set()
        self.work: deque[Operation] = deque()
        self.queued: set[Operation] = set()
        self.deps: dict[Value, set[Operation]] = {}

    # -- lattice

    def get(self, value: Value):
        return self.state.get(value)

    def join(self, value: Value, new) -> None:
        """Join ``new`` (None: unknown) into ``value``'s state; revisit its users on change."""
        if new is None:
            return
        old = self.state.get(value)
        if old is OVERDEFINED:
            return
        if old is None:
            result = new
        elif new is OVERDEFINED or new[0] is not old[0]:
            result = OVERDEFINED
        else:
            return
        self.state[value] = result
        for use in value.uses:
            self.enqueue(use.owner)
        for op in self.deps.get(value, ()):
            self.enqueue(op)

    def overdefine(self, value: Value) -> None:
        self.join(value, OVERDEFINED)

    # -- executability

    def enqueue(self, op: Operation) -> None:
        if op not in self.queued and op.parent in self.executable:
            self.queued.add(op)
            self.work.append(op)

    def mark_executable(self, block: Block) -> None:
        if block in self.executable:
            return
        self.executable.add(block)
        for op in block:
            self.enqueue(op)

    def _run_region_entry(self, region, overdefined_args: bool = True) -> None:
        if not region.blocks:
            return
        entry = region.blocks[0]
        if overdefined_args:
            for arg in entry.arguments:
                self.overdefine(arg)
        self.mark_executable(entry)

    # -- solving

    def solve(self) -> None:
        if _is_function(self.root):  # run on a function: its CFG from the entry block
            for region in self.root.regions:
                self._run_region_entry(region)
        else:
            for region in self.root.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        self.overdefine(arg)
                    self.mark_executable(block)
        while self.work:
            op = self.work.popleft()
            self.queued.discard(op)
            self.visit(op)

    def visit(self, op: Operation) -> None:
        name = op.name
        if name == "scf.if":
            return self._visit_if(op)
        if name == "scf.for":
            return self._visit_for(op)
        if name == "scf.while":
            return self._visit_while(op)
        if name == "scf.yield":
            return self._visit_yield(op)
        if name == "scf.condition":
            return self._visit_condition(op)
        if op.successors:
            return self._visit_branch(op)
        if op.regions:
            return self._visit_region_op(op)
        if not op.results:
            return
        if op.is_registered and type(op).has_trait(ConstantLike):
            value = op.get_attr("value")
            if isinstance(value, Attribute) and op.num_results == 1:
                self.join(op.results[0], (value, _dialect_materializer(op.name.split(".")[0])))
            else:
                self._overdefine_results(op)
            return
        self._visit_generic(op)

    def _overdefine_results(self, op: Operation) -> None:
        for result in op.results:
            self.overdefine(result)

    def _visit_generic(self, op: Operation) -> None:
        states = [self.get(v) for v in op.operands]
        if any(s is None for s in states):
            return  # wait until every operand is known
        hook = fold_hook(type(op)) if op.is_registered else None
        if hook is None:
            return self._overdefine_results(op)
        constants = [None if s is OVERDEFINED else s[0] for s in states]
        results = _simulate_fold(op, hook, constants, self)
        if results is None:
            return self._overdefine_results(op)
        make = materializer(type(op))
        for result, folded in zip(op.results, results):
            if isinstance(folded, Value):
                self.deps.setdefault(folded, set()).add(op)
                self.join(result, self.get(folded))
            else:
                self.join(result, (folded, make))

    def _visit_region_op(self, op: Operation) -> None:
        """Functions and ops whose regions are not modelled: their regions run with unknown
        arguments (only the entry block of a function's CFG), results are overdefined."""
        function = _is_function(op)
        for region in op.regions:
            if function:
                self._run_region_entry(region)
                continue
            for block in region.blocks:
                for arg in block.arguments:
                    self.overdefine(arg)
                self.mark_executable(block)
        self._overdefine_results(op)

    def _visit_branch(self, op: Operation) -> None:
        from tilecraft.analysis.cfg import successor_operands

        targets = range(len(op.successors))
        if op.name == "cf.cond_br":
            condition = self.get(op.operands[0])
            if condition is None:
                return
            if condition is not OVERDEFINED:
                value = _splat(condition[0])
                if value is not None:
                    targets = [0 if value else 1]
        for index in targets:
            block = op.successors[index]
            values = successor_operands(op, index)
            for position, arg in enumerate(block.arguments):
                if values is None:
                    self.overdefine(arg)
                else:
                    self.join(arg, self.get(values[position]))
            self.mark_executable(block)

    def _visit_if(self, op: Operation) -> None:
        condition = self.get(op.operands[0])
        if condition is None:
            return
        regions = list(op.regions)
        if condition is not OVERDEFINED:
            value = _splat(condition[0])
            if value is not None:
                regions = [op.regions[0] if value else op.regions[1]]
        for region in regions:
            self._run_region_entry(region, overdefined_args=False)

    def _visit_for(self, op: Operation) -> None:
        bounds = [self.get(v) for v in op.operands[:3]]
        if any(b is None for b in bounds):
            return
        inits = op.operands[3:]
        body = op.regions[0].blocks[0]
        for init, arg, result in zip(inits, body.arguments[1:], op.results):
            state = self.get(init)
            self.join(result, state)
            self.join(arg, state)
        if _zero_trips(op, bounds):
            return
        self.overdefine(body.arguments[0])
        self.mark_executable(body)

    def _visit_while(self, op: Operation) -> None:
        before = op.regions[0].blocks[0]
        for init, arg in zip(op.operands, before.arguments):
            self.join(arg, self.get(init))
        self.mark_executable(before)

    def _visit_yield(self, op: Operation) -> None:
        parent = op.parent_op
        if parent is None:
            return
        values = op.operands
        if parent.name == "scf.if":
            for result, value in zip(parent.results, values):
                self.join(result, self.get(value))
        elif parent.name == "scf.for":
            body = parent.regions[0].blocks[0]
            for result, arg, value in zip(parent.results, body.arguments[1:], values):
                state = self.get(value)
                self.join(result, state)
                self.join(arg, state)
        elif parent.name == "scf.while":
            before = parent.regions[0].blocks[0]
            for arg, value in zip(before.arguments, values):
                self.join(arg, self.get(value))
            self.mark_executable(before)

    def _visit_condition(self, op: Operation) -> None:
        parent = op.parent_op
        condition = self.get(op.operands[0])
        if condition is None or parent is None:
            return
        to_after = to_exit = True
        if condition is not OVERDEFINED:
            value = _splat(condition[0])
            if value is not None:
                to_after, to_exit = bool(value), not value
        values = op.operands[1:]
        if to_exit:
            for result, value in zip(parent.results, values):
                self.join(result, self.get(value))
        if to_after:
            after = parent.regions[1].blocks[0]
            for arg, value in zip(after.arguments, values):
                self.join(arg, self.get(value))
            self.mark_executable(after)


def _is_function(op: Operation) -> bool:
    return op.name == "tt.func" or (op.is_registered and type(op).has_trait(FunctionLike))


def _zero_trips(op: Operation, bounds) -> bool:
    """Whether the scf.for runs no iteration by the constant states of its bounds."""
    if op.lower_bound is op.upper_bound:
        return True
    if any(b is OVERDEFINED for b in bounds):
        return False
    values = [_splat(b[0]) for b in bounds]
    return None not in values and _count(values, op) == 0


def _count(values, op) -> int | None:
    from tilecraft.dialects.foldutils import to_signed, to_unsigned
    from tilecraft.ir import IntegerType

    lb, ub, step = values
    type_ = op.lower_bound.type
    width = type_.width if isinstance(type_, IntegerType) else 64
    convert = to_unsigned if op.unsigned_cmp else to_signed
    lb, ub, step = convert(lb, width), convert(ub, width), to_signed(step, width)
    if step <= 0:
        return None
    return 0 if lb >= ub else -((lb - ub) // step)


def _simulate_fold(op: Operation, hook, constants, solver: _Solver):
    """``op``'s fold with the lattice's constants, leaving ``op`` unchanged: an in-place fold
    runs again on a detached copy (up to a few times) until it gives values."""
    operands = list(op.operands)
    properties = dict(op.properties)
    results = hook(op, constants)
    if results is None:
        return None
    if _in_place(op, results):
        op.set_operands(operands)
        op.properties.clear()
        op.properties.update(properties)
        copy = op.clone()
        try:
            for _ in range(4):
                states = [solver.get(v) for v in copy.operands]
                results = hook(copy, [None if s is None or s is OVERDEFINED else s[0]
                                      for s in states])
                if results is None:
                    return None
                if not _in_place(copy, results):
                    break
            else:
                return None
            if any(r in copy.results for r in results if isinstance(r, Value)):
                return None
        finally:
            copy.drop_all_references()
    return results


def _in_place(op: Operation, results) -> bool:
    """An empty list, or the op's own results: the fold changed the op in place."""
    return all(r is own for r, own in zip(results, op.results))


def _scope(value: Value, root: Operation) -> Block:
    """Where a constant replacing ``value`` goes: the entry block of the region below the
    closest isolated-from-above op (or ``root``)."""
    region = value.parent_block.parent
    while True:
        owner = region.parent
        if (owner is root or owner is None or owner.parent is None or not owner.is_registered
                or type(owner).has_trait(IsolatedFromAbove)):
            return region.blocks[0]
        region = owner.parent.parent


def sccp(root: Operation) -> int:
    """Run SCCP on the regions of ``root``; returns the number of values replaced."""
    solver = _Solver(root)
    solver.solve()
    replaced = 0
    constants: dict[tuple, Value] = {}
    last: dict[Block, Operation] = {}
    touched: list[Operation] = []
    for region in root.regions:  # reuse the constants at the top of the scopes
        for op in region.walk():
            if op.is_registered and type(op).has_trait(ConstantLike) and op.num_results == 1 \
                    and op.parent is not None and op.parent.parent is not None:
                attr = op.get_attr("value")
                scope = _scope(op.results[0], root)
                if op.parent is scope and isinstance(attr, Attribute):
                    constants.setdefault((scope, attr, op.results[0].type), op.results[0])
    inserted: list[Operation] = []
    values = [a for region in root.regions for b in region.blocks for a in b.arguments]
    values += [v for region in root.regions for op in region.walk()
               for v in (*op.results, *(a for r in op.regions for b in r.blocks
                                        for a in b.arguments))]
    for value in values:
        state = solver.state.get(value)
        if state is None or state is OVERDEFINED or not value.uses:
            continue
        if isinstance(value, OpResult) and value.owner.is_registered and \
                type(value.owner).has_trait(ConstantLike):
            continue
        if isinstance(value, BlockArgument) and value.owner.parent is None:
            continue
        attr, make = state
        scope = _scope(value, root)
        key = (scope, attr, value.type)
        constant = constants.get(key)
        if constant is None:
            if make is None:
                continue
            op = make(attr, value.type, _location(value))
            if op is None:
                continue
            anchor = last.get(scope)
            if anchor is None:
                scope.prepend(op)
            else:
                scope.insert_after(anchor, op)
            last[scope] = op
            inserted.append(op)
            constant = constants[key] = op.results[0]
        value.replace_all_uses_with(constant)
        replaced += 1
        if isinstance(value, OpResult):
            touched.append(value.owner)
    _erase_dead(touched)
    _fold_branches(root)
    _erase_dead(inserted)
    return replaced


def _location(value: Value):
    return value.owner.location if isinstance(value, OpResult) else value.location


def _erase_dead(ops: list[Operation]) -> None:
    work = list(ops)
    while work:
        op = work.pop()
        if op.parent is None or not is_trivially_dead(op):
            continue
        defs = [v.defining_op for v in op.operands]
        op.erase()
        work.extend(d for d in defs if d is not None)


def _fold_branches(root: Operation) -> None:
    """Branches on constant conditions: scf.if becomes the region that runs, cf.cond_br
    becomes cf.br (the blocks no longer reached go); the conditions go if now unused."""
    from tilecraft.dialects.scf import IfStaticCondition

    rewriter = PatternRewriter()
    pattern = IfStaticCondition()
    conditions = []
    for op in [op for op in root.walk() if op.name in ("scf.if", "cf.cond_br")]:
        if op.operands and op.operands[0].defining_op is not None:
            conditions.append(op.operands[0].defining_op)
        if op.name == "scf.if" and op.parent is not None:
            rewriter.set_insertion_point(op)
            pattern.match_and_rewrite(op, rewriter)
    for region in [r for op in root.walk() for r in op.regions]:
        if fold_constant_branches(region):
            erase_unreachable_blocks(region)
    _erase_dead(conditions)


class SCCP(SCCPPassBase):
    """The ``sccp`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        sccp(op)
