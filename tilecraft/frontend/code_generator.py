"""The frontend: a Python AST visitor that turns a @jit function into `tt` IR.

The visitor evaluates compile-time values (constexpr arguments and globals, literals, dtypes,
tuples) in Python and emits IR for tensors through the IR builder; `tl.*` calls run the
language's typing rules (`tilecraft.language.semantic`) against that builder. Control flow on
tensors becomes `scf.if` / `scf.for` / `scf.while` with the values they define found
automatically; control flow on compile-time values is folded. A `return` inside an `if` at the
top level of a function becomes `cf` branches between blocks; calls to other @jit functions
become private `tt.func`s (one per specialization) and `tt.call`s.

Every op carries the user's file:line:col; every user mistake is one `CompilationError` at the
expression that caused it.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import os
import re
import textwrap
import types
import warnings

from tilecraft.codegen.diagnostics import SourceLoc
from tilecraft.generated import builtin as builtin_d, cf, scf, tt
from tilecraft.ir import (
    ArrayAttr, Block, BoolAttr, DictionaryAttr, FileLineColLoc, FunctionType, IntegerAttr,
    StringAttr, TypeAttr, VerificationError, i32,
)
from tilecraft.language import core as tl
from tilecraft.language import functions as tlf
from tilecraft.language import semantic
from tilecraft.language.core import _unwrap, constexpr, tensor

from .errors import CompilationError, UnsupportedLanguageConstruct, debug_enabled
from .ir_builder import IRBuilder

# -- the source of a function --------------------------------------------------------------------


class FunctionSource:
    """A function's AST and where it sits in its file."""

    __slots__ = ("tree", "filename", "line_offset", "col_offset", "text")

    def __init__(self, tree: ast.FunctionDef, filename: str, line_offset: int, col_offset: int,
                 text: str) -> None:
        self.tree = tree
        self.filename = filename
        self.line_offset = line_offset  # file line of the AST's line 1, minus one
        self.col_offset = col_offset  # indentation removed before parsing
        self.text = text  # the file's text up to the function (blank lines) and the function itself

    def source_loc(self, node) -> SourceLoc:
        return SourceLoc(self.filename, self.line_offset + node.lineno,
                         self.col_offset + node.col_offset + 1)


def get_function_source(fn) -> FunctionSource:
    try:
        lines, first_line = source_lines(fn)
    except (OSError, TypeError) as error:
        raise CompilationError(f"cannot read the source of {fn.__qualname__}: {error}") from None
    text = "".join(lines)
    first = lines[0]
    indent = len(first) - len(first.lstrip())
    dedented = textwrap.dedent(text)
    module = ast.parse(dedented)
    tree = next((n for n in module.body if isinstance(n, (ast.FunctionDef,
                                                           ast.AsyncFunctionDef))), None)
    if tree is None:
        raise CompilationError(f"cannot find the definition of {fn.__qualname__}")
    filename = fn.__code__.co_filename
    padded = "\n" * (first_line - 1) + text
    return FunctionSource(tree, filename, first_line - 1, indent, padded)


def source_lines(fn) -> tuple[list[str], int]:
    """``inspect.getsourcelines(fn)`` for a function: its lines (decorators included) and the
    number of the first. Where the block ends is found from the function's code and syntax tree
    instead of by inspect's tokenizer, whose regular expressions cost a process's first compile
    a few milliseconds; the block is inspect's (the last line of the last statement, then the
    comment lines after it indented as the body), and inspect's own answer is taken wherever the
    tree cannot give it."""
    function = inspect.unwrap(fn)
    code = getattr(function, "__code__", None)
    if code is None:
        return inspect.getsourcelines(fn)
    lines, start = inspect.findsource(function)
    end = _block_end(lines, start, code)
    return (lines[start:end], start + 1) if end else inspect.getsourcelines(fn)


def _block_end(lines: list[str], start: int, code: types.CodeType) -> int | None:
    """The index after the last line of the function whose decorators or ``def`` begin at
    ``lines[start]`` and whose code is ``code`` (see `source_lines`), or None."""
    def_indent = len(lines[start]) - len(lines[start].lstrip())
    last_code_line = max((end for nested in _nested_codes(code)
                          for _, end, _, _ in nested.co_positions() if end is not None),
                         default=start + 1)
    # the first line after the code that is neither blank, nor a comment, nor indented more
    # than the def: past the block
    stop = len(lines)
    for index in range(max(last_code_line, start + 1), len(lines)):
        text = lines[index].lstrip()
        if text and not text.startswith("#") and len(lines[index]) - len(text) <= def_indent:
            stop = index
            break
    try:
        tree = ast.parse(textwrap.dedent("".join(lines[start:stop])))
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef,
                                                            ast.AsyncFunctionDef)):
        return None
    node = tree.body[0]
    end = start + node.end_lineno
    if node.body[0].lineno == node.lineno:  # the body on the def's line: no indented block
        return end
    body = lines[start + node.body[0].lineno - 1]
    body_indent = len(body) - len(body.lstrip())
    for index in range(end, stop):
        text = lines[index].lstrip()
        if text.startswith("#") and len(lines[index]) - len(text) >= body_indent:
            end = index + 1
    return end


def _nested_codes(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and the code objects of the functions, lambdas and comprehensions in it."""
    found = [code]
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found += _nested_codes(constant)
    return found


# -- values --------------------------------------------------------------------------------------


def _is_tensor(value) -> bool:
    return isinstance(value, tensor)


def flatten(value) -> tuple[list[tensor], object]:
    """The tensors inside ``value`` (a tensor, a tuple of them, or a compile-time value) and a
    spec to rebuild it: "T" for a tensor, ("tuple", [specs]), ("list", [specs]) or
    ("const", value)."""
    if isinstance(value, tensor):
        return [value], "T"
    if isinstance(value, (tuple, list)):
        tensors, specs = [], []
        for item in value:
            item_tensors, spec = flatten(item)
            tensors += item_tensors
            specs.append(spec)
        return tensors, ("tuple" if isinstance(value, tuple) else "list", specs)
    return [], ("const", value)


def unflatten(spec, tensors) -> object:
    iterator = iter(tensors)

    def build(spec):
        if spec == "T":
            return next(iterator)
        kind, payload = spec
        if kind == "const":
            return payload
        items = [build(s) for s in payload]
        return tuple(items) if kind == "tuple" else items

    return build(spec)


def _spec_equal(a, b) -> bool:
    if a == "T" or b == "T":
        return a == b
    if a[0] != b[0]:
        return False
    if a[0] == "const":
        try:
            return bool(a[1] is b[1] or a[1] == b[1])
        except Exception:  # noqa: BLE001 - values without a usable ==
            return False
    return len(a[1]) == len(b[1]) and all(_spec_equal(x, y) for x, y in zip(a[1], b[1]))


def _has_tensor(value) -> bool:
    return bool(flatten(value)[0])


def _describe(value) -> str:
    """A value's type as errors show it."""
    if isinstance(value, tensor):
        return str(value.type)
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_describe(v) for v in value) + ")"
    return f"constexpr[{value!r}]"


