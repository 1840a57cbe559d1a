"""tilecraft.frontend: the Python AST of a @jit function to `tt` IR.

`compile_to_ttir(jit_fn, arg_types, constexprs, arg_attrs)` gives the verified module;
`CompilationError` is the one error a kernel author sees.
"""

from .errors import CompilationError, InterpreterError, UnsupportedLanguageConstruct

__all__ = ["CompilationError", "InterpreterError", "UnsupportedLanguageConstruct",
           "compile_to_ttir"]


def __getattr__(name: str):
    if name == "compile_to_ttir":
        from .code_generator import compile_to_ttir

        return compile_to_ttir
    raise AttributeError(name)
