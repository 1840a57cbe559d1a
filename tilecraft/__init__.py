"""tilecraft: a tile-level GPU compiler in Python, with dialects generated from `.td` files.

``import tilecraft as tc; import tilecraft.language as tl`` gives the kernel language:
``@tc.jit`` kernels launched with ``kernel[grid](*args)``. The names below are loaded on first
use, so that ``import tilecraft`` stays fast.
"""

__version__ = "0.1.0"

_LAZY = {
    "jit": ("tilecraft.runtime.jit", "jit"),
    "JITFunction": ("tilecraft.runtime.jit", "JITFunction"),
    "autotune": ("tilecraft.runtime.autotuner", "autotune"),
    "heuristics": ("tilecraft.runtime.autotuner", "heuristics"),
    "Config": ("tilecraft.runtime.autotuner", "Config"),
    "Space": ("tilecraft.runtime.tuning_space", "Space"),
    "cdiv": ("tilecraft.runtime.jit", "cdiv"),
    "next_power_of_2": ("tilecraft.runtime.jit", "next_power_of_2"),
    "reinterpret": ("tilecraft.runtime.arguments", "reinterpret"),
    "TensorDescriptor": ("tilecraft.runtime.tensor_descriptor", "TensorDescriptor"),
    "compile": ("tilecraft.runtime.compiler", "compile"),
    "ASTSource": ("tilecraft.runtime.compiler", "ASTSource"),
    "GPUTarget": ("tilecraft.runtime.compiler", "GPUTarget"),
    "CompilationError": ("tilecraft.frontend.errors", "CompilationError"),
    "InterpreterError": ("tilecraft.frontend.errors", "InterpreterError"),
    "language": ("tilecraft.language", None),
    "testing": ("tilecraft.testing", None),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name)
        value = module if attribute is None else getattr(module, attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tilecraft' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_LAZY))
