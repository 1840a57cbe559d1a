"""The MLIR text printer.

`print_op` (and ``str(op)``) prints an op with everything nested in it: SSA values are numbered
per region scope as MLIR does (``%0``, ``%1``, ... for results, ``%0:2``/``%0#1`` for multiple
results, ``%argN`` for entry block arguments, ``^bbN`` for blocks), aliased attributes are
defined at the top (``#blocked = ...``), ops print in their custom form when their class defines
``print(self, printer)`` (unless ``generic=True``) and in the generic form otherwise, and
``print_debuginfo=True`` appends each op's ``loc(...)``.

With debug info, locations are aliased as MLIR aliases them (``#loc``, ``#loc1``, ...): every
location printed, and every location nested in one, gets an alias, numbered by nesting depth
and then in the order the text meets them; an op's location prints as its alias
(``loc(#loc3)``), a block argument's in full with its nested locations as aliases
(``loc("x"(#loc))``). Aliases that block arguments use are defined at the top with the others,
the rest after the op (MLIR's deferred aliases).

Custom printers receive the `Printer` right after the op name has been written and write the
rest of the op, leading space included, through the ``print_*`` methods and `write`.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from tilecraft.ir.attributes import Attribute, UnitAttr
from tilecraft.ir.block import Block, Region
from tilecraft.ir.location import (
    CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc, UnknownLoc,
)
from tilecraft.ir.operation import Operation
from tilecraft.ir.parametric import alias_classes_exist
from tilecraft.ir.syntax import keyword_or_string, quote_string
from tilecraft.ir.traits import IsolatedFromAbove, OpAsmOpInterface, Terminator, default_dialect
from tilecraft.ir.types import FunctionType, Type
from tilecraft.ir.values import Value

UNKNOWN_VALUE = "<<UNKNOWN SSA VALUE>>"
_UNIT = UnitAttr()
_QUOTED_NAMES: dict[str, str] = {}
_KEY_TEXT: dict[str, str] = {}


_DEFAULT_DIALECTS: dict[type, str] = {}


def _default_dialect(op: Operation) -> str:
    """The dialect whose prefix ``op``'s parent lets its ops leave out ("" for none)."""
    block = op.parent
    if block is None or block.parent is None or block.parent.parent is None:
        return ""
    owner = type(block.parent.parent)
    default = _DEFAULT_DIALECTS.get(owner)
    if default is None:
        default = _DEFAULT_DIALECTS[owner] = default_dialect(owner)
    return default


def print_op(op: Operation, *, generic: bool = False, print_debuginfo: bool = False) -> str:
    """The text of ``op`` (a module or any op), preceded by the alias definitions it uses."""
    return Printer(generic=generic, print_debuginfo=print_debuginfo).op_to_string(op)


