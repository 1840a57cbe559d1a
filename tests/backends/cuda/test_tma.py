"""Tensor descriptors on sm_90a: TMA copies completed by mbarriers, multi-buffered by the
pipeliner, and the pointer fallback elsewhere (PTX assembled by ptxas; no GPU needed); and,
on a GPU, descriptors a loop makes, stored through asynchronously, checked against numpy."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda import driver
from tilecraft.ir import parse_module, print_op
from tilecraft.runtime.compiler import compile_module, get_backend
from tilecraft.transforms.pass_manager import PassManager

from .gpu_compile import have_ptxas

needs_ptxas = pytest.mark.skipif(not have_ptxas(), reason="ptxas not found")
needs_gpu = pytest.mark.skipif(not driver.is_available(), reason="no CUDA device")


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


@tc.jit
def device_made_kernel(a_desc, x_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    out = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])
    out.store([0, 0], a_desc.load([0, 0]))


SIGNATURE = {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 128]>",
             "c_desc": "tensordesc<fp16[128, 128]>", "K": "i32",
             "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}


def compiled(kernel, signature: dict, constexprs: dict, capability: int, stages: int = 3):
    return tc.compile(tc.ASTSource(kernel, signature, constexprs),
                      target=tc.GPUTarget("cuda", capability, 32),
                      options={"num_warps": 8, "num_stages": stages})


@needs_ptxas
def test_pipelined_descriptor_matmul_uses_tma_and_wgmma():
    kernel = compiled(matmul_kernel, SIGNATURE, {"BM": 128, "BN": 128, "BK": 64}, 90)
    ptx = kernel.asm["ptx"]
    # A's box (128x64) and B's two 64-column boxes, per stage: 2 before the loop, 1 in it
    copies = re.findall(r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier", ptx)
    assert len(copies) == 3 * 3
    assert ptx.count("mbarrier.init.shared::cta.b64") == 3  # one barrier per stage
    assert "mbarrier.try_wait.parity.shared::cta.b64" in ptx
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" in ptx
    # the epilogue stores the 128x128 block as two boxes
    assert len(re.findall(r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta", ptx)) == 2
    assert "cp.async.bulk.wait_group.read 0" in ptx
    assert "ld.global" not in ptx and "st.global" not in ptx
    ttgir = kernel.asm["ttgir"]
    assert "!ttg.memdesc<3x128x64xf16" in ttgir and "!ttg.memdesc<3x1xi64" in ttgir
    # what the launcher encodes for each descriptor
    boxes = [(m["index"], m["box"], m["swizzle"]) for m in kernel.metadata["tensormaps"]]
    assert boxes == [(0, [128, 64], 128), (1, [64, 64], 128), (2, [128, 64], 128)]
    assert kernel.metadata["arg_kinds"] == ["ptr", "ptr", "ptr", "i32"]


@needs_ptxas
def test_descriptors_made_in_the_kernel_are_built_in_global_scratch():
    """On sm_90 a descriptor the kernel makes is a CUtensorMap that warp 0 builds in shared
    memory (tensormap.replace of every field) and copies to the program's 128 bytes of the
    kernel's global scratch (its last parameter), fenced for the TMA copies that use it."""
    signature = {"a_desc": "tensordesc<fp16[64, 64]>", "x_ptr": "*fp16", "M": "i32", "N": "i32",
                 "BM": "constexpr", "BN": "constexpr"}
    kernel = compiled(device_made_kernel, signature, {"BM": 64, "BN": 64}, 90)
    ptx = kernel.asm["ptx"]
    assert kernel.metadata["arg_kinds"] == ["ptr", "ptr", "i32", "i32", "ptr"]
    assert kernel.metadata["global_scratch"] == 128
    for field in ("global_address", "rank", "box_dim", "global_dim", "global_stride",
                  "element_stride", "elemtype", "interleave_layout", "swizzle_mode",
                  "fill_mode"):
        assert f"tensormap.replace.tile.{field}.shared::cta" in ptx
    assert "tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r" in ptx
    assert "tensormap.cp_fenceproxy.global.shared::cta" in ptx
    assert "fence.proxy.tensormap::generic.acquire.gpu" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx  # the store through it


@tc.jit
def scale_rows_kernel(in_desc, out_desc, M, BM: tl.constexpr):
    for m in range(0, M, BM):
        out_desc.store([m, 0], in_desc.load([m, 0]) * 2)


