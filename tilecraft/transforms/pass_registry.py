"""Finding passes by their argument (``canonicalize``) and the classes that implement them.

A pass declared in `.td` has a generated base class in ``tilecraft.generated.passes.PASSES``;
its implementation is the one subclass of that base defined in the pass's ``IMPL_MODULE``
(default ``tilecraft.transforms``) or below it, which the module imports. Passes written only
in Python (test passes, plugins loaded by ``tools/opt --load-pass-plugin``) are registered with
`register_pass`; such a class is its own implementation.
"""

from __future__ import annotations

import importlib

from tilecraft.codegen.diagnostics import Diagnostic
from tilecraft.generated.passes import PASSES
from tilecraft.ir.pass_base import Pass

__all__ = [
    "PassRegistryError", "registered_passes", "register_pass", "unregister_pass",
    "pass_class", "create_pass", "pass_name",
]


class PassRegistryError(Diagnostic):
    """An unknown pass, or a declared pass whose implementation cannot be found."""


_REGISTERED: dict[str, type[Pass]] = {}
_IMPLEMENTATIONS: dict[type[Pass], type[Pass]] = {}


def registered_passes() -> dict[str, type[Pass]]:
    """Every pass by argument, sorted: the declared ones (base classes) and registered ones."""
    merged = {**PASSES, **_REGISTERED}
    return dict(sorted(merged.items()))


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Make ``cls`` (a `Pass` subclass with its ``ARGUMENT``) available by its argument; usable
    as a class decorator. A class without ``run_on_operation`` is looked up as declared ones."""
    argument = cls.ARGUMENT
    known = _REGISTERED.get(argument) or PASSES.get(argument)
    if known is not None and known is not cls:
        raise ValueError(f"a pass with the argument '{argument}' is already registered "
                         f"({known.__name__})")
    _REGISTERED[argument] = cls
    return cls


def unregister_pass(argument: str) -> None:
    """Forget a pass registered with `register_pass`."""
    cls = _REGISTERED.pop(argument)
    _IMPLEMENTATIONS.pop(cls, None)


def pass_class(argument: str) -> type[Pass]:
    """The class implementing the pass ``argument``."""
    base = _REGISTERED.get(argument) or PASSES.get(argument)
    if base is None:
        raise PassRegistryError(f"'{argument}' does not refer to a registered pass")
    found = _IMPLEMENTATIONS.get(base)
    if found is None:
        found = _IMPLEMENTATIONS[base] = _implementation(base)
    return found


def _implementation(base: type[Pass]) -> type[Pass]:
    if _implements(base):
        return base
    module = base.IMPL_MODULE or "tilecraft.transforms"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name != module and not module.startswith(f"{err.name}."):
            raise
        raise PassRegistryError(f"pass '{base.ARGUMENT}' is implemented in '{module}', which "
                                "does not exist") from None
    found = [cls for cls in _subclasses(base) if _implements(cls)
             and (cls.__module__ == module or cls.__module__.startswith(f"{module}."))]
    if not found:
        raise PassRegistryError(
            f"pass '{base.ARGUMENT}' has no implementation: define a subclass of "
            f"{base.__name__} with run_on_operation in {module} (or a module it imports)")
    if len(found) > 1:
        names = ", ".join(f"{cls.__module__}.{cls.__qualname__}" for cls in found)
        raise PassRegistryError(f"pass '{base.ARGUMENT}' has several implementations: {names}")
    return found[0]


def _implements(cls: type[Pass]) -> bool:
    return cls.run_on_operation is not Pass.run_on_operation


def _subclasses(base: type) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        found.append(cls)
        found += _subclasses(cls)
    return list(dict.fromkeys(found))


def create_pass(argument: str, options_text: str = "") -> Pass:
    """A new instance of the pass ``argument`` with options parsed from ``a=1 b=x`` text."""
    return pass_class(argument).from_options_text(options_text)


def pass_name(pass_: Pass | type[Pass]) -> str:
    """The pass's name as dumps and reports show it: its generated base class's name without
    ``PassBase`` (``Canonicalize``), else its class name without ``Pass``."""
    cls = pass_ if isinstance(pass_, type) else type(pass_)
    for klass in cls.__mro__:
        if klass.__name__.endswith("PassBase"):
            return klass.__name__[:-len("PassBase")]
    name = cls.__name__
    return name[:-len("Pass")] if name.endswith("Pass") and name != "Pass" else name