class Printer:
    """Writes IR text into a buffer; see the module docstring for the entry points."""

    __slots__ = ("generic", "print_debuginfo", "_out", "_indent", "_names", "_block_names",
                 "_cache", "_signatures", "_loc_aliases", "_met_locations")

    def __init__(self, *, generic: bool = False, print_debuginfo: bool = False) -> None:
        self.generic = generic
        self.print_debuginfo = print_debuginfo
        self._out: list[str] = []
        self._indent = ""
        self._names: dict[Value, str] = {}
        self._block_names: dict[Block, str] = {}
        self._cache: dict[Type | Attribute, str] = {}
        self._signatures: dict[tuple, str] = {}
        self._loc_aliases: dict[Location, str] = {}
        # while locations are looked for: each met one -> [depth, deferrable, nested ones]
        self._met_locations: dict[Location, list] | None = None

    # -- entry points

    def op_to_string(self, op: Operation) -> str:
        """The alias definitions used by ``op``, then ``op`` itself, one line per op."""
        root = op
        while not root.has_trait(IsolatedFromAbove) and root.parent_op is not None:
            root = root.parent_op
        self._number_values(root)
        aliases = self._alias_definitions(op, root is op) if alias_classes_exist() else []
        deferred: list[tuple[str, Location]] = []
        if self.print_debuginfo:
            pinned, deferred = self._location_aliases(op)
            aliases = sorted(aliases + pinned, key=lambda entry: entry[0])
        self._out = out = []
        for _, alias, obj in aliases:
            out.append(f"{alias} = ")
            if isinstance(obj, Location):
                self.print_location(obj)
            else:
                out.append(self._render(obj))
            out.append("\n")
        self._print_op(op)
        out.append("\n")
        for alias, loc in deferred:
            out.append(f"{alias} = ")
            self.print_location(loc)
            out.append("\n")
        return "".join(out)

    def type_to_string(self, t: Type) -> str:
        return self._render(t)

    def attribute_to_string(self, a: Attribute) -> str:
        return self._render(a)

    def location_to_string(self, loc: Location) -> str:
        self._out = out = []
        self.print_location(loc)
        return "".join(out)

    def value_to_string(self, value: Value) -> str:
        """``%name : type``, the name being the one the value has in its whole module's text."""
        block = value.parent_block
        op = block.parent_op if block is not None else None
        if op is not None:
            while op.parent_op is not None:
                op = op.parent_op
            self._number_values(op)
        return f"{self._names.get(value, UNKNOWN_VALUE)} : {self._render(value.type)}"

    # -- what custom printers call

    def write(self, text: str) -> None:
        """Append ``text`` as is."""
        self._out.append(text)

    def print_operand(self, value: Value) -> None:
        """The SSA name of ``value`` (``%3``, ``%arg0``, ``%0#1``)."""
        self._out.append(self._names.get(value, UNKNOWN_VALUE))

    def print_operands(self, values: Iterable[Value]) -> None:
        """SSA names separated by ``, ``."""
        names = self._names
        self._out.append(", ".join([names.get(v, UNKNOWN_VALUE) for v in values]))

    def print_type(self, t: Type) -> None:
        text = self._cache.get(t)
        if text is None:
            text = self._cache[t] = self._render(t)
        self._out.append(text)

    def print_types(self, types: Iterable[Type]) -> None:
        """Types separated by ``, ``."""
        self._out.append(", ".join([self._type_text(t) for t in types]))

    def print_attribute(self, attr: Attribute) -> None:
        """An attribute with its type (elided for i64 integers and f64 floats, as MLIR does)."""
        text = self._cache.get(attr)
        if text is None:
            text = self._cache[attr] = self._render(attr)
        self._out.append(text)

    def print_attribute_without_type(self, attr: Attribute) -> None:
        """An attribute without its ``: type`` suffix (``4`` for ``4 : i32``)."""
        attr._print(self, True)

    def print_string(self, text: str) -> None:
        """A quoted string literal with MLIR's escapes."""
        self._out.append(quote_string(text))

    def print_named_attributes(self, items: Iterable[tuple[str, Attribute]]) -> None:
        """``{a = 1 : i32, b}`` for sorted (name, attribute) pairs; unit values print as names."""
        out = self._out
        out.append("{")
        first = True
        for key, value in items:
            if not first:
                out.append(", ")
            first = False
            text = _KEY_TEXT.get(key)
            if text is None:
                text = _KEY_TEXT[key] = keyword_or_string(key)
            out.append(text)
            if value is not _UNIT:
                out.append(" = ")
                self.print_attribute(value)
        out.append("}")

    def print_attr_dict(self, attrs: Mapping[str, Attribute], elided: Iterable[str] = ()) -> None:
        """`` {a = ..., b = ...}`` (leading space) for the attributes not in ``elided``, sorted by
        name; nothing when none is left."""
        elided = set(elided)
        items = sorted((k, v) for k, v in attrs.items() if k not in elided)
        if items:
            self._out.append(" ")
            self.print_named_attributes(items)

    def print_attr_dict_with_keyword(self, attrs: Mapping[str, Attribute],
                                     elided: Iterable[str] = ()) -> None:
        """Like `print_attr_dict`, prefixed with `` attributes``."""
        elided = set(elided)
        items = sorted((k, v) for k, v in attrs.items() if k not in elided)
        if items:
            self._out.append(" attributes ")
            self.print_named_attributes(items)

    def print_region(self, region: Region, print_entry_block_args: bool = True,
                     print_block_terminators: bool = True) -> None:
        """``{``, the blocks, ``}``. Without ``print_entry_block_args`` the entry block's header
        is left out (the op printed its arguments itself); without ``print_block_terminators``
        each block's terminator is left out (the op's parser re-creates it)."""
        self._print_region(region, print_entry_block_args, print_block_terminators, False)

    def print_successor(self, block: Block) -> None:
        """The label of ``block`` (``^bb1``)."""
        self._out.append(self.block_name(block))

    def block_name(self, block: Block) -> str:
        """The label of ``block`` (``^bb1``), as text."""
        return self._block_names.get(block, "^<<UNKNOWN BLOCK>>")

    def print_functional_type(self, inputs: Iterable[Type], results: Iterable[Type]) -> None:
        """``(a, b) -> c``; results are parenthesized unless there is one, not a function type."""
        type_text = self._type_text
        results = list(results)
        text = "(" + ", ".join([type_text(t) for t in inputs]) + ") -> "
        if len(results) == 1 and type(results[0]) is not FunctionType:
            text += type_text(results[0])
        else:
            text += "(" + ", ".join([type_text(t) for t in results]) + ")"
        self._out.append(text)

    def print_symbol_name(self, name: str) -> None:
        """``@name`` (quoted when not a bare identifier)."""
        self._out.append("@" + keyword_or_string(name))

    def print_argument(self, arg: Value, attributes: Mapping[str, Attribute] | None = None) -> None:
        """A block argument as a signature shows it: ``%arg0: type {attrs}`` and, with debug
        info, its ``loc(...)``."""
        self.print_operand(arg)
        self._out.append(": ")
        self.print_type(arg.type)
        if attributes:
            self.print_attr_dict(attributes)
        if self.print_debuginfo:
            if self._met_locations is not None:
                self._meet_location(arg.location, False)
            self._out.append(" ")
            self.print_location(arg.location)

    def print_location(self, loc: Location) -> None:
        """``loc(...)``, the locations nested in ``loc`` printed as their aliases."""
        self._out.append("loc(")
        self._print_location_body(loc)
        self._out.append(")")

    # -- internals

    def _type_text(self, t: Type) -> str:
        text = self._cache.get(t)
        if text is None:
            text = self._cache[t] = self._render(t)
        return text

    def _render(self, obj: Type | Attribute) -> str:
        saved = self._out
        self._out = out = []
        obj._print(self)
        self._out = saved
        return "".join(out)

    def _number_values(self, root: Operation) -> None:
        """Name every value and block under ``root`` as MLIR's SSANameState does: results that
        their op names (`OpAsmOpInterface`) get that name made unique, the others numbers."""
        names = self._names
        block_names = self._block_names
        namers = None if self.generic else _RESULT_NAMERS
        top = _NameScope(None)
        # MLIR gives the root's regions their counters before naming the root's own results.
        stack = [(region, 0, 0, 0, top) for region in reversed(root.regions)]
        _name_op_results(names, root, namers, top, 0, 0)
        while stack:
            region, value_id, arg_id, conflict_id, parent = stack.pop()
            scope = _NameScope(parent)
            nested: list[Region] = []
            for block_id, block in enumerate(region.blocks):
                block_names[block] = f"^bb{block_id}"
                if block_id == 0:
                    for arg in block.arguments:
                        names[arg] = f"%arg{arg_id}"
                        arg_id += 1
                else:
                    for arg in block.arguments:
                        names[arg] = f"%{value_id}"
                        value_id += 1
                op = block._first
                while op is not None:
                    if op.results:
                        value_id, conflict_id = _name_op_results(
                            names, op, namers, scope, value_id, conflict_id)
                    if op.regions:
                        nested.extend(op.regions)
                    op = op._next
            stack.extend((r, value_id, arg_id, conflict_id, scope) for r in reversed(nested))

    def _alias_definitions(self, op: Operation, whole_scope: bool) -> list[tuple]:
        """The aliased attributes and types ``op`` uses, as ``(order key, alias, object)`` in
        the order of their definitions; they print as their alias from now on. When ``op`` is
        not the whole naming scope its operands may come from outside, so their types are looked
        at too."""
        order: list = []
        depths: dict = {}

        def visit(obj) -> int:
            depths[obj] = 0
            deepest = 0
            for child in obj._sub_elements():
                depth = depths[child] if child in depths else visit(child)
                deepest = max(deepest, depth)
            depth = depths[obj] = deepest + 1 if deepest else int(bool(obj.ALIAS))
            if obj.ALIAS:
                order.append(obj)
            return depth

        for nested in op.walk():
            for result in nested.results:
                if result.type not in depths:
                    visit(result.type)
            if not whole_scope:
                for operand in nested._operands:
                    if operand._value.type not in depths:
                        visit(operand._value.type)
            for region in nested.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if arg.type not in depths:
                            visit(arg.type)
            for attrs in (nested.properties, nested.attributes):
                for value in attrs.values():
                    if value not in depths:
                        visit(value)
        # MLIR's order: by alias depth (an alias after those it uses), types before
        # attributes, then by name; aliases of one name (types and attributes alike) are
        # numbered in the order they were met in.
        order.sort(key=lambda obj: _alias_order(depths[obj], isinstance(obj, Type), obj.ALIAS))
        counts: dict[str, int] = {}
        entries = []
        for obj in order:
            count = counts.get(obj.ALIAS, 0)
            counts[obj.ALIAS] = count + 1
            sigil = "!" if isinstance(obj, Type) else "#"
            alias = f"{sigil}{obj.ALIAS}{count}" if count else sigil + obj.ALIAS
            entries.append((_alias_order(depths[obj], isinstance(obj, Type), obj.ALIAS), alias,
                            obj))
        for _, alias, obj in entries:
            self._cache[obj] = alias
        return entries

    def _location_aliases(self, op: Operation) -> tuple[list[tuple], list[tuple[str, Location]]]:
        """Give every location ``op``'s text shows an alias, as MLIR does: print ``op`` once,
        aside, meeting the locations in the order of the text (an op's before its body; a
        location before those nested in it), then number them by depth (nested ones first),
        keeping that order within a depth. Returns the definitions to print with the other
        aliases (locations of block arguments and those nested in them) as `_alias_definitions`
        does, and the others, printed after the op, as ``(alias, location)``."""
        saved = self._out
        self._out = []
        self._met_locations = met = {}
        self._print_op(op)
        self._met_locations = None
        self._out = saved
        ordered = sorted(met.items(), key=lambda item: item[1][0])
        pinned: list[tuple] = []
        deferred: list[tuple[str, Location]] = []
        for index, (loc, (depth, deferrable, _)) in enumerate(ordered):
            alias = f"#loc{index}" if index else "#loc"
            self._loc_aliases[loc] = alias
            if deferrable:
                deferred.append((alias, loc))
            else:
                pinned.append((_alias_order(depth, False, "loc"), alias, loc))
        return pinned, deferred

    def _meet_location(self, loc: Location, deferrable: bool) -> int:
        """Note ``loc`` and the locations nested in it as met (``deferrable``: only an op's, so
        far); returns its alias depth."""
        met = self._met_locations
        entry = met.get(loc)
        if entry is not None:
            if not deferrable:
                self._pin_location(loc)
            return entry[0]
        entry = met[loc] = [1, deferrable, ()]
        nested = _nested_locations(loc)
        deepest = max((self._meet_location(child, deferrable) for child in nested), default=0)
        entry[0] = deepest + 1
        entry[2] = nested
        return entry[0]

    def _pin_location(self, loc: Location) -> None:
        """``loc`` and the locations nested in it are defined before the op (a block argument
        shows them)."""
        entry = self._met_locations[loc]
        if entry[1]:
            entry[1] = False
            for child in entry[2]:
                self._pin_location(child)

    def _print_op(self, op: Operation) -> None:
        if self._met_locations is not None:
            self._meet_location(op.location, True)
        out = self._out
        results = op.results
        if results:
            out.append(self._result_list(results))
        cls = type(op)
        if not self.generic and hasattr(cls, "print"):
            name = op.name
            if name.startswith("builtin."):
                name = name[8:]
            else:
                default = _default_dialect(op)
                if default and name.startswith(default + "."):
                    name = name[len(default) + 1:]
            out.append(name)
            op.print(self)
        else:
            self._print_generic(op)
        if self.print_debuginfo:
            loc = op.location
            alias = self._loc_aliases.get(loc)
            if alias is not None:
                out.append(f" loc({alias})")
            else:
                out.append(" ")
                self.print_location(loc)

    def _result_list(self, results: Sequence[Value]) -> str:
        """``%0 = ``, ``%0:2 = ``, ``%outLHS, %outRHS = ``: each group of results once, with
        its size when it holds several."""
        names = self._names
        groups: list[list] = []
        for result in results:
            prefix = names.get(result, UNKNOWN_VALUE).partition("#")[0]
            if groups and groups[-1][0] == prefix:
                groups[-1][1] += 1
            else:
                groups.append([prefix, 1])
        return ", ".join(p if n == 1 else f"{p}:{n}" for p, n in groups) + " = "

    def _print_generic(self, op: Operation) -> None:
        out = self._out
        names = self._names
        name = _QUOTED_NAMES.get(op.name)
        if name is None:
            name = _QUOTED_NAMES[op.name] = quote_string(op.name)
        operands = [o._value for o in op._operands]
        out.append(name + "(" + ", ".join([names.get(v, UNKNOWN_VALUE) for v in operands]) + ")")
        if op.successors:
            out.append("[")
            for i, block in enumerate(op.successors):
                if i:
                    out.append(", ")
                self.print_successor(block)
            out.append("]")
        if op.properties:
            out.append(" <")
            self.print_named_attributes(sorted(op.properties.items()))
            out.append(">")
        if op.regions:
            out.append(" (")
            for i, region in enumerate(op.regions):
                if i:
                    out.append(", ")
                self._print_region(region, True, True, True)
            out.append(")")
        if op.attributes:
            out.append(" ")
            self.print_named_attributes(sorted(op.attributes.items()))
        key = (tuple([v.type for v in operands]), tuple([r.type for r in op.results]))
        signature = self._signatures.get(key)
        if signature is None:
            saved = self._out
            self._out = []
            self.print_functional_type(*key)
            signature = self._signatures[key] = " : " + "".join(self._out)
            self._out = saved
        out.append(signature)

    def _print_region(self, region: Region, print_entry_args: bool, print_terminators: bool,
                      print_empty_block: bool) -> None:
        out = self._out
        out.append("{\n")
        indent = self._indent
        inner = indent + "  "
        for block_id, block in enumerate(region.blocks):
            if block_id == 0:
                header = (print_empty_block and block._first is None) or (
                    print_entry_args and bool(block.arguments))
            else:
                header = True
            if header:
                out.append(indent)
                self._print_block_header(block)
            stop = None
            if not print_terminators:
                last = block._last
                if last is not None and last.has_trait(Terminator):
                    stop = last
            self._indent = inner
            op = block._first
            while op is not stop:
                out.append(inner)
                self._print_op(op)
                out.append("\n")
                op = op._next
            self._indent = indent
        out.append(indent + "}")

    def _print_block_header(self, block: Block) -> None:
        out = self._out
        out.append(self.block_name(block))
        if block.arguments:
            out.append("(")
            for i, arg in enumerate(block.arguments):
                if i:
                    out.append(", ")
                self.print_argument(arg)
            out.append(")")
        out.append(":\n")

    def _print_nested_location(self, loc: Location) -> None:
        alias = self._loc_aliases.get(loc)
        if alias is not None:
            self._out.append(alias)
        else:
            self._print_location_body(loc)

    def _print_location_body(self, loc: Location) -> None:
        out = self._out
        if isinstance(loc, FileLineColLoc):
            out.append(f"{quote_string(loc.file)}:{loc.line}:{loc.col}")
            if loc.end_col is not None:
                end_line = "" if loc.end_line in (None, loc.line) else str(loc.end_line)
                out.append(f" to {end_line}:{loc.end_col}")
        elif isinstance(loc, NameLoc):
            out.append(quote_string(loc.name))
            if loc.child is not None:
                out.append("(")
                self._print_nested_location(loc.child)
                out.append(")")
        elif isinstance(loc, CallSiteLoc):
            out.append("callsite(")
            self._print_nested_location(loc.callee)
            out.append(" at ")
            self._print_nested_location(loc.caller)
            out.append(")")
        elif isinstance(loc, FusedLoc):
            out.append("fused")
            if loc.metadata is not None:
                out.append("<")
                self.print_attribute(loc.metadata)
                out.append(">")
            out.append("[")
            for i, child in enumerate(loc.locations):
                if i:
                    out.append(", ")
                self._print_nested_location(child)
            out.append("]")
        elif isinstance(loc, UnknownLoc):
            out.append("unknown")
        else:
            raise TypeError(f"cannot print location {loc!r}")


