"""The parser: round trips, SSA and block scoping, locations, aliases and every error."""

import pickle

import pytest

from tilecraft.ir import (
    CallSiteLoc, FileLineColLoc, FusedLoc, IntegerAttr, NameLoc, Operation, ParseError, Parser,
    UnknownLoc, i32, parse_attribute, parse_module, parse_op, parse_type, print_op,
)

from .testdialect import ConstantOp, LayoutAttr

ATTRIBUTES = (
    '{a = 1 : i32, b = -2 : i8, c = 3 : i64, d = true, e = 1.500000e+00 : f32, f = 2.000000e+00 : f64, '
    'g = "s\\0A", h = [1, "x", [unit]], i = {k = @sym::@nested}, j = dense<[[1, 2], [3, 4]]> : '
    'tensor<2x2xi32>, k = dense<0.000000e+00> : tensor<4xf16>, l = array<i32: 1, 2>, '
    'm = array<f32>, n = tensor<4x?xbf16>, o = (i32) -> (), p, q = 0x7FC00000 : f32, '
    'r = #layout, s = #tst.slice<1, #layout1>, t = !tst.ptr<f32>, "u-v" = 200 : ui8, '
    'w = 5 : si16, x = 7 : index, y = dense<[true, false]> : tensor<2xi1>}'
)


def big_module_text(repeats: int = 6) -> str:
    """A canonical module of about 100 ops: custom and generic forms, nested regions, CFG
    blocks, multi-results and every attribute kind."""
    body = []
    for n in range(repeats):
        body.append(f'''  tst.func @f{n}(%arg0: i32, %arg1: index, %arg2: tensor<4xf32, #layout>) -> i32 attributes {{tst.flag}} {{
    %0 = tst.constant {n} : i32
    %1 = tst.add %arg0, %0 : i32
    %2:2 = "x.pair"(%1) {ATTRIBUTES} : (i32) -> (i32, f32)
    %3 = tst.for %arg3 = %arg1 to %arg1 iter_args(%arg4 = %2#0) -> (i32) {{
      %8 = tst.add %arg4, %1 : i32
      %9 = "x.nested"(%8) ({{
      ^bb0(%arg5: i32):
        %10 = "x.deep"(%arg5, %8) : (i32, i32) -> i32
        "x.yield"(%10) : (i32) -> ()
      }}) : (i32) -> i32
      tst.yield %9 : i32
    }}
    tst.for %arg3 = %arg1 to %arg1 {{
      %8 = "x.effect"(%arg3) : (index) -> tensor<4xf32, #layout>
    }}
    %4 = "x.cfg"(%3) ({{
      %8 = "x.cond"() : () -> i1
      "x.cond_br"(%8)[^bb1, ^bb2] : (i1) -> ()
    ^bb1:
      "x.br"(%3)[^bb3] : (i32) -> ()
    ^bb2:
      tst.br ^bb3
    ^bb3(%9: i32):
      "x.yield"(%9) : (i32) -> ()
    }}, {{
    ^bb0:
    }}) : (i32) -> i32
    %5 = "x.tensor"(%arg2) <{{axis = 0 : i32}}> : (tensor<4xf32, #layout>) -> tensor<4xf32, #tst.slice<0, #layout1>>
    %6 = "x.ptr"() : () -> !tst.ptr<tensor<2x!tst.ptr<f16>>>
    %7 = tst.add %4, %3 : i32
    tst.return %7 : i32
  }}''')
    return ("#layout = #tst.layout<{order = [1, 0], warps = 4}>\n"
            "#layout1 = #tst.layout<{order = [0], warps = 2}>\n"
            'module attributes {tst.name = "m", "ttg.num-warps" = 4 : i32} {\n'
            + "\n".join(body) + "\n}\n")


