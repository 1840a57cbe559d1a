"""`AttrParser`: the token cursor of the parser, and the parsing of types, attributes and
locations. `tilecraft.ir.parser.Parser` adds operations, regions and SSA values on top."""

from __future__ import annotations

import re
from typing import NoReturn

from tilecraft.codegen.diagnostics import SourceLoc
from tilecraft.ir.attributes import (
    ArrayAttr, Attribute, BoolAttr, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FloatAttr,
    IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr,
)
from tilecraft.ir.errors import ParseError
from tilecraft.ir.lexer import EOF, Source, describe
from tilecraft.ir.location import (
    CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc, UnknownLoc,
)
from tilecraft.ir.registry import get_dialect
from tilecraft.ir.syntax import unquote_string
from tilecraft.ir.types import (
    DYNAMIC, FLOAT_KINDS, MAX_INTEGER_WIDTH, FloatType, FunctionType, IndexType, IntegerType,
    NoneType, OpaqueType, RankedTensorType, SIGNED, SIGNLESS, Type, UNSIGNED, VectorType, f64,
    i1, i64,
)

_INTEGER_TYPE = re.compile(r"(si|ui|i)([1-9]\d*)")
_SIGNEDNESS = {"i": SIGNLESS, "si": SIGNED, "ui": UNSIGNED}
_SIMPLE_TYPES: dict[str, Type] = {kind: FloatType(kind) for kind in FLOAT_KINDS}
_SIMPLE_TYPES.update(index=IndexType(), none=NoneType(), i1=i1, i8=IntegerType(8),
                     i16=IntegerType(16), i32=IntegerType(32), i64=i64)
_UNIT = UnitAttr()
_CLOSERS = {"(": ")", "[": "]", "{": "}", "<": ">"}


class AliasLoc(Location):
    """A reference ``loc(#name)`` to a location alias defined later in the text; the parser
    replaces it once the whole text is read."""

    __slots__ = ("name", "token")

    def __init__(self, name: str, token: int) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "token", token)

    def _fields(self) -> tuple:
        return (self.name,)


