"""Python expressions embedded in `.td`: placeholder substitution and checking.

Constraints, attribute conversions and parameter printers are Python expressions with
placeholders: `$_self` (the value checked), `$_op` (the operation), `$_value`, `$_printer`,
`$_parser`, and `$name` for an op's accessor. The generator substitutes them and checks, before
writing anything, that each expression compiles and names only things the generated module has,
so a mistake is reported at its `.td` line instead of at run time.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import io
import re
import tokenize

from .td import Record, TdError

_PLACEHOLDER = re.compile(r"\$(_?[A-Za-z][A-Za-z0-9_]*)")


class UnknownPlaceholder(KeyError):
    """A `$_name` placeholder that the place where the expression is used does not provide."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def substitute(expr: str, mapping: dict[str, str], op_var: str | None = None) -> str:
    """Replace `$_self`-style placeholders by `mapping[name]`; other `$name`s by `op_var.name`;
    an `UnknownPlaceholder` for any other."""

    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in mapping:
            return mapping[name]
        if name.startswith("_") or op_var is None:
            raise UnknownPlaceholder(name)
        from .model import accessor_name

        return f"{op_var}.{accessor_name(name)}"

    return _PLACEHOLDER.sub(repl, expr)


def _ir_exports() -> frozenset[str] | None:
    """The names a generated module's star imports bring in, or None when the IR is unavailable.

    This is the one place codegen looks at tilecraft.ir: it imports the modules the generated
    code star-imports, only to learn which names predicates may use.
    """
    names: set[str] = set()
    for module_name in ("tilecraft.ir", "tilecraft.ir.ods", "tilecraft.ir.traits",
                        "tilecraft.ir.patterns"):
        try:
            module = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - a broken IR must not stop generation
            return None
        names.update(getattr(module, "__all__", ()))
    return frozenset(names)


def comment_in(expr: str) -> bool:
    """Whether the Python expression ``expr`` holds a ``#`` comment, which would swallow the
    generated code after it on its line."""
    try:
        return any(token.type == tokenize.COMMENT
                   for token in tokenize.generate_tokens(io.StringIO(expr).readline))
    except (tokenize.TokenError, SyntaxError):  # unbalanced: `ast.parse` says what is wrong
        return False


class PredicateChecker:
    """Checks embedded expressions; `extra_names` are names the generated module defines."""

    def __init__(self) -> None:
        self.known = _ir_exports()
        self.extra_names: set[str] = set()

    def expression(self, expr: str, rec: Record, field_name: str, statement: bool = False,
                   origin: Record | None = None, names: bool = True) -> str:
        """Return `expr` after checking that it compiles and (with `names`) uses known names.

        `rec.field_name` is where the expression is used; `origin`, when given, is the
        constraint that defines it: errors point there, with a note at the use. Without
        `names` (type annotations, defaults and parameter code, which name what the generated
        module imports), only the syntax is checked.
        """
        # Parenthesized, as what replaces a placeholder is an expression: `$_selfé` must not
        # pass as the name `_ph_selfé`.
        probe = _PLACEHOLDER.sub(lambda m: "(_ph_" + m.group(1).lstrip("_") + ")", expr)
        use_loc = rec.field_loc(field_name) if field_name in rec.fields else rec.loc
        if use_loc.file != rec.loc.file:  # set in a class of another file: point at the def
            use_loc = rec.loc
        loc, notes = use_loc, []
        if origin is not None and origin is not rec and not origin.is_anonymous:
            loc, notes = origin.loc, [(use_loc, f"used by '{rec.name}' here")]
        mode = "exec" if statement else "eval"
        try:
            # ASCII whitespace only: str.strip would also take U+2028 and the like, which the
            # generated line keeps and Python rejects.
            tree = ast.parse(probe.strip(" \t\r\n\f\v"), mode=mode)
            compile(tree, "<td>", mode)  # what only the compiler checks: repeated keywords, ...
        except SyntaxError as err:
            raise TdError(f"cannot evaluate the expression '{expr}': {err.msg}", loc,
                          notes=notes) from None
        if comment_in(probe):
            raise TdError(f"the expression '{expr}' holds a '#' comment", loc, notes=notes)
        if names and self.known is not None:
            # the names the expression binds itself (comprehension variables)
            bound = {node.id for node in ast.walk(tree)
                     if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    name = node.id
                    if (name.startswith("_") or name in self.known or name in self.extra_names
                            or name in bound or hasattr(builtins, name)):
                        continue
                    raise TdError(f"the expression '{expr}' uses the unknown name '{name}'",
                                  loc, notes=notes)
        return expr
