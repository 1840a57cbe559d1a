"""Dialects and the registry: registration, lazy import of generated dialects, replacement."""

import sys

import pytest

import tilecraft.generated
from tilecraft.ir import Dialect, DialectAttribute, Operation, get_dialect, lookup_op, parse_op, registry

GENERATED = '''
from tilecraft.ir import *

dialect = Dialect("{name}")


@dialect.op
class ThingOp(Operation):
    __slots__ = ()
    OPERATION_NAME = "{name}.thing"
'''


@pytest.fixture
def generated_dir(tmp_path, monkeypatch):
    """A temporary folder searched for ``tilecraft.generated.<name>`` modules."""
    monkeypatch.setattr(tilecraft.generated, "__path__", [str(tmp_path), *tilecraft.generated.__path__])
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("tilecraft.generated.lazy")]:
        del sys.modules[name]


def test_generated_dialects_are_imported_on_first_use(generated_dir):
    (generated_dir / "lazy1.py").write_text(GENERATED.format(name="lazy1"))
    assert "tilecraft.generated.lazy1" not in sys.modules
    cls = lookup_op("lazy1.thing")
    assert cls is not None and cls.__name__ == "ThingOp"
    assert get_dialect("lazy1").ops["lazy1.thing"] is cls
    assert type(parse_op('"lazy1.thing"() : () -> ()')) is cls


def test_missing_dialects_are_none_and_broken_ones_raise(generated_dir):
    assert get_dialect("lazy_missing") is None and lookup_op("lazy_missing.op") is None
    (generated_dir / "lazy_broken.py").write_text("import tilecraft.no_such_module\n")
    with pytest.raises(ModuleNotFoundError):
        get_dialect("lazy_broken")
    assert get_dialect("not-an-identifier") is None


def test_registering_a_dialect_again_replaces_it():
    first = Dialect("tmpdialect")

    @first.op
    class OldOp(Operation):
        __slots__ = ()
        OPERATION_NAME = "tmpdialect.op"

    second = Dialect("tmpdialect", "regenerated")
    assert get_dialect("tmpdialect") is second and lookup_op("tmpdialect.op") is None
    registry.register_dialect(first)
    assert lookup_op("tmpdialect.op") is OldOp


def test_registration_checks():
    dialect = Dialect("tmpcheck")

    class Stray(Operation):
        __slots__ = ()
        OPERATION_NAME = "other.op"

    with pytest.raises(ValueError, match="does not belong to dialect 'tmpcheck'"):
        dialect.op(Stray)

    class Wrong(DialectAttribute):
        __slots__ = ()
        DIALECT = "elsewhere"
        MNEMONIC = "w"

    with pytest.raises(ValueError, match="Wrong.DIALECT is 'elsewhere', not 'tmpcheck'"):
        dialect.attribute(Wrong)

    class Nameless(DialectAttribute):
        __slots__ = ()
        DIALECT = "tmpcheck"

    with pytest.raises(ValueError, match="has no MNEMONIC"):
        dialect.type(Nameless)
    assert repr(dialect) == "<Dialect 'tmpcheck'>"


def test_builtin_module_class_is_available():
    assert lookup_op("builtin.module").OPERATION_NAME == "builtin.module"
