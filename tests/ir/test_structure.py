"""Values and uses, operations in blocks, regions, walking, cloning and the builder."""

import pytest

from tilecraft.generated.builtin import ModuleOp
from tilecraft.ir import (
    Block, Builder, IntegerAttr, Operation, Region, StringAttr, f32, i32,
    parse_module, print_op,
)

from .testdialect import AddOp, ConstantOp


def make(name, operands=(), results=(), regions=0, successors=()):
    return Operation.create(name, operands, results, regions=regions, successors=successors)


def test_create_uses_the_registered_class():
    assert type(make("tst.add")) is AddOp
    assert type(make("unknown.op")) is Operation and make("unknown.op").name == "unknown.op"
    assert not make("unknown.op").is_registered and make("tst.add").is_registered
    assert type(AddOp.create("tst.add")) is AddOp
    with pytest.raises(TypeError, match="is not a Value"):
        make("x.y", [3])
    with pytest.raises(TypeError, match="is not a Type"):
        make("x.y", (), ["i32"])
    with pytest.raises(TypeError, match="is not an Attribute"):
        Operation.create("x.y", attributes={"a": 1})


def test_operands_results_and_use_lists():
    a = make("x.def", results=[i32])
    b = make("x.def", results=[i32, f32])
    user = make("x.use", [a.result, b.results[0], a.result], [i32])
    assert user.operands == (a.result, b.results[0], a.result)
    assert user.num_operands == 3 and user.get_operand(1) is b.results[0]
    assert [u.index for u in a.result.uses] == [0, 2] and a.result.users == [user]
    assert b.results[0].has_one_use() and b.results[1].use_empty()
    assert b.results[1].index == 1 and b.results[1].defining_op is b
    with pytest.raises(ValueError, match="has 2 results"):
        b.result
    user.set_operand(0, b.results[1])
    assert a.result.has_one_use() and b.results[1].uses[0].owner is user
    user.set_operands([a.result])
    assert user.operands == (a.result,) and b.results[0].use_empty() and b.results[1].use_empty()
    assert user.op_operands[0].value is a.result


def test_replace_all_uses_with():
    a, b = make("x.def", results=[i32]), make("x.def", results=[i32])
    users = [make("x.use", [a.result, a.result]) for _ in range(3)]
    a.result.replace_all_uses_with(b.result)
    assert a.result.use_empty() and len(b.result.uses) == 6
    assert all(u.operands == (b.result, b.result) for u in users)
    b.result.replace_uses_with_if(a.result, lambda use: use.index == 1)
    assert all(u.operands == (b.result, a.result) for u in users)


def test_block_linked_list():
    block = Block([i32, f32])
    assert [arg.index for arg in block.arguments] == [0, 1] and block.arguments[1].type is f32
    x, y, z = make("x.x"), make("x.y"), make("x.z")
    block.append(y)
    block.prepend(x)
    block.append(z)
    assert [op.name for op in block] == ["x.x", "x.y", "x.z"] and len(block) == 3
    assert block.first_op is x and block.last_op is z and y.prev_op is x and y.next_op is z
    w = block.insert_before(z, make("x.w"))
    v = block.insert_after(x, make("x.v"))
    assert [op.name for op in block] == ["x.x", "x.v", "x.y", "x.w", "x.z"]
    assert x.is_before_in_block(w) and not w.is_before_in_block(x)
    w.move_before(x)
    v.move_after(z)
    assert [op.name for op in block] == ["x.w", "x.x", "x.y", "x.z", "x.v"]
    assert y.detach() is y and y.parent is None and len(block) == 4
    with pytest.raises(ValueError, match="already in a block"):
        Block().append(x)
    for op in block:  # erasing the current op while iterating is safe
        op.erase()
    assert block.first_op is None and block.last_op is None and len(block) == 0 and block



