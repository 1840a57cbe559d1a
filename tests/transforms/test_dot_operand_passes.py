"""The dot-operand passes keep what programs compute: `tritongpu-prefetch` (the K slices of a
loop's dot, the next iteration's first slices loaded ahead) and
`tritongpu-optimize-dot-operands` (transposes and reshapes turned into shared memory views),
checked with the numpy evaluator on random shared memory contents, over trip counts from 0
to 4 and rings of buffers whose slots move around."""

from __future__ import annotations

import numpy as np
import pytest

from tilecraft.ir import parse_module
from tilecraft.transforms import PassManager
from tilecraft.transforms.optimize_dot_operands import reshape_shared_encoding, shared_offsets

from .evaluator import evaluate

_MODULE = """
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
%s
}
"""

_A = "tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>"
_B = "tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>"
_ACC = "tensor<32x32xf32, #mma>"
_RING_A = "!ttg.memdesc<3x32x64xf16, #shared, #smem, mutable>"
_RING_B = "!ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>"
_VIEW_A = "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>"
_VIEW_B = "!ttg.memdesc<64x32xf16, #shared, #smem, mutable>"

# the pipeliner's form: a ring of 3 buffers read at a slot that moves on by `stride`
RING = f"""
tt.func @f(%a: {_RING_A}, %b: {_RING_B}, %n: i32, %stride: i32) -> {_ACC} {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant dense<0.000000e+00> : {_ACC}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%slot = %c0, %acc = %zero) -> (i32, {_ACC}) : i32 {{
    %w = ttg.async_wait {{num = 1 : i32}}
    %av = ttg.memdesc_index %a[%slot] : {_RING_A} -> {_VIEW_A}
    %x = ttg.local_load %av token %w : {_VIEW_A} -> {_A}
    %bv = ttg.memdesc_index %b[%slot] : {_RING_B} -> {_VIEW_B}
    %y = ttg.local_load %bv token %w : {_VIEW_B} -> {_B}
    %d = tt.dot %x, %y, %acc : {_A} * {_B} -> {_ACC}
    %s1 = arith.addi %slot, %stride : i32
    %next = arith.remsi %s1, %c3 : i32
    scf.yield %next, %d : i32, {_ACC}
  }}
  tt.return %r#1 : {_ACC}
}}
"""

# two buffers swapped every iteration, carried by the loop
SWAPPED = f"""
tt.func @f(%a0: {_VIEW_A}, %b0: {_VIEW_B}, %a1: {_VIEW_A}, %b1: {_VIEW_B}, %n: i32) -> {_ACC} {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : {_ACC}
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %an = %a1, %bn = %b1, %acc = %zero) -> ({_VIEW_A}, {_VIEW_B}, {_VIEW_A}, {_VIEW_B}, {_ACC}) : i32 {{
    %x = ttg.local_load %a : {_VIEW_A} -> {_A}
    %y = ttg.local_load %b : {_VIEW_B} -> {_B}
    %d = tt.dot %x, %y, %acc : {_A} * {_B} -> {_ACC}
    scf.yield %an, %bn, %a, %b, %d : {_VIEW_A}, {_VIEW_B}, {_VIEW_A}, {_VIEW_B}, {_ACC}
  }}
  tt.return %r#4 : {_ACC}
}}
"""


def _run(body: str, pipeline: str, args: list) -> tuple[np.ndarray, str]:
    module = parse_module(_MODULE % body)
    if pipeline:
        PassManager.parse(f"builtin.module({pipeline})").run(module)
    text = str(module)
    return evaluate(parse_module(text), "f", args)[0], text


