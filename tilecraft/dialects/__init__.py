"""Hand-written hooks of the dialects declared in defs/: verifiers and custom assembly formats.

`tilecraft.generated.<name>` imports `tilecraft.dialects.<name>` once its classes exist, and the
hooks attach themselves to those classes with ``@implements(OpClass)``. A hooks module starts
with ``gen = generated_module(__name__, "<name>")``, so that importing it directly (before the
generated module) still ends with every hook attached.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType


def generated_module(hooks_name: str, dialect: str) -> ModuleType:
    """The generated module of ``dialect``, for the hooks module ``hooks_name`` to decorate.

    When the hooks module is imported before the generated one, the generated module's own
    import of its hooks would see this half-run module and miss every hook; so the half-run copy
    leaves ``sys.modules`` first and the generated module loads a complete copy, which is the
    one the importer gets.
    """
    name = f"tilecraft.generated.{dialect}"
    module = sys.modules.get(name)
    if module is None:
        sys.modules.pop(hooks_name, None)
        module = importlib.import_module(name)
    return module
