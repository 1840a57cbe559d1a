"""Triton's check of the layouts of tt and ttg ops against their module (VerifyTensorLayoutsTrait
and VerifyMemDescLayoutsTrait): ranks, CTAs, threads per warp and warps per CTA, with Triton's
messages and in Triton's order."""

from __future__ import annotations

import pytest

from tilecraft.dialects import ttg as hooks
from tilecraft.dialects.ttg_layouts import encoding_layout
from tilecraft.ir import parse_attribute

from .helpers import func, parse_error, verifies, verify_error

BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
           "warpsPerCTA = [4, 1], order = [0, 1]}>")
ALIASES = (f"#blocked = {BLOCKED}\n"
           "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>\n"
           "#smem = #ttg.shared_memory\n")
MODULE = '"ttg.num-warps" = 4 : i32'


def module(body: str, attributes: str = MODULE, args: str = "%p: !tt.ptr<i32>") -> str:
    """``body`` in ``tt.func @f(args)`` in a module with ``attributes``."""
    return (ALIASES + f"module attributes {{{attributes}}} {{\n"
            + func(body + "\n  tt.return", args) + "}\n")


SPLAT = "  %0 = tt.splat %p : !tt.ptr<i32> -> tensor<8x1x!tt.ptr<i32>, {}>"


def test_layouts_matching_the_module_verify():
    verifies(module(SPLAT.format("#blocked")))
    verifies(module(SPLAT.format("#blocked"), MODULE + ', "ttg.num-ctas" = 1 : i32, '
                    '"ttg.threads-per-warp" = 32 : i32'))


def test_threads_per_warp():
    layout = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], "
              "warpsPerCTA = [4, 1], order = [0, 1]}>")
    assert verify_error(module(SPLAT.format(layout))) == (
        f"Result has an invalid layout: {layout}.\nLayout has 16 threads per warp, but the "
        "module specifies 32 threads per warp.")
    assert "module specifies 16 threads per warp." in verify_error(
        module(SPLAT.format("#blocked"), MODULE + ', "ttg.threads-per-warp" = 16 : i32'))


def test_warps_per_cta_of_the_module_the_function_and_the_partition():
    assert verify_error(module(SPLAT.format("#blocked"), '"ttg.num-warps" = 8 : i32')).endswith(
        "Layout has 4 warps per CTA, but the context requires 8 warps per CTA.")
    in_function = module(SPLAT.format("#blocked")).replace(
        "tt.func @f(%p: !tt.ptr<i32>)", 'tt.func @f(%p: !tt.ptr<i32>) attributes '
        '{"ttg.num-warps" = 2 : i32}')
    assert verify_error(in_function).endswith(
        "Layout has 4 warps per CTA, but the context requires 2 warps per CTA.")
    partition = ("  ttg.warp_specialize()\n  default {\n    ttg.warp_yield\n  }\n"
                 "  partition0() num_warps(1) {\n"
                 "    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : "
                 "tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>\n"
                 "    ttg.warp_return\n  } : () -> ()")
    assert verify_error(module(partition, args="")).endswith(
        "Layout has 4 warps per CTA, but the context requires 1 warps per CTA.")


def test_no_number_of_warps():
    assert verify_error(ALIASES + func(SPLAT.format("#blocked") + "\n  tt.return",
                                       "%p: !tt.ptr<i32>")) == (
        "Result has an invalid layout: Could not determine the number of warps per CTA. "
        "Operation is not in a context with `ttg.num-warps`.")


def test_ctas_per_cga():
    two = MODULE + ', "ttg.num-ctas" = 2 : i32'
    assert verify_error(module(SPLAT.format("#blocked"), two)) == (
        f"Result has an invalid layout: {BLOCKED}.\nLayout has 1 CTAs per CGA, but the context "
        "requires 2 CTAs per CGA.")
    split = BLOCKED.replace("order = [0, 1]", "order = [0, 1], CGALayout = [[1, 0]]")
    verifies(module(SPLAT.format(split), two))
    assert "Layout has 2 CTAs per CGA, but the context requires 1 CTAs per CGA." in verify_error(
        module(SPLAT.format(split)))


