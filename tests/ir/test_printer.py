"""The printer: SSA names, blocks, regions, generic and custom forms, aliases, locations."""

from tilecraft.generated.builtin import ModuleOp
from tilecraft.ir import (
    Block, CallSiteLoc, FileLineColLoc, FusedLoc, IntegerAttr, NameLoc, Operation,
    RankedTensorType, StringAttr, UnknownLoc, f32, i32, parse_module, print_op,
)

from .testdialect import FlagAttr, LayoutAttr, SliceAttr


def make(name, operands=(), results=(), **kwargs):
    return Operation.create(name, operands, results, **kwargs)


def module_of(*ops):
    module = ModuleOp.build()
    for op in ops:
        module.regions[0].blocks[0].append(op)
    return module


def test_ssa_numbering_follows_mlir():
    text = '''module {
  "x.func"() ({
  ^bb0(%arg0: i32, %arg1: i32):
    %0 = "x.a"(%arg0) : (i32) -> i32
    %1:2 = "x.b"(%0) : (i32) -> (i32, f32)
    %2 = "x.loop"(%1#1) ({
    ^bb0(%arg2: i32):
      %4 = "x.c"(%arg2, %1#0, %3) : (i32, i32, i32) -> i32
      "x.yield"(%4) : (i32) -> ()
    }) : (f32) -> i32
    %3 = "x.d"() ({
    ^bb0(%arg2: f32):
      %4 = "x.e"() : () -> i32
      "x.br"(%4)[^bb1] : (i32) -> ()
    ^bb1(%5: i32):
      "x.yield"(%5) : (i32) -> ()
    }) : () -> i32
    "x.ret"(%2, %3) : (i32, i32) -> ()
  }) : () -> ()
  "x.func"() ({
  ^bb0(%arg0: i32):
    %0 = "x.a"(%arg0) : (i32) -> i32
  }) : () -> ()
}
'''
    module = parse_module(text, allow_unregistered=True)
    assert print_op(module) == text


def test_printing_an_op_names_values_as_its_module_does():
    module = parse_module('''
        "x.func"() ({
        ^bb0(%arg0: i32):
          %0 = "x.a"(%arg0) : (i32) -> i32
          %1:2 = "x.b"(%0) : (i32) -> (i32, i32)
        }) : () -> ()''', allow_unregistered=True)
    b = module.regions[0].blocks[0].first_op.regions[0].blocks[0].last_op
    assert str(b) == '%1:2 = "x.b"(%0) : (i32) -> (i32, i32)'
    assert str(b.results[1]) == "%1#1 : i32"
    assert str(b.parent.arguments[0]) == "%arg0 : i32"
    lone = make("x.lone", [b.results[0]], [i32])
    assert str(lone) == '%0 = "x.lone"(<<UNKNOWN SSA VALUE>>) : (i32) -> i32'


def test_generic_form_layout():
    block_arg_holder = make("x.cfg", results=[i32], regions=2,
                            properties={"p": IntegerAttr(1, i32)}, attributes={"b": StringAttr("s"), "a": FlagAttr()})
    region = block_arg_holder.regions[0]
    entry = region.add_block()
    target = region.add_block(Block([i32]))
    value = entry.append(make("x.v", results=[i32]))
    entry.append(make("x.br", [value.result], successors=[target, target]))
    target.append(make("x.ret", [target.arguments[0]]))
    block_arg_holder.regions[1].add_block()
    assert print_op(block_arg_holder) == '''%0 = "x.cfg"() <{p = 1 : i32}> ({
  %0 = "x.v"() : () -> i32
  "x.br"(%0)[^bb1, ^bb1] : (i32) -> ()
^bb1(%1: i32):
  "x.ret"(%1) : (i32) -> ()
}, {
^bb0:
}) {a = #tst.flag, b = "s"} : () -> i32
'''


def test_custom_and_generic_forms():
    text = '''module {
  tst.func @f(%arg0: i32) -> i32 attributes {tst.flag} {
    %0 = tst.constant 4 : i32
    %1 = tst.add %arg0, %0 {tag = "t"} : i32
    tst.return %1 : i32
  }
}
'''
    module = parse_module(text)
    assert print_op(module) == text
    assert str(module) + "\n" == text
    generic = print_op(module, generic=True)
    assert generic == '''"builtin.module"() ({
  "tst.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "tst.constant"() <{value = 4 : i32}> : () -> i32
    %1 = "tst.add"(%arg0, %0) {tag = "t"} : (i32, i32) -> i32
    "tst.return"(%1) : (i32) -> ()
  }) {tst.flag} : () -> ()
}) : () -> ()
'''
    assert print_op(parse_module(generic)) == text


