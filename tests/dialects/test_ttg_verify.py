"""ttg (TritonGPU): the layout attributes' Python names and texts, the verifiers' messages,
the parse errors of the layout formats and the module attribute readers."""

from __future__ import annotations

from tilecraft.dialects import ttg as hooks
from tilecraft.generated.ttg import (
    BlockedEncodingAttr, DotOperandEncodingAttr, NvidiaMmaEncodingAttr, SliceEncodingAttr,
)
from tilecraft.ir import parse_attribute, parse_module

from .helpers import func, parse_error, verify_error

BLOCKED = ("#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
           "warpsPerCTA = [4, 1], order = [1, 0]}>\n"
           "#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
           "warpsPerCTA = [4], order = [0]}>\n")


def in_module(text: str, attributes: str = '"ttg.num-warps" = 4 : i32') -> str:
    """``text`` in a module with the given attributes (the layouts above fit the defaults)."""
    return f"module attributes {{{attributes}}} {{\n{text}}}\n"


def error(body: str, args: str) -> str:
    return verify_error(BLOCKED + in_module(func(body + "\n  tt.return", args)))


# -- layouts


def test_blocked_properties_and_text():
    attr = parse_attribute("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>")
    assert attr is BlockedEncodingAttr((1, 4), (8, 4), (4, 1), (1, 0))
    assert (attr.size_per_thread, attr.threads_per_warp, attr.warps_per_cta, attr.order) == (
        (1, 4), (8, 4), (4, 1), (1, 0))
    assert attr.cga_layout == ()
    two_ctas = attr.replace(cga_layout=[[0, 1]])
    assert str(two_ctas).endswith("order = [1, 0], CGALayout = [[0, 1]]}>")
    assert parse_attribute(str(two_ctas)) is two_ctas


def test_blocked_fields_in_any_order_print_in_triton_order():
    attr = parse_attribute("#ttg.blocked<{order = [0], warpsPerCTA = [4], threadsPerWarp = [32],"
                           " sizePerThread = [2]}>")
    assert str(attr) == ("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], "
                         "warpsPerCTA = [4], order = [0]}>")


def test_slice_and_dot_operand():
    parent = BlockedEncodingAttr((1, 1), (1, 32), (4, 1), (1, 0))
    sliced = SliceEncodingAttr(dim=0, parent=parent)
    assert (sliced.dim, sliced.parent) == (0, parent)
    assert parse_attribute(str(sliced)) is sliced
    dot = parse_attribute(f"#ttg.dot_op<{{opIdx = 1, parent = {parent}}}>")
    assert (dot.op_idx, dot.parent, dot.k_width) == (1, parent, 0)
    assert "kWidth" not in str(dot)
    mma = NvidiaMmaEncodingAttr(2, 0, (2, 2), (16, 8))
    assert str(DotOperandEncodingAttr(0, mma, 4)).endswith(", kWidth = 4}>")


def test_nvidia_mma_prints_version_minor_and_reads_legacy_cta_fields():
    mma = parse_attribute("#ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [8, 1], "
                          "instrShape = [16, 256, 32]}>")
    assert isinstance(mma, NvidiaMmaEncodingAttr)
    assert (mma.version_major, mma.version_minor, mma.warps_per_cta, mma.instr_shape) == (
        3, 0, (8, 1), (16, 256, 32))
    assert str(mma) == ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                        "warpsPerCTA = [8, 1], instrShape = [16, 256, 32]}>")
    legacy = parse_attribute("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                             "warpsPerCTA = [8, 1], CTAsPerCGA = [2, 2], CTASplitNum = [2, 1], "
                             "CTAOrder = [1, 0], instrShape = [16, 256, 32]}>")
    assert legacy.cga_layout == ((0, 0), (1, 0))
    assert "CGALayout = [[0, 0], [1, 0]], instrShape" in str(legacy)
    single = parse_attribute("#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], "
                             "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], "
                             "instrShape = [16, 8]}>")
    assert single.cga_layout == ()


