"""`tl.dot` of bf16 operands on Intel AMX tiles (`tilecraft.backends.cpu.dot_amx`).

Which dots take the AMX path, and that LLVM compiles its code for a Sapphire Rapids target, is
checked on any host. The kernels then run twice over: with the tile instructions emulated in
numpy (their calls renamed to callbacks that follow the Intel SDM's pseudo-code, on any host),
and on the hardware where this process may run AMX (`engine.host_amx_bf16`; skipped elsewhere).
Results are compared with a float64 reference by relative error, as `test_dot` does: AMX sums
pairs of products and flushes subnormals, so results differ from the FMA path's within fp32
rounding."""

from __future__ import annotations

import ctypes
import re
import threading
from types import SimpleNamespace

import llvmlite.binding as llvm
import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cpu import dot_amx, engine
from tilecraft.backends.cpu.lowering import lower_kernel
from tilecraft.ir import FloatType, RankedTensorType, parse_module

from .test_dot import tutorial_matmul_kernel as tutorial_kernel

# -- kernels


@tc.jit
def masked_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    """Masks on M, N and K; operands computed from fp32 loads (``a * 2`` rounded to bf16);
    each step's dot into a fresh accumulator added to one read twice."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        step = tl.dot((a * 2).to(tl.bfloat16), b)
        acc = acc + step + 0.5 * acc
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc + bias[None, :],
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@tc.jit
def batched_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                   K: tl.constexpr):
    """A 3-D dot of whole tensors."""
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb * M * K + rm * K + rk[None, None, :])
    b = tl.load(b_ptr + rb * K * N + rk[None, :, None] * N + rn)
    tl.store(c_ptr + rb * M * N + rm * N + rn, tl.dot(a, b))


KERNELS = (tutorial_kernel, masked_kernel, batched_kernel)

# -- inputs and checks


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """The bf16 bit patterns of ``x`` (truncated)."""
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def relative_error(c: np.ndarray, reference: np.ndarray) -> float:
    return float(np.max(np.abs(c - reference)) / np.max(np.abs(reference)))


TOLERANCE = 1e-5


def tutorial(rng, m: int, n: int, k: int, blocks: tuple[int, int, int], transposed_b=False):
    """C of the tutorial kernel on random bf16 inputs, and its float64 reference."""
    a = bf16_bits(rng.standard_normal((m, k)))
    b = bf16_bits(rng.standard_normal((k, n)))
    c = np.full((m, n), np.nan, np.float32)
    b_launched, (stride_bk, stride_bn) = b, (n, 1)
    if transposed_b:
        b_launched, (stride_bk, stride_bn) = np.ascontiguousarray(b.T), (1, k)
    grid = (tc.cdiv(m, blocks[0]) * tc.cdiv(n, blocks[1]),)
    compiled = tutorial_kernel[grid](
        tc.reinterpret(a, tl.bfloat16), tc.reinterpret(b_launched, tl.bfloat16), c, m, n, k, k,
        1, stride_bk, stride_bn, n, 1, BLOCK_M=blocks[0], BLOCK_N=blocks[1], BLOCK_K=blocks[2],
        GROUP_M=2, ACC=tl.float32, PRECISION="ieee")
    return c, bf16_values(a) @ bf16_values(b), compiled


# -- the AMX tile instructions emulated


class EmulatedTiles:
    """The tile state of each thread and the five instructions the lowering emits, as ctypes
    callbacks that the compiled code calls instead (see `compile_emulated`)."""

    NAMES = ("ldtilecfg", "tilerelease", "tileloadd64", "tilestored64", "tdpbf16ps")

    def __init__(self) -> None:
        self.state = threading.local()
        self.errors: list[str] = []
        self.counts = dict.fromkeys(self.NAMES, 0)
        byte, pointer, stride = ctypes.c_uint8, ctypes.c_void_p, ctypes.c_int64
        self.callbacks = {
            "ldtilecfg": ctypes.CFUNCTYPE(None, pointer)(self.ldtilecfg),
            "tilerelease": ctypes.CFUNCTYPE(None)(self.tilerelease),
            "tileloadd64": ctypes.CFUNCTYPE(None, byte, pointer, stride)(self.tileloadd64),
            "tilestored64": ctypes.CFUNCTYPE(None, byte, pointer, stride)(self.tilestored64),
            "tdpbf16ps": ctypes.CFUNCTYPE(None, byte, byte, byte)(self.tdpbf16ps),
        }
        for name, callback in self.callbacks.items():
            engine.register_symbol(self.symbol(name),
                                   ctypes.cast(callback, ctypes.c_void_p).value)

    @staticmethod
    def symbol(name: str) -> str:
        return f"tilecraft_emulated_{name}"

    def rewrite(self, llvm_ir: str) -> str:
        """``llvm_ir`` calling the emulation instead of the intrinsics."""
        for name in self.NAMES:
            llvm_ir = re.sub(rf'@"?llvm\.x86\.{name}"?\(', f"@{self.symbol(name)}(", llvm_ir)
        return llvm_ir

    def fail(self, message: str) -> None:
        self.errors.append(message)

    def tiles(self) -> dict | None:
        config = getattr(self.state, "config", None)
        if config is None:
            self.fail("a tile instruction before ldtilecfg")
        return config

    def ldtilecfg(self, address: int) -> None:
        self.counts["ldtilecfg"] += 1
        raw = ctypes.string_at(address, 64)
        if raw[0] != 1 or any(raw[2:16]) or any(raw[32:48]) or any(raw[56:]):
            self.fail(f"invalid tile configuration {raw.hex()}")
        config = {}
        for tile in range(8):
            colsb = int.from_bytes(raw[16 + 2 * tile:18 + 2 * tile], "little")
            rows = raw[48 + tile]
            if colsb > 64 or rows > 16 or (colsb == 0) != (rows == 0):
                self.fail(f"tile {tile}: {rows} rows of {colsb} bytes")
            config[tile] = (rows, colsb, np.zeros((rows, colsb), np.uint8))
        self.state.config = config

    def tilerelease(self) -> None:
        self.counts["tilerelease"] += 1
        self.state.config = None

    def tileloadd64(self, tile: int, address: int, stride: int) -> None:
        self.counts["tileloadd64"] += 1
        config = self.tiles()
        if config is not None:
            rows, colsb, data = config[tile]
            for row in range(rows):
                data[row] = np.frombuffer(ctypes.string_at(address + row * stride, colsb),
                                          np.uint8)

    def tilestored64(self, tile: int, address: int, stride: int) -> None:
        self.counts["tilestored64"] += 1
        config = self.tiles()
        if config is not None:
            rows, colsb, data = config[tile]
            for row in range(rows):
                ctypes.memmove(address + row * stride, data[row].tobytes(), colsb)

    def tdpbf16ps(self, c: int, a: int, b: int) -> None:
        """The SDM's TDPBF16PS: per row of C and 32-bit column, the products of the bf16 pairs
        summed in two fp32 partial sums (even and odd elements), whose sum is added to C;
        subnormal inputs read as zero, subnormal results flushed."""
        self.counts["tdpbf16ps"] += 1
        config = self.tiles()
        if config is None:
            return
        (rows, c_bytes, c_data), (a_rows, a_bytes, a_data), (b_rows, b_bytes, b_data) = \
            config[c], config[a], config[b]
        if a_rows != rows or b_rows != a_bytes // 4 or b_bytes != c_bytes:
            self.fail(f"tdpbf16ps of mismatched tiles {config[c][:2]} {config[a][:2]} "
                      f"{config[b][:2]}")
            return
        left = _flushed(bf16_values(a_data.view(np.uint16)).astype(np.float32))
        right = _flushed(bf16_values(b_data.view(np.uint16)).astype(np.float32))
        even = np.zeros((rows, c_bytes // 4), np.float32)
        odd = np.zeros_like(even)
        for k in range(a_bytes // 4):
            even = _flushed(even + left[:, 2 * k, None] * right[None, k, 0::2])
            odd = _flushed(odd + left[:, 2 * k + 1, None] * right[None, k, 1::2])
        result = _flushed(c_data.view(np.float32) + _flushed(even + odd))
        c_data[...] = result.view(np.uint8)


def _flushed(x: np.ndarray) -> np.ndarray:
    return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.float32(0), x).astype(np.float32)


_EMULATION: list[EmulatedTiles] = []


@pytest.fixture(params=["emulated", "hardware"])
def amx(request, monkeypatch) -> str:
    """AMX dots on, with the tile instructions emulated or (where the process may run them)
    the hardware's; each test's kernels are compiled afresh, with the compile cache off: the
    emulated and the hardware compiles share a key (the rewrite is no part of it), so one
    would load the other's from disk."""
    if request.param == "hardware":
        if not engine.host_amx_bf16():
            pytest.skip("this process cannot run AMX bf16 instructions")
        marker = "@llvm.x86.tdpbf16ps"
    else:
        if not _EMULATION:
            _EMULATION.append(EmulatedTiles())
        emulation = _EMULATION[0]
        emulation.errors.clear()
        compile_module = engine.compile_module
        monkeypatch.setattr(engine, "host_amx_bf16", lambda: True)
        monkeypatch.setattr(engine, "compile_module", lambda llvm_ir, name, **options:
                            compile_module(emulation.rewrite(llvm_ir), name, **options))
        marker = f"@{emulation.symbol('tdpbf16ps')}"
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    for kernel in KERNELS:
        kernel.forget_compiled()
    yield marker
    for kernel in KERNELS:
        kernel.forget_compiled()
    if request.param == "emulated":
        assert not _EMULATION[0].errors, _EMULATION[0].errors[:5]


