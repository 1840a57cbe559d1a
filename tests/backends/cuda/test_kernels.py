"""The CUDA backend end to end: kernels compiled to PTX and cubins for sm_80 and sm_90a on any
machine (ptxas assembles them), and, on a GPU, launched on torch tensors and checked against
float64 references."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda import driver, toolchain

from . import kernels as K

try:
    toolchain.find_ptxas()
    HAVE_PTXAS = True
except Exception:  # noqa: BLE001 - any failure to find it means: skip
    HAVE_PTXAS = False

needs_ptxas = pytest.mark.skipif(not HAVE_PTXAS, reason="ptxas not found")
needs_gpu = pytest.mark.skipif(not driver.is_available(), reason="no CUDA device")

SIGNATURES = {
    "add": (K.add_kernel, {"x_ptr": "*fp32:16", "y_ptr": "*fp32:16", "out_ptr": "*fp32:16",
                           "n": "i32:16", "BLOCK": "constexpr"}, {"BLOCK": 1024}),
    "softmax": (K.softmax_kernel, {"out_ptr": "*fp32:16", "in_ptr": "*fp32:16",
                                   "in_stride": "i32", "out_stride": "i32", "n_cols": "i32",
                                   "BLOCK": "constexpr"}, {"BLOCK": 1024}),
    "sum_2d": (K.sum_2d_kernel, {"x_ptr": "*fp32", "rows_ptr": "*fp32", "cols_ptr": "*fp32",
                                 "M": "constexpr", "N": "constexpr"}, {"M": 64, "N": 128}),
    "dot": (K.dot_kernel, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32",
                           "M": "constexpr", "N": "constexpr", "K": "constexpr"},
            {"M": 32, "N": 32, "K": 16}),
    "matmul_f16": (K.matmul_kernel,
                   {**{name: "*fp16:16" for name in ("a_ptr", "b_ptr")}, "c_ptr": "*fp32:16",
                    **{name: "i32" for name in ("M", "N", "K", "stride_am", "stride_bk",
                                                "stride_cm")},
                    **{name: "constexpr" for name in ("stride_ak", "stride_bn", "stride_cn", "BM",
                                                      "BN", "BK", "PRECISION", "OUT")}},
                   {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BM": 64, "BN": 64,
                    "BK": 32, "PRECISION": "tf32", "OUT": tl.float32}),
    "loop": (K.loop_kernel, {"x_ptr": "*fp32:16", "out_ptr": "*fp32:16", "n_rows": "i32",
                             "BLOCK": "constexpr"}, {"BLOCK": 256}),
}


def compiled(name: str, capability: int):
    fn, signature, constexprs = SIGNATURES[name]
    return tc.compile(tc.ASTSource(fn, signature, constexprs),
                      target=tc.GPUTarget("cuda", capability, 32))


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_compiles_to_a_cubin(name: str, capability: int) -> None:
    kernel = compiled(name, capability)
    assert set(kernel.asm) == {"ttir", "ttgir", "llir", "ptx", "cubin"}
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    assert f".target sm_{capability}" in kernel.asm["ptx"]
    assert kernel.metadata["registers"] > 0
    assert kernel.metadata["num_warps"] == 4


@needs_ptxas
def test_launch_bounds_and_register_cap() -> None:
    """Kernels require their block size (.reqntid, as Triton's); maxnreg caps registers."""
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    source = tc.ASTSource(fn, signature, constexprs)
    free = tc.compile(source, target=tc.GPUTarget("cuda", 90, 32))
    assert ".reqntid 128" in free.asm["ptx"] and ".maxnreg" not in free.asm["ptx"]
    capped = tc.compile(source, target=tc.GPUTarget("cuda", 90, 32), options={"maxnreg": 64})
    assert ".maxnreg 64" in capped.asm["ptx"]
    assert capped.metadata["registers"] <= 64


@needs_ptxas
def test_fp16_matmul_runs_on_tensor_cores() -> None:
    kernel = compiled("matmul_f16", 80)
    assert "#ttg.nvidia_mma<{versionMajor = 2" in kernel.asm["ttgir"]
    ptx = kernel.asm["ptx"]
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    # operands through swizzled shared memory: A read with ldmatrix, B with ldmatrix.trans
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in ptx


@tc.jit
def repeated_dot_kernel(a_ptr, b_ptr, c_ptr, trips, BM: tl.constexpr, BN: tl.constexpr,
                        BK: tl.constexpr):
    """The same A and B tiles multiplied into one accumulator on every trip."""
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(trips):
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def _loop_body(ptx: str, marker: str) -> str:
    """The PTX of the loop around the first ``marker``: from the label before it to the
    branch back."""
    at = ptx.index(marker)
    start = ptx.rfind("$L__BB", 0, at)
    return ptx[start:ptx.index("bra", at)]


@needs_ptxas
def test_loop_invariant_dot_operands_are_staged_once() -> None:
    """sm_80: operands the loop does not change go through shared memory into their mma
    registers once, before the loop (`triton-licm`); the loop holds the mma.sync alone."""
    source = tc.ASTSource(repeated_dot_kernel, {"a_ptr": "*fp16:16", "b_ptr": "*fp16:16",
                                                "c_ptr": "*fp32:16", "trips": "i32",
                                                "BM": "constexpr", "BN": "constexpr",
                                                "BK": "constexpr"},
                          {"BM": 64, "BN": 64, "BK": 32})
    ptx = tc.compile(source, target=tc.GPUTarget("cuda", 80, 32)).asm["ptx"]
    loop = _loop_body(ptx, "mma.sync")
    # a 64x64x32 dot on 4 warps: (64 / 16) * (64 / 8) * (32 / 16) / 4 instructions a warp, on
    # each of the trips that LLVM unrolled into one
    mmas = loop.count("mma.sync.aligned.m16n8k16")
    assert mmas and mmas % 16 == 0
    for staging in ("st.shared", "ld.shared", "ldmatrix", "bar.sync"):
        assert staging not in loop
    assert "ldmatrix" in ptx  # before the loop


def _aligned_matmul(capability: int, stages: int):
    """The fp16 matmul with sizes divisible by 16, so that the masks are uniform over 8
    elements: 16-byte copies, pipelined."""
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {name: "i32:16" if kind == "i32" else kind for name, kind in signature.items()}
    return tc.compile(tc.ASTSource(fn, signature, constexprs),
                      target=tc.GPUTarget("cuda", capability, 32),
                      options={"num_stages": stages})


@needs_ptxas
def test_fp16_matmul_runs_on_warp_group_mma_on_hopper() -> None:
    """sm_90a: wgmma reading both operands from NVMMA-swizzled shared memory that cp.async
    fills (A K-major, B N-major: read transposed), with a proxy fence after each wait."""
    kernel = _aligned_matmul(90, 3)
    ttgir = kernel.asm["ttgir"]
    assert "#ttg.nvidia_mma<{versionMajor = 3" in ttgir
    assert "ttng.warp_group_dot" in ttgir and "#ttg.nvmma_shared<{swizzlingByteWidth" in ttgir
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" in ptx
    assert "p, 1, 1, 0, 1;" in ptx  # B is read transposed, A is not
    assert "mma.sync" not in ptx and "ldmatrix" not in ptx
    loop = ptx[ptx.index("cp.async.wait_group"):]
    assert loop.index("fence.proxy.async.shared::cta") < loop.index("bar.sync") \
        < loop.index("wgmma.mma_async")
    assert "wgmma.commit_group.sync.aligned" in ptx and "wgmma.wait_group.sync.aligned 0" in ptx


@needs_ptxas
@pytest.mark.parametrize("pointee, out, form", [
    ("fp32", tl.float32, "m64n64k8.f32.tf32.tf32"),
    ("i8", tl.int32, "m64n64k32.s32.s8.s8"),
    ("bf16", tl.float32, "m64n64k16.f32.bf16.bf16"),
])
def test_other_types_run_on_warp_group_mma(pointee: str, out, form: str) -> None:
    """tf32, int8 and bf16 dots on sm_90a are wgmma instructions of their types (tf32 and int8
    operands stored K-major: no transpose immediates)."""
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {**signature, "a_ptr": f"*{pointee}:16", "b_ptr": f"*{pointee}:16"}
    kernel = tc.compile(tc.ASTSource(fn, signature, {**constexprs, "OUT": out}),
                        target=tc.GPUTarget("cuda", 90, 32))
    ptx = kernel.asm["ptx"]
    assert f"wgmma.mma_async.sync.aligned.{form}" in ptx
    assert "mma.sync" not in ptx


def _example(name: str):
    """A module of ``examples/`` (their file names start with digits; they import their
    neighbour ``_report``)."""
    import importlib.util
    import sys
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "examples"
    spec = importlib.util.spec_from_file_location(name.lstrip("0123456789_"),
                                                  folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


@needs_ptxas
def test_attention_runs_on_asynchronous_warp_group_mma() -> None:
    """The attention example on sm_90a with 128x64 blocks and 8 warps: Q K^T and P V are wgmma
    (P from registers), the softmax stays in the accumulator's layout (no shared memory
    between the two products), and each iteration waits once for both products."""
    import inspect

    kernel_fn = _example("05_fused_attention")._attn_fwd
    names = list(inspect.signature(kernel_fn.fn).parameters)
    constexprs = {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False}
    signature = {}
    for name in names:
        if name in constexprs:
            signature[name] = "constexpr"
        elif name in ("Q", "K", "V", "Out"):
            signature[name] = "*fp16:16"
        else:
            signature[name] = "fp32" if name == "sm_scale" else "i32:16"
    for name in ("stride_qk", "stride_kk", "stride_vk", "stride_ok"):
        signature[name] = "constexpr"
        constexprs[name] = 1
    kernel = tc.compile(tc.ASTSource(kernel_fn, signature, constexprs),
                        target=tc.GPUTarget("cuda", 90, 32),
                        options={"num_warps": 8, "num_stages": 3})
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" in ptx
    loop = ptx[ptx.index("cp.async.wait_group"):]
    loop = loop[:loop.index("bra")]
    assert loop.count("wgmma.wait_group.sync.aligned 0") == 1
    assert "ld.shared" not in loop and "st.shared" not in loop and "ldmatrix" not in loop
    assert kernel.metadata["spills"] == 0


@needs_ptxas
@pytest.mark.parametrize("stages", [2, 3, 4])
def test_matmul_loop_is_pipelined_with_cp_async(stages: int) -> None:
    """num_stages buffers per operand in shared memory, filled by 16-byte cp.async copies
    num_stages - 1 iterations ahead: no global load in the loop, one wait a trip that leaves
    num_stages - 2 groups in flight (the cross-iteration prefetch's, at the end; the
    pipeliner's at the top waits for nothing more and is left out) and one barrier after it,
    none between the copies and the reads of the other buffers."""
    kernel = _aligned_matmul(80, stages)
    ttgir = kernel.asm["ttgir"]
    assert ttgir.count(f"!ttg.memdesc<{stages}x") >= 2
    ptx = kernel.asm["ptx"]
    assert "cp.async.cg.shared.global" in ptx and "cp.async.commit_group" in ptx
    loop = _loop_body(ptx, "mma.sync")
    waits = [line.strip() for line in loop.splitlines() if "cp.async.wait_group" in line]
    assert waits == [f"cp.async.wait_group \t{stages - 2};"]
    assert loop.count("bar.sync") == 1
    assert "ld.global" not in loop
    assert kernel.metadata["shared"] >= stages * (64 * 32 + 32 * 64) * 2


@needs_ptxas
def test_shared_addresses_fold_register_constants_into_offsets() -> None:
    """sm_80, 128x256x64 on 8 warps: the bits of a register's shared-memory offset that no
    lane or warp sets are an immediate of the address (``[%rd + 4096]``), so the loop's 32
    ldmatrix start from a few addresses, not one (and one register) each."""
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {name: "i32:16" if kind == "i32" else kind for name, kind in signature.items()}
    constexprs = {**constexprs, "BM": 128, "BN": 256, "BK": 64}
    kernel = tc.compile(tc.ASTSource(fn, signature, constexprs),
                        target=tc.GPUTarget("cuda", 80, 32),
                        options={"num_warps": 8, "num_stages": 3})
    addresses = re.findall(r"ldmatrix[^\[]*\[([^]]+)\]",
                           _loop_body(kernel.asm["ptx"], "mma.sync"))
    assert len(addresses) == 32
    starts = {address.split("+")[0] for address in addresses}
    assert len(starts) <= 8, sorted(starts)


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
def test_shared_memory_addresses_are_32_bit(capability: int) -> None:
    """Shared-memory pointers are 32-bit (NVPTX's short pointers, as Triton compiles): every
    cp.async target, ldmatrix row and ld/st.shared address is a 32-bit register."""
    ptx = _aligned_matmul(capability, 3).asm["ptx"]
    addresses = re.findall(r"cp\.async\.cg\.shared\.global \[([^]+]+)", ptx)
    addresses += re.findall(r"(?:ldmatrix[^\[]*|[ls]t\.shared[.\w]*\s+)\[([^]+]+)", ptx)
    assert addresses and all(re.fullmatch(r"%r\d+", a) for a in addresses), addresses


@needs_ptxas
def test_masked_copies_zero_fill_through_the_ignore_src_predicate() -> None:
    """The matmul's copies under its K masks: cp.async's ignore-src predicate (the negated
    mask), not a source size selected from the mask."""
    ptx = _aligned_matmul(80, 3).asm["ptx"]
    masked = re.findall(r"cp\.async\.cg\.shared\.global \[[^]]+\], \[[^]]+\], 16, (%\w+);",
                        ptx)
    assert masked and all(operand.startswith("%p") for operand in masked)


@tc.jit
def axpy_kernel(x_ptr, y_ptr, z_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(out_ptr + offsets, x * y + tl.load(z_ptr + offsets))


@needs_ptxas
@pytest.mark.parametrize("fusion", [True, False])
def test_fp_fusion_option_contracts_multiply_adds(fusion: bool) -> None:
    """enable_fp_fusion (on by default, as in Triton) lets x * y + z become one fma; off, the
    multiply and the add round separately."""
    signature = {name: "*fp32:16" for name in ("x_ptr", "y_ptr", "z_ptr", "out_ptr")}
    kernel = tc.compile(tc.ASTSource(axpy_kernel, {**signature, "BLOCK": "constexpr"},
                                     {"BLOCK": 128}),
                        target=tc.GPUTarget("cuda", 90, 32),
                        options={"enable_fp_fusion": fusion})
    ptx = kernel.asm["ptx"]
    assert ("fma.rn.f32" in ptx) == fusion
    assert ("mul.rn.f32" in ptx) == (not fusion)


@needs_ptxas
def test_ieee_fp32_dot_stays_on_cuda_cores() -> None:
    ptx = compiled("dot", 80).asm["ptx"]
    assert "mma.sync" not in ptx and "fma.rn.f32" in ptx


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
def test_vector_add_loads_and_stores_128_bits(capability: int) -> None:
    """Coalescing gives each thread 4 consecutive floats: one 128-bit access per operand and
    register block, predicated by the mask (n is a multiple of 16, so the mask is uniform over
    each group of 4)."""
    ptx = compiled("add", capability).asm["ptx"]
    assert ptx.count("ld.global.v4.b32") == 4
    assert ptx.count("st.global.v4.b32") == 2
    assert "ld.global.b32" not in ptx


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
def test_register_blocks_address_by_constant_offsets(capability: int) -> None:
    """A softmax row of 16384 floats on 16 warps: each thread's 8 blocks of 4 floats lie 8192
    bytes apart, so every block's address is the first one's plus a constant (not one 64-bit
    offset per block kept live from the loads to the stores), and the f32 division is Triton's
    div.full.f32."""
    fn, signature, _ = SIGNATURES["softmax"]
    signature = {**signature, **{name: "i32:16" for name in ("in_stride", "out_stride",
                                                             "n_cols")}}
    kernel = tc.compile(tc.ASTSource(fn, signature, {"BLOCK": 16384}),
                        target=tc.GPUTarget("cuda", capability, 32), options={"num_warps": 16})
    ptx = kernel.asm["ptx"]
    assert ptx.count("ld.global.v4.b32") == 8
    for block in range(1, 8):
        assert re.search(rf"add\.s64\s+%rd\d+, %rd\d+, {8192 * block};", ptx), block
    assert ptx.count("div.full.f32") == 32 and "div.rn.f32" not in ptx


@tc.jit
def divisions_kernel(x_ptr, y_ptr, fast_ptr, rounded_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(fast_ptr + offsets, x / y)
    tl.store(rounded_ptr + offsets, tl.div_rn(x, y))


@needs_ptxas
def test_f32_division_is_div_full_and_div_rn_rounds() -> None:
    kernel = tc.compile(tc.ASTSource(divisions_kernel, {
        **{name: "*fp32:16" for name in ("x_ptr", "y_ptr", "fast_ptr", "rounded_ptr")},
        "BLOCK": "constexpr"}, {"BLOCK": 128}), target=tc.GPUTarget("cuda", 90, 32))
    ptx = kernel.asm["ptx"]
    assert "div.full.f32" in ptx and "div.rn.f32" in ptx


@needs_gpu
def test_divisions_on_the_gpu() -> None:
    """x / y within 2 ulp (div.full.f32, as Triton), tl.div_rn correctly rounded."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng()
    x = rng.standard_normal(128).astype(np.float32)
    y = (rng.standard_normal(128) + np.sign(rng.standard_normal(128)) * 0.5).astype(np.float32)
    tx, ty = torch.tensor(x, device="cuda"), torch.tensor(y, device="cuda")
    fast, rounded = (torch.full((128,), float("nan"), device="cuda") for _ in range(2))
    divisions_kernel[(1,)](tx, ty, fast, rounded, BLOCK=128)
    exact = x.astype(np.float64) / y.astype(np.float64)
    np.testing.assert_array_equal(rounded.cpu().numpy(), exact.astype(np.float32))
    ulp = np.spacing(np.abs(exact.astype(np.float32)))
    assert np.all(np.abs(fast.cpu().numpy() - exact) <= 2 * ulp)


@needs_ptxas
def test_row_reduction_shuffles_across_lanes() -> None:
    assert "shfl.sync.bfly" in compiled("softmax", 90).asm["ptx"]


@needs_ptxas
def test_reduction_across_warps_uses_shared_memory() -> None:
    kernel = compiled("softmax", 90)
    assert kernel.metadata["shared"] > 0
    assert "bar.sync" in kernel.asm["ptx"]


@tc.jit
def fp8_copy_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets).to(tl.float8e4nv).to(tl.float32))


def test_fp8e4nv_is_refused_on_sm80_at_its_line() -> None:
    source = tc.ASTSource(fp8_copy_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32",
                                            "BLOCK": "constexpr"}, {"BLOCK": 64})
    with pytest.raises(tc.CompilationError, match=r"test_kernels.py:\d+.*f8E4M3FN is not "
                                                  r"supported on sm_80"):
        tc.compile(source, target=tc.GPUTarget("cuda", 80, 32))


# -- on the GPU ----------------------------------------------------------------------------------

torch = pytest.importorskip("torch") if driver.is_available() else None


def _cuda(array: np.ndarray):
    return torch.from_numpy(np.ascontiguousarray(array)).cuda()


@needs_gpu
@pytest.mark.parametrize("size", [1024 * 96, 98432, 7])
def test_vector_add(size: int) -> None:
    rng = np.random.default_rng()
    x, y = rng.random(size, dtype=np.float32), rng.random(size, dtype=np.float32)
    out = _cuda(np.full(size, np.nan, np.float32))
    K.add_kernel[(tc.cdiv(size, 1024),)](_cuda(x), _cuda(y), out, size, BLOCK=1024)
    np.testing.assert_allclose(out.cpu().numpy(), x.astype(np.float64) + y, rtol=1e-6)


@needs_gpu
@pytest.mark.parametrize("cols", [781, 1024])
def test_softmax(cols: int) -> None:
    rng = np.random.default_rng()
    x = rng.standard_normal((37, cols)).astype(np.float32)
    out = _cuda(np.full_like(x, np.nan))
    K.softmax_kernel[(37,)](out, _cuda(x), cols, cols, cols, BLOCK=1024)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out.cpu().numpy(), e / e.sum(axis=1, keepdims=True),
                               rtol=1e-5, atol=1e-7)


@needs_gpu
def test_sums_along_both_axes() -> None:
    x = np.random.default_rng().standard_normal((64, 128)).astype(np.float32)
    rows, cols = _cuda(np.full(64, np.nan, np.float32)), _cuda(np.full(128, np.nan, np.float32))
    K.sum_2d_kernel[(1,)](_cuda(x), rows, cols, M=64, N=128)
    np.testing.assert_allclose(rows.cpu().numpy(), x.astype(np.float64).sum(1), rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_allclose(cols.cpu().numpy(), x.astype(np.float64).sum(0), rtol=1e-4,
                               atol=1e-4)


@needs_gpu
def test_dot_on_cuda_cores() -> None:
    rng = np.random.default_rng()
    a = rng.standard_normal((32, 16)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float32)
    c = _cuda(np.full((32, 32), np.nan, np.float32))
    K.dot_kernel[(1,)](_cuda(a), _cuda(b), c, M=32, N=32, K=16)
    np.testing.assert_allclose(c.cpu().numpy(), a.astype(np.float64) @ b, rtol=1e-4,
                               atol=1e-4)


MATMUL_CASES = {  # name: (torch dtype, precision, out dtype, rtol)
    "fp16": ("float16", "tf32", tl.float32, 1e-3),
    "fp16-acc16": ("float16", "tf32", tl.float16, 1e-2),
    "bf16": ("bfloat16", "tf32", tl.float32, 1e-3),
    "tf32": ("float32", "tf32", tl.float32, 5e-3),
    "ieee": ("float32", "ieee", tl.float32, 1e-5),
    "int8": ("int8", "tf32", tl.int32, 0),
    "fp64": ("float64", "tf32", tl.float64, 1e-12),
}


def _operands(dtype, m: int, n: int, k: int):
    """Fresh random A (m x k) and B (k x n) on the GPU: int8 over its whole range, floats
    normal."""
    if dtype == torch.int8:
        return (torch.randint(-128, 128, (m, k), dtype=dtype, device="cuda"),
                torch.randint(-128, 128, (k, n), dtype=dtype, device="cuda"))
    return (torch.randn((m, k), device="cuda").to(dtype),
            torch.randn((k, n), device="cuda").to(dtype))


@needs_gpu
@pytest.mark.parametrize("shape", [(128, 128, 64), (100, 72, 50), (33, 130, 200)])
@pytest.mark.parametrize("case", sorted(MATMUL_CASES))
def test_matmul_against_torch(case: str, shape: tuple[int, int, int]) -> None:
    """Tensor-core (mma.sync) and CUDA-core dots, masked edges included, against float64."""
    dtype_name, precision, out, rtol = MATMUL_CASES[case]
    dtype = getattr(torch, dtype_name)
    m, n, k = shape
    a, b = _operands(dtype, m, n, k)
    out_dtype = {tl.float32: torch.float32, tl.float16: torch.float16, tl.int32: torch.int32,
                 tl.float64: torch.float64}[out]
    c = torch.full((m, n), 7, dtype=out_dtype, device="cuda")
    bm, bn, bk = 64, 64, 32
    K.matmul_kernel[(tc.cdiv(m, bm), tc.cdiv(n, bn))](
        a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), BM=bm, BN=bn, BK=bk, PRECISION=precision, OUT=out)
    ref = a.double() @ b.double()
    if rtol == 0:
        assert torch.equal(c.long(), ref.long())
    else:
        scale = (a.double().abs() @ b.double().abs()).max()
        error = ((c.double() - ref).abs().max() / scale).item()
        assert error < rtol, f"{case} {shape}: relative error {error:.2e}"


@needs_gpu
@pytest.mark.parametrize("blocks", [(128, 128, 4), (128, 128, 8), (64, 128, 8)])
@pytest.mark.parametrize("orders", ["rr", "rc", "cr", "cc"])
@pytest.mark.parametrize("shape", [(256, 256, 128), (200, 136, 72)])
@pytest.mark.parametrize("dtype_name", ["float16", "float32", "int8"])
def test_wgmma_operand_orders_and_warp_groups(dtype_name: str, orders: str,
                                              blocks: tuple[int, int, int],
                                              shape: tuple[int, int, int]) -> None:
    """BMxBNx64 blocks on wgmma: A and B row- (r) or column-major (c) in global memory, so
    that fp16 operands are stored K-major or M/N-major in shared memory and read transposed or
    not (tf32 and int8 are always stored K-major); with 8 warps two warp groups share the rows
    (128 rows) or the columns (64 rows). Against float64 (int8 exactly), masked edges
    included."""
    m, n, k = shape
    bm, bn, num_warps = blocks
    dtype = getattr(torch, dtype_name)
    a, b = _operands(dtype, m, n, k)
    if orders[0] == "c":
        a = a.t().contiguous().t()
    if orders[1] == "c":
        b = b.t().contiguous().t()
    out, out_dtype = (tl.int32, torch.int32) if dtype == torch.int8 else (tl.float32,
                                                                          torch.float32)
    c = torch.full((m, n), 7, dtype=out_dtype, device="cuda")
    K.matmul_kernel[(tc.cdiv(m, bm), tc.cdiv(n, bn))](
        a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), BM=bm, BN=bn, BK=64, PRECISION="tf32", OUT=out, num_warps=num_warps)
    ref = a.double() @ b.double()
    if dtype == torch.int8:
        assert torch.equal(c.long(), ref.long())
        return
    scale = (a.double().abs() @ b.double().abs()).max()
    error = ((c.double() - ref).abs().max() / scale).item()
    limit = 5e-3 if dtype == torch.float32 else 1e-3
    assert error < limit, f"{orders} {blocks} {shape}: relative error {error:.2e}"


@needs_gpu
@pytest.mark.parametrize("shape", [(128, 128, 128), (200, 136, 72)])
@pytest.mark.parametrize("dtype_name", ["float8_e4m3fn", "float8_e5m2"])
def test_fp8_matmul_against_torch(dtype_name: str, shape: tuple[int, int, int]) -> None:
    """fp8 operands (e4m3 and e5m2) into f32, masked edges included, against float64 products
    of the same fp8 values."""
    m, n, k = shape
    dtype = getattr(torch, dtype_name)
    a = torch.randn((m, k), device="cuda").to(dtype)
    b = torch.randn((k, n), device="cuda").to(dtype)
    c = torch.full((m, n), 7, dtype=torch.float32, device="cuda")
    K.fp8_matmul_kernel[(tc.cdiv(m, 64), tc.cdiv(n, 64))](
        a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
        c.stride(1), BM=64, BN=64, BK=64)
    ref = a.double() @ b.double()
    scale = (a.double().abs() @ b.double().abs()).max()
    error = ((c.double() - ref).abs().max() / scale).item()
    assert error < 1e-3, f"{dtype_name} {shape}: relative error {error:.2e}"


@needs_gpu
def test_loop_carried_accumulator() -> None:
    x = np.random.default_rng().standard_normal((9, 256)).astype(np.float32)
    out = _cuda(np.full(256, np.nan, np.float32))
    K.loop_kernel[(1,)](_cuda(x), out, 9, BLOCK=256)
    np.testing.assert_allclose(out.cpu().numpy(), x.astype(np.float64).sum(0), rtol=1e-5,
                               atol=1e-5)


@needs_gpu
def test_host_array_is_refused_by_name() -> None:
    x = np.zeros(16, np.float32)
    with pytest.raises(TypeError, match="x_ptr"):
        K.add_kernel[(1,)](x, _cuda(x), _cuda(x), 16, BLOCK=1024)


# -- bad input, refused before any launch --------------------------------------------------------

@tc.jit
def transpose_kernel(x_ptr, y_ptr, N: tl.constexpr):
    rows = tl.arange(0, N)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(y_ptr + rows * N + cols, tl.trans(x))


def _transpose_source(n: int):
    return tc.ASTSource(transpose_kernel, {"x_ptr": "*fp32:16", "y_ptr": "*fp32:16",
                                           "N": "constexpr"}, {"N": n})


@pytest.mark.parametrize("num_warps,message", [(3, "power of two"), (64, "at most 1024")])
def test_impossible_thread_counts_are_refused_naming_the_kernel(num_warps, message):
    with pytest.raises(tc.CompilationError, match=f"transpose_kernel.*{message}"):
        tc.compile(_transpose_source(16), target=tc.GPUTarget("cuda", 90, 32),
                   options={"num_warps": num_warps})


def test_shared_memory_over_the_limit_is_refused_at_its_line():
    """A 256x256 fp32 transpose goes through 256 KB of shared memory; sm_90 has 227 KB."""
    with pytest.raises(tc.CompilationError,
                       match=r"test_kernels.py:\d+.*262144 bytes of shared memory.*sm_90"):
        tc.compile(_transpose_source(256), target=tc.GPUTarget("cuda", 90, 32),
                   options={"num_warps": 32})


@needs_ptxas
def test_too_many_stages_for_shared_memory_is_refused_naming_the_kernel():
    """128x256x64 fp16 blocks take 48 KB of buffers per stage: five stages (240 KB) do not fit
    in sm_90's 227 KB; the error names the kernel and the bytes, before any launch."""
    fn, signature, constexprs = SIGNATURES["matmul_f16"]
    signature = {name: "i32:16" if kind == "i32" else kind for name, kind in signature.items()}
    source = tc.ASTSource(fn, signature, {**constexprs, "BM": 128, "BN": 256, "BK": 64})
    with pytest.raises(tc.CompilationError,
                       match=r"kernel 'matmul_kernel' needs 24\d{4} bytes of shared memory"):
        tc.compile(source, target=tc.GPUTarget("cuda", 90, 32),
                   options={"num_warps": 8, "num_stages": 5})
    tc.compile(source, target=tc.GPUTarget("cuda", 90, 32),
               options={"num_warps": 8, "num_stages": 4})