def test_rank_comes_before_the_ops_own_rules():
    text = module("  %0 = tt.expand_dims %t {axis = 0 : i32} : tensor<8xf32, #blocked> -> "
                  "tensor<8x1xf32, #blocked>", args="%t: tensor<8xf32, #blocked>")
    assert verify_error(text) == (
        f"Operand 0 (<block argument> of type 'tensor<8xf32, {BLOCKED}>' at index: 0) has an "
        "invalid layout: Layout has rank 2, but the tensor it's attached to has rank 1.")


def test_an_operand_defined_by_an_op_is_printed_as_that_op():
    bad = BLOCKED.replace("[32, 1]", "[16, 1]")
    text = module(f"  %0 = arith.addi %t, %t : tensor<8x1xi32, {bad}>\n"
                  f"  %1 = ttg.convert_layout %0 : tensor<8x1xi32, {bad}> -> "
                  "tensor<8x1xi32, #blocked>", args=f"%t: tensor<8x1xi32, {bad}>")
    assert verify_error(text) == (
        f"Operand 0 (#blocked = {bad}\n%0 = arith.addi %arg0, %arg0 : tensor<8x1xi32, "
        f"#blocked>) has an invalid layout: {bad}.\nLayout has 16 threads per warp, but the "
        "module specifies 32 threads per warp.")


def test_only_distributed_layouts_on_tensors():
    assert verify_error(module(SPLAT.format("#shared"))) == (
        "Result has an invalid layout: Non-distributed layout is not allowed in tensor type.")


def test_ops_of_other_dialects_are_not_checked():
    verifies(module("  %0 = arith.addi %t, %t : tensor<8x1xi32, #blocked>",
                    '"ttg.num-warps" = 8 : i32', "%t: tensor<8x1xi32, #blocked>"))


def test_memdesc_layouts():
    alloc = "  %0 = ttg.local_alloc : () -> !ttg.memdesc<{}xf32, #shared, #smem, mutable>"
    verifies(module(alloc.format("8x16")))
    verifies(module(alloc.format("2x8x16")))
    assert parse_error(module(alloc.format("2x2x8x16"))) == (
        "rank must be equal to or one less than the shape size. Got 2 and 4")
    assert verify_error(module(alloc.format("8x16"), MODULE + ', "ttg.num-ctas" = 2 : i32')) == (
        "Result has an invalid layout: #ttg.swizzled_shared<{vec = 8, perPhase = 1, "
        "maxPhase = 4, order = [0, 1]}>.\nLayout has 1 CTAs per CGA, but the context requires "
        "2 CTAs per CGA.")
    linear = "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = 16>"
    shared_linear = f"  %0 = ttg.local_alloc : () -> !ttg.memdesc<SHAPExf32, {linear}, #smem, mutable>"
    verifies(module(shared_linear.replace("SHAPE", "2x4")))
    verifies(module(shared_linear.replace("SHAPE", "2x2x4")))
    assert verify_error(module(shared_linear.replace("SHAPE", "4x4"))) == (
        f"Result has an invalid layout: {linear}.\nLayout has shape 2, 4, but the memdesc type "
        "has shape 4, 4.")


@pytest.mark.parametrize("text", [
    BLOCKED,
    "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [8], warpsPerCTA = [2], order = [0]}>",
    f"#ttg.slice<{{dim = 1, parent = {BLOCKED}}}>",
    f"#ttg.dot_op<{{opIdx = 0, parent = {BLOCKED}}}>",
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], "
    "instrShape = [16, 8]}>",
    "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
    "warpsPerCTA = [2, 4], instrShape = [16, 8]}>, kWidth = 2}>",
    "#ttg.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [[2, 0]], block = []}>",
])
def test_warps_and_lanes_are_the_linear_layouts_input_sizes(text: str):
    layout = parse_attribute(text)
    rank = hooks.layout_rank(layout)
    linear = encoding_layout(layout, (64,) * rank)
    assert hooks.warps_and_lanes(layout) == (linear.in_dim_size("warp"),
                                              linear.in_dim_size("lane"))