def test_order_in_block_follows_insertions_moves_and_parsing():
    """`is_before_in_block` answers from order indices: they follow insertions anywhere (with
    and without room between neighbours), erasures, moves to another block and parsed IR."""
    block = Block()
    ops = [block.append(make("x.a")) for _ in range(4)]
    assert ops[0].is_before_in_block(ops[3]) and not ops[3].is_before_in_block(ops[0])
    first, last = ops[0], ops[-1]
    for _ in range(40):  # more insertions between two neighbours than the gap holds
        ops.insert(ops.index(first) + 1, block.insert_after(first, make("x.b")))
        ops.insert(ops.index(last), block.insert_before(last, make("x.c")))
        ops.insert(0, block.prepend(make("x.d")))
        ops.append(block.append(make("x.e")))
        assert list(block) == ops
        for a, b in ((ops[0], ops[1]), (ops[1], ops[-2]), (ops[len(ops) // 2], ops[-1])):
            assert a.is_before_in_block(b) and not b.is_before_in_block(a)
    middle = ops.pop(len(ops) // 2)
    middle.erase()
    assert ops[len(ops) // 2 - 1].is_before_in_block(ops[len(ops) // 2])
    other = Block()
    moved = other.append(make("x.f"))
    ops[-1].detach()
    other.prepend(ops.pop())
    assert other.first_op.is_before_in_block(moved)
    ops[0].move_after(ops[-1])
    ops.append(ops.pop(0))
    assert list(block) == ops and ops[-2].is_before_in_block(ops[-1])
    module = parse_module("module {\n" + "".join(
        f'  "x.p{n}"() : () -> ()\n' for n in range(5)) + "}", allow_unregistered=True)
    parsed = list(module.regions[0].blocks[0])
    assert parsed[1].is_before_in_block(parsed[4]) and not parsed[4].is_before_in_block(parsed[1])

def test_block_arguments_edit():
    block = Block([i32])
    arg = block.insert_argument(0, f32)
    assert [a.type for a in block.arguments] == [f32, i32] and block.arguments[1].index == 1
    use = make("x.use", [arg])
    with pytest.raises(ValueError, match="still has 1 uses"):
        block.erase_argument(0)
    use.drop_all_references()
    block.erase_argument(0)
    assert [a.index for a in block.arguments] == [0]


def test_erase_checks_uses_but_not_uses_inside_its_regions():
    a = make("x.def", results=[i32])
    user = make("x.use", [a.result])
    with pytest.raises(ValueError, match=r"cannot erase 'x.def': result #0 still has 1 uses"):
        a.erase()
    assert user.operands == (a.result,)  # a failed erase changes nothing
    user.erase()
    a.erase()
    outer = make("x.outer", results=[i32], regions=1)
    body = outer.regions[0].add_block()
    inner = body.append(make("x.inner", results=[i32]))
    body.append(make("x.use", [inner.result, outer.result]))
    outer.erase()
    assert inner.result.use_empty() and outer.result.use_empty()


def test_parents_and_ancestry():
    module = parse_module('''
        "x.a"() ({
          "x.b"() ({
            "x.c"() : () -> ()
          }) : () -> ()
        }) : () -> ()''', allow_unregistered=True)
    a = module.regions[0].blocks[0].first_op
    b = a.regions[0].blocks[0].first_op
    c = b.regions[0].blocks[0].first_op
    assert c.parent_op is b and b.parent_op is a and a.parent_op is module and module.parent_op is None
    assert a.is_ancestor(c) and a.is_ancestor(a) and not c.is_ancestor(a)
    assert c.parent_region is b.regions[0] and b.regions[0].parent_region is a.regions[0]
    assert a.regions[0].is_ancestor(b.regions[0]) and not b.regions[0].is_ancestor(a.regions[0])
    assert c.parent.parent_op is b and c.parent.is_entry_block()


def test_walk_orders_and_erasing_in_post_order():
    module = parse_module('''
        "x.a"() ({
          "x.b"() : () -> ()
          "x.c"() ({
            "x.d"() : () -> ()
          }) : () -> ()
        }) : () -> ()
        "x.e"() : () -> ()''', allow_unregistered=True)
    assert [op.name for op in module.walk()] == [
        "builtin.module", "x.a", "x.b", "x.c", "x.d", "x.e"]
    assert [op.name for op in module.walk(post_order=True)] == [
        "x.b", "x.d", "x.c", "x.a", "x.e", "builtin.module"]
    assert [op.name for op in module.regions[0].walk()][:2] == ["x.a", "x.b"]
    for op in module.walk(post_order=True):
        if op.name != "builtin.module":
            op.erase()
    assert print_op(module) == "module {\n}\n"


def test_clone_is_deep_and_remaps_values_and_blocks():
    module = parse_module('''
        %0 = "x.def"() : () -> i32
        "x.loop"(%0) ({
        ^bb0(%a: i32):
          %1 = "x.add"(%a, %0) : (i32, i32) -> i32
          "x.br"(%1)[^bb1] : (i32) -> ()
        ^bb1:
          "x.ret"(%1) : (i32) -> ()
        }) {tag = "t"} : (i32) -> ()''', allow_unregistered=True)
    loop = module.regions[0].blocks[0].last_op
    copy = loop.clone()
    assert copy.parent is None and copy.attributes == loop.attributes and copy.attributes is not loop.attributes
    assert copy.operands == loop.operands  # external values are kept
    blocks = copy.regions[0].blocks
    assert blocks[0] is not loop.regions[0].blocks[0]
    add = blocks[0].first_op
    assert add.operands[0] is blocks[0].arguments[0] and add.operands[1] is loop.operands[0]
    assert blocks[0].last_op.successors == [blocks[1]]
    assert blocks[1].first_op.operands == (add.result,)
    other = make("x.other", results=[i32])
    mapping = {loop.operands[0]: other.result}
    copy2 = loop.clone(mapping)
    assert copy2.operands == (other.result,) and mapping[loop.regions[0].blocks[1]] is copy2.regions[0].blocks[1]
    module.regions[0].blocks[0].append(copy)
    assert print_op(copy).replace("%2", "%1") == print_op(loop)


def test_regions_and_successors():
    op = make("x.cfg", regions=2)
    region = op.regions[0]
    assert region.parent is op and region.entry_block is None
    entry = region.add_block()
    exit_ = region.add_block(Block([i32]))
    middle = region.insert_block(1)
    assert region.blocks == [entry, middle, exit_] and middle.parent is region
    entry.append(make("x.br", successors=[exit_]))
    middle.append(make("x.br", successors=[exit_]))
    assert entry.successors == [exit_] and exit_.predecessors == [entry, middle]
    assert exit_.terminator is None and entry.terminator.name == "x.br"
    middle.erase()
    assert region.blocks == [entry, exit_] and exit_.predecessors == [entry]
    assert entry.parent_op is op


def test_builder_insertion_points():
    module = ModuleOp.build()
    body = module.body
    builder = Builder.at_end(body)
    c1 = builder.create("tst.constant", result_types=[i32], properties={"value": IntegerAttr(1, i32)})
    c2 = builder.create("tst.constant", result_types=[i32], properties={"value": IntegerAttr(2, i32)})
    add = Builder.after(c1).create("tst.add", [c1.result, c2.result], [i32])
    Builder.before(c1).create("x.first")
    Builder.at_start(body).create("x.very_first")
    ins = Builder.at_end(body).insert(make("x.last"))
    assert [op.name for op in body] == [
        "x.very_first", "x.first", "tst.constant", "tst.add", "tst.constant", "x.last"]
    assert isinstance(c1, ConstantOp) and isinstance(add, AddOp) and ins.parent is body
    named = Builder(body, location=None).create("x.n", attributes={"s": StringAttr("v")})
    assert named.attributes["s"].value == "v" and body.last_op is named
    with pytest.raises(ValueError, match="not in a block"):
        Builder.after(make("x.free"))
    with pytest.raises(ValueError, match="not in the block"):
        Builder(Block(), c1)
    assert isinstance(Region().add_block(), Block)
