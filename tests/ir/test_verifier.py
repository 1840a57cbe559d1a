"""Operation.verify: structural checks and every trait's check, with MLIR's messages."""

import pytest

from tilecraft.ir import (
    AlwaysSpeculatable, AttrSizedOperandSegments, AttrSizedResultSegments, Block, Commutative,
    ConstantLike, DenseArrayAttr, Elementwise, FileLineColLoc, FunctionLike, FunctionType,
    HasParent, IntegerAttr, IsolatedFromAbove, MemAlloc, MemFree, MemRead, MemWrite,
    NoMemoryEffect, NoTerminator, Operation, ParseError, Pure, RankedTensorType, RecursiveMemoryEffects,
    ReturnLike, SameOperandsAndResultElementType, SameOperandsAndResultEncoding,
    SameOperandsAndResultShape, SameOperandsAndResultType, SameOperandsElementType,
    SameOperandsEncoding, SameOperandsShape, SameTypeOperands, SameVariadicOperandSize,
    SameVariadicResultSize, SingleBlock, StringAttr, Symbol, SymbolTable, Terminator, TypeAttr,
    VerificationError, f32, has_side_effects, i8, i32, parse_module,
)

from .testdialect import LayoutAttr


def op_class(*traits, name="v.op", verify_invariants=None):
    namespace = {"__slots__": (), "OPERATION_NAME": name, "TRAITS": traits}
    if verify_invariants is not None:
        namespace["verify_invariants"] = verify_invariants
    return type("TestOp", (Operation,), namespace)


def values(*types):
    return [Operation.create("x.def", (), [t]).result for t in types]


def check(cls, operands=(), results=(), message=None, **kwargs):
    op = cls.create(cls.OPERATION_NAME, operands, results, **kwargs)
    if message is None:
        op.verify()
        return op
    with pytest.raises(VerificationError) as info:
        op.verify()
    assert info.value.message == f"'{cls.OPERATION_NAME}' op {message}"
    return op


T4 = RankedTensorType([4], f32)
T8 = RankedTensorType([8], f32)
L1, L2 = LayoutAttr((0,), 1), LayoutAttr((0,), 2)


def test_same_operands_and_result_type():
    cls = op_class(SameOperandsAndResultType)
    check(cls, values(i32, i32), [i32])
    check(cls, values(i32, f32), [i32], "requires the same type for all operands and results")
    check(cls, (), [i32], "expected 1 or more operands, but found 0")


def test_same_type_operands():
    cls = op_class(SameTypeOperands)
    check(cls, values(i32, i32), [f32])
    check(cls, values(i32, i8), [], "requires all operands to have the same type")


def test_shape_traits_treat_scalars_as_shapeless():
    cls = op_class(SameOperandsAndResultShape)
    check(cls, values(T4, RankedTensorType([4], i32)), [T4])
    check(cls, values(i32, f32), [i32])
    check(cls, values(T4), [T8], "requires the same shape for all operands and results")
    check(cls, values(T4), [f32], "requires the same shape for all operands and results")
    check(cls, values(RankedTensorType([None], f32)), [T4])
    check(op_class(SameOperandsShape), values(T4, T8), [], "requires the same shape for all operands")


def test_element_type_traits():
    cls = op_class(SameOperandsAndResultElementType)
    check(cls, values(T4, f32), [T8])
    check(cls, values(T4), [i32], "requires the same element type for all operands and results")
    check(op_class(SameOperandsElementType), values(T4, i32), [], "requires the same element type for all operands")


def test_encoding_traits_ignore_missing_encodings():
    cls = op_class(SameOperandsAndResultEncoding)
    a, b = RankedTensorType([4], f32, L1), RankedTensorType([4], f32, L2)
    check(cls, values(a, T4, i32), [a])
    check(cls, values(a), [b], "requires the same encoding for all operands and results")
    check(op_class(SameOperandsEncoding), values(a, b), [], "requires the same encoding for all operands")