def test_elided_terminators_and_entry_blocks():
    text = '''module {
  tst.func @f(%arg0: index) {
    tst.for %arg1 = %arg0 to %arg0 {
      %0 = "x.body"(%arg1) : (index) -> i32
    }
    tst.return
  }
}
'''
    module = parse_module(text, allow_unregistered=True)
    assert print_op(module) == text
    assert '"tst.yield"() : () -> ()' in print_op(module, generic=True)


def test_aliases_are_defined_at_the_top_and_numbered():
    first, second = LayoutAttr((1, 0), 4), LayoutAttr((0, 1), 2)
    t1 = RankedTensorType([4], f32, first)
    t2 = RankedTensorType([4], f32, SliceAttr(0, second))
    a = make("x.a", results=[t1])
    b = make("x.b", [a.result], [t2], attributes={"l": first})
    module = module_of(a, b)
    assert print_op(module) == '''#layout = #tst.layout<{order = [1, 0], warps = 4}>
#layout1 = #tst.layout<{order = [0, 1], warps = 2}>
module {
  %0 = "x.a"() : () -> tensor<4xf32, #layout>
  %1 = "x.b"(%0) {l = #layout} : (tensor<4xf32, #layout>) -> tensor<4xf32, #tst.slice<0, #layout1>>
}
'''
    assert str(t1) == "tensor<4xf32, #tst.layout<{order = [1, 0], warps = 4}>>"
    assert print_op(parse_module(print_op(module), allow_unregistered=True)) == print_op(module)


def test_debuginfo_prints_locations():
    loc = FileLineColLoc("k.py", 3, 4)
    op = make("x.a", results=[i32], location=NameLoc("n", loc))
    holder = make("x.h", regions=1, location=CallSiteLoc(loc, FusedLoc([loc, UnknownLoc()], FlagAttr())))
    holder.regions[0].add_block(Block([i32], [FileLineColLoc("k.py", 1, 1, 1, 9)])).append(op)
    # MLIR's location aliases: by depth, then in the order met (the op's location before its
    # body); a block argument's are defined before the op, the others after it
    assert print_op(holder, print_debuginfo=True) == '''#loc2 = loc("k.py":1:1 to :9)
"x.h"() ({
^bb0(%arg0: i32 loc("k.py":1:1 to :9)):
  %0 = "x.a"() : () -> i32 loc(#loc4)
}) : () -> () loc(#loc5)
#loc = loc("k.py":3:4)
#loc1 = loc(unknown)
#loc3 = loc(fused<#tst.flag>[#loc, #loc1])
#loc4 = loc("n"(#loc))
#loc5 = loc(callsite(#loc at #loc3))
'''
    assert print_op(holder) == '''"x.h"() ({
^bb0(%arg0: i32):
  %0 = "x.a"() : () -> i32
}) : () -> ()
'''
    assert str(FileLineColLoc("a", 1, 2, 3, 4)) == 'loc("a":1:2 to 3:4)'
    assert str(UnknownLoc()) == "loc(unknown)" and str(NameLoc("x")) == 'loc("x")'


def test_locations_a_block_argument_shows_are_defined_before_the_op():
    loc = FileLineColLoc("k.py", 1, 1)
    holder = make("x.h", regions=1, location=loc)
    block = holder.regions[0].add_block(Block([i32], [NameLoc("a", loc)]))
    block.append(make("x.a", results=[i32], location=loc))
    text = print_op(holder, print_debuginfo=True)
    assert text == '''#loc = loc("k.py":1:1)
#loc1 = loc("a"(#loc))
"x.h"() ({
^bb0(%arg0: i32 loc("a"(#loc))):
  %0 = "x.a"() : () -> i32 loc(#loc)
}) : () -> () loc(#loc)
'''
    again = parse_module(text, allow_unregistered=True).regions[0].blocks[0].ops[0]
    assert print_op(again, print_debuginfo=True) == text


def test_op_names_are_quoted_and_escaped_in_generic_form():
    assert print_op(make('we"ird.op')) == '"we\\22ird.op"() : () -> ()\n'
    assert print_op(make("x.f", results=[i32, f32])) == '%0:2 = "x.f"() : () -> (i32, f32)\n'
