"""Triton's ``arch`` launch option chooses the CUDA target a kernel is compiled for (the
benchmarks run the sm_80 code, mma.sync, on a Hopper GPU with it)."""

from __future__ import annotations

import pytest

from tilecraft.runtime.compiler import CUDABackend, parse_arch
from tilecraft.runtime.jit import LAUNCH_OPTIONS


@pytest.mark.parametrize("arch, capability", [("sm80", 80), ("sm_90a", 90), ("SM90", 90),
                                              (86, 86)])
def test_arch_names_a_capability(arch, capability):
    assert parse_arch(arch) == capability


@pytest.mark.parametrize("arch", ["hopper", "sm", "sm_6", ""])
def test_a_bad_arch_is_an_error_naming_it(arch):
    with pytest.raises(ValueError, match="arch must name a CUDA target"):
        parse_arch(arch)


def test_arch_overrides_the_device_capability():
    assert "arch" in LAUNCH_OPTIONS
    options = CUDABackend(90).options({"arch": "sm80", "num_warps": 8})
    assert (options.capability, options.num_warps) == (80, 8)
    assert CUDABackend(90).options({}).capability == 90