# (M, N, K, BLOCK_M, BLOCK_N, BLOCK_K): one 2 x 2 block of tiles and one 32-step of K; ragged
# edges; 1 x 1 and 1 x 2 blocks; K padded to 32 (BLOCK_K 16); several 32-steps of K per dot;
# the bench's largest blocks, with ragged edges
TUTORIAL_SHAPES = [(64, 64, 64, 64, 64, 32), (67, 45, 39, 32, 32, 16), (130, 70, 100, 32, 64, 32),
                   (40, 50, 70, 16, 16, 16), (48, 80, 96, 16, 32, 64), (96, 64, 300, 64, 16, 128),
                   (160, 144, 300, 128, 128, 256)]


@pytest.mark.parametrize("shape", TUTORIAL_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_tutorial_matmul(amx, rng, shape):
    m, n, k, *blocks = shape
    c, reference, compiled = tutorial(rng, m, n, k, tuple(blocks))
    assert amx in compiled.asm["llir"]
    assert relative_error(c, reference) <= TOLERANCE


@pytest.mark.parametrize("shape", [(67, 45, 39, 32, 32, 16), (64, 128, 256, 64, 64, 32)],
                         ids=lambda s: "x".join(map(str, s)))
def test_transposed_b(amx, rng, shape):
    m, n, k, *blocks = shape
    c, reference, compiled = tutorial(rng, m, n, k, tuple(blocks), transposed_b=True)
    assert amx in compiled.asm["llir"]
    assert relative_error(c, reference) <= TOLERANCE


@pytest.mark.parametrize("shape", [(37, 50, 45), (64, 64, 64)], ids=lambda s: "x".join(map(str, s)))
def test_masks_computed_operands_and_accumulators_read_twice(amx, rng, shape):
    m, n, k = shape
    bm, bn, bk = 32, 32, 16
    a = bf16_values(bf16_bits(rng.standard_normal((m, k)))).astype(np.float32)  # 2a is bf16
    b = bf16_bits(rng.standard_normal((k, n)))
    bias = rng.standard_normal(n).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    compiled = masked_kernel[(tc.cdiv(m, bm), tc.cdiv(n, bn))](
        a, tc.reinterpret(b, tl.bfloat16), bias, c, m, n, k, BM=bm, BN=bn, BK=bk)
    assert amx in compiled.asm["llir"]
    reference = np.zeros((m, n))
    for k0 in range(0, k, bk):
        step = 2 * a[:, k0:k0 + bk].astype(np.float64) @ bf16_values(b)[k0:k0 + bk]
        reference = reference + step + 0.5 * reference
    reference += bias
    assert relative_error(c, reference) <= TOLERANCE


def test_batched_dot(amx, rng):
    batch, m, n, k = 2, 32, 64, 16
    a = bf16_bits(rng.standard_normal((batch, m, k)))
    b = bf16_bits(rng.standard_normal((batch, k, n)))
    c = np.full((batch, m, n), np.nan, np.float32)
    compiled = batched_kernel[(1,)](tc.reinterpret(a, tl.bfloat16), tc.reinterpret(b, tl.bfloat16),
                                    c, B=batch, M=m, N=n, K=k)
    assert amx in compiled.asm["llir"]
    assert relative_error(c, bf16_values(a) @ bf16_values(b)) <= TOLERANCE


# -- which dots take AMX, and the code LLVM makes of them (any host)


def _dot_op(a: tuple, b: tuple, a_kind: str = "bf16", out_kind: str = "f32"):
    """A stand-in for a `tt.dot` of the given operand shapes and element types."""
    def value(shape, kind):
        return SimpleNamespace(type=RankedTensorType(list(shape), FloatType(kind)))

    out = a[:-1] + b[-1:]
    return SimpleNamespace(a=value(a, a_kind), b=value(b, a_kind),
                           results=[value(out, out_kind)])


@pytest.mark.parametrize("a, b, a_kind, out_kind, fits", [
    ((64, 32), (32, 64), "bf16", "f32", True),
    ((16, 16), (16, 16), "bf16", "f32", True),
    ((4, 32, 16), (4, 16, 48), "bf16", "f32", True),
    ((64, 32), (32, 64), "f16", "f32", False),
    ((64, 32), (32, 64), "f32", "f32", False),
    ((64, 32), (32, 64), "bf16", "f16", False),
    ((24, 32), (32, 64), "bf16", "f32", False),
    ((64, 32), (32, 40), "bf16", "f32", False),
    ((64, 15), (15, 64), "bf16", "f32", False),
])
def test_which_dots_fit(a, b, a_kind, out_kind, fits):
    assert dot_amx.fits_amx(_dot_op(a, b, a_kind, out_kind)) is fits


def test_no_amx_without_the_cpu_features(monkeypatch):
    """A host whose CPU lacks AMX-BF16 never asks Linux for the tile state."""
    host = engine.host_target()
    monkeypatch.setattr(engine, "host_target", lambda: SimpleNamespace(
        triple=host.triple, cpu="skylake-avx512", features="+avx512f,+amx-tile,-amx-bf16"))
    monkeypatch.setattr(ctypes, "CDLL", None)  # calling it would raise
    assert engine.host_amx_bf16.__wrapped__() is False


def _ttir(monkeypatch, dtype, m: int, n: int, k: int, blocks: tuple[int, int, int]) -> str:
    """The tile IR of the tutorial kernel for ``dtype`` operands (compiled for this host)."""
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    storage = {tl.bfloat16: np.uint16, tl.float16: np.float16}[dtype]
    a, b = np.zeros((m, k), storage), np.zeros((k, n), storage)
    if dtype == tl.bfloat16:
        a, b = tc.reinterpret(a, dtype), tc.reinterpret(b, dtype)
    c = np.zeros((m, n), np.float32)
    compiled = tutorial_kernel[(1,)](a, b, c, m, n, k, k, 1, n, 1, n, 1, BLOCK_M=blocks[0],
                                     BLOCK_N=blocks[1], BLOCK_K=blocks[2], GROUP_M=2,
                                     ACC=tl.float32, PRECISION="ieee")
    return compiled.asm["ttir"]


def _lowered(monkeypatch, ttir: str, amx: bool) -> str:
    monkeypatch.setattr(engine, "host_amx_bf16", lambda: amx)
    return str(lower_kernel(parse_module(ttir))[0])


def _sapphire_rapids_assembly(llvm_ir: str) -> str:
    """``llvm_ir`` optimized as `engine.compile_module` does, for a Sapphire Rapids CPU."""
    engine.host_target()  # LLVM's targets initialized
    triple = "x86_64-unknown-linux-gnu"
    machine = llvm.Target.from_triple(triple).create_target_machine(
        cpu="sapphirerapids", features="", opt=3, reloc="default", codemodel="jitdefault",
        jit=True)
    module = llvm.parse_assembly(llvm_ir)
    module.verify()
    module.triple, module.data_layout = triple, str(machine.target_data)
    options = llvm.create_pipeline_tuning_options(speed_level=3)
    options.loop_vectorization = options.slp_vectorization = True
    options.loop_unrolling = False
    builder = llvm.create_pass_builder(machine, options)
    builder.getModulePassManager().run(module, builder)
    return machine.emit_assembly(module)


def _count(asm: str, instruction: str) -> int:
    return len(re.findall(rf"^\s+{instruction}\s", asm, re.MULTILINE))


# (BLOCK_M, BLOCK_N, BLOCK_K), the tiles a block loads (C, then A and B per 32-step of K) and
# its dot products per step: one block's code serves all
@pytest.mark.parametrize("blocks, loads, products", [
    ((64, 64, 32), 4 + 4, 4),    # 2 x 2 blocks: 4 C tiles, 2 A and 2 B tiles
    ((32, 32, 16), 4 + 4, 4),    # K padded to 32
    ((16, 32, 128), 2 + 3, 2),   # one block of 1 x 2 tiles, 4 steps of K in a loop
])
def test_code_for_sapphire_rapids(monkeypatch, blocks, loads, products):
    ttir = _ttir(monkeypatch, tl.bfloat16, 256, 256, 256, blocks)
    asm = _sapphire_rapids_assembly(_lowered(monkeypatch, ttir, amx=True))
    # the tiles configured once per chunk of programs, by the grid function
    assert _count(asm, "ldtilecfg") == 1 and _count(asm, "tilerelease") == 1
    assert _count(asm, "tileloadd") == loads and _count(asm, "tdpbf16ps") == products
    assert _count(asm, "tilestored") == products  # the C tiles


def test_other_dots_and_hosts_keep_the_fma_path(monkeypatch):
    bf16 = _ttir(monkeypatch, tl.bfloat16, 64, 64, 64, (32, 32, 32))
    fp16 = _ttir(monkeypatch, tl.float16, 64, 64, 64, (32, 32, 32))
    for ttir, amx in ((bf16, False), (fp16, True), (fp16, False)):
        module = _lowered(monkeypatch, ttir, amx)
        assert "llvm.x86" not in module and "amx" not in module
    assert "llvm.x86.tdpbf16ps" in _lowered(monkeypatch, bf16, True)


def test_loads_read_only_by_an_amx_dot_are_loaded_packed(monkeypatch):
    """The tutorial's two loads feed the dot packed (`dot_amx.load_packed`); in the masked
    kernel only ``b``'s does (``a`` is computed from an fp32 load); on a host without AMX
    none."""
    tutorial_ttir = _ttir(monkeypatch, tl.bfloat16, 256, 256, 256, (64, 64, 32))
    m = n = k = 32
    a = np.zeros((m, k), np.float32)
    b = tc.reinterpret(np.zeros((k, n), np.uint16), tl.bfloat16)
    masked_ttir = masked_kernel[(1, 1)](a, b, np.zeros(n, np.float32), np.zeros((m, n), np.float32),
                                        m, n, k, BM=32, BN=32, BK=16).asm["ttir"]
    for ttir, roles in ((tutorial_ttir, ["a", "b"]), (masked_ttir, [None, "b", None])):
        loads = [op for op in parse_module(ttir).walk() if op.name == "tt.load"]
        for amx in (True, False):
            monkeypatch.setattr(engine, "host_amx_bf16", lambda amx=amx: amx)
            assert [dot_amx.packed_role(op) for op in loads] == \
                (roles if amx else [None] * len(roles))


def test_an_amx_dot_and_its_loads_prefetch_nothing(monkeypatch):
    """Prefetching the next tiles ran slower on AMX (see `dot`); the same kernel on the FMA
    micro-kernels prefetches them."""
    ttir = _ttir(monkeypatch, tl.bfloat16, 256, 256, 256, (64, 64, 32))
    assert "llvm.prefetch" not in _lowered(monkeypatch, ttir, amx=True)
    assert "llvm.prefetch" in _lowered(monkeypatch, ttir, amx=False)