class _NameScope:
    """The result names taken in one region, seen by its nested regions (MLIR's scoped table
    of used names: sibling regions may reuse each other's names)."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _NameScope | None) -> None:
        self.names: set[str] = set()
        self.parent = parent

    def __contains__(self, name: str) -> bool:
        scope: _NameScope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


class _ResultNamers(dict):
    """Op class -> the function giving an op's named result groups, ``[(first result, name)]``
    (its `asm_result_name` hook for the first result, or the generated `named_result_groups`),
    or None when the op does not name its results."""

    def __missing__(self, cls: type) -> object:
        namer = None
        if cls.has_trait(OpAsmOpInterface):
            hook = getattr(cls, "asm_result_name", None)
            if hook is None:
                raise TypeError(f"'{cls.OPERATION_NAME}' has the trait OpAsmOpInterface but "
                                "does not implement asm_result_name")

            def namer(op: Operation) -> list[tuple[int, str]]:
                name = hook(op)
                return [] if name is None else [(0, name)]
        elif getattr(cls, "ASM_RESULT_NAMES", ()):
            namer = cls.named_result_groups
        self[cls] = namer
        return namer


_RESULT_NAMERS = _ResultNamers()
_DIGITS = frozenset("0123456789")
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$._-")


def _name_op_results(names: dict[Value, str], op: Operation, namers: _ResultNamers | None,
                     scope: _NameScope, value_id: int, conflict_id: int) -> tuple[int, int]:
    """Name ``op``'s results as MLIR's SSANameState does: each named group (from the op's
    namer) is ``%name`` made unique in ``scope``, a first result without a name starts a group
    numbered ``%N``; a group of several results is ``%name#i``. Return the next value and
    conflict ids."""
    results = op.results
    if not results:
        return value_id, conflict_id
    namer = namers[type(op)] if namers is not None else None
    groups: list[tuple[int, str | None]] = list(namer(op)) if namer is not None else []
    if not groups or groups[0][0] != 0:
        groups.insert(0, (0, None))
    for k, (start, name) in enumerate(groups):
        if name is None:
            prefix = f"%{value_id}"
            value_id += 1
        else:
            name = _sanitize_identifier(name)
            if name in scope:
                # MLIR's uniqueValueName: probe name_<id> with one counter for all names.
                while True:
                    probe = f"{name}_{conflict_id}"
                    conflict_id += 1
                    if probe not in scope:
                        name = probe
                        break
            scope.names.add(name)
            prefix = "%" + name
        end = groups[k + 1][0] if k + 1 < len(groups) else len(results)
        if end - start == 1:
            names[results[start]] = prefix
        else:
            for index in range(start, end):
                names[results[index]] = f"{prefix}#{index - start}"
    return value_id, conflict_id


def _sanitize_identifier(name: str) -> str:
    """MLIR's sanitizeIdentifier: characters other than ASCII letters, digits and ``$._-``
    become ``_`` (a space) or the hex codes of their bytes, and a leading digit or invalid
    character gets a ``_`` prefix, so the name cannot clash with numbered values."""
    if all(c in _ID_CHARS for c in name) and name[0] not in _DIGITS:
        return name
    text = "".join(c if c in _ID_CHARS else "_" if c == " "
                   else "".join(f"{b:X}" for b in c.encode()) for c in name)
    if name[0] in _DIGITS or name[0] not in _ID_CHARS and name[0] != " ":
        return "_" + text
    return text


__all__ = ["Printer", "print_op"]


def _alias_order(depth: int, is_type: bool, name: str) -> tuple[int, bool, str]:
    """Where an alias definition goes: by depth, types first, then by name."""
    return (depth, not is_type, name)


def _nested_locations(loc: Location) -> tuple[Location, ...]:
    """The locations directly inside ``loc`` (a name without one wraps MLIR's unknown
    location)."""
    if isinstance(loc, NameLoc):
        return (loc.child if loc.child is not None else UnknownLoc(),)
    if isinstance(loc, CallSiteLoc):
        return (loc.callee, loc.caller)
    if isinstance(loc, FusedLoc):
        return loc.locations
    return ()