def test_big_module_round_trips_in_both_forms():
    text = big_module_text()
    module = parse_module(text, allow_unregistered=True)
    assert sum(1 for _ in module.walk()) > 100
    assert print_op(module) == text
    module.verify()
    generic = print_op(module, generic=True)
    again = parse_module(generic, allow_unregistered=True)
    assert print_op(again, generic=True) == generic
    assert print_op(again) == text
    with_locs = print_op(module, print_debuginfo=True)
    assert print_op(parse_module(with_locs, allow_unregistered=True), print_debuginfo=True) == with_locs


def test_parsed_ops_are_located_at_their_text():
    module = parse_module('module {\n  %0 = "x.a"() : () -> i32\n    "x.b"(%0) : (i32) -> ()\n}',
                          "in.mlir", allow_unregistered=True)
    a, b = module.regions[0].blocks[0]
    assert (a.location.file, a.location.line, a.location.col) == ("in.mlir", 2, 3)
    assert a.location == FileLineColLoc("in.mlir", 2, 3)
    assert (b.location.line, b.location.col) == (3, 5)
    assert str(b.location) == 'loc("in.mlir":3:5)'
    assert pickle.loads(pickle.dumps(b.location)) == FileLineColLoc("in.mlir", 3, 5)
    nested = CallSiteLoc(NameLoc("n", b.location), FusedLoc([UnknownLoc()], None))
    assert pickle.loads(pickle.dumps(nested)) == nested
    assert module.location == FileLineColLoc("in.mlir", 1, 1)


def test_locations_and_location_aliases():
    module = parse_module('''#loc = loc("k.py":1:0)
module {
  "x.a"() : () -> () loc(#loc)
  "x.b"() : () -> () loc(#loc3)
  "x.c"() ({
  ^bb0(%arg0: i32 loc(#loc1)):
    "x.d"() : () -> () loc(fused<#tst.flag>["a":1:2, unknown])
  }) : () -> () loc("name"("f.py":3:4 to :8))
} loc(#loc)
#loc1 = loc("k.py":2:5)
#loc2 = loc("callee"(#loc1))
#loc3 = loc(callsite(#loc2 at #loc))
''', allow_unregistered=True)
    a, b, c = module.regions[0].blocks[0]
    base = FileLineColLoc("k.py", 1, 0)
    assert a.location == base and module.location == base
    assert b.location == CallSiteLoc(NameLoc("callee", FileLineColLoc("k.py", 2, 5)), base)
    assert c.location == NameLoc("name", FileLineColLoc("f.py", 3, 4, 3, 8))
    assert c.regions[0].blocks[0].arguments[0].location == FileLineColLoc("k.py", 2, 5)
    d = c.regions[0].blocks[0].first_op
    assert isinstance(d.location, FusedLoc) and d.location.locations[1] is UnknownLoc()


def test_forward_references_within_a_region():
    module = parse_module('''
        "x.graph"() ({
          %0 = "x.a"(%1) : (i32) -> i32
          %1 = "x.b"(%0, %2#1) : (i32, f32) -> i32
          %2:2 = "x.c"() : () -> (i32, f32)
        }) : () -> ()''', allow_unregistered=True)
    a, b, c = module.regions[0].blocks[0].first_op.regions[0].blocks[0]
    assert a.operands == (b.result,) and b.operands == (a.result, c.results[1])
    assert b.result.users == [a]


def test_comments_are_skipped():
    module = parse_module('''// leading comment
        %0 = "x.a"() : () -> i32 // trailing comment with "quotes" and %names
        // "x.b"(%0) : (i32) -> ()
        "x.c"(%0) : (i32) -> ()''', allow_unregistered=True)
    assert [op.name for op in module.regions[0].blocks[0]] == ["x.a", "x.c"]