class AttrParser:
    """A cursor over the tokens of one text, with the type, attribute and location grammar.

    ``allow_unregistered`` accepts ops, types and attributes of unknown dialects (kept as
    generic ops and `OpaqueType`/`OpaqueAttr` text) instead of rejecting them.
    """

    def __init__(self, text: str, filename: str | None = None, *, allow_unregistered: bool = False):
        self.source = Source(text, filename)
        self.toks = self.source.tokenize()
        self.i = 0
        problem = Source.check(self.toks)
        if problem is not None:
            self.error(problem[1], problem[0])
        self.allow_unregistered = allow_unregistered
        self._attr_aliases: dict[str, Attribute] = {}
        self._type_aliases: dict[str, Type] = {}
        self._loc_aliases: dict[str, Location] = {}
        self._has_alias_locs = False

    # -- cursor and diagnostics

    @property
    def location(self) -> SourceLoc:
        """Where the current token is."""
        return self.source.source_loc(self.i)

    def error(self, message: str, token: int | None = None) -> NoReturn:
        """Raise a `ParseError` at the current token (or at token number ``token``)."""
        index = self.i if token is None else token
        raise ParseError(message, self.source.source_loc(index), self.source.text)

    def _expected(self, what: str) -> NoReturn:
        self.error(f"expected {what} but found {describe(self.toks[self.i])}")

    def parse_punct(self, punct: str) -> None:
        """Consume the punctuation ``punct`` (``(``, ``->``, ``=``, ...) or fail."""
        if self.toks[self.i] != punct:
            self._expected(f"'{punct}'")
        self.i += 1

    def parse_optional_punct(self, punct: str) -> bool:
        """Consume ``punct`` if it is next; tell whether it was."""
        if self.toks[self.i] == punct:
            self.i += 1
            return True
        return False

    def parse_keyword(self, keyword: str | None = None) -> str:
        """Consume the bare identifier ``keyword`` (any keyword when None) and return it."""
        found = self.parse_optional_keyword(keyword)
        if found is None:
            self._expected(f"'{keyword}'" if keyword else "keyword")
        return found

    def parse_optional_keyword(self, keyword: str | tuple[str, ...] | None = None) -> str | None:
        """Consume and return the next token if it is a bare identifier (equal to ``keyword``,
        or one of them when a tuple is given); else None."""
        tok = self.toks[self.i]
        if not (tok[0].isalpha() or tok[0] == "_"):
            return None
        if keyword is not None:
            if tok != keyword if isinstance(keyword, str) else tok not in keyword:
                return None
        self.i += 1
        return tok

    def parse_integer(self, bits: int | None = None) -> int:
        """An integer literal; with ``bits``, one that a signed integer of that width holds."""
        token = self.i
        value = self.parse_optional_integer()
        if value is None:
            self._expected("integer value")
        if bits is not None and not -(1 << bits - 1) <= value < 1 << bits - 1:
            self.error("integer value too large", token)
        return value

    def parse_optional_integer(self) -> int | None:
        """A decimal or hexadecimal integer literal, or None."""
        tok = self.toks[self.i]
        try:
            if tok.startswith("0x"):
                value = int(tok, 16)
            elif (tok[0].isdigit() or tok[0] == "-" and tok[1:2].isdigit()) and "." not in tok:
                value = int(tok)
            else:
                return None
        except ValueError:  # more digits than Python converts
            self.error("integer value too large")
        self.i += 1
        return value

    def parse_float(self) -> float:
        """A float or integer literal, as a Python float."""
        tok = self.toks[self.i]
        if not (tok[0].isdigit() or tok[0] == "-" and tok[1:2].isdigit()) or tok.startswith("0x"):
            self._expected("floating point value")
        self.i += 1
        return float(tok)

    def parse_string(self) -> str:
        value = self.parse_optional_string()
        if value is None:
            self._expected("string")
        return value

    def parse_optional_string(self) -> str | None:
        tok = self.toks[self.i]
        if tok[0] != '"':
            return None
        if len(tok) < 2:
            self.error("unterminated string literal")
        self.i += 1
        return unquote_string(tok)

    def parse_symbol_name(self) -> str:
        """``@name`` (or ``@"quoted"``): the name without ``@``."""
        name = self.parse_optional_symbol_name()
        if name is None:
            self._expected("symbol name")
        return name

    def parse_optional_symbol_name(self) -> str | None:
        """``@name`` (or ``@"quoted"``) if next: the name without ``@``; else None (also for a
        bare ``@``, which names nothing)."""
        tok = self.toks[self.i]
        if tok[0] != "@" or tok == "@":
            return None
        self.i += 1
        return unquote_string(tok[1:]) if tok[1] == '"' else tok[1:]

    def _raw_body(self) -> str:
        """The text of a balanced ``<...>`` group starting at the current token (empty when the
        next token is not ``<``), consumed as is."""
        toks = self.toks
        start = self.i
        if toks[start] != "<":
            return ""
        depth = 0
        index = start
        while True:
            tok = toks[index]
            if tok == EOF:
                self.error("unbalanced '<' in dialect type or attribute", start)
            if tok in _CLOSERS:
                depth += 1
            elif tok in (">", ")", "]", "}"):
                depth -= 1
                if depth == 0:
                    break
            index += 1
        self.i = index + 1
        text = self.source.text
        return text[self.source.offset(start):self.source.offset(index) + 1]

    # -- types

    def parse_type(self) -> Type:
        t = _SIMPLE_TYPES.get(self.toks[self.i])
        if t is not None:
            self.i += 1
            return t
        t = self.parse_optional_type()
        if t is None:
            self._expected("type")
        return t

    def parse_optional_type(self) -> Type | None:
        """A type if one starts here, else None."""
        tok = self.toks[self.i]
        t = _SIMPLE_TYPES.get(tok)
        if t is not None:
            self.i += 1
            return t
        first = tok[0]
        if first == "!":
            return self._parse_dialect_type(tok)
        if tok == "tensor":
            return self._parse_tensor_type()
        if tok == "vector":
            return self._parse_vector_type()
        if tok == "(":
            inputs, results = self.parse_functional_type()
            return FunctionType(inputs, results)
        match = _INTEGER_TYPE.fullmatch(tok)
        if match is not None:
            digits = match.group(2)
            if len(digits) > 8 or int(digits) > MAX_INTEGER_WIDTH:
                self.error(f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits")
            t = IntegerType(int(digits), _SIGNEDNESS[match.group(1)])
            _SIMPLE_TYPES[tok] = t
            self.i += 1
            return t
        return None

    def parse_type_list(self) -> list[Type]:
        """Comma-separated types (none when no type starts here)."""
        first = self.parse_optional_type()
        if first is None:
            return []
        types = [first]
        while self.toks[self.i] == ",":
            self.i += 1
            types.append(self.parse_type())
        return types

    def parse_colon_type(self) -> Type:
        """``: type``."""
        self.parse_punct(":")
        return self.parse_type()

    def parse_functional_type(self) -> tuple[list[Type], list[Type]]:
        """``(inputs) -> result`` or ``(inputs) -> (results)``, as (inputs, results)."""
        inputs = self._parse_paren_types()
        self.parse_punct("->")
        if self.toks[self.i] == "(":
            return inputs, self._parse_paren_types()
        return inputs, [self.parse_type()]

    def _parse_paren_types(self) -> list[Type]:
        self.parse_punct("(")
        if self.toks[self.i] == ")":
            self.i += 1
            return []
        types = [self.parse_type()]
        toks = self.toks
        while toks[self.i] == ",":
            self.i += 1
            types.append(self.parse_type())
        self.parse_punct(")")
        return types

    def parse_dimension_list(self) -> list[int]:
        """``4x?x8x``: the dimensions before an element type (`DYNAMIC` for ``?``)."""
        toks = self.toks
        dims = []
        while True:
            tok = toks[self.i]
            if tok == "?":
                dims.append(DYNAMIC)
            elif tok.isdigit():
                if len(tok) > 19 or int(tok) >= 1 << 63:
                    self.error("invalid dimension")
                dims.append(int(tok))
            elif tok.startswith("0x"):
                self._split_zero_dimension()
                continue
            elif tok == "*":
                self.error("unranked tensors are not supported")
            else:
                return dims
            self.i += 1
            if toks[self.i] != "x":
                self._expected("'x' in dimension list")
            self.i += 1

    def _split_zero_dimension(self) -> None:
        """Re-read ``0x...`` (lexed as a hex literal) as ``0`` ``x`` followed by the rest."""
        from tilecraft.ir.lexer import token_re

        rest = [t for t in token_re().findall(self.toks[self.i][2:]) if t]
        self.toks[self.i:self.i + 1] = ["0", "x", *rest]
        self.source.splices.append((self.i, 1 + len(rest)))

    def _parse_tensor_type(self) -> Type:
        self.i += 1
        self.parse_punct("<")
        shape = self.parse_dimension_list()
        element_type = self.parse_type()
        encoding = None
        if self.toks[self.i] == ",":
            self.i += 1
            encoding = self.parse_attribute()
        self.parse_punct(">")
        return RankedTensorType(shape, element_type, encoding)

    def _parse_vector_type(self) -> Type:
        token = self.i
        self.i += 1
        self.parse_punct("<")
        shape = self.parse_dimension_list()
        if not shape or any(d < 1 for d in shape):
            self.error("vector types must have positive static dimensions", token)
        element_type = self.parse_type()
        self.parse_punct(">")
        return VectorType(shape, element_type)

    def _parse_dialect_type(self, tok: str) -> Type:
        start = self.i
        body = tok[1:]
        dialect_name, dot, mnemonic = body.partition(".")
        self.i += 1
        if not dot:
            t = self._type_aliases.get(body)
            if t is None:
                self.error(f"undefined symbol alias id '{body}'", start)
            return t
        dialect = get_dialect(dialect_name)
        cls = dialect.types.get(mnemonic) if dialect is not None else None
        if cls is not None:
            return cls.parse_parameters(self) if cls.PARAMETERS else cls()
        if self.allow_unregistered:
            return OpaqueType(dialect_name, mnemonic + self._raw_body())
        if dialect is None:
            self.error(f"unregistered dialect '{dialect_name}' in type '{tok}'", start)
        self.error(f"unknown type '{mnemonic}' in dialect '{dialect_name}'", start)

    # -- attributes

    def parse_attribute(self, type: Type | None = None) -> Attribute:
        """An attribute. ``type`` is the type of a number (or ``dense``) literal when the text
        leaves it out; without it a literal may be followed by ``: type``."""
        attr = self.parse_optional_attribute(type)
        if attr is None:
            self._expected("attribute value")
        return attr

    def parse_typed_attribute(self, type: Type | None = None) -> Attribute:
        """An attribute with a type (an integer, float or dense elements attribute), where an
        op takes a result's type from its attribute (``arith.constant``)."""
        start = self.i
        attr = self.parse_attribute(type)
        if not isinstance(getattr(attr, "type", None), Type):
            self.error("invalid kind of attribute specified: expected an attribute with a type",
                       start)
        return attr

    def parse_optional_attribute(self, type: Type | None = None) -> Attribute | None:
        """An attribute if one starts here, else None."""
        tok = self.toks[self.i]
        first = tok[0]
        if first == '"':
            return StringAttr(self.parse_string())
        if first.isdigit() or first == "-" and tok[1:2].isdigit():
            return self._parse_number_attribute(type)
        if tok == "[":
            return self._parse_array_attribute()
        if tok == "{":
            return DictionaryAttr(self._parse_attr_dict_body())
        if first == "#":
            return self._parse_hash_attribute(tok)
        if first == "@":
            return self._parse_symbol_ref()
        if tok == "true" or tok == "false":
            self.i += 1
            return BoolAttr(tok == "true")
        if tok == "unit":
            self.i += 1
            return _UNIT
        if tok == "dense" and self.toks[self.i + 1] == "<":
            return self._parse_dense_elements(type)
        if tok == "array" and self.toks[self.i + 1] == "<":
            return self._parse_dense_array()
        t = self.parse_optional_type()
        return TypeAttr(t) if t is not None else None

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        """``{name = attr, flag, ...}`` if next, as a dict (empty when absent)."""
        if self.toks[self.i] != "{":
            return {}
        return self._parse_attr_dict_body()

    def parse_optional_attr_dict_with_keyword(self) -> dict[str, Attribute]:
        """``attributes {...}`` if next, as a dict (empty when absent)."""
        if self.toks[self.i] != "attributes":
            return {}
        self.i += 1
        if self.toks[self.i] != "{":
            self._expected("'{'")
        return self._parse_attr_dict_body()

    def _parse_attr_dict_body(self) -> dict[str, Attribute]:
        toks = self.toks
        self.i += 1
        result: dict[str, Attribute] = {}
        if toks[self.i] == "}":
            self.i += 1
            return result
        while True:
            key_token = self.i
            tok = toks[key_token]
            if tok[0] == '"':
                key = self.parse_string()
            elif tok[0].isalpha() or tok[0] == "_":
                key = tok
                self.i += 1
            else:
                self._expected("attribute name")
            if key in result:
                self.error(f"duplicate key '{key}' in dictionary attribute", key_token)
            if toks[self.i] == "=":
                self.i += 1
                result[key] = self.parse_attribute()
            else:
                result[key] = _UNIT
            tok = toks[self.i]
            self.i += 1
            if tok == "}":
                return result
            if tok != ",":
                self.i -= 1
                self._expected("',' or '}' in dictionary attribute")

    def _parse_array_attribute(self) -> ArrayAttr:
        self.i += 1
        toks = self.toks
        if toks[self.i] == "]":
            self.i += 1
            return ArrayAttr(())
        elements = [self.parse_attribute()]
        while toks[self.i] == ",":
            self.i += 1
            elements.append(self.parse_attribute())
        self.parse_punct("]")
        return ArrayAttr(elements)

    def _parse_number_attribute(self, type: Type | None) -> Attribute:
        start = self.i
        tok = self.toks[start]
        self.i += 1
        if type is None:
            if self.toks[self.i] == ":":
                self.i += 1
                type = self.parse_type()
            else:
                type = f64 if "." in tok else i64
        return self._literal_value(start, tok, type, wrap=True)

    def _literal_value(self, token: int, tok: str, type: Type, wrap: bool = False):
        """The value of literal token ``tok`` as an element of ``type`` (an attribute when
        ``wrap``, else a Python number)."""
        if tok == "true" or tok == "false":
            if type is not i1:
                self.error(f"boolean literal for a value of type {type}", token)
            return BoolAttr(tok == "true") if wrap else tok == "true"
        is_hex = tok.startswith("0x")
        if isinstance(type, FloatType):
            if is_hex:
                bits = int(tok, 16)
                if bits >= 1 << type.format.width:
                    self.error(f"hexadecimal float constant out of range for type {type}", token)
                value = type.format.from_bits(bits)
            elif "." not in tok:
                self.error("unexpected decimal integer literal for a floating point value "
                           "(add a trailing dot to make it a float)", token)
            else:
                value = float(tok)
            return FloatAttr(value, type) if wrap else type.format.round(value)
        if "." in tok:
            self.error("floating point value not valid for specified type", token)
        if isinstance(type, (IntegerType, IndexType)):
            try:
                attr = IntegerAttr(int(tok, 16) if is_hex else int(tok), type)
            except ValueError:
                self.error("integer constant out of range for attribute", token)
            return attr if wrap else attr.value
        self.error("integer literal not valid for specified type", token)

    def _parse_hash_attribute(self, tok: str) -> Attribute:
        start = self.i
        body = tok[1:]
        dialect_name, dot, mnemonic = body.partition(".")
        self.i += 1
        if not dot:
            attr = self._attr_aliases.get(body)
            if attr is None:
                self.error(f"undefined symbol alias id '{body}'", start)
            return attr
        dialect = get_dialect(dialect_name)
        cls = dialect.attributes.get(mnemonic) if dialect is not None else None
        if cls is not None:
            return cls.parse_parameters(self) if cls.PARAMETERS else cls()
        if self.allow_unregistered:
            return OpaqueAttr(dialect_name, mnemonic + self._raw_body())
        if dialect is None:
            self.error(f"unregistered dialect '{dialect_name}' in attribute '{tok}'", start)
        self.error(f"unknown attribute '{mnemonic}' in dialect '{dialect_name}'", start)

    def _parse_symbol_ref(self) -> SymbolRefAttr:
        root = self.parse_symbol_name()
        nested = []
        while self.toks[self.i] == "::":
            self.i += 1
            nested.append(self.parse_symbol_name())
        return SymbolRefAttr(root, nested)

    def _parse_dense_elements(self, type: Type | None) -> DenseElementsAttr:
        start = self.i
        self.i += 2
        literal = [] if self.toks[self.i] == ">" else self._parse_dense_literal()
        self.parse_punct(">")
        if type is None:
            self.parse_punct(":")
            type_token = self.i
            type = self.parse_type()
        else:
            type_token = start
        if not isinstance(type, (RankedTensorType, VectorType)) or not type.has_static_shape():
            self.error(f"elements literal type must be a statically shaped tensor, got {type}",
                       type_token)
        if isinstance(literal, tuple):
            values = [self._literal_value(literal[0], literal[1], type.element_type)]
        else:
            shape = self._literal_shape(literal, start)
            if shape != list(type.shape):
                self.error(f"inferred shape of elements literal ({shape}) does not match type "
                           f"({list(type.shape)})", start)
            element_type = type.element_type
            values = [self._literal_value(t, text, element_type) for t, text in _leaves(literal)]
        return DenseElementsAttr(type, values)

    def _parse_dense_literal(self):
        """A scalar literal as (token number, text), or a nested list of them."""
        toks = self.toks
        tok = toks[self.i]
        if tok == "[":
            self.i += 1
            items = []
            if toks[self.i] != "]":
                items.append(self._parse_dense_literal())
                while toks[self.i] == ",":
                    self.i += 1
                    items.append(self._parse_dense_literal())
            self.parse_punct("]")
            return items
        if tok[0].isdigit() or tok[0] == "-" and tok[1:2].isdigit() or tok in ("true", "false"):
            self.i += 1
            return (self.i - 1, tok)
        self._expected("element literal")

    def _literal_shape(self, literal, token: int) -> list[int]:
        if isinstance(literal, tuple):
            return []
        shapes = [self._literal_shape(item, token) for item in literal]
        if any(s != shapes[0] for s in shapes):
            self.error("tensor literal is invalid; ranks are not consistent between elements",
                       token)
        return [len(literal)] + (shapes[0] if shapes else [])

    def _parse_dense_array(self) -> DenseArrayAttr:
        self.i += 2
        element_type = self.parse_type()
        values = []
        if self.toks[self.i] == ":":
            self.i += 1
            while True:
                token = self.i
                tok = self.toks[token]
                if not (tok[0].isdigit() or tok[0] == "-" or tok in ("true", "false")):
                    self._expected("element literal")
                self.i += 1
                values.append(self._literal_value(token, tok, element_type))
                if self.toks[self.i] != ",":
                    break
                self.i += 1
        self.parse_punct(">")
        return DenseArrayAttr(element_type, values)

    # -- locations

    def parse_location(self) -> Location:
        """``loc(...)``."""
        self.parse_keyword("loc")
        self.parse_punct("(")
        loc = self._parse_location_body()
        self.parse_punct(")")
        return loc

    def _parse_location_body(self) -> Location:
        toks = self.toks
        tok = toks[self.i]
        if tok == "unknown":
            self.i += 1
            return UnknownLoc()
        if tok == "callsite":
            self.i += 1
            self.parse_punct("(")
            callee = self._parse_location_body()
            self.parse_keyword("at")
            caller = self._parse_location_body()
            self.parse_punct(")")
            return CallSiteLoc(callee, caller)
        if tok == "fused":
            self.i += 1
            metadata = None
            if self.parse_optional_punct("<"):
                metadata = self.parse_attribute()
                self.parse_punct(">")
            self.parse_punct("[")
            locations = [self._parse_location_body()]
            while self.parse_optional_punct(","):
                locations.append(self._parse_location_body())
            self.parse_punct("]")
            return FusedLoc(locations, metadata)
        if tok[0] == '"':
            name = self.parse_string()
            if self.parse_optional_punct(":"):
                line = self.parse_integer()
                self.parse_punct(":")
                col = self.parse_integer()
                end_line = end_col = None
                if self.parse_optional_keyword("to"):
                    end_line = self.parse_optional_integer()
                    self.parse_punct(":")
                    end_col = self.parse_integer()
                    if end_line is None:
                        end_line = line
                return FileLineColLoc(name, line, col, end_line, end_col)
            if self.parse_optional_punct("("):
                child = self._parse_location_body()
                self.parse_punct(")")
                return NameLoc(name, child)
            return NameLoc(name)
        if tok[0] == "#" and "." not in tok:
            self.i += 1
            loc = self._loc_aliases.get(tok[1:])
            if loc is None:
                self._has_alias_locs = True
                return AliasLoc(tok[1:], self.i - 1)
            return loc
        self._expected("location")

    def _resolve_location(self, loc: Location, active: tuple[str, ...] = ()) -> Location:
        """``loc`` with its references to location aliases replaced by their definitions."""
        kind = type(loc)
        if kind is AliasLoc:
            target = self._loc_aliases.get(loc.name)
            if target is None:
                self.error(f"undefined symbol alias id '{loc.name}'", loc.token)
            if loc.name in active:
                self.error(f"location alias '#{loc.name}' refers to itself", loc.token)
            return self._resolve_location(target, active + (loc.name,))
        if kind is CallSiteLoc:
            return CallSiteLoc(self._resolve_location(loc.callee, active),
                               self._resolve_location(loc.caller, active))
        if kind is NameLoc and loc.child is not None:
            return NameLoc(loc.name, self._resolve_location(loc.child, active))
        if kind is FusedLoc:
            children = [self._resolve_location(c, active) for c in loc.locations]
            return FusedLoc(children, loc.metadata)
        return loc


def _leaves(literal):
    if isinstance(literal, tuple):
        yield literal
    else:
        for item in literal:
            yield from _leaves(item)