def _sanitize(value):
    """What an assignment stores: Python numbers become tensors (as in Triton; annotate the
    target with ``tl.constexpr`` to keep a compile-time value)."""
    if isinstance(value, tensor):
        return value
    if isinstance(value, tuple):
        return tuple(_sanitize(v) for v in value)
    if isinstance(value, constexpr):
        value = value.value
    if isinstance(value, bool) or semantic._is_number(value):
        return semantic.to_tensor(value)
    return value


def _mangle_value(value) -> str:
    text = repr(value) if not isinstance(value, tl.dtype) else value.mangle()
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def _mangle_spec(spec, tensors_iter) -> str:
    if spec == "T":
        return next(tensors_iter).type.mangle()
    kind, payload = spec
    if kind == "const":
        return "c" + _mangle_value(payload)
    return "T" + "_".join(_mangle_spec(s, tensors_iter) for s in payload) + "T"


# -- Python builtins kernels may use -------------------------------------------------------------


@tl.builtin
def _tl_min(*args):
    if len(args) == 1:
        args = tuple(args[0])
    if not any(_is_tensor(a) for a in args):
        return builtins.min(args)
    result = args[0]
    for arg in args[1:]:
        result = tlf.minimum(result, arg)
    return result


@tl.builtin
def _tl_max(*args):
    if len(args) == 1:
        args = tuple(args[0])
    if not any(_is_tensor(a) for a in args):
        return builtins.max(args)
    result = args[0]
    for arg in args[1:]:
        result = tlf.maximum(result, arg)
    return result


@tl.builtin
def _tl_print(*args, sep=" ", end="\n", **_):
    prefix_parts, values = [], []
    for arg in args:
        if _is_tensor(arg):
            values.append(arg)
        elif values:
            raise ValueError("print: compile-time values must come before tensors")
        else:
            prefix_parts.append(str(_unwrap(arg)))
    tlf.device_print(sep.join(prefix_parts), *values)


@tl.builtin
def _tl_breakpoint(*args, **kwargs):
    """``breakpoint()`` stops interpreted kernels; compiled code ignores it."""


_PY_BUILTINS = {
    "breakpoint": _tl_breakpoint, "range": builtins.range, "min": _tl_min, "max": _tl_max, "print": _tl_print,
    "len": builtins.len, "int": builtins.int, "float": builtins.float, "bool": builtins.bool,
    "str": builtins.str, "repr": builtins.repr, "isinstance": builtins.isinstance,
    "getattr": builtins.getattr, "hasattr": builtins.hasattr, "zip": builtins.zip,
    "enumerate": builtins.enumerate, "tuple": builtins.tuple, "list": builtins.list,
    "abs": builtins.abs, "type": builtins.type, "slice": builtins.slice,
    "reversed": builtins.reversed, "all": builtins.all, "any": builtins.any,
    "sum": builtins.sum, "divmod": builtins.divmod, "round": builtins.round,
    "ValueError": ValueError, "TypeError": TypeError, "AssertionError": AssertionError,
    "NotImplementedError": NotImplementedError,
}
_COMPILE_TIME_CALLABLES = {builtins.len, builtins.int, builtins.float, builtins.bool,
                           builtins.str, builtins.repr, builtins.isinstance, builtins.getattr,
                           builtins.hasattr, builtins.zip, builtins.enumerate, builtins.tuple,
                           builtins.list, builtins.type, builtins.slice, builtins.reversed,
                           builtins.all, builtins.any, builtins.divmod, builtins.round}
# those of them that only look at their arguments' types or containers, so that tensors may be
# passed (``isinstance(x, tl.tensor)``, ``zip(tuple_of_tensors, ...)``), as in Triton
_INTROSPECTING_CALLABLES = {builtins.isinstance, builtins.getattr, builtins.hasattr,
                            builtins.type, builtins.len, builtins.zip, builtins.enumerate,
                            builtins.tuple, builtins.list, builtins.reversed}

_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_CMPOPS = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_UNSUPPORTED = {
    ast.Break: "`break` is not supported in kernels",
    ast.Continue: "`continue` is not supported in kernels",
    ast.Try: "`try` is not supported in kernels",
    ast.Raise: "`raise` is not supported in kernels; use tl.static_assert or tl.device_assert",
    ast.With: "`with` is not supported in kernels",
    ast.Lambda: "lambda functions are not supported in kernels; define a @jit function",
    ast.Global: "`global` is not supported in kernels",
    ast.Nonlocal: "`nonlocal` is not supported in kernels",
    ast.Delete: "`del` is not supported in kernels",
    ast.ClassDef: "class definitions are not supported in kernels",
    ast.FunctionDef: "nested function definitions are not supported in kernels; define a "
                     "@jit function at module level",
    ast.Import: "imports are not supported inside kernels",
    ast.ImportFrom: "imports are not supported inside kernels",
    ast.ListComp: "list comprehensions are not supported in kernels",
    ast.SetComp: "set comprehensions are not supported in kernels",
    ast.DictComp: "dict comprehensions are not supported in kernels",
    ast.GeneratorExp: "generator expressions are not supported in kernels",
    ast.Yield: "`yield` is not supported in kernels",
    ast.Await: "`await` is not supported in kernels",
    ast.Set: "set literals are not supported in kernels",
}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED[ast.TryStar] = "`try` is not supported in kernels"
if hasattr(ast, "Match"):
    _UNSUPPORTED[ast.Match] = "`match` is not supported in kernels"


def _allow_non_constexpr_globals() -> bool:
    return os.environ.get("TILECRAFT_ALLOW_NON_CONSTEXPR_GLOBALS", "") not in ("", "0")


def _contains_return(nodes) -> bool:
    for node in nodes:
        for child in ast.walk(node):
            if isinstance(child, ast.Return):
                return True
    return False


_MISSING = object()


# -- the generator -------------------------------------------------------------------------------


