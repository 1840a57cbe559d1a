"""The record evaluator: runs the statements of a `.td` file and builds its classes and defs.

It follows TableGen's order. A record (class or def) gets its parents' fields left to right, each
parent's template arguments bound eagerly; then the values of the enclosing top-level ``let``s;
then its body. Class bodies are evaluated once, with template arguments and field references left
symbolic (`tilecraft.codegen.td.terms`); deriving from a class copies its fields and substitutes
the arguments. When a def is complete, references to its own fields are resolved against its
final field values (late binding), every value is checked against its field's type, and the
record's assertions are checked. Multiclasses are re-run for each ``defm`` with their arguments
bound.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Callable, Hashable

from ..diagnostics import SourceLoc, decode_utf8
from . import ast
from .bang import OPERATORS
from .literals import ANON, BITS, DAG_LITERAL, FIELD, INDEX, make_list, split_bits
from .errors import TdError
from .parser import parse
from .terms import (INCOMPATIBLE, MapResolver, Op, RecordResolver, Ref, Term, binder, convert,
                    describe, format_value, make_op, resolve, type_of)
from .tdtypes import (ANY, BIT, DAG, INT, STRING, BitsType, ListType, RecordType, TdType,
                      is_integral)
from .values import (Assertion, Code, Field, Record, RecordKeeper, TdList, TemplateArg, Unset)

_MISSING: Any = object()
_SIMPLE_TYPES = {"bit": BIT, "int": INT, "string": STRING, "code": STRING, "dag": DAG}


class Scope:
    """Names visible at a point: local variables (``defvar``, ``foreach``, multiclass arguments),
    and inside a record body its fields and template arguments; then the enclosing scope."""

    __slots__ = ("vars", "parent", "record", "template_args")

    def __init__(self, parent: Scope | None = None, vars: dict[str, Any] | None = None,
                 record: Record | None = None,
                 template_args: dict[str, Any] | None = None) -> None:
        self.parent = parent
        self.vars = vars if vars is not None else {}
        self.record = record
        self.template_args = template_args

    def lookup(self, name: str, globals_visible: bool = True) -> Any:
        """The value of ``name`` (a `Ref` for a field or class template argument) or _MISSING.
        Without ``globals_visible``, the outermost scope (top-level ``defvar``s) is not
        searched."""
        scope: Scope | None = self
        while scope is not None and (globals_visible or scope.parent is not None):
            value = scope.vars.get(name, _MISSING)
            if value is not _MISSING:
                return value
            if scope.record is not None:
                field = scope.record.fields.get(name)
                if field is not None:
                    return Ref(name, name, field.type)
            if scope.template_args is not None and name in scope.template_args:
                return scope.template_args[name]
            scope = scope.parent
        return _MISSING


@dataclass(frozen=True, slots=True)
class LetBinding:
    """A ``name = value`` of a top-level ``let``, applied to each record defined inside."""

    name: str
    value: Any
    loc: SourceLoc
    value_loc: SourceLoc


@dataclass(frozen=True, slots=True)
class DefmExtras:
    """What a ``defm`` adds to each def it creates, after the def's body: its trailing classes
    (class, bound template arguments, position) and the ``let``s around the ``defm``."""

    classes: tuple[tuple[Record, dict[str, Any], SourceLoc], ...]
    lets: tuple[LetBinding, ...]


@dataclass(frozen=True, slots=True)
class Env:
    """Where statements run: the scope, the enclosing ``let``s, and inside a multiclass
    instance, the ``defm`` name (``NAME``) and the extras of the enclosing ``defm``s."""

    scope: Scope
    lets: tuple[LetBinding, ...] = ()
    extras: tuple[DefmExtras, ...] = ()
    defm_name: str | None = None


@dataclass(frozen=True, slots=True)
class MulticlassDef:
    """A multiclass: its body is run again for every ``defm``."""

    name: str
    template_args: list[TemplateArg]
    body: list[ast.Stmt]
    lets: tuple[LetBinding, ...]
    loc: SourceLoc


def _identity(value: Any) -> Hashable:
    """What tells two template argument values apart for TableGen's anonymous records: their
    Python type and value, and for lists also their element type (see `TdList`)."""
    if isinstance(value, TdList):
        return (TdList, value.element, tuple(map(_identity, value)))
    return (type(value), value)


def _mentions_name(expr: Any) -> bool:
    """Whether a def name expression uses ``NAME`` (else a multiclass def is prefixed by it)."""
    if isinstance(expr, ast.Id):
        return expr.name == "NAME"
    if isinstance(expr, ast.Paste):
        return _mentions_name(expr.left) or _mentions_name(expr.right)
    if isinstance(expr, ast.Bang):
        return any(_mentions_name(arg) for arg in expr.args)
    if isinstance(expr, ast.CondArg):
        return _mentions_name(expr.condition) or _mentions_name(expr.value)
    return False


class Evaluator:
    """Runs statements into a `RecordKeeper`; also the `FoldContext` of folding operators."""

    def __init__(self, include_dirs: list[str]) -> None:
        self.records = RecordKeeper()
        self.include_dirs = include_dirs
        self.multiclasses: dict[str, MulticlassDef] = {}
        self.macros: set[str] = set()
        self.sources: dict[str, str] = {}
        self.include_stack: list[str] = []
        self.global_scope = Scope()
        self.forward_classes: set[str] = set()
        self.anonymous: dict[tuple[Any, ...], Record] = {}
        self.anonymous_count = 0
        self.defsets: list[tuple[TdType, list[Record], SourceLoc]] = []
        self.class_depth = 0
        self.statement_loc: SourceLoc | None = None
        self.building: list[Record] = []
        self.finalizing: Record | None = None

    # --- FoldContext -------------------------------------------------------------------------

    @property
    def final(self) -> bool:
        """False while a class is being built."""
        return self.class_depth == 0

    def lookup_def(self, name: str) -> Record | None:
        """The def called ``name``, if it is defined yet, or being finalized (a def may name
        itself: ``!cast<C>(NAME)``)."""
        record = self.records.defs.get(name)
        if record is None and self.finalizing is not None and self.finalizing.name == name:
            return self.finalizing
        return record

    def being_built(self, name: str) -> bool:
        """Whether the def called ``name`` is being built: a reference to it waits for its
        final resolution."""
        return any(record.name == name for record in self.building)

    def lookup_class(self, name: str) -> Record | None:
        """The class called ``name``, if any."""
        return self.records.classes.get(name)

    def class_parents(self, name: str) -> list[str]:
        """The direct superclasses of class ``name``."""
        cls = self.records.classes.get(name)
        return cls.parents if cls is not None else []

    def class_isa(self, name: str, parent: str) -> bool:
        """Whether class ``name`` is or derives from class ``parent``."""
        cls = self.records.classes.get(name)
        return cls.isa(parent) if cls is not None else name == parent

    def instantiate(self, cls: Record, keys: tuple[int | str, ...], args: tuple[Any, ...],
                    loc: SourceLoc) -> Record:
        """The anonymous def ``cls<args>``: ``keys`` say which template argument each of
        ``args`` gives (a position, or the qualified name of a named argument); the others take
        their defaults. The same arguments, written the same way, give the same record."""
        key = (cls.name, keys, tuple(map(_identity, args)))
        record = self.anonymous.get(key)
        if record is None:
            record = Record(self.new_anonymous_name(), loc, is_anonymous=True)
            given = {cls.template_args[k].qualified_name if isinstance(k, int) else k: value
                     for k, value in zip(keys, args)}
            depth, self.class_depth = self.class_depth, 0
            try:
                self.add_subclass(record, cls, self.complete_args(cls, given, loc), loc,
                                  bind_name=False)
                self.finalize(record, concrete=False)
            finally:
                self.class_depth = depth
            self.records.defs[record.name] = record
            self.anonymous[key] = record
        return record

    # --- Files -------------------------------------------------------------------------------

    def run_file(self, path: str, env: Env, loc: SourceLoc | None = None) -> None:
        """Read, parse and run the file at ``path``."""
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise TdError(f"cannot read '{path}': {error.strerror}", loc) from None
        self.run_text(decode_utf8(data, path, TdError), path, env)

    def run_text(self, text: str, filename: str, env: Env) -> None:
        """Parse and run ``text``, the contents of ``filename``."""
        self.sources[filename] = text
        statements = parse(text, filename, self.macros)
        self.include_stack.append(filename)
        self.run(statements, env)
        self.include_stack.pop()

    def _find_include(self, stmt: ast.Include) -> str:
        including = stmt.loc.file or ""
        directories = [os.path.dirname(including)] if os.path.isfile(including) else []
        for directory in directories + list(self.include_dirs):
            candidate = os.path.normpath(os.path.join(directory, stmt.path))
            if os.path.isfile(candidate):
                return candidate
        searched = ", ".join(f"'{d or '.'}'" for d in directories + list(self.include_dirs))
        raise TdError(f"include file '{stmt.path}' not found"
                      + (f" (searched {searched})" if searched else ""), stmt.loc)

    # --- Statements --------------------------------------------------------------------------

    def run(self, statements: list[ast.Stmt], env: Env) -> None:
        """Run ``statements`` in ``env``."""
        for stmt in statements:
            self.statement_loc = stmt.loc
            _STATEMENTS[type(stmt)](self, stmt, env)

    def _block(self, statements: list[ast.Stmt], env: Env) -> None:
        self.run(statements, replace(env, scope=Scope(env.scope)))

    def _include(self, stmt: ast.Include, env: Env) -> None:
        path = self._find_include(stmt)
        # A file may be included again while it is open: its #ifndef guard then leaves the
        # inner copy empty (Triton's dialect and types files include each other). A third
        # level means there is no guard.
        if self.include_stack.count(path) >= 2:
            raise TdError(f"'{stmt.path}' includes itself (add an #ifndef guard)", stmt.loc)
        self.run_file(path, env, stmt.loc)

    def _class(self, stmt: ast.ClassDef, env: Env) -> None:
        name = stmt.name
        forward = stmt.body is None and not stmt.parents and not stmt.template_args
        previous = self.records.classes.get(name)
        if previous is not None:
            if forward:
                return
            if name not in self.forward_classes:
                raise TdError(f"class '{name}' is already defined", stmt.loc,
                              notes=[(previous.loc, "previous definition")])
        if forward:
            self.forward_classes.add(name)
        else:
            self.forward_classes.discard(name)
        record = Record(name, stmt.loc, is_class=True)
        self.records.classes[name] = record
        self.class_depth += 1
        try:
            names: dict[str, Any] = {"NAME": Ref(f"{name}:NAME", f"{name}:NAME", STRING)}
            scope = Scope(env.scope, record=record, template_args=names)
            record.template_args = self._declare_template_args(
                name, ":", stmt.template_args, scope, names)
            self._build(record, stmt.parents, stmt.body or [], env, scope)
        finally:
            self.class_depth -= 1

    def _declare_template_args(self, owner: str, separator: str, decls: list[ast.TemplateDecl],
                               scope: Scope, names: dict[str, Any]) -> list[TemplateArg]:
        """Declare template arguments; each becomes a `Ref` in ``names`` (the template
        arguments of ``scope``, where defaults are evaluated)."""
        result: list[TemplateArg] = []
        for decl in decls:
            if decl.name == "NAME":
                raise TdError("'NAME' is reserved and cannot be a template argument", decl.loc)
            if decl.name in names:
                raise TdError(f"template argument '{decl.name}' is declared twice", decl.loc)
            type_ = self.resolve_type(decl.type)
            default = None
            if decl.default is not None:
                default = self.check_assign(self.eval(decl.default, scope), type_,
                                            f"template argument '{decl.name}'", decl.default.loc)
            qualified = f"{owner}{separator}{decl.name}"
            result.append(TemplateArg(decl.name, qualified, type_, default, decl.loc))
            names[decl.name] = Ref(qualified, qualified, type_)
        return result

    def _def(self, stmt: ast.DefStmt, env: Env) -> None:
        record = self._new_def(stmt.name, stmt.loc, env)
        self.building.append(record)
        try:
            self._build(record, stmt.parents, stmt.body, env, Scope(env.scope, record=record))
            self._complete(record, env)
        finally:
            self.building.pop()

    def _new_def(self, name_expr: ast.Expr | None, loc: SourceLoc, env: Env) -> Record:
        if name_expr is None:
            return Record(self.new_anonymous_name(), loc, is_anonymous=True)
        name = self._eval_name(name_expr, env)
        previous = self.records.defs.get(name)
        if previous is not None:
            raise TdError(f"def '{name}' is already defined", loc,
                          notes=[(previous.loc, "previous definition")])
        return Record(name, loc)

    def _eval_name(self, expr: ast.Expr, env: Env) -> str:
        name = self.eval(expr, env.scope, name_mode=True)
        if not isinstance(name, str):
            raise TdError(f"a record name must be a string; got {describe(name)}", expr.loc)
        if env.defm_name is not None and not _mentions_name(expr):
            name = env.defm_name + name
        return str(name)

    def _defm(self, stmt: ast.Defm, env: Env) -> None:
        name = (self._eval_name(stmt.name, env) if stmt.name is not None
                else self.new_anonymous_name())
        multiclasses: list[tuple[MulticlassDef, ast.ParentRef]] = []
        classes: list[tuple[Record, dict[str, Any], SourceLoc]] = []
        for ref in stmt.parents:
            multiclass = self.multiclasses.get(ref.name)
            if multiclass is not None:
                if classes:
                    raise TdError("the multiclasses of a 'defm' must come before its classes",
                                  ref.loc)
                multiclasses.append((multiclass, ref))
            else:
                cls = self._class_named(ref.name, ref.loc, "multiclass or class")
                classes.append((cls, self.bind_args(cls, ref.args, env.scope, ref.loc), ref.loc))
        if not multiclasses:
            raise TdError("'defm' needs a multiclass; use 'def' to derive from classes only",
                          stmt.loc)
        extras = (DefmExtras(tuple(classes), env.lets),) + env.extras
        for multiclass, ref in multiclasses:
            bound = self.bind_args(multiclass, ref.args, env.scope, ref.loc)
            values = {arg.name: bound[arg.qualified_name] for arg in multiclass.template_args}
            values["NAME"] = name
            self.run(multiclass.body, Env(Scope(self.global_scope, values), multiclass.lets,
                                          extras, name))

    def _multiclass(self, stmt: ast.Multiclass, env: Env) -> None:
        previous = self.multiclasses.get(stmt.name)
        if previous is not None:
            raise TdError(f"multiclass '{stmt.name}' is already defined", stmt.loc,
                          notes=[(previous.loc, "previous definition")])
        if env.defm_name is not None:
            raise TdError("a multiclass cannot be defined inside another multiclass", stmt.loc)
        self.class_depth += 1
        try:
            names: dict[str, Any] = {}
            args = self._declare_template_args(stmt.name, "::", stmt.template_args,
                                               Scope(env.scope, template_args=names), names)
        finally:
            self.class_depth -= 1
        self.multiclasses[stmt.name] = MulticlassDef(stmt.name, args, stmt.body, env.lets,
                                                     stmt.loc)

    def _defvar(self, stmt: ast.Defvar, env: Env) -> None:
        self._define_var(env.scope, stmt.name, stmt.loc, self.eval(stmt.value, env.scope))

    @staticmethod
    def _define_var(scope: Scope, name: str, loc: SourceLoc, value: Any) -> None:
        if name in scope.vars:
            raise TdError(f"variable '{name}' is already defined in this scope", loc)
        scope.vars[name] = value

    def _let(self, stmt: ast.LetStmt, env: Env) -> None:
        bindings = []
        for item in stmt.items:
            self._reject_bit_range(item)
            bindings.append(LetBinding(item.name, self.eval(item.value, env.scope), item.loc,
                                       item.value.loc))
        self._block(stmt.body, replace(env, lets=env.lets + tuple(bindings)))

    def _foreach(self, stmt: ast.Foreach, env: Env) -> None:
        if stmt.iterable is not None:
            items = self.eval(stmt.iterable, env.scope)
            if not isinstance(items, TdList):
                raise TdError(f"foreach needs a list; got {describe(items)}", stmt.iterable.loc)
        else:
            assert stmt.start is not None and stmt.end is not None
            start, end = (self._eval_int(e, env.scope, "a range bound")
                          for e in (stmt.start, stmt.end))
            items = range(start, end + 1) if start <= end else range(start, end - 1, -1)
        for item in items:
            self.run(stmt.body, replace(env, scope=Scope(env.scope, {stmt.var: item})))

    def _eval_int(self, expr: ast.Expr, scope: Scope, what: str) -> int:
        value = self.eval(expr, scope)
        if not isinstance(value, int):
            raise TdError(f"{what} must be a known integer; got {describe(value)}", expr.loc)
        return value

    def _assert(self, stmt: ast.AssertStmt, env: Env) -> None:
        self.check_assert(self.eval(stmt.condition, env.scope),
                          self.eval(stmt.message, env.scope), stmt.loc)

    def _defset(self, stmt: ast.Defset, env: Env) -> None:
        type_ = self.resolve_type(stmt.type)
        if not (isinstance(type_, ListType) and isinstance(type_.element, RecordType)):
            raise TdError(f"a defset must have a type 'list<Class>'; got '{type_}'",
                          stmt.type.loc)
        collected: list[Record] = []
        self.defsets.append((type_.element, collected, stmt.loc))
        try:
            # As in TableGen, the body is no scope of its own, and the list is a global
            # variable even when the defset is nested in another.
            self.run(stmt.body, env)
        finally:
            self.defsets.pop()
        self._define_var(self.global_scope, stmt.name, stmt.loc, TdList(collected))

    def _if(self, stmt: ast.IfStmt, env: Env) -> None:
        condition = self._eval_int(stmt.condition, env.scope, "an 'if' condition")
        self._block(stmt.then_body if condition else stmt.else_body, env)

    # --- Records -----------------------------------------------------------------------------

    def new_anonymous_name(self) -> str:
        """TableGen's name for the next anonymous record."""
        self.anonymous_count += 1
        return f"anonymous_{self.anonymous_count - 1}"

    def _class_named(self, name: str, loc: SourceLoc, what: str = "class") -> Record:
        cls = self.records.classes.get(name)
        if cls is None:
            hint = (f"; '{name}' is a multiclass, use 'defm'" if name in self.multiclasses
                    else "")
            raise TdError(f"unknown {what} '{name}'{hint}", loc)
        return cls

    def resolve_type(self, node: ast.TypeNode) -> TdType:
        """The `TdType` written as ``node``."""
        if node.name in _SIMPLE_TYPES:
            return _SIMPLE_TYPES[node.name]
        if node.name == "bits":
            assert isinstance(node.arg, int)
            if node.arg <= 0:
                raise TdError("a bits type needs a positive width", node.loc)
            return BitsType(node.arg)
        if node.name == "list":
            assert isinstance(node.arg, ast.TypeNode)
            return ListType(self.resolve_type(node.arg))
        self._class_named(node.name, node.loc)
        return RecordType((node.name,))

    def _build(self, record: Record, parents: list[ast.ParentRef], body: list[ast.BodyItem],
               env: Env, scope: Scope) -> None:
        """Parents, then the enclosing lets, then the body, as TableGen does."""
        for ref in parents:
            cls = self._class_named(ref.name, ref.loc)
            self.add_subclass(record, cls, self.bind_args(cls, ref.args, scope, ref.loc), ref.loc)
        for binding in env.lets:
            self.set_field(record, binding.name, binding.value, binding.loc, binding.value_loc)
        self._body(record, body, scope)

    def bind_args(self, owner: Record | MulticlassDef, args: list[ast.Arg], scope: Scope,
                  loc: SourceLoc) -> dict[str, Any]:
        """The values of ``owner``'s template arguments given ``args``, keyed by qualified name;
        missing ones take their defaults."""
        return self.complete_args(owner, self.given_args(owner, args, scope)[1], loc)

    def given_args(self, owner: Record | MulticlassDef, args: list[ast.Arg],
                   scope: Scope) -> tuple[tuple[int | str, ...], dict[str, Any]]:
        """The template arguments written in ``args``: how each is given (its position, or its
        qualified name when named), and their values keyed by qualified name, in order."""
        declared = owner.template_args
        keys: list[int | str] = []
        bound: dict[str, Any] = {}
        named = False
        for index, arg in enumerate(args):
            if arg.name is None:
                if named:
                    raise TdError("positional template arguments must come before named ones",
                                  arg.loc)
                if index >= len(declared):
                    raise TdError(f"too many template arguments for '{owner.name}': it takes "
                                  f"{len(declared)}, got {len(args)}", arg.loc)
                target = declared[index]
                keys.append(index)
            else:
                named = True
                found = [d for d in declared if d.name == arg.name]
                if not found:
                    raise TdError(f"'{owner.name}' has no template argument named '{arg.name}'",
                                  arg.loc)
                target = found[0]
                if target.qualified_name in bound:
                    raise TdError(f"template argument '{arg.name}' is given twice", arg.loc)
                keys.append(target.qualified_name)
            value = self.check_assign(
                self.eval(arg.value, scope), target.type,
                f"template argument '{target.name}' of '{owner.name}'", arg.value.loc)
            bound[target.qualified_name] = self.cast_integer(value, target.type, arg.value.loc)
        return tuple(keys), bound

    def complete_args(self, owner: Record | MulticlassDef, given: dict[str, Any],
                      loc: SourceLoc) -> dict[str, Any]:
        """``given`` (template argument values by qualified name) with the defaults of the
        missing ones."""
        bound = dict(given)
        for target in owner.template_args:
            if target.qualified_name not in bound:
                if target.default is None:
                    raise TdError(f"missing value for template argument '{target.name}' of "
                                  f"'{owner.name}'", loc,
                                  notes=[(target.loc, "declared here")])
                bound[target.qualified_name] = resolve(target.default, MapResolver(bound, self))
        return bound

    def add_subclass(self, record: Record, cls: Record, bound: dict[str, Any],
                     loc: SourceLoc, bind_name: bool = True) -> None:
        """Derive ``record`` from ``cls``: copy its fields with its template arguments bound,
        and ``NAME`` unless not ``bind_name`` (the record of a ``Class<args>`` value keeps
        ``Class:NAME`` unresolved, as in TableGen)."""
        values = dict(bound)
        if bind_name:
            values[f"{cls.name}:NAME"] = (
                Ref(f"{record.name}:NAME", f"{record.name}:NAME", STRING) if record.is_class
                else record.name)
        resolver = MapResolver(values, self)
        for field in cls.fields.values():
            value = resolve(field.value, resolver)
            existing = record.fields.get(field.name)
            if existing is not None and existing.type != field.type:
                raise TdError(f"field '{field.name}' of type '{field.type}' from '{cls.name}' "
                              f"conflicts with its earlier type '{existing.type}'", loc)
            record.fields[field.name] = (field if value is field.value and existing is None
                                         else Field(field.name, field.type, value, field.loc,
                                                    field.keyword_field))
        for assertion in cls.assertions:
            record.assertions.append(Assertion(resolve(assertion.condition, resolver),
                                               resolve(assertion.message, resolver),
                                               assertion.loc))
        for name in (*cls.superclasses, cls.name):
            if record.isa(name):
                raise TdError(f"'{record.name}' already derives from '{name}'", loc)
            record.add_superclass(name)
        record.parents.append(cls.name)

    def set_field(self, record: Record, name: str, value: Any, loc: SourceLoc,
                  value_loc: SourceLoc) -> None:
        """``let name = value`` on ``record``."""
        field = self._field_of(record, name, loc)
        if isinstance(value, Ref) and value.key == name:
            raise TdError(f"field '{name}' cannot be set to itself", value_loc)
        value = self.field_value(value, field.type, name, value_loc)
        record.fields[name] = Field(name, field.type, value, loc, field.keyword_field)

    @staticmethod
    def _field_of(record: Record, name: str, loc: SourceLoc) -> Field:
        field = record.fields.get(name)
        if field is None:
            raise TdError(f"cannot set '{name}': '{record.name}' has no such field", loc)
        return field

    def check_assign(self, value: Any, type_: TdType, what: str, loc: SourceLoc) -> Any:
        """``value`` converted to ``type_``, or a `TdError` naming ``what`` is being set."""
        converted = convert(value, type_, self.class_isa)
        if converted is INCOMPATIBLE:
            raise TdError(f"{what} of type '{type_}' cannot be set to {describe(value)}", loc)
        return converted

    def field_value(self, value: Any, type_: TdType, name: str, loc: SourceLoc) -> Any:
        """The value field ``name`` of type ``type_`` holds when set to ``value``: converted;
        an unknown value of another integer type cast to ``type_``, and one stored in a
        ``bits`` field split into its bits, as TableGen does."""
        value = self.check_assign(value, type_, f"field '{name}'", loc)
        if not isinstance(value, Term) or not is_integral(type_) or (
                isinstance(value, Op) and value.spec is BITS):
            return value
        if type_ == BitsType(1) and value.type is BIT:
            return make_op(BITS, (value,), (loc,), loc, None, self)
        value = self.cast_integer(value, type_, loc)
        if isinstance(type_, BitsType):
            return split_bits(value, type_.width, loc, self)
        return value

    def cast_integer(self, value: Any, type_: TdType, loc: SourceLoc) -> Any:
        """An unknown integer ``value`` of another integer type than ``type_`` (a field's or a
        template argument's) cast to it, as TableGen stores it: ``!cast<bit>(n)``."""
        if (isinstance(value, Term) and is_integral(type_) and is_integral(value.type)
                and value.type != type_):
            return make_op(OPERATORS["cast"], (value,), (loc,), loc, type_, self)
        return value

    @staticmethod
    def _reject_bit_range(item: ast.LetItem) -> None:
        if item.has_bit_range:
            raise TdError(f"setting a bit range ('let {item.name}{{...}}') is not supported",
                          item.loc)

    def _body(self, record: Record, items: list[ast.BodyItem], scope: Scope) -> None:
        declared: dict[str, SourceLoc] = {}
        for item in items:
            if isinstance(item, ast.FieldDecl):
                self._declare_field(record, item, scope, declared)
            elif isinstance(item, ast.LetItem):
                self._reject_bit_range(item)
                self._field_of(record, item.name, item.loc)
                self.set_field(record, item.name, self.eval(item.value, scope), item.loc,
                               item.value.loc)
            elif isinstance(item, ast.Defvar):
                self._define_var(scope, item.name, item.loc, self.eval(item.value, scope))
            else:
                record.assertions.append(Assertion(self.eval(item.condition, scope),
                                                   self.eval(item.message, scope), item.loc))

    def _declare_field(self, record: Record, decl: ast.FieldDecl, scope: Scope,
                       declared: dict[str, SourceLoc]) -> None:
        if decl.name == "NAME":
            raise TdError("'NAME' is reserved and cannot be a field name", decl.loc)
        if decl.name in declared:
            raise TdError(f"field '{decl.name}' is already declared in this body", decl.loc,
                          notes=[(declared[decl.name], "previous declaration")])
        type_ = self.resolve_type(decl.type)
        existing = record.fields.get(decl.name)
        if existing is not None and existing.type != type_:
            raise TdError(f"field '{decl.name}' is redeclared with type '{type_}' but has type "
                          f"'{existing.type}'", decl.loc)
        declared[decl.name] = decl.loc
        record.fields[decl.name] = Field(decl.name, type_, Unset, decl.loc, decl.keyword_field)
        if decl.value is not None:
            value = self.eval(decl.value, scope)
            if isinstance(value, Ref) and value.key == decl.name:
                raise TdError(f"field '{decl.name}' cannot be set to itself", decl.value.loc)
            record.fields[decl.name] = Field(
                decl.name, type_, self.field_value(value, type_, decl.name, decl.value.loc),
                decl.loc, decl.keyword_field)

    def _complete(self, record: Record, env: Env) -> None:
        """Apply the ``defm`` extras, resolve the def and add it to the record keeper."""
        for extras in env.extras:
            for cls, bound, loc in extras.classes:
                self.add_subclass(record, cls, bound, loc)
            for binding in extras.lets:
                self.set_field(record, binding.name, binding.value, binding.loc,
                               binding.value_loc)
        self.finalize(record)
        self.records.defs[record.name] = record
        for element, collected, loc in self.defsets:
            if convert(record, element, self.class_isa) is INCOMPATIBLE:
                raise TdError(f"def '{record.name}' is not a '{element}' and cannot join the "
                              f"enclosing defset", record.loc, notes=[(loc, "defset here")])
            collected.append(record)

    def finalize(self, record: Record, concrete: bool = True) -> None:
        """Resolve the fields of a complete def against their final values, check their types,
        then check the def's assertions. A ``concrete`` record (any def but the anonymous
        record of a ``Class<args>`` value) may keep unresolved values only in ``field``
        fields; TableGen leaves those of ``Class<args>`` as they are (``[1][5]``, an index out
        of range, prints as written)."""
        resolver = RecordResolver(record, self)
        finalizing, self.finalizing = self.finalizing, record
        try:
            fields: dict[str, Field] = {}
            for name, field in record.fields.items():
                value = resolver.lookup(name)
                if isinstance(value, Term) and concrete and not field.keyword_field:
                    raise TdError(f"field '{name}' of '{record.name}' could not be fully "
                                  f"resolved: {value}", field.loc)
                converted = convert(value, field.type, self.class_isa)
                if converted is INCOMPATIBLE:
                    raise TdError(f"field '{name}' of type '{field.type}' cannot be set to "
                                  f"{describe(value)}", field.loc)
                fields[name] = field if converted is field.value else Field(
                    name, field.type, converted, field.loc, field.keyword_field)
            record.fields = fields
            for assertion in record.assertions:
                self.check_assert(resolve(assertion.condition, resolver),
                                  resolve(assertion.message, resolver), assertion.loc)
            record.assertions = []
        except TdError as error:
            if error.loc != record.loc:
                error.notes.append((record.loc, f"in record '{record.name}'"))
            raise
        finally:
            self.finalizing = finalizing

    @staticmethod
    def check_assert(condition: Any, message: Any, loc: SourceLoc) -> None:
        """Raise `TdError` ``assertion failed: message`` unless ``condition`` is true."""
        if isinstance(condition, Term) or not isinstance(condition, int):
            raise TdError(f"assertion condition could not be resolved: "
                          f"{format_value(condition)}", loc)
        if not condition:
            text = message if isinstance(message, str) else format_value(message)
            raise TdError(f"assertion failed: {text}", loc)

    # --- Expressions -------------------------------------------------------------------------

    def eval(self, expr: ast.Expr, scope: Scope, name_mode: bool = False) -> Any:
        """The value (or `Term`) of ``expr``. In ``name_mode`` (def names and the right side of
        ``#``) an undefined identifier stands for its own text, and so does the name of a
        top-level ``defvar``, as in TableGen (``def x # g`` is ``xg``)."""
        return _EXPRESSIONS[type(expr)](self, expr, scope, name_mode)

    def _id(self, expr: ast.Id, scope: Scope, name_mode: bool) -> Any:
        value = scope.lookup(expr.name, globals_visible=not name_mode)
        if value is not _MISSING:
            return value
        if name_mode:
            return expr.name
        record = self.records.defs.get(expr.name)
        if record is not None:
            return record
        if expr.name in self.records.classes:
            raise TdError(f"'{expr.name}' is a class; write '{expr.name}<...>' for an anonymous "
                          f"record of it", expr.loc)
        raise TdError(f"unknown def or variable '{expr.name}'", expr.loc)

    def _list(self, expr: ast.ListLit, scope: Scope, name_mode: bool) -> Any:
        element = self.resolve_type(expr.element_type) if expr.element_type else None
        items = [self.eval(item, scope) for item in expr.elements]
        return make_list(items, tuple(item.loc for item in expr.elements), expr.loc, element,
                         self)

    def _bits(self, expr: ast.BitsLit, scope: Scope, name_mode: bool) -> Any:
        return make_op(BITS, tuple(self.eval(bit, scope) for bit in expr.elements),
                       tuple(bit.loc for bit in expr.elements), expr.loc, None, self)

    def _dag(self, expr: ast.DagLit, scope: Scope, name_mode: bool) -> Any:
        values = [Unset if value is None else self.eval(value, scope) for value, _ in expr.args]
        locs = [expr.loc if value is None else value.loc for value, _ in expr.args]
        names = tuple(name for _, name in expr.args)
        return make_op(DAG_LITERAL, (self.eval(expr.op, scope), *values),
                       (expr.op.loc, *locs), expr.loc, (expr.op_name, names), self)

    def _anon(self, expr: ast.AnonInst, scope: Scope, name_mode: bool) -> Any:
        cls = self._class_named(expr.class_name, expr.loc)
        keys, given = self.given_args(cls, expr.args, scope)
        self.complete_args(cls, given, expr.loc)
        args = tuple(given.values())
        return make_op(ANON, args, tuple(arg.value.loc for arg in expr.args), expr.loc,
                       (cls, keys), self)

    def _field_access(self, expr: ast.FieldAccess, scope: Scope, name_mode: bool) -> Any:
        return make_op(FIELD, (self.eval(expr.base, scope),), (expr.base.loc,), expr.loc,
                       expr.field, self)

    def _index(self, expr: ast.Index, scope: Scope, name_mode: bool) -> Any:
        return make_op(INDEX, (self.eval(expr.base, scope), self.eval(expr.index, scope)),
                       (expr.base.loc, expr.index.loc), expr.loc, None, self)

    def _paste(self, expr: ast.Paste, scope: Scope, name_mode: bool) -> Any:
        """``a # b``: ``!listconcat(a, b)`` when ``a`` is a list, else ``!strconcat`` of both
        sides, each cast to a string unless it is one (TableGen's reading of a paste)."""
        left = self.eval(expr.left, scope, name_mode)
        right = self.eval(expr.right, scope, name_mode=True)
        locs = (expr.left.loc, expr.right.loc)
        if isinstance(type_of(left), ListType):
            return make_op(OPERATORS["listconcat"], (left, right), locs, expr.loc, None, self)
        left, right = (operand if type_of(operand) is STRING else
                       make_op(OPERATORS["cast"], (operand,), (loc,), loc, STRING, self)
                       for operand, loc in zip((left, right), locs))
        return make_op(OPERATORS["strconcat"], (left, right), locs, expr.loc, None, self)

    def _bang(self, expr: ast.Bang, scope: Scope, name_mode: bool) -> Any:
        param = self.resolve_type(expr.type_arg) if expr.type_arg is not None else None
        binding = _BINDING_OPERATORS.get(expr.op)
        if binding is not None:
            args, locs = self._binding_operands(expr, scope, *binding)
        elif expr.op == "cond":
            args, locs = [], []
            for clause in expr.args:
                assert isinstance(clause, ast.CondArg)
                args += [self.eval(clause.condition, scope), self.eval(clause.value, scope)]
                locs += [clause.condition.loc, clause.value.loc]
        else:
            args = [self.eval(arg, scope) for arg in expr.args]
            locs = [arg.loc for arg in expr.args]
            if expr.op == "range" and len(args) == 1:
                # !range(n) is !range(0, n, 1), !range(list) is !range(0, !size(list), 1).
                if isinstance(type_of(args[0]), ListType):
                    args[0] = make_op(OPERATORS["size"], (args[0],), (locs[0],), expr.loc, None,
                                      self)
                args.insert(0, 0)
                locs.insert(0, expr.loc)
            if (expr.op, len(args)) in _DEFAULT_OPERANDS:
                # TableGen fills in a left-out operand, and prints it.
                args.append(_DEFAULT_OPERANDS[expr.op, len(args)])
                locs.append(expr.loc)
            if expr.op in _NESTED_OPERATORS:
                # TableGen reads !add(a, b, c) as !add(a, !add(b, c)), folding as it goes.
                while len(args) > 2:
                    args[-2:] = [make_op(OPERATORS[expr.op], tuple(args[-2:]), tuple(locs[-2:]),
                                         expr.loc, param, self)]
                    locs[-2:] = [locs[-2]]
        return make_op(OPERATORS[expr.op], tuple(args), tuple(locs), expr.loc, param, self)

    def _binding_operands(self, expr: ast.Bang, scope: Scope, count: int,
                          variables: tuple[int, ...], sequence: int,
                          body: int) -> tuple[list[Any], list[SourceLoc]]:
        """Operands of ``!foreach``/``!foldl``/``!filter``: the variable operands (positions
        ``variables``) become fresh `binder`s visible in the ``body`` operand."""
        if len(expr.args) != count:
            raise TdError(f"!{expr.op} expects {count} operands, got {len(expr.args)}", expr.loc)
        args: list[Any] = [None] * count
        for index, arg in enumerate(expr.args):
            if index in variables:
                if not isinstance(arg, ast.Id):
                    raise TdError(f"operand {index + 1} of !{expr.op} must be a variable name",
                                  arg.loc)
            elif index != body:
                args[index] = self.eval(arg, scope)
        element = type_of(args[sequence])
        element = element.element if isinstance(element, ListType) else ANY
        names: dict[str, Any] = {}
        for index in variables:
            name = expr.args[index].name  # type: ignore[union-attr]
            # !foldl's first variable is the accumulator, typed like the start value.
            kind = type_of(args[0]) if expr.op == "foldl" and index == 2 else element
            names[name] = args[index] = binder(name, kind)
        args[body] = self.eval(expr.args[body], Scope(scope, names))
        return args, [arg.loc for arg in expr.args]

    def _literal(self, expr: Any, scope: Scope, name_mode: bool) -> Any:
        if isinstance(expr, ast.IntLit):
            return expr.value
        if isinstance(expr, ast.StrLit):
            return Code(expr.value) if expr.is_code else expr.value
        return Unset