@needs_ptxas
@pytest.mark.parametrize("stages", [3, 1])
def test_descriptor_store_in_a_loop_is_asynchronous(stages):
    """With more than one stage, a descriptor store in a loop writes one buffer allocated before
    the loop and leaves its TMA store in flight: the next iteration waits for it before writing
    the buffer again (every thread after thread 0 has waited), and the loop is followed by a
    last wait. With one stage the store waits for itself in the loop."""
    signature = {"in_desc": "tensordesc<fp16[64, 64]>", "out_desc": "tensordesc<fp16[64, 64]>",
                 "M": "i32", "BM": "constexpr"}
    kernel = compiled(scale_rows_kernel, signature, {"BM": 64}, 90, stages)
    ttgir = kernel.asm["ttgir"]
    before_loop = ttgir[:ttgir.index("scf.for")]
    asynchronous = stages > 1
    assert ("ttg.local_alloc : () -> !ttg.memdesc<64x64xf16" in before_loop) == asynchronous
    assert ttgir.count("ttng.async_tma_store_wait {pendings = 0 : i32}") == 1 + asynchronous
    ptx = kernel.asm["ptx"]
    stores = re.findall(r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group", ptx)
    assert len(stores) == 1
    waits = re.findall(r"cp\.async\.bulk\.wait_group\.read 0;(?:\s*//[^\n]*)*\s*bar\.sync", ptx)
    assert len(waits) == 1 + asynchronous
    # in the loop, the wait comes before the buffer is written, the store after
    loop = ptx[ptx.index("cp.async.bulk.tensor.2d.shared::cluster"):]
    wait, write = loop.index("cp.async.bulk.wait_group.read"), loop.index("st.shared")
    assert (wait < write < loop.index("cp.async.bulk.tensor.2d.global")) == asynchronous


@tc.jit
def planes_kernel(x_ptr, out_ptr, M, N, PLANES, BM: tl.constexpr, BN: tl.constexpr):
    """Plane ``i`` of ``out`` (``PLANES`` planes of M x N) gets ``x * (i + 1)`` through a
    descriptor made in the loop, whose base and row count (``M - i``: the last ``i`` rows are
    left as they were) differ in every iteration."""
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=inside, other=0.0)
    for i in range(0, PLANES):
        plane = tl.make_tensor_descriptor(out_ptr + i * M * N, [M - i, N], [N, 1], [BM, BN])
        plane.store([pid_m * BM, pid_n * BN], x * (i + 1))


PLANES_SIGNATURE = {"x_ptr": "*fp32:16", "out_ptr": "*fp32:16", "M": "i32", "N": "i32",
                    "PLANES": "i32", "BM": "constexpr", "BN": "constexpr"}


@needs_ptxas
@pytest.mark.parametrize("stages", [3, 1])
def test_descriptors_made_in_a_loop_take_turns_in_two_maps(stages):
    """With asynchronous stores (more than one stage), the descriptor made in the loop has two
    maps in global scratch memory, written in turn: the TMA store of one iteration may still
    read its map while the next iteration writes the other (a counter carried by the loop says
    which). With one stage the store is synchronous and one map is written again."""
    kernel = compiled(planes_kernel, PLANES_SIGNATURE, {"BM": 64, "BN": 64}, 90, stages)
    ttgir = kernel.asm["ttgir"]
    loop = ttgir.index("scf.for")
    maps = 2 if stages > 1 else 1
    alloc = f"ttg.global_scratch_alloc {{alignment = 128 : i32, nbytes = {128 * maps} : i32}}"
    assert ttgir.count("ttg.global_scratch_alloc") == 1
    assert (ttgir.index(alloc) < loop) == (stages > 1), ttgir
    assert "tt.make_tensor_descriptor" not in ttgir
    inside = ttgir[loop:]
    order = ["ttng.tensormap_create", "ttng.tensormap_fenceproxy_acquire",
             "ttng.reinterpret_tensor_descriptor", "ttng.async_tma_copy_local_to_global"]
    positions = [inside.index(piece) for piece in order]
    assert positions == sorted(positions), ttgir
    assert ("iter_args" in ttgir[loop:ttgir.index("\n", loop)]) == (stages > 1)
    assert kernel.metadata["global_scratch"] == 128 * maps
    assert kernel.metadata["arg_kinds"] == ["ptr", "ptr", "i32", "i32", "i32", "ptr"]
    ptx = kernel.asm["ptx"]
    assert ptx.count("tensormap.cp_fenceproxy.global.shared::cta") == 1
    assert ptx.count("fence.proxy.tensormap::generic.acquire.gpu") == 1
    assert "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r" in ptx
    assert "tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r" in ptx


PLANES_SHAPE = dict(m=200, n=96, planes=7, bm=64, bn=64)


def _planes(x: np.ndarray, planes: int) -> np.ndarray:
    """What `planes_kernel` writes into ``planes`` planes of NaN."""
    m = x.shape[0]
    expected = np.full((planes, *x.shape), np.nan, np.float32)
    for i in range(planes):
        expected[i, :m - i] = x[:m - i] * np.float32(i + 1)
    return expected


def test_planes_kernel_on_the_cpu(monkeypatch):
    """What the GPU test below expects, from the CPU backend (descriptors as pointers)."""
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    m, n, planes, bm, bn = PLANES_SHAPE.values()
    x = np.random.default_rng(14).standard_normal((m, n)).astype(np.float32)
    out = np.full((planes, m, n), np.nan, np.float32)
    planes_kernel[(tc.cdiv(m, bm), tc.cdiv(n, bn))](x, out, m, n, planes, BM=bm, BN=bn)
    np.testing.assert_array_equal(out, _planes(x, planes))