def test_elementwise():
    cls = op_class(Elementwise)
    check(cls, values(T4, f32), [T4])
    check(cls, values(i32), [i32])
    check(cls, values(T4), [T8], "all non-scalar operands/results must have the same shape and base type")
    check(cls, values(T4), [f32], "if an operand is non-scalar, then there must be at least one non-scalar result")
    check(cls, values(T4), [T4, f32], "if an operand is non-scalar, then all results must be non-scalar")
    check(cls, values(f32), [T4], "if a result is non-scalar, then at least one operand must be non-scalar")


def test_terminator_must_end_its_block():
    term = op_class(Terminator, name="v.term")
    block = Block()
    first = block.append(term.create("v.term"))
    block.append(Operation.create("x.after"))
    with pytest.raises(VerificationError, match="'v.term' op must be the last operation in the parent block"):
        first.verify()


def test_blocks_of_registered_ops_need_terminators():
    holder = op_class(name="v.holder")
    op = check(holder, regions=1)
    block = op.regions[0].add_block()
    check_raises(op, "'v.holder' op empty block: expect at least a terminator")
    block.append(op_class(name="v.plain").create("v.plain"))
    check_raises(op, "'v.plain' op block with no terminator, has 'v.plain'")
    block.append(Operation.create("x.unknown"))  # an unregistered op may be a terminator
    op.verify()
    op_class(NoTerminator, name="v.free").create("v.free", regions=1).verify()


def check_raises(op, message):
    with pytest.raises(VerificationError) as info:
        op.verify()
    assert info.value.message == message


def test_single_block():
    cls = op_class(SingleBlock, NoTerminator)
    op = check(cls, regions=1)
    op.regions[0].add_block()
    op.verify()
    op.regions[0].add_block()
    check_raises(op, "'v.op' op expects region #0 to have 0 or 1 blocks")
    needs = op_class(SingleBlock, name="v.needs").create("v.needs", regions=1)
    needs.regions[0].add_block()
    check_raises(needs, "'v.needs' op expects a non-empty block")


def test_isolated_from_above():
    isolated = op_class(IsolatedFromAbove, NoTerminator, name="v.isolated")
    outside = values(i32)[0]
    op = isolated.create("v.isolated", regions=1)
    inner = op.regions[0].add_block(Block([i32]))
    inner.append(Operation.create("x.use", [inner.arguments[0]]))
    op.verify()
    inner.append(Operation.create("x.use", [outside]))
    with pytest.raises(VerificationError) as info:
        op.verify()
    assert info.value.message == "'x.use' op using value defined outside the region"
    assert info.value.notes[0][1] == "required by region isolation constraints"
    with pytest.raises(ParseError, match="use of undeclared SSA value %0"):
        parse_module('''
            %0 = "x.a"() : () -> i32
            "tst.func"() <{function_type = () -> (), sym_name = "f"}> ({
              "x.use"(%0) : (i32) -> ()
            }) : () -> ()''', allow_unregistered=True)


def test_has_parent():
    child = op_class(HasParent.of("v.parent"), name="v.child")
    many = op_class(HasParent.of("v.a", "v.b"), name="v.many")
    assert HasParent.of("v.a", "v.b") is HasParent.of("v.a", "v.b")
    check(child, message="expects parent op 'v.parent'")
    check(many, message="expects parent op to be one of 'v.a, v.b'")
    parent = op_class(NoTerminator, name="v.parent").create("v.parent", regions=1)
    parent.regions[0].add_block().append(child.create("v.child"))
    parent.verify()


def test_segment_sizes():
    cls = op_class(AttrSizedOperandSegments)
    ops = values(i32, i32, i32)
    sizes = DenseArrayAttr(i32, [1, 2])
    check(cls, ops, properties={"operandSegmentSizes": sizes})
    check(cls, ops, message="requires dense i32 array attribute 'operandSegmentSizes'")
    check(cls, ops, properties={"operandSegmentSizes": DenseArrayAttr(i32, [2, -1, 2])},
          message="'operandSegmentSizes' attribute cannot have negative elements")
    check(cls, ops, properties={"operandSegmentSizes": DenseArrayAttr(i32, [1, 1])},
          message="operand count (3) does not match with the total size (2) specified in attribute 'operandSegmentSizes'")
    check(op_class(AttrSizedResultSegments), (), [i32], properties={"resultSegmentSizes": DenseArrayAttr(i32, [0])},
          message="result count (1) does not match with the total size (0) specified in attribute 'resultSegmentSizes'")