_DEFAULT_OPERANDS = {("find", 2): 0, ("substr", 2): (1 << 63) - 1, ("range", 2): 1}
"""The value of a left-out last operand, by operator and number of operands given."""

_NESTED_OPERATORS = frozenset({"add", "mul", "and", "or", "xor", "strconcat", "listconcat"})
"""Variadic operators that TableGen nests into binary ones, from the right."""

# (operand count, variable positions, sequence position, body position)
_BINDING_OPERATORS = {"foreach": (3, (0,), 1, 2), "filter": (3, (0,), 1, 2),
                      "foldl": (5, (2, 3), 1, 4)}

_STATEMENTS: dict[type, Callable[[Evaluator, Any, Env], None]] = {
    ast.Include: Evaluator._include, ast.ClassDef: Evaluator._class, ast.DefStmt: Evaluator._def,
    ast.Defm: Evaluator._defm, ast.Defvar: Evaluator._defvar, ast.LetStmt: Evaluator._let,
    ast.Foreach: Evaluator._foreach, ast.Multiclass: Evaluator._multiclass,
    ast.AssertStmt: Evaluator._assert, ast.Defset: Evaluator._defset, ast.IfStmt: Evaluator._if,
}

_EXPRESSIONS: dict[type, Callable[[Evaluator, Any, Scope, bool], Any]] = {
    ast.IntLit: Evaluator._literal, ast.StrLit: Evaluator._literal,
    ast.UnsetLit: Evaluator._literal, ast.Id: Evaluator._id, ast.ListLit: Evaluator._list,
    ast.BitsLit: Evaluator._bits, ast.DagLit: Evaluator._dag, ast.AnonInst: Evaluator._anon,
    ast.FieldAccess: Evaluator._field_access, ast.Index: Evaluator._index,
    ast.Paste: Evaluator._paste, ast.Bang: Evaluator._bang,
}


