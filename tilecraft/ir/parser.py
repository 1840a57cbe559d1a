"""The MLIR text parser: operations (generic and custom forms), regions, blocks and SSA values.

`parse_module` reads a whole text: alias definitions (``#name = attr``, ``!name = type``,
``#loc = loc(...)``) and operations; a single top-level ``module`` is returned as is, anything
else is wrapped in a new module. Ops without a trailing ``loc(...)`` get their position in the
text as location, as MLIR does.

A custom form is parsed by the op class's ``parse(parser)`` classmethod, called after the op
name was read; it reads the rest with the ``parse_*`` methods and returns the op, built with
``Operation.create``. Operands are read as `UnresolvedOperand`s and turned into values with
`resolve_operand` once their types are known; uses may precede definitions within a region
(graph regions, loops), and are checked at the end of each isolated scope.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterable, Sequence

from tilecraft.ir.attr_parser import _SIMPLE_TYPES, AttrParser
from tilecraft.ir.attributes import Attribute
from tilecraft.ir.block import Block, Region
from tilecraft.ir.errors import ParseError
from tilecraft.ir.lexer import EOF, token_loc
from tilecraft.ir.location import FileLineColLoc, Location
from tilecraft.ir.operation import Operation
from tilecraft.ir.registry import lookup_op
from tilecraft.ir.syntax import unquote_string
from tilecraft.ir.traits import IsolatedFromAbove, default_dialect
from tilecraft.ir.types import Type
from tilecraft.ir.values import OpOperand, OpResult, Value


class UnresolvedOperand:
    """An SSA use read from the text (``%x`` or ``%x#1``), before its type is known."""

    __slots__ = ("name", "token")

    def __init__(self, name: str, token: int) -> None:
        self.name = name
        self.token = token

    def __repr__(self) -> str:
        return f"<UnresolvedOperand {self.name}>"


class Argument:
    """A region argument read from a signature: ``%name: type {attrs} loc(...)``."""

    __slots__ = ("operand", "type", "attributes", "location")

    def __init__(self, operand: UnresolvedOperand, type: Type | None,
                 attributes: dict[str, Attribute] | None = None, location: Location | None = None):
        self.operand = operand
        self.type = type
        self.attributes = attributes or {}
        self.location = location


class _ForwardRef(Value):
    """A placeholder for a value used before its definition; replaced when it is defined."""

    __slots__ = ("token",)

    def __init__(self, type: Type, token: int) -> None:
        super().__init__(type)
        self.token = token


class Parser(AttrParser):
    """Parses one text; see the module docstring. Use `parse_module`/`parse_op`."""

    def __init__(self, text: str, filename: str | None = None, *, allow_unregistered: bool = False):
        super().__init__(text, filename, allow_unregistered=allow_unregistered)
        self._defs: dict[str, Value] = {}
        self._def_tokens: dict[Value, int] = {}
        self._forward: dict[str, _ForwardRef] = {}
        self._local_names: list[str] = []
        self._blocks: dict[str, list] = {}
        self._op_stack: list[type] = []
        self._classes: dict[str, type] = {}
        self._generic_classes: dict[str, tuple[type, str]] = {}

    # -- top level

    def parse_module(self) -> Operation:
        """The whole text as a module."""
        block = self._parse_top_level()
        first = block.first_op
        if first is not None and first is block.last_op and first.name == "builtin.module":
            return first.detach()
        module = Operation.create("builtin.module", regions=1,
                                  location=FileLineColLoc(self.source.filename or "", 0, 0))
        body = module.regions[0].add_block()
        for op in block:
            body.append(op.detach())
        return module

    def parse_op(self) -> Operation:
        """The whole text as exactly one operation (plus alias definitions)."""
        block = self._parse_top_level()
        if len(block) != 1:
            self.error(f"expected a single operation, found {len(block)}", 0)
        return block.first_op.detach()

    def _parse_top_level(self) -> Block:
        toks = self.toks
        block = Block()
        while True:
            tok = toks[self.i]
            if tok == EOF:
                break
            if tok[0] in "#!" and toks[self.i + 1] == "=":
                self._parse_alias_definition()
            else:
                self._append(block, self._parse_operation())
        self._check_forward_references()
        for name, (_, defined, token) in self._blocks.items():
            if not defined:
                self.error("reference to an undefined block", token)
        if self._has_alias_locs:
            self._resolve_alias_locations(block)
        return block

    def _parse_alias_definition(self) -> None:
        token = self.i
        tok = self.toks[token]
        name = tok[1:]
        if "." in name:
            self.error(f"alias names with a '.' are reserved for dialect-defined names: '{tok}'",
                       token)
        self.i += 2
        if tok[0] == "!":
            if name in self._type_aliases:
                self.error(f"redefinition of type alias id '{name}'", token)
            self._type_aliases[name] = self.parse_type()
        elif self.toks[self.i] == "loc" and self.toks[self.i + 1] == "(":
            self._loc_aliases[name] = self.parse_location()
        else:
            if name in self._attr_aliases:
                self.error(f"redefinition of attribute alias id '{name}'", token)
            self._attr_aliases[name] = self.parse_attribute()

    def _resolve_alias_locations(self, block: Block) -> None:
        resolve = self._resolve_location
        for top in block:
            for op in top.walk():
                op.location = resolve(op.location)
                for region in op.regions:
                    for nested in region.blocks:
                        for arg in nested.arguments:
                            arg.location = resolve(arg.location)

    # -- operations

    def _parse_operation(self) -> Operation:
        toks = self.toks
        start = self.i
        tok = toks[start]
        single = groups = None
        if tok[0] == "%":
            if toks[start + 1] == "=" and "#" not in tok:
                single = tok
                self.i = start + 2
            else:
                groups = self._parse_result_groups()
        tok = toks[self.i]
        if tok[0] == '"':
            op = self._parse_generic_operation()
        elif tok[0].isalpha() or tok[0] == "_":
            op = self._parse_custom_operation()
        else:
            self._expected("operation name")
        if single is not None:
            defs = self._defs
            if len(op.results) == 1 and single not in defs:
                defs[single] = result = op.results[0]
                self._def_tokens[result] = start
                self._local_names.append(single)
            else:
                self._bind_results(op, [(single, 1, start)])
        elif groups is not None:
            self._bind_results(op, groups)
        i = self.i
        if toks[i] == "loc" and toks[i + 1] == "(":
            op.location = self.parse_location()
        else:
            op.location = token_loc(self.source, start)
        return op

    def _parse_result_groups(self) -> list[tuple[str, int, int]]:
        toks = self.toks
        groups = []
        while True:
            token = self.i
            tok = toks[token]
            if tok[0] != "%" or "#" in tok:
                self._expected("SSA result name")
            self.i += 1
            count = 1
            if toks[self.i] == ":":
                self.i += 1
                count = self.parse_integer()
                if count < 1:
                    self.error("expected a positive number of results", self.i - 1)
            groups.append((tok, count, token))
            tok = toks[self.i]
            self.i += 1
            if tok == "=":
                return groups
            if tok != ",":
                self.i -= 1
                self._expected("'=' after the result names")

    def _bind_results(self, op: Operation, groups: list[tuple[str, int, int]]) -> None:
        results = op.results
        total = sum(count for _, count, _ in groups)
        if total != len(results):
            self.error(f"operation defines {len(results)} results but was provided {total} to bind",
                       groups[0][2])
        position = 0
        for name, count, token in groups:
            self._define(name, results[position], token)
            if count > 1:
                for number in range(count):
                    self._define(f"{name}#{number}", results[position + number], token)
            position += count

    def _op_class(self, token: int) -> tuple[type, str]:
        """The class and name of the generic op whose quoted name is token number ``token``."""
        tok = self.toks[token]
        if len(tok) < 2:
            self.error("unterminated string literal", token)
        name = unquote_string(tok)
        cls = lookup_op(name) or Operation
        if cls is Operation and not self.allow_unregistered:
            self.error(f"unregistered operation '{name}'", token)
        self._generic_classes[tok] = found = (cls, name)
        return found

    def _parse_generic_operation(self) -> Operation:
        toks = self.toks
        name_token = i = self.i
        found = self._generic_classes.get(toks[i])
        cls, name = found if found is not None else self._op_class(i)
        if toks[i + 1] != "(":
            self.i = i + 1
            self._expected("'(' to start operand list")
        first = i = i + 2  # operand number k is token first + 2k
        tok = toks[i]
        if tok != ")":
            while True:
                if tok[0] != "%":
                    self.i = i
                    self._expected("SSA operand")
                tok = toks[i + 1]
                if tok == ",":
                    i += 2
                    tok = toks[i]
                elif tok == ")":
                    i += 1
                    break
                else:
                    self.i = i + 1
                    self._expected("')' after the operands")
        count = (i - first + 1) // 2
        i += 1
        if toks[i] == ":":
            successors, properties, regions, attributes = [], {}, (), {}
        else:
            self.i = i
            successors, properties, regions, attributes = self._parse_generic_parts(cls)
            i = self.i
            if toks[i] != ":":
                self._expected("':' followed by the operation type")
        i += 1
        if toks[i] != "(":
            self.i = i
            self._expected("'(' to start the operation type")
        i += 1
        # Read the operand types, resolving each operand as soon as its type is known.
        simple = _SIMPLE_TYPES
        defs = self._defs
        operands = []
        type_count = 0
        tok = toks[i]
        if tok != ")":
            while True:
                t = simple.get(tok)
                if t is None:
                    self.i = i
                    t = self.parse_type()
                    i = self.i
                else:
                    i += 1
                if type_count < count:
                    token = first + 2 * type_count
                    value = defs.get(toks[token])
                    if value is None or value.type is not t:
                        value = self._resolve(toks[token], t, token, value)
                    operands.append(value)
                type_count += 1
                tok = toks[i]
                if tok == ",":
                    i += 1
                    tok = toks[i]
                elif tok == ")":
                    break
                else:
                    self.i = i
                    self._expected("')' after the operand types")
        if type_count != count:
            self.error(f"expected {count} operand types but had {type_count}",
                       first if count else name_token)
        i += 1
        if toks[i] != "->":
            self.i = i
            self._expected("'->' in the operation type")
        i += 1
        tok = toks[i]
        t = simple.get(tok)
        if t is not None:
            self.i = i + 1
            result_types = (t,)
        else:
            self.i = i
            result_types = self._parse_paren_types() if tok == "(" else (self.parse_type(),)
        op = object.__new__(cls)
        op.name = name
        op.parent = op._prev = op._next = None
        op._operands = [OpOperand(op, n, v) for n, v in enumerate(operands)]
        if len(result_types) == 1:
            op.results = (OpResult(result_types[0], op, 0),)
        else:
            op.results = tuple([OpResult(t, op, n) for n, t in enumerate(result_types)])
        op.properties = properties
        op.attributes = attributes
        for region in regions:
            region.parent = op
        op.regions = regions
        op.successors = successors
        return op

    def _parse_generic_parts(self, cls: type) -> tuple[list, dict, tuple, dict]:
        """The optional parts of a generic op between its operands and its type:
        ``[successors]``, ``<{properties}>``, ``(regions)`` and ``{attributes}``."""
        toks = self.toks
        successors = self._parse_successor_list() if toks[self.i] == "[" else []
        properties = {}
        if toks[self.i] == "<":
            self.i += 1
            if toks[self.i] != "{":
                self._expected("'{' to start properties")
            properties = self._parse_attr_dict_body()
            self.parse_punct(">")
        regions = self._parse_generic_regions(cls) if toks[self.i] == "(" else ()
        attributes = {}
        if toks[self.i] == "{":
            attributes = self._parse_attr_dict_body()
            for key in cls.PROPERTY_NAMES:
                if key in attributes:
                    properties[key] = attributes.pop(key)
        return successors, properties, regions, attributes

    def _parse_custom_operation(self) -> Operation:
        token = self.i
        tok = self.toks[token]
        cls = self._classes.get(tok)
        if cls is None:
            found = lookup_op(tok) if "." in tok else None
            cls = found or lookup_op("builtin." + tok)
            if cls is None and "." not in tok and self._op_stack:
                default = default_dialect(self._op_stack[-1])
                cls = lookup_op(f"{default}.{tok}") if default else None
            elif cls is not None:
                self._classes[tok] = cls  # not a name that depends on the enclosing op
            if cls is None or not hasattr(cls, "parse"):
                self.error(f"custom op '{tok}' is unknown", token)
        self.i += 1
        self._op_stack.append(cls)
        op = cls.parse(self)
        self._op_stack.pop()
        if not isinstance(op, Operation):
            raise TypeError(f"{cls.__name__}.parse returned {op!r}, not an Operation")
        return op

    @staticmethod
    def _append(block: Block, op: Operation) -> None:
        block._ordered = False
        last = block._last
        op.parent = block
        op._prev = last
        if last is None:
            block._first = op
        else:
            last._next = op
        block._last = op
        block._size += 1

    # -- SSA values

    def _define(self, name: str, value: Value, token: int) -> None:
        defs = self._defs
        if name in defs:
            placeholder = self._forward.pop(name, None)
            if placeholder is None:
                self.error(f"redefinition of SSA value '{name}'", token)
            if placeholder.type is not value.type:
                self.error(f"definition of SSA value '{name}' has type {value.type}, but was "
                           f"previously used with type {placeholder.type}", token)
            placeholder.replace_all_uses_with(value)
        defs[name] = value
        self._def_tokens[value] = token
        self._local_names.append(name)

    def _resolve(self, name: str, type_: Type, token: int, value: Value | None = None) -> Value:
        if value is None and name.endswith("#0"):
            value = self._defs.get(name[:-2])
            if value is not None:
                name = name[:-2]
        if value is None:
            base = name.partition("#")[0]
            if base != name and base in self._defs and base not in self._forward:
                self.error(f"reference to invalid result number in '{name}'", token)
            value = self._defs[name] = self._forward[name] = _ForwardRef(type_, token)
        elif value.type is not type_:
            prior = value.token if isinstance(value, _ForwardRef) else self._def_tokens[value]
            raise ParseError(f"use of value '{name}' expects different type than prior uses: "
                             f"'{type_}' vs '{value.type}'", self.source.source_loc(token),
                             self.source.text,
                             [(self.source.source_loc(prior), "prior use here")])
        return value

    def _check_forward_references(self) -> None:
        if self._forward:
            first = min(self._forward.values(), key=lambda ref: ref.token)
            name = self.toks[first.token]
            self.error(f"use of undeclared SSA value {name}", first.token)

    # -- regions and blocks

    def _parse_generic_regions(self, cls: type) -> tuple[Region, ...]:
        isolated = cls is not Operation and cls.has_trait(IsolatedFromAbove)
        self.i += 1
        regions = []
        self._op_stack.append(cls)
        while True:
            if self.toks[self.i] != "{":
                self._expected("'{' to begin a region")
            region = Region()
            self._parse_region_body(region, (), isolated)
            regions.append(region)
            if not self.parse_optional_punct(","):
                break
        self._op_stack.pop()
        self.parse_punct(")")
        return tuple(regions)

    def _parse_region_body(self, region: Region, arguments: Sequence[Argument],
                           isolated: bool) -> None:
        toks = self.toks
        self.i += 1
        saved_defs, saved_forward = self._defs, self._forward
        if isolated:
            self._defs, self._forward = {}, {}
        saved_names, saved_blocks = self._local_names, self._blocks
        self._local_names, self._blocks = [], {}
        tok = toks[self.i]
        if tok != "}" or arguments:
            if tok[0] == "^":
                if arguments:
                    self.error("invalid block name in region with named arguments")
                block = self._parse_block_header()
            else:
                block = Block()
                for arg in arguments:
                    self._define_argument(block, arg)
            region.add_block(block)
            self._parse_block_body(block)
            while toks[self.i][0] == "^":
                block = self._parse_block_header()
                region.add_block(block)
                self._parse_block_body(block)
        self.i += 1
        for name, (_, defined, token) in self._blocks.items():
            if not defined:
                self.error("reference to an undefined block", token)
        if isolated:
            self._check_forward_references()
        else:
            defs = self._defs
            for name in self._local_names:
                del defs[name]
        self._defs, self._forward = saved_defs, saved_forward
        self._local_names, self._blocks = saved_names, saved_blocks

    def _parse_block_body(self, block: Block) -> None:
        toks = self.toks
        parse = self._parse_operation
        last = block._last
        block._ordered = False
        while True:
            tok = toks[self.i]
            if tok == "}" or tok[0] == "^":
                return
            if tok == EOF:
                self._expected("'}' to end the region")
            op = parse()
            op.parent = block
            op._prev = last
            if last is None:
                block._first = op
            else:
                last._next = op
            block._last = last = op
            block._size += 1

    def _define_argument(self, block: Block, arg: Argument) -> None:
        if not isinstance(arg.type, Type):
            self.error(f"region argument {arg.operand.name} has no type", arg.operand.token)
        location = arg.location or token_loc(self.source, arg.operand.token)
        self._define(arg.operand.name, block.add_argument(arg.type, location), arg.operand.token)

    def _block_entry(self, name: str, token: int) -> list:
        entry = self._blocks.get(name)
        if entry is None:
            entry = self._blocks[name] = [Block(), False, token]
        return entry

    def _parse_block_header(self) -> Block:
        toks = self.toks
        token = self.i
        entry = self._block_entry(toks[token], token)
        if entry[1]:
            self.error(f"redefinition of block '{toks[token]}'", token)
        entry[1] = True
        block = entry[0]
        self.i += 1
        if toks[self.i] == "(":
            self.i += 1
            while True:
                self._define_argument(block, self.parse_argument())
                if not self.parse_optional_punct(","):
                    break
            self.parse_punct(")")
        self.parse_punct(":")
        return block

    def _parse_successor_list(self) -> list[Block]:
        self.i += 1
        successors = [self.parse_successor()]
        while self.parse_optional_punct(","):
            successors.append(self.parse_successor())
        self.parse_punct("]")
        return successors

    # -- what custom parsers call

    def parse_operand(self) -> UnresolvedOperand:
        """``%name`` or ``%name#N``."""
        operand = self.parse_optional_operand()
        if operand is None:
            self._expected("SSA operand")
        return operand

    def parse_optional_operand(self) -> UnresolvedOperand | None:
        tok = self.toks[self.i]
        if tok[0] != "%":
            return None
        self.i += 1
        return UnresolvedOperand(tok, self.i - 1)

    def parse_operand_list(self) -> list[UnresolvedOperand]:
        """Comma-separated operands (none when the next token is not an operand)."""
        first = self.parse_optional_operand()
        if first is None:
            return []
        operands = [first]
        while self.toks[self.i] == "," and self.toks[self.i + 1][0] == "%":
            self.i += 1
            operands.append(self.parse_operand())
        return operands

    def resolve_operand(self, operand: UnresolvedOperand, type: Type) -> Value:
        """The value ``operand`` names, of type ``type`` (a placeholder until defined, if used
        before its definition)."""
        value = self._defs.get(operand.name)
        if value is not None and value.type is type:
            return value
        return self._resolve(operand.name, type, operand.token, value)

    def resolve_operands(self, operands: Sequence[UnresolvedOperand],
                         types: Type | Iterable[Type]) -> list[Value]:
        """`resolve_operand` for each; ``types`` is one type per operand, or one for all."""
        if isinstance(types, Type):
            types = [types] * len(operands)
        else:
            types = list(types)
        if len(types) != len(operands):
            self.error(f"expected {len(operands)} operand types but had {len(types)}",
                       operands[0].token if operands else None)
        return [self.resolve_operand(o, t) for o, t in zip(operands, types)]

    def parse_argument(self, with_type: bool = True, with_attributes: bool = False) -> Argument:
        """``%name: type`` (type only if ``with_type``), then ``{attrs}`` if
        ``with_attributes``, then an optional ``loc(...)``."""
        operand = self.parse_operand()
        if "#" in operand.name:
            self.error("expected an argument name without a result number", operand.token)
        type_ = self.parse_colon_type() if with_type else None
        attributes = self.parse_optional_attr_dict() if with_attributes else {}
        location = None
        if self.toks[self.i] == "loc" and self.toks[self.i + 1] == "(":
            location = self.parse_location()
        return Argument(operand, type_, attributes, location)

    def parse_region(self, arguments: Iterable[Argument | tuple[UnresolvedOperand, Type]] = ()
                     ) -> Region:
        """``{ blocks }``. ``arguments`` (from the op's signature) become the entry block's
        arguments; the region is isolated when the op being parsed is IsolatedFromAbove."""
        if self.toks[self.i] != "{":
            self._expected("'{' to begin a region")
        args = [a if isinstance(a, Argument) else Argument(a[0], a[1]) for a in arguments]
        cls = self._op_stack[-1] if self._op_stack else None
        isolated = cls is not None and cls.has_trait(IsolatedFromAbove)
        region = Region()
        self._parse_region_body(region, args, isolated)
        return region

    def parse_optional_region(
        self, arguments: Iterable[Argument | tuple[UnresolvedOperand, Type]] = ()
    ) -> Region | None:
        if self.toks[self.i] != "{":
            return None
        return self.parse_region(arguments)

    def parse_successor(self) -> Block:
        """``^name``: the block of the current region with that label."""
        block = self.parse_optional_successor()
        if block is None:
            self._expected("block name")
        return block

    def parse_optional_successor(self) -> Block | None:
        tok = self.toks[self.i]
        if tok[0] != "^":
            return None
        self.i += 1
        return self._block_entry(tok, self.i - 1)[0]


def parse_module(text: str, filename: str | None = None, *,
                 allow_unregistered: bool = False) -> Operation:
    """Parse ``text`` (read from ``filename``, for messages) into a ``builtin.module``."""
    with _no_gc():
        return Parser(text, filename, allow_unregistered=allow_unregistered).parse_module()


def parse_op(text: str, filename: str | None = None, *,
             allow_unregistered: bool = False) -> Operation:
    """Parse ``text`` holding exactly one operation."""
    with _no_gc():
        return Parser(text, filename, allow_unregistered=allow_unregistered).parse_op()


@contextlib.contextmanager
def _no_gc():
    """Pause the cyclic garbage collector: building IR allocates many objects and no garbage,
    and the collections it would trigger take a third of the parsing time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_type(text: str) -> Type:
    """Parse ``text`` holding exactly one type."""
    parser = Parser(text)
    t = parser.parse_type()
    if parser.toks[parser.i] != EOF:
        parser._expected("end of type")
    return t


def parse_attribute(text: str) -> Attribute:
    """Parse ``text`` holding exactly one attribute."""
    parser = Parser(text)
    a = parser.parse_attribute()
    if parser.toks[parser.i] != EOF:
        parser._expected("end of attribute")
    return a


__all__ = ["Parser", "UnresolvedOperand", "Argument", "parse_module", "parse_op", "parse_type",
           "parse_attribute"]
