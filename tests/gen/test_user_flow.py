"""The compiler engineer's flow end to end: add an op in `.td`, run tools/gen, use the op."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tilecraft.ir import (
    Builder, IntegerAttr, Operation, ParseError, VerificationError, f32, i32, parse_module,
)

from .util import ROOT, load_generated

NEW_DIALECT = """
include "base/OpBase.td"

def My_Dialect : Dialect {
  let name = "my";
  let summary = "A dialect a user added";
}

def My_ScaleOp : Op<My_Dialect, "scale", [Pure, SameOperandsAndResultType]> {
  let summary = "Scales a value by a constant factor";
  let arguments = (ins I32:$input, I32:$bias, ConfinedAttr<I32Attr, [IntPositive]>:$factor);
  let results = (outs I32:$output);
  let assemblyFormat = "$input `,` $bias `by` $factor attr-dict `:` type($output)";
}
"""


@pytest.fixture
def my_dialect(project: Path):
    (project / "defs" / "my.td").write_text(NEW_DIALECT)
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen"), "--root", str(project)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (project / "generated" / "my.py").exists()
    assert "### `my.scale` (ScaleOp)" in (project / "docs" / "dialects" / "my.md").read_text()
    module = load_generated(project / "generated" / "my.py", "tilecraft_user_my")
    yield module
    sys.modules.pop("tilecraft_user_my", None)


def _module_with_sources(*types):
    from tilecraft.generated.builtin import ModuleOp

    module = ModuleOp.build()
    builder = Builder.at_end(module.body_region.blocks[0])
    values = [builder.insert(Operation.create("test.source", result_types=[t])).results[0]
              for t in types]
    return module, builder, values


def test_new_op_builds_prints_parses_and_verifies(my_dialect):
    module, builder, (a, b) = _module_with_sources(i32, i32)
    op = builder.insert(my_dialect.ScaleOp.build(a, b, 3))
    assert op.output.type is i32, "the result type is inferred from SameOperandsAndResultType"
    assert op.factor == 3 and op.factor_attr == IntegerAttr(3, i32)
    assert op.input is a and op.bias is b
    module.verify()
    text = str(module)
    assert "%2 = my.scale %0, %1 by 3 : i32" in text
    reparsed = parse_module(text, allow_unregistered=True)
    assert str(reparsed) == text
    scale = [o for o in reparsed.walk() if o.name == "my.scale"][0]
    assert isinstance(scale, my_dialect.ScaleOp) and scale.factor == 3


def test_verifier_rejects_wrongly_typed_operand(my_dialect):
    module, builder, (a, x) = _module_with_sources(i32, f32)
    builder.insert(my_dialect.ScaleOp.build(a, x, 2, output_type=i32))
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert "'my.scale' op operand #1 must be 32-bit signless integer, but got 'f32'" in str(
        info.value)


def test_verifier_rejects_attribute_outside_its_constraint(my_dialect):
    module, builder, (a, b) = _module_with_sources(i32, i32)
    builder.insert(my_dialect.ScaleOp.build(a, b, 0))
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert "attribute 'factor' failed to satisfy constraint: 32-bit signless integer " \
        "attribute whose value is positive" in str(info.value)


def test_parse_error_in_custom_format_points_at_the_token(my_dialect):
    text = ('module {\n  %0 = "test.source"() : () -> i32\n'
            '  %1 = my.scale %0, %0 with 3 : i32\n}\n')
    with pytest.raises(ParseError) as info:
        parse_module(text, filename="user.mlir", allow_unregistered=True)
    message = str(info.value)
    assert message.startswith("user.mlir:3:24: error: expected 'by' but found 'with'")
    assert message.splitlines()[-1] == " " * 23 + "^"
