"""The syntax tree of a `.td` file, as built by `tilecraft.codegen.td.parser`.

Every node carries the `SourceLoc` of its first token (the name, for named statements), which is
where errors about it point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..diagnostics import SourceLoc


# --- Types -------------------------------------------------------------------------------------

@dataclass(slots=True)
class TypeNode:
    """A type as written: ``name`` is bit/bits/int/string/code/dag/list or a class name;
    ``arg`` is the width of ``bits`` or the element type of ``list``."""

    name: str
    arg: int | TypeNode | None
    loc: SourceLoc


# --- Values ------------------------------------------------------------------------------------

@dataclass(slots=True)
class IntLit:
    """An integer literal (also ``true``/``false``)."""

    value: int
    loc: SourceLoc


@dataclass(slots=True)
class StrLit:
    """A string literal (adjacent literals already joined) or a ``[{ }]`` code block."""

    value: str
    is_code: bool
    loc: SourceLoc


@dataclass(slots=True)
class UnsetLit:
    """``?``."""

    loc: SourceLoc


@dataclass(slots=True)
class Id:
    """A bare identifier: a variable, field, template argument or def."""

    name: str
    loc: SourceLoc


@dataclass(slots=True)
class ListLit:
    """``[a, b]`` with an optional ``<type>`` suffix."""

    elements: list[Expr]
    element_type: TypeNode | None
    loc: SourceLoc


@dataclass(slots=True)
class BitsLit:
    """``{a, b, c}``: bits, most significant first."""

    elements: list[Expr]
    loc: SourceLoc


@dataclass(slots=True)
class DagLit:
    """``(op:$opname arg:$name, $name2, ...)``; a missing argument value is None."""

    op: Expr
    op_name: str | None
    args: list[tuple[Expr | None, str | None]]
    loc: SourceLoc


@dataclass(slots=True)
class Arg:
    """A template argument value, positional (``name`` None) or named (``name = value``)."""

    name: str | None
    value: Expr
    loc: SourceLoc


@dataclass(slots=True)
class AnonInst:
    """``Class<args>`` used as a value: an anonymous record."""

    class_name: str
    args: list[Arg]
    loc: SourceLoc


@dataclass(slots=True)
class FieldAccess:
    """``value.field``."""

    base: Expr
    field: str
    loc: SourceLoc


@dataclass(slots=True)
class Index:
    """``value[index]``."""

    base: Expr
    index: Expr
    loc: SourceLoc


@dataclass(slots=True)
class Paste:
    """``left # right``; ``right`` is read in name mode (an undefined identifier is a string)."""

    left: Expr
    right: Expr
    loc: SourceLoc


@dataclass(slots=True)
class CondArg:
    """``condition : value``, an operand of ``!cond``."""

    condition: Expr
    value: Expr
    loc: SourceLoc


@dataclass(slots=True)
class Bang:
    """``!op<type>(args)``; ``op`` is the name without ``!``."""

    op: str
    type_arg: TypeNode | None
    args: list[Expr]
    loc: SourceLoc


Expr = Union[IntLit, StrLit, UnsetLit, Id, ListLit, BitsLit, DagLit, AnonInst, FieldAccess, Index,
             Paste, CondArg, Bang]


# --- Record bodies -----------------------------------------------------------------------------

@dataclass(slots=True)
class FieldDecl:
    """``[field] type name [= value];`` in a record body."""

    type: TypeNode
    name: str
    value: Expr | None
    keyword_field: bool
    loc: SourceLoc


@dataclass(slots=True)
class LetItem:
    """``name = value`` of a ``let``; ``has_bit_range`` for the unsupported ``name{3-0}``."""

    name: str
    value: Expr
    has_bit_range: bool
    loc: SourceLoc


@dataclass(slots=True)
class Defvar:
    """``defvar name = value;``."""

    name: str
    value: Expr
    loc: SourceLoc


@dataclass(slots=True)
class AssertStmt:
    """``assert condition, message;``."""

    condition: Expr
    message: Expr
    loc: SourceLoc


BodyItem = Union[FieldDecl, LetItem, Defvar, AssertStmt]


# --- Statements --------------------------------------------------------------------------------

@dataclass(slots=True)
class TemplateDecl:
    """A template argument declaration ``type name [= default]``."""

    type: TypeNode
    name: str
    default: Expr | None
    loc: SourceLoc


@dataclass(slots=True)
class ParentRef:
    """A superclass (or multiclass, in ``defm``) with its template argument values."""

    name: str
    args: list[Arg]
    loc: SourceLoc


@dataclass(slots=True)
class Include:
    """``include "path"``."""

    path: str
    loc: SourceLoc


@dataclass(slots=True)
class ClassDef:
    """``class Name<args> : Parents { body }``; ``body`` is None for a bare ``class Name;``."""

    name: str
    template_args: list[TemplateDecl]
    parents: list[ParentRef]
    body: list[BodyItem] | None
    loc: SourceLoc


@dataclass(slots=True)
class DefStmt:
    """``def name : Parents { body }``; ``name`` is None for an anonymous def."""

    name: Expr | None
    parents: list[ParentRef]
    body: list[BodyItem]
    loc: SourceLoc


@dataclass(slots=True)
class Defm:
    """``defm name : Multiclass<args>, ..., Class<args>;``."""

    name: Expr | None
    parents: list[ParentRef]
    loc: SourceLoc


@dataclass(slots=True)
class LetStmt:
    """``let a = v, b = w in { statements }``."""

    items: list[LetItem]
    body: list[Stmt]
    loc: SourceLoc


@dataclass(slots=True)
class Foreach:
    """``foreach var = list in { ... }``, or ``foreach var = start...end in``."""

    var: str
    iterable: Expr | None
    start: Expr | None
    end: Expr | None
    body: list[Stmt]
    loc: SourceLoc


@dataclass(slots=True)
class Multiclass:
    """``multiclass Name<args> { statements }``."""

    name: str
    template_args: list[TemplateDecl]
    body: list[Stmt]
    loc: SourceLoc


@dataclass(slots=True)
class Defset:
    """``defset list<Class> Name = { statements }``."""

    type: TypeNode
    name: str
    body: list[Stmt]
    loc: SourceLoc


@dataclass(slots=True)
class IfStmt:
    """``if cond then { ... } else { ... }``."""

    condition: Expr
    then_body: list[Stmt]
    else_body: list[Stmt]
    loc: SourceLoc


Stmt = Union[Include, ClassDef, DefStmt, Defm, Defvar, LetStmt, Foreach, Multiclass, AssertStmt,
             Defset, IfStmt]