def _halves(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.integers(-4, 5, size=shape).astype(np.float16)


@pytest.mark.parametrize("trips", range(5))
@pytest.mark.parametrize("stride", [1, 2])
def test_prefetch_of_a_ring_keeps_the_products(trips: int, stride: int) -> None:
    rng = np.random.default_rng(trips * 10 + stride)
    args = [_halves(rng, (3, 32, 64)), _halves(rng, (3, 64, 32)), np.int64(trips),
            np.int64(stride)]
    before, _ = _run(RING, "", args)
    after, text = _run(RING, "tritongpu-prefetch", args)
    assert "ttg.memdesc_subslice" in text  # the pass fired
    np.testing.assert_array_equal(before, after)  # small integers: exact in any order


@pytest.mark.parametrize("trips", range(5))
def test_prefetch_of_carried_buffers_keeps_the_products(trips: int) -> None:
    rng = np.random.default_rng(trips)
    args = [_halves(rng, (32, 64)), _halves(rng, (64, 32)), _halves(rng, (32, 64)),
            _halves(rng, (64, 32)), np.int64(trips)]
    before, _ = _run(SWAPPED, "", args)
    after, text = _run(SWAPPED, "tritongpu-prefetch", args)
    assert "ttg.memdesc_subslice" in text
    np.testing.assert_array_equal(before, after)


def _blocked(size: str, threads: str, warps: str, order: str) -> str:
    return (f"#ttg.blocked<{{sizePerThread = [{size}], threadsPerWarp = [{threads}], "
            f"warpsPerCTA = [{warps}], order = [{order}]}}>")


_ROWS = _blocked("1, 8", "4, 8", "4, 1", "1, 0")
_COLS = _blocked("8, 1", "8, 4", "1, 4", "0, 1")
_B3 = _blocked("1, 1, 8", "1, 4, 8", "1, 4, 1", "2, 1, 0")
_B3T = _blocked("1, 1, 8", "4, 1, 8", "4, 1, 1", "2, 0, 1")
_LIN = ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], "
        "[0, 64], [0, 8], [0, 16], [0, 32]]}, alignment = 128>")
_LINT = ("#ttg.shared_linear<{offset = [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2], [0, 4], [0, 8], "
         "[64, 0], [8, 0], [16, 0], [32, 0]]}, alignment = 128>")
_NVMMA = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
_MMA3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 16, 16]}>")

# an mma.sync A transposed in registers; a wgmma B stored from reshape(trans(x)) and read
# transposed; a buffer stored from a reshape
TRANSPOSES = f"""
tt.func @f(%x: tensor<64x32xf16, {_COLS}>, %b: {_B}, %y: tensor<2x16x64xf16, {_B3}>, %a: !ttg.memdesc<64x128xf16, {_NVMMA}, #smem>, %z: tensor<2x32x64xf16, {_B3}>) -> ({_ACC}, tensor<64x16xf32, {_MMA3}>, tensor<64x64xf16, {_ROWS}>) {{
  %zero = arith.constant dense<0.000000e+00> : {_ACC}
  %t = tt.trans %x {{order = array<i32: 1, 0>}} : tensor<64x32xf16, {_COLS}> -> tensor<32x64xf16, {_ROWS}>
  %ta = ttg.convert_layout %t : tensor<32x64xf16, {_ROWS}> -> {_A}
  %d = tt.dot %ta, %b, %zero : {_A} * {_B} -> {_ACC}
  %zero3 = arith.constant dense<0.000000e+00> : tensor<64x16xf32, {_MMA3}>
  %yt = tt.trans %y {{order = array<i32: 1, 0, 2>}} : tensor<2x16x64xf16, {_B3}> -> tensor<16x2x64xf16, {_B3T}>
  %yr = tt.reshape %yt : tensor<16x2x64xf16, {_B3T}> -> tensor<16x128xf16, {_ROWS}>
  %ys = ttg.local_alloc %yr : (tensor<16x128xf16, {_ROWS}>) -> !ttg.memdesc<16x128xf16, {_LIN}, #smem>
  %yb = ttg.memdesc_trans %ys {{order = array<i32: 1, 0>}} : !ttg.memdesc<16x128xf16, {_LIN}, #smem> -> !ttg.memdesc<128x16xf16, {_LINT}, #smem>
  %e = ttng.warp_group_dot %a, %yb, %zero3 : !ttg.memdesc<64x128xf16, {_NVMMA}, #smem> * !ttg.memdesc<128x16xf16, {_LINT}, #smem> -> tensor<64x16xf32, {_MMA3}>
  %zr = tt.reshape %z : tensor<2x32x64xf16, {_B3}> -> tensor<64x64xf16, {_ROWS}>
  %zs = ttg.local_alloc %zr : (tensor<64x64xf16, {_ROWS}>) -> !ttg.memdesc<64x64xf16, {_NVMMA}, #smem>
  %zl = ttg.local_load %zs : !ttg.memdesc<64x64xf16, {_NVMMA}, #smem> -> tensor<64x64xf16, {_ROWS}>
  tt.return %d, %e, %zl : {_ACC}, tensor<64x16xf32, {_MMA3}>, tensor<64x64xf16, {_ROWS}>
}}
"""


