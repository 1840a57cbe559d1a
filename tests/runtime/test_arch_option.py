"""Triton's ``arch`` launch option chooses the CUDA target a kernel is compiled for (the
benchmarks run the sm_80 code, mma.sync, on a Hopper GPU with it)."""

from __future__ import annotations

import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.backends.cuda import toolchain
from tilecraft.runtime.compiler import CUDABackend, parse_arch
from tilecraft.runtime.jit import LAUNCH_OPTIONS

try:
    toolchain.find_ptxas()
    HAVE_PTXAS = True
except Exception:  # noqa: BLE001 - any failure to find it means: skip
    HAVE_PTXAS = False


@pytest.mark.parametrize("arch, capability", [("sm80", 80), ("sm_90a", 90), ("SM90", 90),
                                              (86, 86)])
def test_arch_names_a_capability(arch, capability):
    assert parse_arch(arch) == capability


@pytest.mark.parametrize("arch", ["hopper", "sm", "sm_6", ""])
def test_a_bad_arch_is_an_error_naming_it(arch):
    with pytest.raises(ValueError, match="arch must name a CUDA target"):
        parse_arch(arch)


def test_arch_picks_the_code_and_ptxas_assembles_it_for_the_device():
    assert "arch" in LAUNCH_OPTIONS
    options = CUDABackend(90).options({"arch": "sm80", "num_warps": 8})
    assert (options.capability, options.assemble_for, options.num_warps) == (80, 90, 8)
    assert CUDABackend(90).options({}).assemble_for is None
    assert CUDABackend(90).options({"arch": "sm_90a"}).assemble_for is None


@tc.jit
def scale_kernel(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) * 2)


@pytest.mark.skipif(not HAVE_PTXAS, reason="ptxas not found")
def test_sm80_code_assembled_for_a_hopper_gpu():
    kernel = tc.compile(tc.ASTSource(scale_kernel, {"x_ptr": "*fp32"}, {"BLOCK": 128}),
                        target=tc.GPUTarget("cuda", 90, 32), options={"arch": "sm80"})
    assert ".target sm_80" in kernel.asm["ptx"]
    assert toolchain.cubin_arch(kernel.asm["cubin"]) == 90