def test_linear_layouts():
    linear = parse_attribute("#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], "
                             "warp = [], block = []}>")
    assert (linear.register, linear.lane, linear.warp, linear.block) == (
        ((0, 1),), ((1, 0), (2, 0)), (), ())
    shared = parse_attribute("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>")
    assert (shared.offset, shared.block, shared.layout_alignment) == (((0, 1), (1, 0)), (), 16)
    assert str(shared.replace(block=[[2, 0]])) == (
        "#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[2, 0]]}, alignment = 16>")


def test_cga_layout_from_split_params():
    assert hooks.cga_layout_from_split_params([2, 4], [2, 2], [1, 0]) == (
        (0, 1), (0, 0), (1, 0))


def test_layout_parse_errors():
    assert parse_error("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                       "warpsPerCTA = [4]}>\nmodule {}") == (
        "struct is missing required parameter: order")
    assert parse_error("#b = #ttg.blocked<{sizePerThread = [1], order = [0], order = [0]}>\n"
                       "module {}") == "duplicate field 'order'"
    assert parse_error("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0], CGALayout = [1]}>\nmodule {}") == (
        "expected a list of integer lists")
    assert parse_error("#m = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1]}>\n"
                       "module {}") == "struct is missing required parameter: instrShape"
    assert parse_error("#m = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], "
                       "CTAOrder = [1, 0], instrShape = [16, 8]}>\nmodule {}") == (
        "CTAsPerCGA, CTASplitNum and CTAOrder go together, without CGALayout")
    legacy = ("CTAsPerCGA and CTASplitNum must be powers of two, one per dimension, "
              "with CTASplitNum <= CTAsPerCGA, and CTAOrder a permutation of the dimensions")
    for fields in ("CTAsPerCGA = [1], CTASplitNum = [1], CTAOrder = [1, 0]",  # short lists
                   "CTAsPerCGA = [2, 1], CTASplitNum = [4, 1], CTAOrder = [1, 0]",  # 4 > 2
                   "CTAsPerCGA = [3, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]",
                   "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 1]"):
        assert parse_error("#m = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], "
                           f"{fields}, instrShape = [16, 8]}}>\nmodule {{}}") == legacy


# -- ops


def test_convert_layout_same_shape():
    assert error("  %0 = ttg.convert_layout %a : tensor<4x16xf32, #blocked> -> "
                 "tensor<16x4xf32, #blocked>", "%a: tensor<4x16xf32, #blocked>") == (
        "'ttg.convert_layout' op requires the same shape for all operands and results")


def test_convert_layout_same_element_type():
    assert error("  %0 = ttg.convert_layout %a : tensor<16xf32, #blocked1> -> "
                 "tensor<16xf16, #blocked1>", "%a: tensor<16xf32, #blocked1>") == (
        "'ttg.convert_layout' op requires the same element type for all operands and results")


# -- module attributes


def test_module_attribute_readers():
    module = parse_module('module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 8 : '
                          'i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 64 : i32} {}')
    assert (hooks.num_warps(module), hooks.threads_per_warp(module), hooks.num_ctas(module),
            hooks.target(module)) == (8, 64, 2, "cuda:90")
    bare = parse_module('module attributes {"ttg.num-warps" = 4 : i32} {}')
    assert (hooks.num_warps(bare), hooks.threads_per_warp(bare), hooks.num_ctas(bare),
            hooks.target(bare)) == (4, 32, 1, None)


# -- memory descriptors and shared memory ops

SHARED = ("#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
          "#smem = #ttg.shared_memory\n")
BUF = "!ttg.memdesc<2x16x16xf16, #shared, #smem, mutable>"
VIEW = "!ttg.memdesc<16x16xf16, #shared, #smem, mutable, 2x16x16>"
TENSOR = "tensor<16x16xf16, #blocked>"
MEM_ARGS = f"%buf: {BUF}, %view: {VIEW}, %t: {TENSOR}, %i: i32"


def mem_error(body: str) -> str:
    return verify_error(BLOCKED + SHARED + in_module(func(body + "\n  tt.return", MEM_ARGS)))


