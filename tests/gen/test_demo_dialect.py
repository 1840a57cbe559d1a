"""Every generator feature through the demo dialect: accessors, builders, formats, verifiers."""

from __future__ import annotations

import pytest

from tilecraft.ir import (
    Block, Builder, DenseArrayAttr, IntegerAttr, Operation, ParseError, RankedTensorType,
    VerificationError, f32, i1, i32, index, parse_attribute, parse_module, parse_type,
)


def roundtrip(text: str) -> str:
    """Parse, print, parse again: both printed texts must agree; returns the text."""
    module = parse_module(text, allow_unregistered=True)
    module.verify()
    printed = str(module)
    assert str(parse_module(printed, allow_unregistered=True)) == printed
    generic = module_generic = parse_module(text, allow_unregistered=True)
    from tilecraft.ir.printer import print_op

    generic_text = print_op(module_generic, generic=True)
    assert print_op(parse_module(generic_text, allow_unregistered=True), generic=True) == \
        generic_text
    assert str(parse_module(generic_text, allow_unregistered=True)) == printed
    del generic
    return printed


def body(text: str) -> str:
    return "module {\n" + text + "}\n"


SOURCES = ('  %a = "test.source"() : () -> i32\n'
           '  %b = "test.source"() : () -> i32\n')


def test_enum_attribute_in_format_and_default(demo):
    printed = roundtrip(body(SOURCES + "  %0 = demo.add exact %a, %b : i32\n"))
    assert "demo.add exact %0, %1 : i32" in printed
    op = [o for o in parse_module(printed, allow_unregistered=True).walk()
          if o.name == "demo.add"][0]
    assert op.mode is demo.Mode.Exact and op.mode.keyword == "exact"
    assert op.properties["mode"] == IntegerAttr(1, i32)
    with pytest.raises(ParseError) as info:
        parse_module(body(SOURCES + "  %0 = demo.add slow %a, %b : i32\n"),
                     allow_unregistered=True)
    assert "expected Mode to be one of: 'fast', 'exact'" in str(info.value)


def test_default_valued_attribute_accessor(demo):
    block = Block([i32, i32])
    op = demo.AddOp.build(*block.arguments)
    assert op.mode is demo.Mode.Fast and "mode" not in op.properties
    assert op.result_.type is i32


def test_typed_attribute_elides_its_type(demo):
    printed = roundtrip(body("  %0 = demo.constant 42\n"))
    assert "%0 = demo.constant 42\n" in printed


def test_optional_operand_unit_attribute_and_inferred_types(demo):
    text = body('  %p = "test.source"() : () -> !demo.ptr<f32>\n'
                '  %m = "test.source"() : () -> i1\n'
                "  %0 = demo.load %p : !demo.ptr<f32>\n"
                "  %1 = demo.load %p, %m volatile : !demo.ptr<f32>\n")
    printed = roundtrip(text)
    assert "demo.load %0 : !demo.ptr<f32>" in printed
    assert "demo.load %0, %1 volatile : !demo.ptr<f32>" in printed
    ops = [o for o in parse_module(printed, allow_unregistered=True).walk()
           if o.name == "demo.load"]
    assert ops[0].mask is None and ops[0].is_volatile is False
    assert ops[1].mask is not None and ops[1].is_volatile is True
    assert ops[0].result_.type is f32, "TypesMatchWith infers the result from the pointee"


def test_types_match_with_is_verified(demo):
    block = Block([demo.PtrType(f32)])
    op = demo.LoadOp.build(block.arguments[0], result_type=i32)
    with pytest.raises(VerificationError) as info:
        op.verify()
    assert "'demo.load' op failed to verify that result is the pointee of ptr" in str(info.value)


def test_variadic_operands_and_functional_type(demo):
    printed = roundtrip(body(SOURCES + "  %0:2 = demo.call @f(%a, %b) : (i32, i32) -> (i32, "
                             "f32)\n  demo.call @g() : () -> ()\n"))
    assert "%2:2 = demo.call @f(%0, %1) : (i32, i32) -> (i32, f32)" in printed
    assert "demo.call @g() : () -> ()" in printed


def test_all_types_match_infers_operand_types(demo):
    printed = roundtrip(body('  %c = "test.source"() : () -> i1\n' + SOURCES +
                             "  %0 = demo.select %c, %a, %b : i32\n"))
    assert "demo.select %0, %1, %2 : i32" in printed
    module, builder = _module()
    c, a, f = _sources(builder, i1, i32, f32)
    builder.insert(demo.SelectOp.build(c, a, f, result_type=i32))
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert "failed to verify that all of {a, b, result} have same type" in str(info.value)


def test_generic_form_for_op_without_format_and_regions(demo):
    printed = roundtrip(body('  %n = "test.source"() : () -> index\n'
                             '  %0 = "demo.loop"(%n, %n) ({\n'
                             '  ^bb0(%i: index):\n'
                             '    "test.yield"() : () -> ()\n'
                             "  }) : (index, index) -> index\n"))
    op = [o for o in parse_module(printed, allow_unregistered=True).walk()
          if o.name == "demo.loop"][0]
    assert op.count.type is index and len(op.inits) == 1 and len(op.results_) == 1
    assert op.body.blocks[0].arguments[0].type is index