def test_optimize_dot_operands_keeps_the_values() -> None:
    rng = np.random.default_rng(7)
    args = [_halves(rng, (64, 32)), _halves(rng, (64, 32)), _halves(rng, (2, 16, 64)),
            _halves(rng, (64, 128)), _halves(rng, (2, 32, 64))]
    module = parse_module(_MODULE % TRANSPOSES)
    before = evaluate(module, "f", args)
    PassManager.parse("builtin.module(tritongpu-optimize-dot-operands)").run(module)
    text = str(module)
    assert text.count("ttg.memdesc_trans") == 3 and "ttg.memdesc_reshape" in text
    assert "tt.trans" not in text and "tt.reshape" not in text
    after = evaluate(parse_module(text), "f", args)
    for old, new in zip(before, after):
        np.testing.assert_array_equal(old, new)


def _offsets(encoding, shape: tuple[int, ...]) -> np.ndarray | None:
    """The shared memory offset of each element of a ``shape`` buffer in ``encoding``."""
    layout = shared_offsets(encoding, shape)
    if layout is None:
        return None
    offsets = np.full(shape, -1)
    for offset in range(int(np.prod(shape))):
        offsets[layout.apply(offset=offset, block=0)] = offset
    return offsets


def test_optimize_dot_operands_views_map_onto_the_buffers_the_dots_read() -> None:
    """Through each view the pass makes (a transpose or a row-major reshape of the source's
    elements), every element keeps its shared memory offset: the layouts inferred backwards
    from the buffer the dot reads are the right ones."""
    module = parse_module(_MODULE % TRANSPOSES)
    PassManager.parse("builtin.module(tritongpu-optimize-dot-operands)").run(module)
    views = [op for op in module.walk()
             if op.name in ("ttg.memdesc_trans", "ttg.memdesc_reshape")]
    assert len(views) == 5
    checked = 0
    for op in views:
        source, result = op.operands[0].type, op.results[0].type
        before = _offsets(source.encoding, tuple(source.shape))
        after = _offsets(result.encoding, tuple(result.shape))
        if before is None or after is None:  # NVMMA of rank 3: its own rule
            assert reshape_shared_encoding(source.encoding, tuple(source.shape),
                                           tuple(result.shape)) == result.encoding
            continue
        seen = (np.transpose(before, op.order) if op.name == "ttg.memdesc_trans"
                else before.reshape(result.shape))
        np.testing.assert_array_equal(seen, after)
        checked += 1
    assert checked == 4


_SCALED = """
tt.func @f(%%a: tensor<32x%(ka)sx%(ta)s, #d>, %%sa: tensor<32x2xi8, #s>, %%b: tensor<%(kb)sx32x%(tb)s, #d>, %%sb: tensor<32x2xi8, #s>) -> tensor<32x32xf32, #d> {
  %%zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #d>
  %%r = tt.dot_scaled %%a%(scale_a)s, %%b%(scale_b)s, %%zero lhs = %(lhs)s rhs = %(rhs)s {fastMath = false} : tensor<32x%(ka)sx%(ta)s, #d>%(scale_a_type)s * tensor<%(kb)sx32x%(tb)s, #d>%(scale_b_type)s -> tensor<32x32xf32, #d>
  tt.return %%r : tensor<32x32xf32, #d>
}
"""


def _decode_fp4(packed: np.ndarray, axis: int) -> np.ndarray:
    values = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
    codes = packed.astype(np.uint8).astype(np.int64)
    halves = [np.where(h & 8, -1.0, 1.0) * values[h & 7] for h in (codes & 0xF, codes >> 4)]
    shape = list(packed.shape)
    shape[axis] *= 2
    return np.stack(halves, axis=axis + 1).reshape(shape)


