"""Render the model into files: a module per dialect, the pass module, and Markdown docs."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import jinja2

from .backends.attrs import attr_or_type_class
from .backends.language import interpreter_module, language_module
from .backends.lowering import lowering_module
from .backends.ops import ConstraintTable, docstring_text, op_class
from .backends.passes import pass_class
from .backends.rewrites import pattern_module
from .diagnostics import Diagnostic
from .model import Model
from .predicates import UnknownPlaceholder
from .td import Record, TdError

_ENV: jinja2.Environment | None = None


def environment() -> jinja2.Environment:
    """The jinja2 environment of the generator's templates (created once)."""
    global _ENV
    if _ENV is None:
        _ENV = jinja2.Environment(
            loader=jinja2.PackageLoader("tilecraft.codegen", "templates"),
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
            undefined=jinja2.StrictUndefined, autoescape=False,
        )
        _ENV.filters["pyrepr"] = python_literal
        _ENV.filters["docstring"] = docstring_text
    return _ENV


def python_literal(value: object) -> str:
    """``value`` as a Python literal; a `.td` code block is written as the plain string it is."""
    return repr(str(value)) if isinstance(value, str) else repr(value)


def _check_python(path: Path, source: str) -> None:
    try:
        compile(source, str(path), "exec")
    except SyntaxError as err:
        raise Diagnostic(f"internal error: the generator produced invalid Python in "
                         f"{path.name} line {err.lineno}: {err.msg}") from None


def _relative(file: str | None, root: Path) -> str:
    path = Path(file or "?")
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.name


def render_all(model: Model, root: Path, gen_dir: Path, docs_dir: Path) -> dict[Path, str]:
    """Path -> content of every generated file."""
    env = environment()
    out: dict[Path, str] = {}
    for name, dialect in model.dialects.items():
        table = ConstraintTable()
        ops = [_located(op.record, lambda op=op: op_class(op, table)) for op in dialect.ops]
        attrs = [_located(m.record, lambda m=m: attr_or_type_class(m))
                 for m in [*dialect.attrs, *dialect.types]]
        origin = _relative(dialect.record.loc.file, root)
        constraints = "\n".join(table.lines()).rstrip()
        source = env.get_template("dialect.py.j2").render(
            dialect=dialect, sources=origin, op_classes=ops, attr_and_type_classes=attrs,
            constraints=constraints,
            imports=_foreign_imports(model, name, "\n\n".join([constraints, *ops, *attrs])),
        )
        path = gen_dir / f"{name}.py"
        _check_python(path, source)
        out[path] = source
        out[docs_dir / f"{name}.md"] = _squeeze(
            env.get_template("dialect.md.j2").render(dialect=dialect, sources=origin))
    classes = ["\n".join(pass_class(p)) for p in model.passes]
    source = env.get_template("passes.py.j2").render(
        classes=classes, passes=model.passes)
    _check_python(gen_dir / "passes.py", source)
    out[gen_dir / "passes.py"] = source
    out[docs_dir / "passes.md"] = _squeeze(
        env.get_template("passes.md.j2").render(passes=model.passes))
    out[gen_dir / "__init__.py"] = env.get_template("init.py.j2").render(
        dialects=list(model.dialects))
    out.update(_render_patterns(model, gen_dir / "patterns"))
    for path, source in ((gen_dir / "language.py", language_module(model, root)),
                         (gen_dir / "interpreter.py", interpreter_module(model)),
                         (gen_dir / "lowering.py", lowering_module(model, root))):
        _check_python(path, source)
        out[path] = source
    return out


def _located(record: Record, render: Callable[[], list[str]]) -> str:
    """The lines `render` gives for `record`, joined; an unknown placeholder in one of its
    expressions is a `TdError` at the record."""
    try:
        return "\n".join(render())
    except UnknownPlaceholder as err:
        raise TdError(f"'{record.name}' uses the placeholder '${err.name}', which is not "
                      "available where the expression is used", record.loc) from None


def _foreign_imports(model: Model, dialect: str, code: str) -> list[tuple[str, list[str]]]:
    """(module, class names) of the attribute and type classes of other dialects that the
    generated `code` of `dialect` names (in constraints written against another dialect's
    types, such as `tt.ptr` tensors in ttg's operands)."""
    own = {m.class_name for m in [*model.dialects[dialect].attrs, *model.dialects[dialect].types]}
    used = {node.id for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.Name) and node.id not in own}
    imports = []
    for name, other in model.dialects.items():
        names = sorted(used & {m.class_name for m in [*other.attrs, *other.types]})
        if name != dialect and names:
            imports.append((name, names))
    return imports


def _render_patterns(model: Model, folder: Path) -> dict[Path, str]:
    """`generated/patterns/<file>.py` for each main file with `Pat` defs."""
    out: dict[Path, str] = {}
    ops = model.ops_by_def()
    template = environment().get_template("patterns.py.j2")
    for stem, records in model.patterns.items():
        classes, dialects = pattern_module(records, ops, model.predicates)
        path = folder / f"{stem}.py"
        source = template.render(stem=stem, classes=classes, dialects=sorted(dialects),
                                 names=[r.name for r in records])
        _check_python(path, source)
        out[path] = source
    out[folder / "__init__.py"] = (
        '"""Rewrite patterns generated from the `Pat` defs of each .td file in defs/."""\n')
    return out


def _squeeze(text: str) -> str:
    """Collapse runs of blank lines in Markdown output."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.strip() == "" and lines and lines[-1] == "":
            continue
        lines.append(line.rstrip())
    return "\n".join(lines).strip() + "\n"


def describe(model: Model) -> str:
    """A short listing of what defs/ declares, for `tools/gen --list`."""
    lines = []
    for name, dialect in model.dialects.items():
        lines.append(f"dialect {name}: {dialect.summary}".rstrip(": "))
        for op in dialect.ops:
            lines.append(f"  op   {op.full_name:32} {op.summary}".rstrip())
        for attr in dialect.attrs:
            lines.append(f"  attr #{name}.{attr.mnemonic:31} {attr.summary}".rstrip())
        for typ in dialect.types:
            lines.append(f"  type !{name}.{typ.mnemonic:31} {typ.summary}".rstrip())
    if model.passes:
        lines.append("passes:")
        lines += [f"  -{p.argument:36} {p.summary}".rstrip() for p in model.passes]
    return "\n".join(lines)
