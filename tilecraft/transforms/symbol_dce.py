"""``symbol-dce``: erase private symbols (functions) that nothing live references, as MLIR's
SymbolDCE does.

The symbols are the ops with a ``sym_name`` directly in a symbol table (``builtin.module``, or
any op with the ``SymbolTable`` trait) nested in the op the pass runs on. A reference is any
`SymbolRefAttr` held by an op's properties or attributes (also inside arrays and dictionaries):
a ``tt.call``'s callee, but also references from other ops. They form a graph on networkx,
from the symbol holding the reference to the one it names (resolved in the nearest enclosing
symbol table that defines it, nested names followed). Live are the symbols reachable from the
roots: the non-private symbols of the top symbol table, the symbols named by ops outside any
symbol, and, for a live nested symbol table, its non-private symbols. Everything else goes,
transitively: a private function called only by a dead private function is dead too; a
recursive cycle of private functions with no outside caller is dead. Without private symbols
(a kernel module of public functions) everything is live, and no graph is built.
"""

from __future__ import annotations

from collections.abc import Iterator

from tilecraft.analysis.callgraph import symbol_name, visibility
from tilecraft.generated.passes import SymbolDCEPassBase
from tilecraft.ir import ArrayAttr, Attribute, DictionaryAttr, Operation, SymbolRefAttr
from tilecraft.ir.traits import SymbolTable

__all__ = ["SymbolDCE", "symbol_dce", "symbol_references"]

_ROOT = "<root>"


def _is_symbol_table(op: Operation) -> bool:
    return op.name == "builtin.module" or op.has_trait(SymbolTable)


def _references(attr: Attribute) -> Iterator[SymbolRefAttr]:
    if isinstance(attr, SymbolRefAttr):
        yield attr
    elif isinstance(attr, ArrayAttr):
        for element in attr:
            yield from _references(element)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.values():
            yield from _references(element)


def symbol_references(op: Operation) -> Iterator[SymbolRefAttr]:
    """The symbol references ``op`` holds in its properties and attributes."""
    for mapping in (op.properties, op.attributes):
        for attr in mapping.values():
            yield from _references(attr)


def _table_symbols(table: Operation) -> dict[str, Operation]:
    found: dict[str, Operation] = {}
    for region in table.regions:
        for block in region.blocks:
            for child in block:
                name = symbol_name(child)
                if name is not None:
                    found.setdefault(name, child)
    return found


class _SymbolGraph:
    """The symbols under ``root`` and the references between them."""

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.tables: dict[Operation, dict[str, Operation]] = {}
        self.symbols: list[Operation] = []
        self._exported: list[tuple[Operation | str, Operation]] = []  # (owner, non-private)
        self._collect(root, _ROOT)

    def _collect(self, table: Operation, owner) -> None:
        """Add the symbols of ``table`` (and of the tables nested in them)."""
        if not _is_symbol_table(table):
            for region in table.regions:
                for block in region.blocks:
                    for child in block:
                        if _is_symbol_table(child):
                            self._collect(child, owner)
            return
        symbols = _table_symbols(table)
        self.tables[table] = symbols
        for symbol in symbols.values():
            self.symbols.append(symbol)
            if visibility(symbol) != "private":
                self._exported.append((owner, symbol))
            if _is_symbol_table(symbol):
                self._collect(symbol, symbol)
        for region in table.regions:
            for block in region.blocks:
                for child in block:
                    if symbol_name(child) is None and _is_symbol_table(child):
                        self._collect(child, owner)

    def _holder(self, op: Operation):
        """The symbol whose liveness decides whether ``op``'s references count."""
        node = op
        while node is not None and node is not self.root:
            parent = node.parent_op
            if parent in self.tables and symbol_name(node) is not None:
                return node
            node = parent
        return _ROOT

    def _resolve(self, op: Operation, ref: SymbolRefAttr) -> Operation | None:
        table = op.parent_op
        while table is not None:
            symbols = self.tables.get(table)
            if symbols is not None and ref.root in symbols:
                found = symbols[ref.root]
                for name in ref.nested:
                    found = self.tables.get(found, {}).get(name)
                    if found is None:
                        return None
                return found
            if table is self.root:
                return None
            table = table.parent_op
        return None

    def dead(self) -> list[Operation]:
        """The symbols not reachable from the roots, in the order they were collected."""
        if all(visibility(symbol) != "private" for symbol in self.symbols):
            return []  # each symbol is reached through its owners, none of them private
        import networkx as nx

        graph = nx.DiGraph()
        graph.add_node(_ROOT)
        graph.add_nodes_from(self.symbols)
        graph.add_edges_from(self._exported)
        for op in self.root.walk():
            if op is self.root:
                continue
            for ref in symbol_references(op):
                target = self._resolve(op, ref)
                if target is not None:
                    graph.add_edge(self._holder(op), target)
        live = nx.descendants(graph, _ROOT)
        return [s for s in self.symbols if s not in live]


def symbol_dce(root: Operation) -> int:
    """Erase the dead symbols under ``root``; returns how many went."""
    dead = _SymbolGraph(root).dead()
    dead_set = set(dead)
    erased = 0
    for symbol in dead:
        ancestor = symbol.parent_op
        if any(a in dead_set for a in _ancestors(ancestor)):
            continue  # goes with the dead symbol table holding it
        symbol.drop_all_references()
    for symbol in dead:
        if any(a in dead_set for a in _ancestors(symbol.parent_op)):
            erased += 1
            continue
        symbol.detach()
        erased += 1
    return erased


def _ancestors(op: Operation | None) -> Iterator[Operation]:
    while op is not None:
        yield op
        op = op.parent_op


class SymbolDCE(SymbolDCEPassBase):
    """The ``symbol-dce`` pass (see the module docstring)."""

    def run_on_operation(self, op: Operation) -> None:
        self.num_dce += symbol_dce(op)