@pytest.mark.parametrize("scaled", ["lhs", "rhs"])
def test_decomposed_scaled_dot_computes_the_scaled_product(scaled: str) -> None:
    """The e2m1 operand, unpacked (low nibble first along K) and multiplied by 2^(s - 127)
    for its 32-element groups of K, times the fp16 one; a 0xFF scale makes its group NaN."""
    rng = np.random.default_rng(3)
    packed = rng.integers(-128, 128, size=(32, 32))
    scales = rng.integers(125, 130, size=(32, 2))
    scales[5, 1] = 255
    other = _halves(rng, (64, 32) if scaled == "lhs" else (32, 64))
    fields = {"ta": "i8", "tb": "f16", "ka": 32, "kb": 64, "lhs": "e2m1", "rhs": "fp16",
              "scale_a": " scale %sa", "scale_b": "",
              "scale_a_type": ", tensor<32x2xi8, #s>", "scale_b_type": ""}
    if scaled == "rhs":
        fields.update({"ta": "f16", "tb": "i8", "ka": 64, "kb": 32, "lhs": "fp16",
                       "rhs": "e2m1", "scale_a": "", "scale_b": " scale %sb",
                       "scale_a_type": "", "scale_b_type": ", tensor<32x2xi8, #s>"})
    body = _SCALED % fields
    layouts = ("#d = " + _blocked("1, 1", "1, 32", "1, 4", "1, 0") + "\n#s = "
               + _blocked("1, 1", "16, 2", "4, 1", "1, 0") + "\n")
    module = parse_module(layouts + _MODULE % body)
    PassManager.parse("builtin.module(tritongpu-accelerate-matmul)").run(module)
    text = str(module)
    assert "tt.dot_scaled" not in text and "ttg.fp4_to_fp" in text
    # the scale of each 32 values of K, along K: A's rows or B's columns
    factors = np.where(scales == 255, np.nan, 2.0 ** (scales - 127.0)).repeat(32, axis=1)
    if scaled == "lhs":
        a, b = _decode_fp4(packed, 1) * factors, other.astype(np.float64)
        args = [packed, scales, other, scales]
    else:
        a, b = other.astype(np.float64), _decode_fp4(packed, 0) * factors.T
        args = [other, scales, packed, scales]
    expected = (a @ b).astype(np.float32)
    (result,) = evaluate(parse_module(text), "f", args)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("stages", [2, 3])
def test_prefetched_mma_loop_synchronizes_before_each_read(stages: int) -> None:
    """The CUDA pipeline's sm_80 matmul: the loop carries the next iteration's first K
    slices, loaded after a cp.async wait at the end of the body, and every ldmatrix of the
    loop comes after a bar.sync that follows the last wait (the copies of other threads are
    seen only after the barrier). The pipeliner's wait at the top of the body waits for nothing
    the prefetcher's wait at the end of the previous trip did not: it emits no instruction and
    gets no barrier, and the reads at the top are synchronized through the back edge."""
    from tests.backends.cuda.test_kernels import HAVE_PTXAS, _aligned_matmul

    if not HAVE_PTXAS:
        pytest.skip("ptxas not found")
    kernel = _aligned_matmul(80, stages)
    ttgir = kernel.asm["ttgir"]
    loop = ttgir[ttgir.index("scf.for"):]
    loop = loop[:loop.index("scf.yield")]
    # (the pipeliner's wait, then the prefetcher's for each operand, as Triton's Prefetcher)
    assert loop.count("ttg.async_wait") == 3 and "kWidth = 2}>>, tensor<16x64xf16" in loop
    lines = [line.strip() for line in kernel.asm["ptx"].splitlines()]
    back_edge = max(i for i, line in enumerate(lines) if line.startswith("@%p")
                    and "bra" in line and any(lines[j].startswith(line.split()[-1][:-1] + ":")
                                              for j in range(i)))
    label = lines[back_edge].split()[-1][:-1] + ":"
    body = lines[lines.index(label):back_edge]
    assert sum("cp.async.wait_group" in line for line in body) == 1
    assert sum(line.startswith("bar.sync") for line in body) == 1
    synced = False
    for trip in range(2):  # the second time around with the state the back edge brings
        for line in body:
            if "cp.async.wait_group" in line:
                synced = False
            elif line.startswith("bar.sync"):
                synced = True
            elif line.startswith("ldmatrix") and trip:
                assert synced, "an ldmatrix reads shared memory between a wait and its barrier"