def test_value_scopes_follow_regions():
    module = parse_module('''
        %0 = "x.a"() : () -> i32
        "x.r"() ({
          %1 = "x.b"(%0) : (i32) -> i32
        }) : () -> ()
        "x.r"() ({
          %1 = "x.c"(%0) : (i32) -> i32
        }) : () -> ()''', allow_unregistered=True)
    assert [op.name for op in module.walk()] == ["builtin.module", "x.a", "x.r", "x.b", "x.r", "x.c"]


def test_result_groups_and_hash_uses():
    op = parse_op('''"x.r"() ({
      %a, %b:2 = "x.three"() : () -> (i32, i32, f32)
      "x.use"(%a#0, %b, %b#1, %a) : (i32, i32, f32, i32) -> ()
    }) : () -> ()''', allow_unregistered=True)
    three, use = op.regions[0].blocks[0]
    assert use.operands == (three.results[0], three.results[1], three.results[2], three.results[0])


def test_top_level_ops_are_wrapped_in_a_module():
    module = parse_module('"x.a"() : () -> ()\n"x.b"() : () -> ()', allow_unregistered=True)
    assert module.name == "builtin.module" and len(module.regions[0].blocks[0]) == 2
    single = parse_module('tst.func @f() {\n  tst.return\n}')
    assert single.name == "builtin.module" and single.regions[0].blocks[0].first_op.name == "tst.func"
    assert print_op(parse_module("")) == "module {\n}\n"
    named = parse_module("module @m attributes {a} {\n}")
    assert named.properties["sym_name"].value == "m" and print_op(named) == "module @m attributes {a} {\n}\n"


def test_inherent_attributes_in_a_generic_dictionary_become_properties():
    op = parse_op('%0 = "tst.constant"() {value = 3 : i32, other} : () -> i32')
    assert isinstance(op, ConstantOp)
    assert op.properties == {"value": IntegerAttr(3, i32)} and list(op.attributes) == ["other"]
    assert print_op(op) == "%0 = tst.constant {other} 3 : i32\n"


def test_type_and_attribute_aliases():
    module = parse_module('''#l = #tst.layout<{order = [0], warps = 1}>
!t = tensor<4xf32, #l>
#s = "str"
"x.a"() {s = #s} : () -> !t''', allow_unregistered=True)
    a = module.regions[0].blocks[0].first_op
    assert a.attributes["s"].value == "str"
    assert a.result.type.encoding is LayoutAttr((0,), 1)


def test_custom_parser_helpers():
    text = 'x 12 -3 0x1F 2.5 "s" @sym kw(%a, %b) ... ^bb4'
    parser = Parser(text)
    assert parser.parse_keyword("x") == "x"
    assert parser.parse_integer() == 12 and parser.parse_optional_integer() == -3
    assert parser.parse_integer() == 31 and parser.parse_float() == 2.5
    assert parser.parse_optional_keyword() is None and parser.parse_string() == "s"
    assert parser.parse_optional_string() is None and parser.parse_symbol_name() == "sym"
    assert parser.parse_optional_keyword(("a", "kw")) == "kw"
    assert parser.parse_optional_punct("(") and [u.name for u in parser.parse_operand_list()] == ["%a", "%b"]
    parser.parse_punct(")")
    assert parser.parse_optional_punct("...")
    assert parser.location.line == 1 and parser.location.col == text.index("^bb4") + 1
    assert parser.parse_optional_successor() is not None
    assert parse_type("i32") is i32 and parse_attribute("3 : i32") is IntegerAttr(3, i32)


def error_of(text, **kwargs):
    with pytest.raises(ParseError) as info:
        parse_module(text, "t.mlir", **kwargs)
    return info.value


