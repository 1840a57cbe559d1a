"""Tensor descriptors: host `tc.TensorDescriptor` arguments and `tl.make_tensor_descriptor`,
loaded and stored by whole blocks, on every backend (and compiled for sm_80 and sm_90a)."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.frontend.errors import CompilationError


@tc.jit
def scale_kernel(in_desc, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    out_desc = tl.make_tensor_descriptor(out_ptr, [M, N], [N, 1], [BM, BN])
    x = in_desc.load([pid_m * BM, pid_n * BN])
    out_desc.store([pid_m * BM, pid_n * BN], x * 2)


def test_blocks_at_ragged_edges(run, rng):
    m, n = 100, 72  # neither a multiple of the block
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.full((m, n), np.nan, np.float32)
    desc = tc.TensorDescriptor.from_tensor(x, [32, 16])
    run(scale_kernel, (tc.cdiv(m, 32), tc.cdiv(n, 16)), desc, out, m, n, BM=32, BN=16)
    np.testing.assert_array_equal(out, 2 * x)


@tc.jit
def padded_kernel(x_ptr, out_ptr, M, N, row, col, BM: tl.constexpr, BN: tl.constexpr,
                  PADDING: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN], padding_option=PADDING)
    block = tl.load_tensor_descriptor(desc, [row, col])
    offsets = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offsets, block)


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_out_of_bounds_reads_the_padding(run, rng, padding):
    m, n = 20, 24
    x = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros((16, 16), np.float32)
    run(padded_kernel, (1,), x, out, m, n, 12, 16, BM=16, BN=16, PADDING=padding)
    fill = 0.0 if padding == "zero" else np.nan
    expected = np.full((16, 16), fill, np.float32)
    expected[:8, :8] = x[12:, 16:]
    np.testing.assert_array_equal(out, expected)


@tc.jit
def matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


def test_matmul_through_descriptors(run, rng):
    m, n, k = 80, 48, 72
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    descs = [tc.TensorDescriptor.from_tensor(a, [32, 16]),
             tc.TensorDescriptor.from_tensor(b, [16, 32]),
             tc.TensorDescriptor.from_tensor(c, [32, 32])]
    run(matmul_kernel, (tc.cdiv(m, 32), tc.cdiv(n, 32)), *descs, k, BM=32, BN=32, BK=16)
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c.astype(np.float32), expected, rtol=1e-2, atol=5e-2)


def test_signature_strings_name_descriptors():
    ty = tl.str_to_ty("tensordesc<fp16[64, 32]>")
    assert ty == tl.tensor_descriptor_type(tl.block_type(tl.float16, [64, 32]))
    assert str(ty.to_ir()) == "!tt.tensordesc<64x32xf16>"
    with pytest.raises(ValueError, match="unknown type"):
        tl.str_to_ty("tensordesc<fp16[a, 32]>")


def test_host_descriptors_are_checked():
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(ValueError, match="last stride must be 1"):
        tc.TensorDescriptor(x, [64, 64], [1, 64], [16, 16])
    with pytest.raises(ValueError, match="multiples of 16 bytes"):
        tc.TensorDescriptor(x, [64, 60], [60, 1], [16, 16])
    with pytest.raises(ValueError, match="at least 16 bytes"):
        tc.TensorDescriptor(x, [64, 64], [64, 1], [16, 4])
    with pytest.raises(ValueError, match="powers of 2"):
        tc.TensorDescriptor(x, [64, 64], [64, 1], [16, 24])
    with pytest.raises(ValueError, match="16-byte aligned"):
        tc.TensorDescriptor(x.reshape(-1)[1:], [63], [1], [16])


@tc.jit
def bad_stride_kernel(x_ptr, N):
    desc = tl.make_tensor_descriptor(x_ptr, [N, N], [1, N], [16, 16])
    desc.store([0, 0], desc.load([0, 0]))


@tc.jit
def bad_offsets_kernel(x_ptr, N):
    desc = tl.make_tensor_descriptor(x_ptr, [N, N], [N, 1], [16, 16])
    desc.store([0, 0], desc.load([0]))


@pytest.mark.parametrize("kernel, message, line", [
    (bad_stride_kernel, "last stride must be the constant 1", "desc = tl.make_tensor"),
    (bad_offsets_kernel, "takes 2 offsets, got 1", "desc.store([0, 0], desc.load([0]))"),
])
def test_kernel_errors_name_the_line(kernel, message, line):
    with pytest.raises(CompilationError, match=message) as error:
        kernel.warmup(np.zeros((16, 16), np.float32), 16)
    assert line in str(error.value)


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_host_descriptor_facts_are_constants_in_the_pointer_form(padding):
    """The launcher guarantees a host descriptor's last stride (1) and its flags: the pointer
    rewrite reads constants, not the pack's arguments, so loads stay contiguous (and, with zero
    padding, have a constant zero `other`)."""
    from tilecraft.backends.ttir import make_ttir

    x = np.zeros((64, 64), np.float32)
    desc = tc.TensorDescriptor(x, [64, 64], [64, 1], [32, 16], padding=padding)
    module = make_ttir(scale_kernel.ir(desc, x, 64, 64, BM=32, BN=16))
    kernel = next(op for op in module.walk() if op.name == "tt.func")
    args = kernel.regions[0].blocks[0].arguments
    assert [str(a.type) for a in args[:7]] == ["!tt.ptr<f32>", "i64", "i64", "i64", "i64", "i1",
                                               "i1"]
    assert not list(args[4].uses) and not list(args[5].uses) and not list(args[6].uses)
    assert list(args[3].uses)  # the row stride is read
    load = next(op for op in module.walk() if op.name == "tt.load")
    other = load.operands[2].owner
    assert other.name == "arith.constant"
    assert ("0x7FC00000" in str(other.get_attr("value"))) == (padding == "nan")


@tc.jit
def scale_rows_kernel(in_desc, out_desc, M, BM: tl.constexpr):
    for m in range(0, M, BM):
        out_desc.store([m, 0], in_desc.load([m, 0]) * 2)


@pytest.mark.parametrize("stages", [1, 3])
def test_stores_in_a_loop(run, rng, stages):
    """One program stores block after block (on sm_90 with more than one stage, each TMA store
    stays in flight while the next block is loaded; the last block is ragged)."""
    m, n = 200, 64
    x = rng.standard_normal((m, n)).astype(np.float16)
    out = np.full((m, n), np.nan, np.float16)
    descs = [tc.TensorDescriptor.from_tensor(a, [32, n]) for a in (x, out)]
    run(scale_rows_kernel, (1,), *descs, m, BM=32, num_stages=stages)
    np.testing.assert_array_equal(out, 2 * x)