def _run(evaluator: Evaluator, action: Callable[[], None]) -> RecordKeeper:
    try:
        action()
    except TdError as error:
        if error.source is None and error.loc is not None:
            error.source = evaluator.sources.get(error.loc.file or "")
        raise
    except RecursionError:
        loc = evaluator.statement_loc
        raise TdError("definitions are nested too deeply (or refer to each other in a loop)",
                      loc, evaluator.sources.get(loc.file or "") if loc else None) from None
    return evaluator.records


def load_records(path: str | os.PathLike[str],
                 include_dirs: list[str] | tuple[str, ...] = ()) -> RecordKeeper:
    """Load the `.td` file at ``path`` (and its includes) into a `RecordKeeper`.

    Includes are searched next to the including file, then in ``include_dirs`` in order.
    Raises `TdError` for any error in the input.
    """
    evaluator = Evaluator(list(include_dirs))
    return _run(evaluator, lambda: evaluator.run_file(os.fspath(path),
                                                      Env(evaluator.global_scope)))


def load_records_from_string(text: str, filename: str = "<string>",
                             include_dirs: list[str] | tuple[str, ...] = ()) -> RecordKeeper:
    """Like `load_records`, for ``text`` given directly (``filename`` names it in errors)."""
    evaluator = Evaluator(list(include_dirs))
    return _run(evaluator, lambda: evaluator.run_text(text, filename,
                                                      Env(evaluator.global_scope)))