@needs_gpu
@pytest.mark.parametrize("stages", [3, 1])
def test_descriptors_made_in_a_loop_store_every_plane_on_the_gpu(stages):
    """Seven planes (each of the two maps is written several times), through a 4 x 2 grid of
    64 x 64 blocks over 200 x 96 planes: ragged in both dimensions, and plane ``i`` cut after
    ``200 - i`` rows. Every element is compared with numpy's, the elements no store may write
    included (they keep their NaN)."""
    torch = pytest.importorskip("torch")
    m, n, planes, bm, bn = PLANES_SHAPE.values()
    x = np.random.default_rng(14).standard_normal((m, n)).astype(np.float32)
    out = torch.full((planes, m, n), float("nan"), dtype=torch.float32, device="cuda")
    grid = (tc.cdiv(m, bm), tc.cdiv(n, bn))
    kernel = planes_kernel[grid](torch.from_numpy(x).cuda(), out, m, n, planes, BM=bm, BN=bn,
                                 num_stages=stages)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), _planes(x, planes))
    maps = 2 if stages > 1 else 1
    assert f"nbytes = {128 * maps} : i32" in kernel.asm["ttgir"]
    assert kernel.metadata["global_scratch"] == 128 * maps


@needs_ptxas
def test_pointer_fallback_on_sm80():
    """sm_80 has no TMA: descriptors take the pointer rewrite, a host descriptor is passed as
    its pack, and the launcher's guarantees (last stride 1, zero padding, sizes and strides
    divisible by 16) make the rewritten loads 16-byte cp.async copies."""
    signature = {"a_desc": "tensordesc<fp16[64, 64]>", "x_ptr": "*fp16", "M": "i32", "N": "i32",
                 "BM": "constexpr", "BN": "constexpr"}
    kernel = compiled(device_made_kernel, signature, {"BM": 64, "BN": 64}, 80)
    assert "cp.async.bulk" not in kernel.asm["ptx"] and "tensormap" not in kernel.asm["ptx"]
    assert kernel.metadata["tensormaps"] == [] and kernel.metadata["global_scratch"] == 0
    assert kernel.metadata["arg_kinds"][:7] == ["ptr", "i64", "i64", "i64", "i64", "i1", "i1"]
    x = np.zeros((256, 256), np.float16)
    descs = [tc.TensorDescriptor.from_tensor(x, shape)
             for shape in ([128, 64], [64, 128], [128, 128])]
    module = matmul_kernel.ir(*descs, 256, BM=128, BN=128, BK=64)
    matmul = compile_module(module, get_backend("cuda", 80), {"num_warps": 8, "num_stages": 3})
    ptx = matmul.asm["ptx"]
    assert "cp.async.bulk" not in ptx and "ld.global" not in ptx
    assert "cp.async.cg.shared.global" in ptx and "mma.sync.aligned.m16n8k16" in ptx


LOWERING = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @f(%d: !tt.tensordesc<64x32xf16>, %e: !tt.tensordesc<64x4xf16>, %x: i32) {
    %v = tt.descriptor_load %d[%x, %x] : !tt.tensordesc<64x32xf16> -> tensor<64x32xf16, #blocked>
    tt.descriptor_store %d[%x, %x], %v : !tt.tensordesc<64x32xf16>, tensor<64x32xf16, #blocked>
    %w = tt.descriptor_load %e[%x, %x] : !tt.tensordesc<64x4xf16> -> tensor<64x4xf16, #blocked>
    tt.return
  }
}
"""


def test_tma_lowering_pass():
    """Loads become a barrier-completed TMA copy read back from shared memory, stores a copy
    out of shared memory; a block whose rows are not a multiple of 32 bytes stays as it is."""
    module = parse_module(LOWERING)
    PassManager.parse("builtin.module(triton-nvidia-tma-lowering)").run(module)
    text = print_op(module)
    order = ["ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared",
             "ttg.local_alloc : () -> !ttg.memdesc<1xi64", "ttng.init_barrier",
             "ttng.barrier_expect %1, 4096", "ttng.async_tma_copy_global_to_local %arg0[%arg2, %arg2]",
             "ttng.wait_barrier", "ttng.inval_barrier", "ttg.local_load",
             "ttg.local_alloc %", "ttng.fence_async_shared",
             "ttng.async_tma_copy_local_to_global %arg0[%arg2, %arg2]",
             "ttng.async_tma_store_wait {pendings = 0 : i32}",
             "tt.descriptor_load %arg1"]
    positions = [text.find(piece) for piece in order]
    assert -1 not in positions, text
    assert positions == sorted(positions), text
    assert "swizzlingByteWidth = 64" in text