@pytest.mark.parametrize("text,message,line,col", [
    ('"x.a"() : () -> ()', "unregistered operation 'x.a'", 1, 1),
    ('"tst.add"(%0) : (i32) -> i32', "use of undeclared SSA value %0", 1, 11),
    ('%0 = "tst.constant"() {value = 1 : i32} : () -> i32\n%0 = "tst.constant"() {value = 1 : i32} : () -> i32',
     "redefinition of SSA value '%0'", 2, 1),
    ('%0 = "tst.constant"() {value = 1 : i32} : () -> i32\n"tst.add"(%0) : (i32, i32) -> i32',
     "expected 1 operand types but had 2", 2, 11),
    ('%0 = "tst.constant"() {value = 1 : i32} : () -> i32\n"tst.add"(%0 : (i32) -> i32',
     "expected ')' after the operands but found ':'", 2, 14),
    ('"tst.add"() : (i32 -> i32', "expected ')' after the operand types but found '->'", 1, 20),
    ('%0 = "tst.constant"() {value = 1 : i32} : () -> i32\n"tst.add"(%0, %0) : (f32, f32) -> f32',
     "use of value '%0' expects different type than prior uses: 'f32' vs 'i32'", 2, 11),
    ('%0, %1 = "tst.constant"() {value = 1 : i32} : () -> i32', "operation defines 1 results but was provided 2 to bind", 1, 1),
    ('tst.bogus %0', "custom op 'tst.bogus' is unknown", 1, 1),
    ('tst.br ^bb1', "reference to an undefined block", 1, 8),
    ('"tst.scope"() ({\n^bb0:\n^bb0:\n}) : () -> ()', "redefinition of block '^bb0'", 3, 1),
    ('"tst.scope"() ({\n"tst.scope"() ({\n}) : () -> ()', "expected '}' to end the region but found end of file", 3, 14),
    ("%0 = tst.constant 1 : i32\n%1 = tst.add %0, %0 : f32", "use of value '%0' expects different type than prior uses: 'f32' vs 'i32'", 2, 14),
    ('%0 = tst.constant 1 : tensor<4x4xf32>', "integer literal not valid for specified type", 1, 19),
    ('%0 = tst.constant 1 : f32', "unexpected decimal integer literal for a floating point value "
     "(add a trailing dot to make it a float)", 1, 19),
    ('%0 = tst.constant #nope', "undefined symbol alias id 'nope'", 1, 19),
    ('%0 = tst.constant {a = 1, a = 2} 1 : i32', "duplicate key 'a' in dictionary attribute", 1, 27),
    ('%0 = tst.constant 1 : tensor<4xf32', "expected '>' but found end of file", 1, 35),
    ('%0 = tst.constant 1 : tensor<4f32>', "expected 'x' in dimension list but found 'f32'", 1, 31),
    ('%0 = tst.constant "abc', "unterminated string literal", 1, 19),
    ('%0 = tst.constant $', "expected attribute value but found '$'", 1, 19),
    ('%0 = "tst.constant"() : () i32', "expected '->' in the operation type but found 'i32'", 1, 28),
    ('"tst.func"() ({\n^bb0(%a: i32):\n  %b = "tst.add"(%a, %c) : (i32, i32) -> i32\n}) : () -> ()\n%c = "tst.constant"() {value = 1 : i32} : () -> i32',
     "use of undeclared SSA value %c", 3, 22),
    ('#a = 1\n#a = 2', "redefinition of attribute alias id 'a'", 2, 1),
    ('#a.b = 1', "alias names with a '.' are reserved for dialect-defined names: '#a.b'", 1, 1),
    ('"tst.scope"() ({\n  "tst.br"(%x#3)[^bb1] : (i32) -> ()\n^bb1:\n  %x:2 = "tst.load"() : () -> (i32, i32)\n}) : () -> ()',
     "use of undeclared SSA value %x#3", 2, 12),
    ('= 3', "expected operation name but found '='", 1, 1),
    ('"tst.add"() : () -> i32 loc(bogus)', "expected location but found 'bogus'", 1, 29),
    ('"tst.add"() : () -> i32 loc(#missing)', "undefined symbol alias id 'missing'", 1, 29),
    ('%0 = "tst.load"() : () -> tensor<*xf32>', "unranked tensors are not supported", 1, 34),
    ('%0 = "tst.load"() : () -> !nodialect.t', "unregistered dialect 'nodialect' in type '!nodialect.t'", 1, 27),
    ('%0 = "tst.load"() : () -> !tst.nope', "unknown type 'nope' in dialect 'tst'", 1, 27),
    ('%0 = "tst.load"() : () -> #tst.flag', "expected type but found '#tst.flag'", 1, 27),
    ('%0 = "tst.load"() {a = #tst.nope} : () -> i32', "unknown attribute 'nope' in dialect 'tst'", 1, 24),
    ('%0 = "tst.load"() {a = #tst.layout<{order = [1], warps = 4}} : () -> i32',
     "expected '>' but found '}'", 1, 60),
    ('tst.func @f(%a: i32) {\n^bb0:\n}', "invalid block name in region with named arguments", 2, 1),
    ('%0:2 = tst.constant 1 : i32', "operation defines 1 results but was provided 2 to bind", 1, 1),
    ('%0#1 = tst.constant 1 : i32', "expected SSA result name but found '%0#1'", 1, 1),
    ('%0 = "tst.load"() : () -> i32 %1', "expected '=' after the result names but found end of file",
     1, 33),
    ('"tst.scope"() [^bb0] : () -> ()', "reference to an undefined block", 1, 16),
    ('"tst.scope"() <{a}> ({\n  "tst.scope"(%0) : (i32) -> ()\n}) : () -> ()', "use of undeclared SSA value %0", 2, 15),
])
def test_parse_errors(text, message, line, col):
    error = error_of(text)
    assert error.message == message
    assert (error.loc.file, error.loc.line, error.loc.col) == ("t.mlir", line, col)
    rendered = str(error).splitlines()
    assert rendered[0] == f"t.mlir:{line}:{col}: error: {message}"
    assert rendered[1] == text.splitlines()[line - 1] if text.strip() else True
    assert rendered[2] == " " * (col - 1) + "^"