class CompileContext:
    """What the functions of one module share: the module, the builder, the generated
    functions (by mangled name) and the options."""

    def __init__(self) -> None:
        self.module = builtin_d.ModuleOp.build()
        if not self.module.regions[0].blocks:
            self.module.regions[0].add_block(Block())
        self.builder = IRBuilder()
        self.functions: dict[str, tuple] = {}
        self.in_progress: set[str] = set()

    @property
    def module_block(self) -> Block:
        return self.module.regions[0].blocks[0]


class CodeGenerator(ast.NodeVisitor):
    """Generates one `tt.func` from one Python function."""

    def __init__(self, ctx: CompileContext, jit_fn, *, is_kernel: bool) -> None:
        self.ctx = ctx
        self.builder = ctx.builder
        self.jit_fn = jit_fn
        self.fn = jit_fn.fn
        self.src: FunctionSource = jit_fn.source()
        self.is_kernel = is_kernel
        self.lscope: dict = {}
        self.local_defs: dict = {}
        self.assign_nodes: dict = {}  # name -> the AST node that last assigned it
        self.loop_depth = 0
        self.scf_depth = 0
        self.terminated = False
        self.ret_spec = _MISSING
        self.ret_types: list = []
        self.func_op = None
        closure = self.fn.__closure__ or ()
        self.closure = {}
        for name, cell in zip(self.fn.__code__.co_freevars, closure):
            try:
                self.closure[name] = cell.cell_contents
            except ValueError:
                pass
        self.globals = self.fn.__globals__

    # -- locations and errors
    def loc_of(self, node) -> FileLineColLoc:
        position = self.src.source_loc(node)
        return FileLineColLoc(position.file, position.line, position.col)

    def error(self, node, message: str, cls=CompilationError) -> CompilationError:
        return cls(message, self.src.source_loc(node) if node is not None else None,
                   self.src.text)

    def visit(self, node):
        if node is None:
            return None
        saved = self.builder.loc
        if hasattr(node, "lineno"):
            self.builder.loc = self.loc_of(node)
        try:
            return super().visit(node)
        except CompilationError:
            raise
        except RecursionError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure becomes one located error
            if debug_enabled():
                raise
            raise self.error(node, _message_of(exc)) from exc
        finally:
            self.builder.loc = saved

    def generic_visit(self, node):
        message = _UNSUPPORTED.get(type(node),
                                   f"unsupported Python syntax in kernels: {type(node).__name__}")
        raise self.error(node, message, UnsupportedLanguageConstruct)

    # -- names
    def set_value(self, name: str, value) -> None:
        self.lscope[name] = value
        self.local_defs[name] = value

    def lookup(self, name: str, node):
        if name in self.lscope:
            return self.lscope[name]
        for table in (self.closure, self.globals):
            if name in table:
                return self._check_global(name, table[name], node)
        if name in _PY_BUILTINS:
            return _PY_BUILTINS[name]
        if name in ("None", "True", "False"):
            return {"None": None, "True": True, "False": False}[name]
        raise self.error(node, f"name '{name}' is not defined")

    def _check_global(self, name: str, value, node):
        if isinstance(value, constexpr):
            return value.value
        if (value is None or isinstance(value, (types.ModuleType, type, tl.dtype))
                or callable(value) or getattr(value, "__tilecraft_jit__", False)):
            return value
        if _allow_non_constexpr_globals():
            return value
        raise self.error(
            node, f"cannot access global variable '{name}' from within a @jit function: kernels "
            "can only read globals that are tl.constexpr (`{name} = tl.constexpr(...)`), "
            "modules, functions and dtypes (or set TILECRAFT_ALLOW_NON_CONSTEXPR_GLOBALS=1)"
            .replace("{name}", name))

    # -- functions
    def generate(self, name: str, arg_specs, arg_types, arg_attrs, constexprs: dict,
                 visibility: str, noinline: bool):
        """Builds the `tt.func` @name. ``arg_specs`` maps each parameter to either ("const",
        value) or a flatten spec of tensors whose types are the next ``arg_types``."""
        tree = self.src.tree
        if isinstance(tree, ast.AsyncFunctionDef):
            raise self.error(tree, "async functions cannot be kernels")
        ir_types = [t.to_ir() for t in arg_types]
        attrs_array = None
        if any(arg_attrs):
            attrs_array = ArrayAttr([DictionaryAttr(a) for a in arg_attrs])
        func = tt.FuncOp.build(sym_name=name, function_type=FunctionType(ir_types, []),
                               sym_visibility=visibility,
                               arg_attrs=attrs_array,
                               attributes={"noinline": BoolAttr(bool(noinline))},
                               location=self.loc_of(tree))
        self.func_op = func
        arg_locs = [self.loc_of(tree)] * len(ir_types)
        entry = Block(ir_types, arg_locs)
        func.regions[0].add_block(entry)
        # bind the arguments
        values = iter(tensor(v, t) for v, t in zip(entry.arguments, arg_types))
        for param_name, spec in arg_specs.items():
            count = len(flatten(unflatten(spec, _Counter()))[0]) if spec != "T" else 1
            chunk = [next(values) for _ in range(count)]
            self.lscope[param_name] = unflatten(spec, chunk)
        self.lscope.update(constexprs)
        saved = (self.builder.block, self.builder.anchor, self.builder.loc)
        self.builder.block, self.builder.anchor = entry, None
        try:
            with tl.use_builder(self.builder, self):
                self.visit_compound(tree.body)
                if not self.terminated:
                    if self.ret_spec is not _MISSING and self.ret_types:
                        raise self.error(tree.body[-1], f"function '{tree.name}' returns a "
                                         "value on some paths but reaches its end without "
                                         "`return` on another")
                    self.builder.loc = self.loc_of(tree.body[-1])
                    self.builder._op(tt.ReturnOp, srcs=[])
        finally:
            self.builder.block, self.builder.anchor, self.builder.loc = saved
        func.properties["function_type"] = TypeAttr(
            FunctionType(ir_types, [t.to_ir() for t in self.ret_types]))
        return func

    def visit_compound(self, statements) -> None:
        for statement in statements:
            if self.terminated:
                break
            self.visit(statement)

    # -- statements
    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a docstring
        self.visit(node.value)
        return None

    def visit_Pass(self, node):
        return None

    def visit_Assign(self, node):
        value = _sanitize(self.visit(node.value))
        for target in node.targets:
            self.assign(target, value)

    def visit_AnnAssign(self, node):
        annotation = self.visit(node.annotation)
        if node.value is None:
            return None
        value = self.visit(node.value)
        if annotation is constexpr or tl.is_constexpr_annotation(annotation):
            if _has_tensor(value):
                raise self.error(node.value, "a tensor cannot be assigned to a tl.constexpr")
            value = _unwrap(value)
        else:
            value = _sanitize(value)
        self.assign(node.target, value)
        return None

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "augmented assignment is only supported to names")
        current = self.lookup(node.target.id, node.target)
        value = self.visit(node.value)
        result = _BINOPS[type(node.op)](current, value) if type(node.op) in _BINOPS else None
        if result is None:
            raise self.error(node, f"unsupported operator {type(node.op).__name__}")
        self.set_value(node.target.id, _sanitize(result))
        self.assign_nodes[node.target.id] = node

    def assign(self, target, value) -> None:
        if isinstance(target, ast.Name):
            self.set_value(target.id, value)
            self.assign_nodes[target.id] = target
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, tensor):
                raise self.error(target, "cannot unpack a tensor; use tl.split or indexing")
            if not isinstance(value, (tuple, list)):
                raise self.error(target, f"cannot unpack a value of type {_describe(value)}")
            if any(isinstance(t, ast.Starred) for t in target.elts):
                raise self.error(target, "starred assignment is not supported in kernels")
            if len(target.elts) != len(value):
                raise self.error(target, f"cannot unpack {len(value)} values into "
                                 f"{len(target.elts)} names")
            for element, item in zip(target.elts, value):
                self.assign(element, item)
            return
        if isinstance(target, ast.Subscript):
            raise self.error(target, "assignment to a subscript (x[...] = ...) is not "
                             "supported; tensors are immutable values")
        if isinstance(target, ast.Attribute):
            raise self.error(target, "assignment to an attribute is not supported in kernels")
        raise self.error(target, f"unsupported assignment target {type(target).__name__}")

    def visit_Assert(self, node):
        test = self.visit(node.test)
        message = self.visit(node.msg) if node.msg is not None else ""
        if _has_tensor(message):
            raise self.error(node.msg, "the message of an assert must be a compile-time value")
        if _is_tensor(test):
            tlf.device_assert(test, str(message))
        else:
            tlf.static_assert(test, str(message))

    def visit_Return(self, node):
        if self.loop_depth or self.scf_depth:
            where_ = "a loop" if self.loop_depth else "a conditional nested in a loop"
            raise self.error(node, f"`return` inside {where_} is not supported")
        value = self.visit(node.value) if node.value is not None else None
        if self.is_kernel and value is not None:
            raise self.error(node, "a kernel cannot return a value; store results through "
                             "pointers")
        value = _sanitize(value)
        tensors, spec = flatten(value)
        if not tensors and value is not None:
            raise self.error(node, f"@jit functions can only return tensors (or tuples of "
                             f"tensors), not {_describe(value)}")
        types_ = [t.type for t in tensors]
        if self.ret_spec is _MISSING:
            self.ret_spec, self.ret_types = spec, types_
        elif not _spec_equal(spec, self.ret_spec) or types_ != self.ret_types:
            raise self.error(node, "all `return` statements of a function must return values "
                             f"of the same types: {_describe(value)} here, "
                             f"{_describe(unflatten(self.ret_spec, self._type_placeholders()))}"
                             " before")
        self.builder._op(tt.ReturnOp, srcs=[t.handle for t in tensors])
        self.terminated = True

    def _type_placeholders(self):
        return [tensor(None, t) for t in self.ret_types]

    # -- if
    def _condition(self, node, cond) -> tensor:
        if cond.type.is_block():
            if cond.numel != 1:
                raise self.error(node, f"the condition must be a scalar, got a block of type "
                                 f"{cond.type}; use tl.where for element-wise selection")
            warnings.warn("If conditional called with multidimensional Tensor instead of "
                          "scalar; its single element is the condition", stacklevel=2)
            cond = semantic.item(cond)
        if not cond.dtype.is_bool():
            cond = semantic.cast(cond, tl.int1)
        return cond

    def visit_If(self, node):
        cond = self.visit(node.test)
        if not _is_tensor(cond):
            cond = _unwrap(cond)
            if _has_tensor(cond):
                raise self.error(node.test, "the condition of an `if` must be a scalar")
            self.visit_compound(node.body if cond else node.orelse)
            return
        cond = self._condition(node.test, cond)
        if _contains_return(node.body) or _contains_return(node.orelse):
            if self.loop_depth or self.scf_depth:
                raise self.error(node, "`return` inside a conditional nested in a loop is not "
                                 "supported")
            self.visit_if_top_level(cond, node)
        else:
            self.visit_if_scf(cond, node)

    def _visit_region_block(self, statements, block: Block, liveins: dict):
        """Visits ``statements`` into ``block`` with a copy of the scope; returns the scope
        after them and the names they assigned."""
        saved_scope, saved_defs = self.lscope, self.local_defs
        self.lscope, self.local_defs = dict(liveins), {}
        try:
            with self.builder.at_end(block):
                self.visit_compound(statements)
            return self.lscope, self.local_defs
        finally:
            self.lscope, self.local_defs = saved_scope, saved_defs

    def _merge_names(self, node, liveins: dict, branches: list[tuple[dict, dict, str]]):
        """The names whose value after a conditional depends on the branch taken: a list of
        (name, [value per branch]). ``branches`` are (scope, defs, label)."""
        names = []
        for _, defs, _ in branches:
            for name in defs:
                if name not in names:
                    names.append(name)
        merged = []
        for name in names:
            values = [scope.get(name, _MISSING) for scope, _, _ in branches]
            if any(v is _MISSING for v in values):
                continue  # defined in some branches only: local to them
            if all(v is values[0] for v in values):
                self.set_value(name, values[0])
                continue
            specs = [flatten(v) for v in values]
            first_tensors, first_spec = specs[0]
            for index in range(1, len(specs)):
                tensors_, spec = specs[index]
                if not _spec_equal(spec, first_spec) or \
                        [t.type for t in tensors_] != [t.type for t in first_tensors]:
                    raise self.error(self.assign_nodes.get(name, node),
                                     f"mismatched type for '{name}' between the "
                                     f"{branches[0][2]} ({_describe(values[0])}) and the "
                                     f"{branches[index][2]} ({_describe(values[index])})")
            if not first_tensors:
                self.set_value(name, values[0])
                continue
            merged.append((name, values))
        return merged

    def visit_if_scf(self, cond: tensor, node) -> None:
        liveins = dict(self.lscope)
        then_block, else_block = Block(), Block()
        self.scf_depth += 1
        try:
            then_scope, then_defs = self._visit_region_block(node.body, then_block, liveins)
            else_scope, else_defs = self._visit_region_block(node.orelse, else_block, liveins)
        finally:
            self.scf_depth -= 1
        merged = self._merge_names(node, liveins, [(then_scope, then_defs, "then branch"),
                                                   (else_scope, else_defs, "else branch")])
        then_values = [t for _, values in merged for t in flatten(values[0])[0]]
        else_values = [t for _, values in merged for t in flatten(values[1])[0]]
        result_types = [t.type for t in then_values]
        if_op = self.builder._op(scf.IfOp, results_types=[t.to_ir() for t in result_types],
                                 condition=cond.handle)
        if_op.regions[0].add_block(then_block)
        with self.builder.at_end(then_block):
            self.builder._op(scf.YieldOp, results_=[t.handle for t in then_values])
        if merged or len(else_block) or node.orelse:
            if_op.regions[1].add_block(else_block)
            with self.builder.at_end(else_block):
                self.builder._op(scf.YieldOp, results_=[t.handle for t in else_values])
        results = iter(tensor(r, t) for r, t in zip(if_op.results, result_types))
        for name, values in merged:
            tensors_, spec = flatten(values[0])
            self.set_value(name, unflatten(spec, [next(results) for _ in tensors_]))

    def visit_if_top_level(self, cond: tensor, node) -> None:
        region = self.func_op.regions[0]
        then_block, else_block = Block(), Block()
        region.add_block(then_block)
        region.add_block(else_block)
        self.builder._op(cf.CondBranchOp, condition=cond.handle, true_dest=then_block,
                         false_dest=else_block)
        liveins = dict(self.lscope)
        branches = []
        for statements, block, label in ((node.body, then_block, "then branch"),
                                         (node.orelse, else_block, "else branch")):
            saved_scope, saved_defs = self.lscope, self.local_defs
            self.lscope, self.local_defs = dict(liveins), {}
            self.builder.block, self.builder.anchor = block, None
            self.terminated = False
            self.visit_compound(statements)
            end = None if self.terminated else self.builder.block
            branches.append((end, self.lscope, self.local_defs, label))
            self.lscope, self.local_defs = saved_scope, saved_defs
        self.terminated = False
        falling = [b for b in branches if b[0] is not None]
        if not falling:
            self.terminated = True
            return
        merged = self._merge_names(node, liveins, [(s, d, label) for _, s, d, label in falling])
        endif = Block()
        region.add_block(endif)
        arg_types = []
        for _, values in merged:
            arg_types += [t.type for t in flatten(values[0])[0]]
        for index, (end, _, _, _) in enumerate(falling):
            operands = [t.handle for _, values in merged for t in flatten(values[index])[0]]
            with self.builder.at_end(end):
                self.builder._op(cf.BranchOp, dest=endif, dest_operands=operands)
        arguments = iter(tensor(endif.add_argument(t.to_ir(), self.builder.loc), t)
                         for t in arg_types)
        for name, values in merged:
            tensors_, spec = flatten(values[0])
            self.set_value(name, unflatten(spec, [next(arguments) for _ in tensors_]))
        self.builder.block, self.builder.anchor = endif, None

    def visit_IfExp(self, node):
        cond = self.visit(node.test)
        if not _is_tensor(cond):
            return self.visit(node.body if _unwrap(cond) else node.orelse)
        cond = self._condition(node.test, cond)
        then_block, else_block = Block(), Block()
        self.scf_depth += 1
        try:
            with self.builder.at_end(then_block):
                then_value = self.visit(node.body)
            with self.builder.at_end(else_block):
                else_value = self.visit(node.orelse)
                if _is_tensor(then_value) and semantic._is_number(else_value):
                    else_value = semantic.cast(semantic.to_tensor(else_value), then_value.dtype)
            if _is_tensor(else_value) and semantic._is_number(then_value):
                with self.builder.at_end(then_block):
                    then_value = semantic.cast(semantic.to_tensor(then_value), else_value.dtype)
        finally:
            self.scf_depth -= 1
        then_tensors, then_spec = flatten(_sanitize(then_value))
        else_tensors, else_spec = flatten(_sanitize(else_value))
        if not _spec_equal(then_spec, else_spec) or \
                [t.type for t in then_tensors] != [t.type for t in else_tensors]:
            raise self.error(node, "the two values of a conditional expression with a tensor "
                             f"condition must have the same type, got {_describe(then_value)} "
                             f"and {_describe(else_value)}")
        result_types = [t.type for t in then_tensors]
        if_op = self.builder._op(scf.IfOp, results_types=[t.to_ir() for t in result_types],
                                 condition=cond.handle)
        if_op.regions[0].add_block(then_block)
        if_op.regions[1].add_block(else_block)
        with self.builder.at_end(then_block):
            self.builder._op(scf.YieldOp, results_=[t.handle for t in then_tensors])
        with self.builder.at_end(else_block):
            self.builder._op(scf.YieldOp, results_=[t.handle for t in else_tensors])
        return unflatten(then_spec, [tensor(r, t) for r, t in zip(if_op.results, result_types)])

    # -- loops
    def _dry_run(self, body, bindings: dict) -> dict:
        """Visits ``body`` into a throw-away block (with ``bindings`` added to the scope) to
        find the names it assigns; the ops are erased afterwards."""
        liveins = dict(self.lscope)
        liveins.update(bindings)
        dummy = Block()
        saved_terminated = self.terminated
        self.loop_depth += 1
        try:
            _, defs = self._visit_region_block(body, dummy, liveins)
        finally:
            self.loop_depth -= 1
            self.terminated = saved_terminated
            for op in reversed(list(dummy)):
                op.drop_all_references()
            for op in reversed(list(dummy)):
                op.erase()
        return defs

    def _carried(self, node, liveins: dict, defs: dict) -> list[str]:
        carried = []
        for name, value in defs.items():
            if name not in liveins:
                continue
            initial = liveins[name]
            if value is initial:
                continue
            init_tensors, init_spec = flatten(initial)
            new_tensors, new_spec = flatten(value)
            if not init_tensors and not new_tensors and _spec_equal(init_spec, new_spec):
                continue
            where = self.assign_nodes.get(name, node)
            if not init_tensors and new_tensors:
                raise self.error(where, f"cannot reassign constexpr '{name}' in the loop (it "
                                 f"holds {_describe(initial)} before the loop and "
                                 f"{_describe(value)} in it)")
            if not _spec_equal(init_spec, new_spec) or \
                    [t.type for t in init_tensors] != [t.type for t in new_tensors]:
                raise self.error(where, f"loop-carried variable '{name}' has initial type "
                                 f"{_describe(initial)} but is re-assigned to "
                                 f"{_describe(value)} in the loop; make sure that the type "
                                 "stays the same")
            carried.append(name)
        return carried

    def _yield_values(self, node, carried: list[str], liveins: dict) -> list:
        values = []
        for name in carried:
            value = self.lscope[name]
            tensors_, spec = flatten(value)
            init_tensors, init_spec = flatten(liveins[name])
            if not _spec_equal(spec, init_spec) or \
                    [t.type for t in tensors_] != [t.type for t in init_tensors]:
                raise self.error(node, f"loop-carried variable '{name}' has initial type "
                                 f"{_describe(liveins[name])} but is re-assigned to "
                                 f"{_describe(value)} in the loop")
            values += [t.handle for t in tensors_]
        return values

    def _bind_block(self, block: Block, carried: list[str], liveins: dict, first: int = 0):
        arguments = iter(block.arguments[first:])
        for name in carried:
            tensors_, spec = flatten(liveins[name])
            self.lscope[name] = unflatten(
                spec, [tensor(next(arguments), t.type) for t in tensors_])

    def visit_For(self, node):
        if node.orelse:
            raise self.error(node, "`for ... else` is not supported in kernels",
                             UnsupportedLanguageConstruct)
        iterator = self._for_iterator(node.iter)
        if isinstance(iterator, tlf.static_range) or not isinstance(iterator, tlf.range):
            return self._unrolled_for(node, iterator)
        return self._scf_for(node, iterator)

    def _for_iterator(self, node):
        if isinstance(node, ast.Call):
            callee = self.visit(node.func)
            if callee is builtins.range or callee is tlf.range or callee is tlf.static_range:
                args = [self.visit(a) for a in node.args]
                kwargs = {k.arg: self.visit(k.value) for k in node.keywords}
                if callee is builtins.range:
                    if kwargs:
                        raise self.error(node, "range() takes no keyword arguments")
                    callee = tlf.range
                try:
                    return callee(*args, **kwargs)
                except (TypeError, ValueError) as exc:
                    if debug_enabled():
                        raise
                    raise self.error(node, _message_of(exc)) from exc
        value = self.visit(node)
        if _is_tensor(value):
            raise self.error(node, "cannot iterate over a tensor; loops need range, tl.range "
                             "or tl.static_range")
        return value

    def _unrolled_for(self, node, iterator):
        try:
            items = list(iterator)
        except TypeError:
            raise self.error(node.iter, f"cannot iterate over {_describe(iterator)}; loops "
                             "need range, tl.range, tl.static_range or a tuple") from None
        if _contains_return(node.body):
            raise self.error(node, "`return` inside a loop is not supported")
        for item in items:
            self.assign(node.target, item)
            self.visit_compound(node.body)

    def _scf_for(self, node, rng):
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "the loop variable must be a name")
        b = self.builder
        start, end, step = rng.start, rng.end, rng.step
        negative_step = False
        if not _is_tensor(step):
            if step == 0:
                raise self.error(node.iter, "the step of range() must not be zero")
            negative_step = step < 0
        lb, ub, st = (semantic.to_tensor(v) for v in (start, end, step))
        for value, what in ((lb, "start"), (ub, "end"), (st, "step")):
            if value.type.is_block() or not value.dtype.is_int():
                raise self.error(node.iter, f"the {what} of a loop range must be an integer "
                                 f"scalar, got {value.type}")
        iv_type = tl.int64 if any(v.dtype.int_bitwidth == 64 for v in (lb, ub, st)) else tl.int32
        lb, ub, st = (semantic.cast(v, iv_type) for v in (lb, ub, st))
        user_lb, user_step = lb, st
        if negative_step:
            # for i in range(a, b, -s): j = 0 .. cdiv(a - b, s), i = a - j * s
            positive = semantic.to_tensor(-step)
            positive = semantic.cast(positive, iv_type)
            count = semantic.floordiv(semantic.sub(semantic.add(semantic.sub(lb, ub), positive),
                                                   1), positive)
            lb = semantic.scalar_constant(0, iv_type)
            ub = count
            st = semantic.scalar_constant(1, iv_type)
        liveins = dict(self.lscope)
        placeholder = Block([iv_type.to_ir()])
        iv_name = node.target.id
        defs = self._dry_run(node.body, {iv_name: tensor(placeholder.arguments[0], iv_type)})
        defs.pop(iv_name, None)
        carried = self._carried(node, liveins, defs)
        init_values = [t for name in carried for t in flatten(liveins[name])[0]]
        result_types = [t.type for t in init_values]
        for_op = b._op(scf.ForOp, results_types=[t.to_ir() for t in result_types],
                       lower_bound=lb.handle, upper_bound=ub.handle, step=st.handle,
                       init_args=[t.handle for t in init_values])
        hints = {"num_stages": rng.num_stages, "loop_unroll_factor": rng.loop_unroll_factor}
        for key, value in hints.items():
            if value is not None:
                for_op.attributes[f"tt.{key}"] = IntegerAttr(int(value), i32)
        if rng.disallow_acc_multi_buffer:
            for_op.attributes["tt.disallow_acc_multi_buffer"] = BoolAttr(True)
        if rng.flatten:
            for_op.attributes["tt.flatten"] = BoolAttr(True)
        if rng.warp_specialize:
            for_op.attributes["tt.warp_specialize"] = BoolAttr(True)
        if getattr(rng, "disable_licm", False):
            # Triton writes an llvm.loop_annotation (no llvm dialect here yet)
            for_op.attributes["tt.disable_licm"] = BoolAttr(True)
        body = Block([iv_type.to_ir()] + [t.to_ir() for t in result_types])
        for_op.regions[0].add_block(body)
        saved_scope, saved_defs = self.lscope, self.local_defs
        self.lscope, self.local_defs = dict(liveins), {}
        self.loop_depth += 1
        try:
            with b.at_end(body):
                iv = tensor(body.arguments[0], iv_type)
                if negative_step:
                    iv = semantic.add(user_lb, semantic.mul(iv, user_step))
                self.lscope[iv_name] = iv
                self._bind_block(body, carried, liveins, first=1)
                self.visit_compound(node.body)
                b._op(scf.YieldOp, results_=self._yield_values(node, carried, liveins))
        finally:
            self.loop_depth -= 1
            self.lscope, self.local_defs = saved_scope, saved_defs
        results = iter(tensor(r, t) for r, t in zip(for_op.results, result_types))
        for name in carried:
            tensors_, spec = flatten(liveins[name])
            self.set_value(name, unflatten(spec, [next(results) for _ in tensors_]))

    def visit_While(self, node):
        if node.orelse:
            raise self.error(node, "`while ... else` is not supported in kernels",
                             UnsupportedLanguageConstruct)
        b = self.builder
        liveins = dict(self.lscope)
        defs = self._dry_run(node.body, {})
        carried = self._carried(node, liveins, defs)
        init_values = [t for name in carried for t in flatten(liveins[name])[0]]
        result_types = [t.type for t in init_values]
        ir_types = [t.to_ir() for t in result_types]
        while_op = b._op(scf.WhileOp, results_types=ir_types,
                         inits=[t.handle for t in init_values])
        before, after = Block(ir_types), Block(ir_types)
        while_op.regions[0].add_block(before)
        while_op.regions[1].add_block(after)
        saved_scope, saved_defs = self.lscope, self.local_defs
        self.loop_depth += 1
        try:
            self.lscope, self.local_defs = dict(liveins), {}
            with b.at_end(before):
                self._bind_block(before, carried, liveins)
                cond = self.visit(node.test)
                if not _is_tensor(cond):
                    if _unwrap(cond):
                        raise self.error(node.test, "a `while` loop needs a tensor condition: "
                                         "with a constant true condition it would never end "
                                         "(`break` is not supported)")
                    cond = semantic.to_tensor(False)
                cond = self._condition(node.test, cond)
                b._op(scf.ConditionOp, condition=cond.handle, args=list(before.arguments))
            self.lscope, self.local_defs = dict(liveins), {}
            with b.at_end(after):
                self._bind_block(after, carried, liveins)
                self.visit_compound(node.body)
                b._op(scf.YieldOp, results_=self._yield_values(node, carried, liveins))
        finally:
            self.loop_depth -= 1
            self.lscope, self.local_defs = saved_scope, saved_defs
        results = iter(tensor(r, t) for r, t in zip(while_op.results, result_types))
        for name in carried:
            tensors_, spec = flatten(liveins[name])
            self.set_value(name, unflatten(spec, [next(results) for _ in tensors_]))

    # -- expressions
    def visit_Constant(self, node):
        return node.value

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            raise self.error(node, "unexpected store")
        return self.lookup(node.id, node)

    def visit_NamedExpr(self, node):
        value = _sanitize(self.visit(node.value))
        self.assign(node.target, value)
        return value

    def visit_Tuple(self, node):
        return tuple(self._visit_elements(node.elts))

    def visit_List(self, node):
        return list(self._visit_elements(node.elts))

    def _visit_elements(self, elements):
        values = []
        for element in elements:
            if isinstance(element, ast.Starred):
                values.extend(self.visit(element.value))
            else:
                values.append(self.visit(element))
        return values

    def visit_Dict(self, node):
        return {self.visit(k): self.visit(v) for k, v in zip(node.keys, node.values)}

    def visit_JoinedStr(self, node):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
                continue
            item = self.visit(value.value)
            if _has_tensor(item):
                raise self.error(value, "f-strings in kernels may only format compile-time "
                                 "values, not tensors")
            spec = self.visit(value.format_spec) if value.format_spec is not None else ""
            if value.conversion == ord("r"):
                item = repr(item)
            elif value.conversion == ord("s"):
                item = str(item)
            elif value.conversion == ord("a"):
                item = ascii(item)
            parts.append(format(item, spec))
        return "".join(parts)

    def visit_FormattedValue(self, node):
        return self.visit_JoinedStr(ast.JoinedStr(values=[node]))

    def visit_Slice(self, node):
        lower, upper, step = (self.visit(p) if p is not None else None
                              for p in (node.lower, node.upper, node.step))
        return slice(lower, upper, step)

    def visit_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if _is_tensor(value):
            return value[index]
        if _has_tensor(index):
            raise self.error(node.slice, "indices of tuples and lists must be compile-time "
                             "values (tl.constexpr)")
        return _unwrap(value)[_unwrap(index)]

    def visit_Attribute(self, node):
        value = self.visit(node.value)
        try:
            return getattr(value, node.attr)
        except AttributeError:
            raise self.error(node, f"'{type(value).__name__}' object has no attribute "
                             f"'{node.attr}'") from None

    def visit_BinOp(self, node):
        lhs = self.visit(node.left)
        rhs = self.visit(node.right)
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.error(node, f"unsupported operator {type(node.op).__name__}")
        return op(_unwrap(lhs), _unwrap(rhs))

    def visit_UnaryOp(self, node):
        operand = _unwrap(self.visit(node.operand))
        if isinstance(node.op, ast.Not):
            if _is_tensor(operand):
                return semantic.not_(operand)
            return not operand
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return +operand
        if isinstance(node.op, ast.Invert):
            return ~operand
        raise self.error(node, f"unsupported operator {type(node.op).__name__}")

    def visit_Compare(self, node):
        if len(node.ops) != 1:
            raise self.error(node, "chained comparisons (a < b < c) are not supported; use "
                             "`and` between two comparisons")
        lhs = _unwrap(self.visit(node.left))
        rhs = _unwrap(self.visit(node.comparators[0]))
        op_type = type(node.ops[0])
        if op_type in (ast.Is, ast.IsNot, ast.In, ast.NotIn) and \
                (_is_tensor(lhs) or _is_tensor(rhs)) and op_type in (ast.In, ast.NotIn):
            raise self.error(node, "`in` is not supported on tensors")
        return _CMPOPS[op_type](lhs, rhs)

    def visit_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        value = _unwrap(self.visit(node.values[0]))
        for operand in node.values[1:]:
            if _is_tensor(value):
                other = _unwrap(self.visit(operand))
                value = semantic.logical_and(value, other) if is_and else \
                    semantic.logical_or(value, other)
                continue
            if (not value) if is_and else value:
                return value
            value = _unwrap(self.visit(operand))
        return value

    def visit_Call(self, node):
        fn = self.visit(node.func)
        args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(self.visit(arg.value))
            else:
                args.append(self.visit(arg))
        kwargs = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                kwargs.update(self.visit(keyword.value))
            else:
                kwargs[keyword.arg] = self.visit(keyword.value)
        fn = _unwrap(fn)
        if getattr(fn, "__tilecraft_jit__", False):
            return self.call_jit_function(fn, args, kwargs, node)
        if fn is builtins.range or fn is tlf.range or fn is tlf.static_range:
            raise self.error(node, "range objects can only be used as the iterable of a `for` "
                             "loop")
        if fn in _COMPILE_TIME_CALLABLES or _is_plain_python(fn):
            if fn not in _INTROSPECTING_CALLABLES and any(
                    _has_tensor(a) for a in (*args, *kwargs.values())):
                name = getattr(fn, "__name__", repr(fn))
                raise self.error(node, f"cannot call '{name}' with tensor arguments: it is "
                                 "neither a tilecraft.language function nor a @jit function")
        return fn(*args, **kwargs)

    def call_jit_function(self, fn, args, kwargs, node=None):
        """A `tt.call` of the specialization of ``fn`` for these arguments (generated once)."""
        signature = fn.signature
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise ValueError(f"in the call of {fn.__name__}: {exc}") from None
        bound.apply_defaults()
        message = _noinline_argument_error(fn, bound.arguments)
        if message is not None:
            raise self.error(node, message, UnsupportedLanguageConstruct)
        arg_specs, arg_values, constexprs, const_items = {}, [], {}, []
        for name, value in bound.arguments.items():
            param = signature.parameters[name]
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise ValueError(f"@jit functions with *args or **kwargs are not supported "
                                 f"({fn.__name__})")
            value = _unwrap(value)
            # as in Triton, the value decides (not the annotation): a tensor given for a
            # `tl.constexpr` parameter of a called function is passed as a tensor
            if not _has_tensor(value):
                constexprs[name] = value
                const_items.append(f"{name}_{_mangle_value(value)}")
                continue
            tensors_, spec = flatten(value)
            arg_specs[name] = spec
            arg_values += tensors_
        mangled = fn.__name__ + "__" + _mangle_args(arg_specs, arg_values)
        if const_items:
            mangled += "__" + "_".join(const_items)
        mangled = re.sub(r"_+", "_", mangled).strip("_")
        if mangled in self.ctx.in_progress:
            raise ValueError(f"recursive calls of @jit functions are not supported "
                             f"({fn.__name__})")
        if mangled not in self.ctx.functions:
            self.ctx.in_progress.add(mangled)
            try:
                generator = CodeGenerator(self.ctx, fn, is_kernel=False)
                func = generator.generate(mangled, arg_specs, [t.type for t in arg_values],
                                          [{} for _ in arg_values], constexprs, "private",
                                          getattr(fn, "noinline", False))
            except CompilationError as error:
                if node is not None:
                    error.notes.append((self.src.source_loc(node),
                                        f"in the call of '{fn.__name__}' from here"))
                raise
            finally:
                self.ctx.in_progress.discard(mangled)
            self.ctx.module_block.append(func)
            self.ctx.functions[mangled] = (func, generator.ret_spec, generator.ret_types)
        _, ret_spec, ret_types = self.ctx.functions[mangled]
        call = self.builder._op(tt.CallOp, results_types=[t.to_ir() for t in ret_types],
                                callee=mangled, operands_=[t.handle for t in arg_values])
        if ret_spec is _MISSING:
            return None
        return unflatten(ret_spec, [tensor(r, t) for r, t in zip(call.results, ret_types)])