def test_symbols_and_symbol_tables():
    sym = op_class(Symbol, name="v.sym")
    check(sym, properties={"sym_name": StringAttr("a")})
    check(sym, message="requires string attribute 'sym_name'")
    check(sym, properties={"sym_name": StringAttr("a"), "sym_visibility": StringAttr("hidden")},
          message='visibility expected to be one of ["public", "private", "nested"], but got "hidden"')
    table = op_class(SymbolTable, NoTerminator, name="v.table").create("v.table", regions=1)
    block = table.regions[0].add_block()
    for line in (3, 7):
        block.append(sym.create("v.sym", properties={"sym_name": StringAttr("a")},
                                location=FileLineColLoc("s.mlir", line, 1)))
    with pytest.raises(VerificationError) as info:
        table.verify()
    assert info.value.message == "redefinition of symbol named 'a'"
    assert str(info.value).startswith("s.mlir:7:1: error: redefinition of symbol named 'a'")
    assert "s.mlir:3:1: note: see existing symbol definition here" in str(info.value)
    assert SymbolTable.lookup(table, "a") is block.first_op and SymbolTable.lookup(table, "b") is None
    check(op_class(SymbolTable, name="v.t2"), message="Operations with a 'SymbolTable' must have exactly one region")


def test_function_like():
    func = op_class(FunctionLike, NoTerminator, name="v.func")
    fty = TypeAttr(FunctionType([i32], []))
    check(func, message="requires a 'function_type' attribute of function type")
    op = check(func, properties={"function_type": fty}, regions=1)
    op.regions[0].add_block(Block([f32]))
    check_raises(op, "'v.func' op type of entry block argument #0(f32) must match the type of the "
                     "corresponding argument in function signature(i32)")
    op.regions[0].blocks[0].add_argument(i32)
    check_raises(op, "'v.func' op entry block must have 1 arguments to match function signature")


def test_constant_like():
    cls = op_class(ConstantLike)
    check(cls, (), [i32])
    check(cls, values(i32), [i32], "requires zero operands")
    check(cls, (), [], "requires one result")


def test_invariants_run_before_traits_and_operands_must_dominate():
    def verify_invariants(self):
        raise self.emit_error("custom check failed")

    check(op_class(SameTypeOperands, verify_invariants=verify_invariants), message="custom check failed")
    module = parse_module('''
        "x.r"() ({
          "x.use"(%0) : (i32) -> ()
          %0 = "x.def"() : () -> i32
        }) : () -> ()''', allow_unregistered=True)
    with pytest.raises(VerificationError, match="'x.use' op operand #0 does not dominate this use"):
        module.verify()


def test_errors_point_at_parsed_source():
    module = parse_module('module {\n  %0 = "tst.add"() : () -> i32\n}', "v.mlir")
    with pytest.raises(VerificationError) as info:
        module.verify()
    assert str(info.value) == ("v.mlir:2:3: error: 'tst.add' op expected 1 or more operands, but found 0\n"
                               '  %0 = "tst.add"() : () -> i32\n'
                               "  ^")
    op = module.regions[0].blocks[0].first_op
    assert op.emit_error("x").op is op


def test_side_effects():
    def made(*traits, regions=0):
        return op_class(*traits, NoTerminator).create("v.op", regions=regions)

    assert not has_side_effects(made(Pure)) and not has_side_effects(made(NoMemoryEffect))
    assert made(Pure).has_trait(NoMemoryEffect) and made(Pure).has_trait(AlwaysSpeculatable)
    for effect in (MemRead, MemWrite, MemAlloc, MemFree):
        assert has_side_effects(made(effect))
    assert has_side_effects(made()) and has_side_effects(Operation.create("x.unknown"))
    loop = made(RecursiveMemoryEffects, regions=1)
    body = loop.regions[0].add_block()
    body.append(made(Pure))
    assert not has_side_effects(loop)
    body.append(made(MemWrite))
    assert has_side_effects(loop)
    markers = op_class(Commutative, ReturnLike, SameVariadicOperandSize, SameVariadicResultSize)
    check(markers, values(i32))
    assert IntegerAttr(1, i32).value == 1
