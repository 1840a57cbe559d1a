"""The call graph: functions as nodes, an edge from each caller to each callee.

Functions are the ops with the ``FunctionLike`` trait (``tt.func``, ``func.func``), or
another ``Symbol`` with regions that is no symbol table. A call is an op with the
``CallOpInterface`` trait (``tt.call``, ``func.call``, ``func.call_indirect``) or, for
unregistered ops, one holding a ``callee`` symbol reference; a direct call is resolved in the
nearest enclosing symbol table that defines the root name, walking nested references
(``@a::@b``). Calls whose callee cannot be resolved (unknown symbols, indirect calls) go to the
`UNKNOWN` node; a declaration (a function without a body, such as a libdevice function) is an
ordinary node for which `is_external` is True.

Everything is keyed on the ops themselves: symbol tables are read once into dicts (name ->
op), so building the graph takes one walk of the root and one lookup per call.

Edge ``caller -> callee`` carries ``calls``: the call ops, in program order.

The edges are kept in plain dicts, which answer the direct queries (callers, callees, call
sites); the networkx graph (`CallGraph.graph`) is built, and networkx imported, the first time a
graph algorithm needs it. A module without calls (a kernel after inlining, or one that never
called anything) needs none: each function is its own component.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING

from tilecraft.ir import Operation, StringAttr, SymbolRefAttr
from tilecraft.ir.traits import CallOpInterface, FunctionLike, Symbol, SymbolTable

if TYPE_CHECKING:
    import networkx as nx

#: The node standing for callees that cannot be resolved (unknown symbols, indirect calls).
UNKNOWN = "<unknown callee>"

#: Op names treated as symbol tables (besides ops with the ``SymbolTable`` trait).
SYMBOL_TABLE_OPS: set[str] = {"builtin.module"}


def is_function(op: Operation) -> bool:
    """Whether ``op`` is a function (FunctionLike, or a Symbol with a region that is no symbol
    table)."""
    return (op.has_trait(FunctionLike)
            or (op.has_trait(Symbol) and len(op.regions) > 0
                and op.name not in SYMBOL_TABLE_OPS and not op.has_trait(SymbolTable)))


def is_call(op: Operation) -> bool:
    """Whether ``op`` calls a function (``CallOpInterface``; for an unregistered op, a symbol
    ``callee``)."""
    if op.is_registered:
        return op.has_trait(CallOpInterface)
    return isinstance(op.get_attr("callee"), SymbolRefAttr)


def call_arguments(call: Operation) -> tuple:
    """The values ``call`` passes to its callee: its operands, less the callee of an indirect
    call (the first operand)."""
    if isinstance(call.get_attr("callee"), SymbolRefAttr):
        return call.operands
    return call.operands[1:]


def symbol_name(op: Operation) -> str | None:
    attr = op.get_attr("sym_name")
    return attr.value if isinstance(attr, StringAttr) else None


def _is_symbol_table(op: Operation) -> bool:
    return op.name in SYMBOL_TABLE_OPS or op.has_trait(SymbolTable)


def _lookup_in(table: Operation, name: str) -> Operation | None:
    for region in table.regions:
        for block in region.blocks:
            for child in block:
                if symbol_name(child) == name:
                    return child
    return None


def resolve_callee(call: Operation,
                   tables: dict[Operation, dict[str, Operation]] | None = None
                   ) -> Operation | None:
    """The function ``call`` refers to, looked up in the nearest enclosing symbol table that
    defines the root name; None if unresolved. ``tables`` caches each table's symbols (name ->
    op) across calls; without it, tables are scanned."""
    ref = call.get_attr("callee")
    if not isinstance(ref, SymbolRefAttr):
        return None
    table = call.parent_op
    while table is not None:
        if _is_symbol_table(table):
            found = _lookup(table, ref.root, tables)
            if found is not None:
                for name in ref.nested:
                    found = _lookup(found, name, tables)
                    if found is None:
                        return None
                return found
        table = table.parent_op
    return None


def _lookup(table: Operation, name: str,
            tables: dict[Operation, dict[str, Operation]] | None) -> Operation | None:
    if tables is None:
        return _lookup_in(table, name)
    symbols = tables.get(table)
    if symbols is None:
        symbols = tables[table] = {}
        for region in table.regions:
            for block in region.blocks:
                for child in block:
                    child_name = symbol_name(child)
                    if child_name is not None:
                        symbols.setdefault(child_name, child)
    return symbols.get(name)


def is_declaration(func: Operation) -> bool:
    """A function without a body."""
    return not func.regions or not func.regions[0].blocks


def visibility(func: Operation) -> str:
    """``"public"`` (the default), ``"private"`` or ``"nested"``."""
    attr = func.get_attr("sym_visibility")
    return attr.value if isinstance(attr, StringAttr) else "public"


class CallGraph:
    """The call graph of the functions nested in ``root`` (usually a module)."""

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.functions: list[Operation] = []
        self.calls: list[Operation] = []
        # caller -> callee -> its call ops, and callee -> callers, both in the order found
        self._callees: dict[Operation | str, dict[Operation | str, list[Operation]]] = {}
        self._callers: dict[Operation | str, list[Operation]] = {}
        self._calls_in: dict[Operation, list[Operation]] = {}
        found_calls: list[Operation] = []
        for op in root.walk():
            if op is root:
                continue
            if is_function(op):
                self.functions.append(op)
                self._callees[op] = {}
                self._callers[op] = []
                self._calls_in[op] = []
            elif is_call(op):
                found_calls.append(op)
        tables: dict[Operation, dict[str, Operation]] = {}
        for op in found_calls:
            func = self._enclosing_function(op)
            if func is None:
                continue  # a call outside any function (in a global initializer, say)
            self.calls.append(op)
            self._calls_in[func].append(op)
            callee = resolve_callee(op, tables)
            target = callee if callee is not None and callee in self._callers else UNKNOWN
            sites = self._callees[func].get(target)
            if sites is None:
                self._callees[func][target] = [op]
                self._callees.setdefault(target, {})
                self._callers.setdefault(target, []).append(func)
            else:
                sites.append(op)
        self._by_name: dict[str, Operation] | None = None

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The call graph as an ``nx.DiGraph``: functions (attribute ``name``), `UNKNOWN` when a
        call goes there, and the edges with their ``calls``."""
        import networkx as nx

        graph = nx.DiGraph()
        for func in self.functions:
            graph.add_node(func, name=symbol_name(func))
        for caller, callees in self._callees.items():
            for callee, calls in callees.items():
                graph.add_edge(caller, callee, calls=calls)
        return graph

    @staticmethod
    def _enclosing_function(op: Operation) -> Operation | None:
        parent = op.parent_op
        while parent is not None and not is_function(parent):
            parent = parent.parent_op
        return parent

    # -- queries

    def lookup(self, name: str) -> Operation | None:
        """The function named ``name`` (first one found)."""
        if self._by_name is None:
            self._by_name = {}
            for func in self.functions:
                self._by_name.setdefault(symbol_name(func), func)
        return self._by_name.get(name)

    def calls_in(self, func: Operation) -> list[Operation]:
        """The calls ``func`` makes itself (not those of functions nested in it), in program
        order."""
        return list(self._calls_in[func])

    def callees(self, func: Operation) -> list[Operation | str]:
        """The functions ``func`` calls (`UNKNOWN` among them for unresolved calls)."""
        return list(self._callees[func])

    def callers(self, func: Operation) -> list[Operation]:
        """The functions calling ``func``."""
        return list(self._callers[func])

    def call_sites(self, func: Operation | str) -> list[Operation]:
        """The call ops targeting ``func`` (or `UNKNOWN`), in caller order."""
        sites: list[Operation] = []
        for caller in self._callers[func]:
            sites.extend(self._callees[caller][func])
        return sites

    def calls_unknown(self, func: Operation) -> bool:
        """Whether ``func`` makes a call that could not be resolved."""
        return UNKNOWN in self._callees.get(func, ())

    def is_external(self, func: Operation | str) -> bool:
        """Declarations (no body) and the unknown node: their code is not available."""
        return func == UNKNOWN or is_declaration(func)

    def scc_post_order(self) -> list[list[Operation]]:
        """Strongly connected components, callees before callers (each in program order):
        the order in which an inliner processes them."""
        if not self.calls:
            return [[func] for func in self.functions]
        import networkx as nx

        condensed = nx.condensation(self.graph.subgraph(self.functions))
        position = {f: i for i, f in enumerate(self.functions)}
        members = {c: sorted(condensed.nodes[c]["members"], key=position.__getitem__)
                   for c in condensed.nodes}
        # reverse topological order of the condensation, ties broken by program order
        order = nx.lexicographical_topological_sort(
            condensed.reverse(copy=False), key=lambda c: position[members[c][0]])
        return [members[c] for c in order]

    def post_order(self) -> list[Operation]:
        """Every function, callees before callers (members of a cycle in program order)."""
        return [f for scc in self.scc_post_order() for f in scc]

    def reverse_post_order(self) -> list[Operation]:
        """Callers before callees (for top-down propagation, e.g. of argument facts)."""
        return [f for scc in reversed(self.scc_post_order()) for f in scc]

    def recursive_functions(self) -> set[Operation]:
        """Functions on a call cycle (in an SCC with several members, or calling themselves)."""
        result: set[Operation] = set()
        if not self.calls:
            return result
        import networkx as nx

        graph = self.graph.subgraph(self.functions)
        for scc in nx.strongly_connected_components(graph):
            if len(scc) > 1:
                result |= scc
        # On the whole graph (UNKNOWN has no edges out): networkx's subgraph view looks nodes
        # up by raising KeyError(f"Key {node} ..."), which printed every function it missed.
        result |= {u for u, _ in nx.selfloop_edges(self.graph)}
        return result

    def is_recursive(self, func: Operation) -> bool:
        """Whether ``func`` is on a call cycle."""
        return func in self.recursive_functions()

    def cycles(self) -> list[list[Operation]]:
        """The elementary call cycles (``nx.simple_cycles``)."""
        if not self.calls:
            return []
        import networkx as nx

        return [list(c) for c in nx.simple_cycles(self.graph.subgraph(self.functions))]

    def roots(self) -> list[Operation]:
        """Entry points: public functions with bodies and functions nobody calls."""
        return [f for f in self.functions
                if not is_declaration(f) and (visibility(f) == "public" or not self._callers[f])]

    def reachable_from(self, funcs: Iterable[Operation]) -> set[Operation]:
        """The functions called (transitively) from ``funcs``, ``funcs`` included."""
        result = set(funcs)
        work = list(result)
        while work:  # one traversal from all of them (not one per function)
            for callee in self._callees.get(work.pop(), ()):
                if callee != UNKNOWN and callee not in result:
                    result.add(callee)
                    work.append(callee)
        return result

    def dead_functions(self) -> list[Operation]:
        """Non-public functions that no public function reaches (what symbol-dce removes)."""
        public = [f for f in self.functions if visibility(f) == "public"]
        live = self.reachable_from(public)
        return [f for f in self.functions if f not in live]


__all__ = [
    "CallGraph", "UNKNOWN", "is_function", "is_call", "call_arguments", "resolve_callee",
    "is_declaration",
    "visibility", "symbol_name",
]