def test_region_constraint_is_verified(demo):
    module, builder = _module()
    (n,) = _sources(builder, index)
    builder.insert(demo.LoopOp.build([], n))
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert "region #0 ('body') failed to verify constraint: region with 1 blocks" in str(
        info.value)


def test_successors(demo):
    printed = roundtrip(body(
        '  "test.region"() ({\n'
        '    %c = "test.source"() : () -> i1\n'
        "    demo.br %c, ^bb1, ^bb2\n"
        "  ^bb1:\n"
        '    "test.done"() : () -> ()\n'
        "  ^bb2:\n"
        '    "test.done"() : () -> ()\n'
        "  }) : () -> ()\n"))
    assert "demo.br %0, ^bb1, ^bb2" in printed


def test_attr_sized_operand_segments(demo):
    text = body(SOURCES + "  demo.segments(%a, %b) maybe %a %b\n  demo.segments() %a\n")
    printed = roundtrip(text)
    assert "demo.segments(%0, %1) maybe %0 %1" in printed
    assert "demo.segments() %0\n" in printed
    ops = [o for o in parse_module(printed, allow_unregistered=True).walk()
           if o.name == "demo.segments"]
    assert ops[0].properties["operandSegmentSizes"] == DenseArrayAttr(i32, (2, 1, 1))
    assert len(ops[0].a) == 2 and ops[0].b is not None
    assert ops[1].a == [] and ops[1].b is None and ops[1].c is ops[1].get_operand(0)


def test_optional_group_with_else_branch(demo):
    printed = roundtrip(body(SOURCES + "  demo.maybe %a\n  demo.maybe none\n"))
    assert "demo.maybe %0\n" in printed and "demo.maybe none\n" in printed
    ops = [o for o in parse_module(printed, allow_unregistered=True).walk()
           if o.name == "demo.maybe"]
    assert ops[0].value is not None and ops[1].value is None


def test_hand_written_verifier_hook_runs_after_constraints(demo):
    module, builder = _module()
    builder.insert(demo.CheckedOp.build(4))
    module.verify()
    builder.insert(demo.CheckedOp.build(3))
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert "'demo.checked' op width must be even" in str(info.value)


def test_type_with_defaulted_parameter(demo):
    assert str(demo.PtrType(f32)) == "!demo.ptr<f32>"
    assert str(demo.PtrType(f32, 3)) == "!demo.ptr<f32, 3>"
    assert parse_type("!demo.ptr<f32, 3>") is demo.PtrType(f32, 3)
    assert parse_type("!demo.ptr<f32>") is demo.PtrType(f32, space=1)


def test_attribute_with_struct_parameters_and_alias(demo):
    layout = demo.LayoutAttr([1, 4], [1, 0])
    assert layout is demo.LayoutAttr((1, 4), (1, 0))
    assert str(layout) == "#demo.layout<{sizePerThread = [1, 4], order = [1, 0]}>"
    assert parse_attribute("#demo.layout<{order = [0], sizePerThread = [2]}>") is \
        demo.LayoutAttr([2], [0])
    tensor = RankedTensorType((128,), f32, layout)
    text = body(f'  %0 = "test.source"() : () -> {tensor}\n')
    printed = roundtrip(text)
    assert printed.startswith("#layout = #demo.layout<{sizePerThread = [1, 4], order = [1, 0]}>")
    assert "tensor<128xf32, #layout>" in printed


def test_pass_base_options_and_statistics(demo_project):
    from .util import load_generated, run_gen

    assert run_gen(demo_project) == 0
    passes = load_generated(demo_project / "generated" / "passes.py", "demo_passes")
    base = passes.PASSES["demo-fuse"]
    assert base is passes.FusePassBase and base.ANCHOR == "builtin.module"
    p = base.from_options_text("factor=4 aggressive=true names=a,b")
    assert (p.factor, p.aggressive, p.names) == (4, True, ("a", "b"))
    assert base().factor == 2 and base().aggressive is False
    assert p.statistics() == {"num-fused": 0}
    assert base.from_options_text(p.options_text()).factor == 4
    from tilecraft.ir.pass_base import PassOptionError

    with pytest.raises(PassOptionError) as info:
        base.from_options_text("factor=lots")
    assert "invalid value 'lots' for option 'factor' of pass 'demo-fuse': expected int" in str(
        info.value)
    with pytest.raises(PassOptionError) as info:
        base.from_options_text("speed=3")
    assert "pass 'demo-fuse' has no option 'speed'" in str(info.value)


def _module():
    from tilecraft.generated.builtin import ModuleOp

    module = ModuleOp.build()
    return module, Builder.at_end(module.body_region.blocks[0])


def _sources(builder, *types):
    return [builder.insert(Operation.create("test.source", result_types=[t])).results[0]
            for t in types]