def test_memdesc_type():
    from tilecraft.generated.ttg import MemDescType, SharedMemorySpaceAttr, SwizzledSharedEncodingAttr
    from tilecraft.ir import f16, parse_type, shape_of
    view = parse_type("!ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                      "maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory, mutable, 2x16x16>")
    assert isinstance(view, MemDescType) and view.IS_SHAPED and shape_of(view) == (16, 16)
    assert (view.shape, view.element_type, view.memory_space, view.mutable_memory) == (
        (16, 16), f16, SharedMemorySpaceAttr(), True)
    assert isinstance(view.encoding, SwizzledSharedEncodingAttr)
    assert hooks.alloc_shape(view) == (2, 16, 16)
    whole = parse_type(str(view).replace(", 2x16x16>", ", 16x16>"))
    assert whole.alloc_shape == () and hooks.alloc_shape(whole) == (16, 16)
    assert str(whole).endswith("#ttg.shared_memory, mutable>")
    assert parse_error("#s = #ttg.shared_memory\nmodule {\n  tt.func @f(%a: !ttg.memdesc<f16, "
                       "#s, #s>) {\n    tt.return\n  }\n}") == "rank 0 memdesc is not allowed"


def test_local_alloc_without_source_is_mutable():
    assert mem_error("  %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #shared, #smem>") == (
        "'ttg.local_alloc' op uninitialized alloc must have a mutable memdesc type")


def test_local_alloc_source_shape():
    assert mem_error("  %0 = ttg.local_alloc %t : (tensor<16x16xf16, #blocked>) -> "
                     "!ttg.memdesc<32x16xf16, #shared, #smem>") == (
        "'ttg.local_alloc' op source shape [16, 16] must match [destination shape 32, 16]")


def test_local_load_element_type():
    message = mem_error(f"  %0 = ttg.local_load %view : {VIEW} -> tensor<16x16xf32, #blocked>")
    assert message.startswith("'ttg.local_load' op source element type !ttg.memdesc<16x16xf16, ")
    assert message.endswith(", 2x16x16> must match destination element type f32")


def test_local_store_immutable():
    assert mem_error("  %0 = ttg.local_alloc %t : (tensor<16x16xf16, #blocked>) -> "
                     "!ttg.memdesc<16x16xf16, #shared, #smem>\n"
                     "  ttg.local_store %t, %0 : tensor<16x16xf16, #blocked> -> "
                     "!ttg.memdesc<16x16xf16, #shared, #smem>") == (
        "'ttg.local_store' op Cannot store into immutable memory")


def test_memdesc_index_rules():
    assert mem_error(f"  %0 = ttg.memdesc_index %buf[%i] : {BUF} -> "
                     "!ttg.memdesc<2x16x16xf16, #shared, #smem, mutable>") == (
        "result rank must be input rank - 1")
    assert mem_error(f"  %0 = ttg.memdesc_index %buf[%i] : {BUF} -> {VIEW}") == (
        "alloc shape must match shape for both result and src")


def test_memdesc_subslice_rules():
    assert mem_error(f"  %0 = ttg.memdesc_subslice %view[0] : {VIEW} -> {VIEW}") == (
        "offsets must have the same rank as input")
    half = "!ttg.memdesc<8x16xf16, #shared, #smem, mutable, 2x16x16>"
    assert mem_error(f"  %0 = ttg.memdesc_subslice %view[8, 4] : {VIEW} -> {half}") == (
        "A non zero offset found in a dimension that is not being "
        "split")
    assert mem_error(f"  %0 = ttg.memdesc_subslice %view[4, 0] : {VIEW} -> {half}") == (
        "The split offset may not touch the tile")
    assert mem_error(f"  %0 = ttg.memdesc_subslice %view[16, 0] : {VIEW} -> {half}") == (
        "The split offset may not exceed the source shape")


def test_memdesc_reshape_elements():
    assert mem_error(f"  %0 = ttg.memdesc_reshape %view : {VIEW} -> "
                     "!ttg.memdesc<8x16xf16, #shared, #smem, mutable>") == (
        "number of src and dst elements of reshape must be the same")


def test_barrier_address_spaces():
    module = parse_module(func("  ttg.barrier global_write|local\n  tt.return"))
    barrier = next(op for op in module.walk() if op.name == "ttg.barrier")
    assert barrier.addr_space == 5 and "ttg.barrier local|global_write\n" in str(module)
    assert parse_error(func("  ttg.barrier none|local\n  tt.return")) == (
        "'none' cannot be combined with other address spaces")


# -- layout verifiers (parse time, Triton's messages)


def test_layout_attribute_rules():
    blocked2 = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
                "warpsPerCTA = [1, 4], order = [0, 1]}>")
    cases = {
        "#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32],"
        " warpsPerCTA = [4], order = [0]}>}>": "parent layout must have at least rank >= 2",
        f"#ttg.slice<{{dim = 2, parent = {blocked2}}}>":
            "slice dim=2 must be less than the parent rank=2",
        f"#ttg.dot_op<{{opIdx = 2, parent = {blocked2}}}>":
            "ttg.dot_op opIdx parameter can be 0 or 1, got: 2",
        f"#ttg.dot_op<{{opIdx = 0, parent = {blocked2}, kWidth = 4}}>":
            "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout",
        "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
        "warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>":
            "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent",
        "#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4],"
        " order = [0, 1]}>": "Every element in sizePerThread must be a power of two.",
        "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4],"
        " order = [0, 0]}>": "order must be a permutation of 0..(rank-1), but was [0, 0]",
        "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4],"
        " order = [0, 1], CGALayout = [[0, 1], [0, 1]]}>":
            "After removing the zero bases the CGA encoding must be a permutation matrix",
        "#ttg.linear<{register = [[2], [1], [3]], lane = [], warp = [], block = []}>":
            "After removing the zero bases the layout must be a permutation matrix",
    }
    for text, message in cases.items():
        assert parse_error(f"#a = {text}\n") == message, text
    # Broadcast (zero) bases are allowed; the rest must be distinct powers of two.
    assert isinstance(parse_attribute("#ttg.linear<{register = [[0, 1], [0, 0]], "
                                      "lane = [[1, 0]], warp = [], block = []}>"),
                      hooks.gen.LinearEncodingAttr)