class _Counter:
    """Stands for tensors when counting the leaves of a spec."""

    def __iter__(self):
        while True:
            yield tensor(None, tl.int32)


def _mangle_args(arg_specs: dict, arg_values: list) -> str:
    values = iter(arg_values)
    return "_".join(_mangle_spec(spec, values) for spec in arg_specs.values())


def _is_plain_python(fn) -> bool:
    """A Python function or class that is not part of the kernel language."""
    if tl.is_builtin(fn) or isinstance(fn, (types.BuiltinFunctionType, types.MethodType)):
        return False
    module = getattr(fn, "__module__", "") or ""
    if module.startswith("tilecraft.language"):
        return False
    return isinstance(fn, (types.FunctionType, type)) and not isinstance(fn, tl.dtype)


def _noinline_argument_error(fn, arguments: dict) -> str | None:
    """Why a call of ``fn`` with ``arguments`` is refused: a ``noinline`` function takes
    scalars and one-element blocks only, as in Triton."""
    if not getattr(fn, "noinline", False):
        return None
    for name, value in arguments.items():
        value = _unwrap(value)
        if isinstance(value, tensor) and value.type.is_block() and value.type.numel != 1:
            return (f"Function {fn.__name__} is marked noinline, but was called with "
                    f"non-scalar argument {name}:{value.type}")
    return None