@pytest.mark.parametrize("text,prior", [
    ("%0 = tst.constant 1 : i32\n%1 = tst.add %0, %0 : f32", (1, 1)),
    ('"tst.func"() ({\n^bb0(%a: i32):\n  %b = tst.add %a, %a : f32\n}) : () -> ()', (2, 6)),
    ('"tst.scope"() ({\n  "tst.add"(%x) : (i32) -> i32\n  "tst.add"(%x) : (f32) -> f32\n'
     '  %x = tst.constant 1 : i32\n}) : () -> ()', (2, 13)),
])
def test_type_mismatch_notes_the_prior_use(text, prior):
    """As MLIR, the note points at the definition, or at the first use of a forward reference."""
    error = error_of(text)
    assert error.message.startswith("use of value ")
    [(loc, note)] = error.notes
    assert note == "prior use here" and (loc.line, loc.col) == prior


def test_unregistered_ops_parse_when_allowed():
    op = parse_op('%0 = "foo.bar"() : () -> !foo.t', allow_unregistered=True)
    assert type(op) is Operation and op.name == "foo.bar" and str(op.result.type) == "!foo.t"


def test_parse_op_needs_exactly_one_op():
    with pytest.raises(ParseError, match="expected a single operation, found 2"):
        parse_op('"x.a"() : () -> ()\n"x.a"() : () -> ()', allow_unregistered=True)


def test_text_may_end_in_comments():
    text = 'module {\n  "t.x"() : () -> ()\n}\n// CHECK: module\n// CHECK-NEXT: t.x\n'
    assert str(parse_module(text, allow_unregistered=True)) == 'module {\n  "t.x"() : () -> ()\n}'
    with pytest.raises(ParseError) as info:
        parse_module('module {\n  "t.x"() : () -> ()\n// the end\n', allow_unregistered=True)
    assert "4:1: error: expected '}' to end the region but found end of file" in str(info.value)