# -- ttg.warp_specialize


def _ws(partitions: str, captures: str = "", signature: str = "() -> ()",
        default: str = "ttg.warp_yield") -> str:
    return (f"  ttg.warp_specialize({captures})\n  default {{\n    {default}\n  }}\n"
            f"{partitions} : {signature}")


def test_warp_specialize_rules():
    assert error(_ws("  partition0() num_warps(3) {\n    ttg.warp_return\n  }"), "") == (
        "'ttg.warp_specialize' op partition #0 number of warps (3) must be a power of 2")
    assert error(_ws("  partition0(%a: i64) num_warps(4) {\n    ttg.warp_return\n  }", "%x",
                     "(i32) -> ()"), "%x: i32") == (
        "'ttg.warp_specialize.partitions' op partition region #0 argument #0 has type 'i64' "
        "but corresponding capture has type 'i32'")
    assert error(_ws("  partition0() num_warps(4) {\n    ttg.warp_return\n  }", "%x",
                     "(i32) -> ()"), "%x: i32") == (
        "'ttg.warp_specialize.partitions' op partition region #0 has 0 arguments but expected 1")
    assert error(_ws("", signature="() -> i32"), "") == (
        "'ttg.warp_yield' op has 0 operands but parent op expected 1")
    nested = _ws("", default=_ws("").replace("\n", "\n    ") + "\n    ttg.warp_yield")
    assert error(nested, "") == (
        "'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op")


def test_warp_specialize_needs_a_multiple_of_4_warps():
    text = ('module attributes {"ttg.num-warps" = 2 : i32} {\n'
            + func(_ws("") + "\n  tt.return") + "}\n")
    assert verify_error(text) == "warp-specialized kernels requires num_warps to be a multiple of 4"
    ws = next(op for op in parse_module(text).walk() if op.name == "ttg.warp_specialize")
    assert hooks.context_num_warps(ws) == 2


def test_context_num_warps_of_a_partition():
    module = parse_module(func(_ws("  partition0() num_warps(2) {\n    ttg.warp_return\n  }")
                               + "\n  tt.return"))
    ret = next(op for op in module.walk() if op.name == "ttg.warp_return")
    assert hooks.context_num_warps(ret) == 2