def _message_of(exc: Exception) -> str:
    if isinstance(exc, (TypeError, ValueError, AssertionError, NotImplementedError, IndexError,
                        KeyError, ZeroDivisionError, RuntimeError, OverflowError)):
        message = str(exc)
        if isinstance(exc, KeyError) and exc.args:
            message = f"key {exc.args[0]!r} not found"
        return message or type(exc).__name__
    return (f"internal compiler error: {type(exc).__name__}: {exc} (set TILECRAFT_DEBUG=1 for "
            "the compiler's traceback)")


# -- entry point ---------------------------------------------------------------------------------


def _remove_unused_constants(module) -> None:
    from tilecraft.generated import arith

    changed = True
    while changed:
        changed = False
        for op in list(module.walk(post_order=True)):
            if isinstance(op, arith.ConstantOp) and op.results[0].use_empty():
                op.erase()
                changed = True


def _attribute(value):
    """A parameter attribute given as a Python int (an i32), str or list of them, or as an
    attribute."""
    if isinstance(value, int):
        return IntegerAttr(value, i32)
    if isinstance(value, list):
        return ArrayAttr([_attribute(v) for v in value])
    return StringAttr(value) if isinstance(value, str) else value


def compile_to_ttir(jit_fn, arg_types: dict, constexprs: dict, arg_attrs: dict | None = None):
    """The verified `tt` module of the kernel ``jit_fn`` specialized for ``arg_types`` (a
    language type per runtime parameter, in order) and ``constexprs`` (parameter values);
    ``arg_attrs`` adds attributes to parameters (``{"x_ptr": {"tt.divisibility": 16}}``)."""
    arg_attrs = arg_attrs or {}
    ctx = CompileContext()
    generator = CodeGenerator(ctx, jit_fn, is_kernel=True)
    specs = {name: "T" for name in arg_types}
    attrs = []
    for name in arg_types:
        attrs.append({key: _attribute(value) for key, value in arg_attrs.get(name, {}).items()})
    func = generator.generate(jit_fn.__name__, specs, list(arg_types.values()), attrs,
                              dict(constexprs), "public", False)
    ctx.module_block.prepend(func)
    _remove_unused_constants(ctx.module)
    try:
        ctx.module.verify()
    except VerificationError as error:
        if debug_enabled():
            raise
        raise CompilationError(f"invalid IR ({error.message})", error.loc,
                               None) from None
    return ctx.module
