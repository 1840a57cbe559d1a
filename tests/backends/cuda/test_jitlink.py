"""PTX assembled in the process through nvJitLink (`jitlink`): `ptx_to_cubin` uses it once it is
loaded and it reports what ``ptxas -v`` would, and falls back to the ptxas subprocess (for
good) where it refuses the PTX or gives no report."""

from __future__ import annotations

import pytest

from tilecraft.backends.cuda import jitlink, toolchain
from tilecraft.backends.cuda.toolchain import ToolchainError

from .test_toolchain import SHARED_PTX

try:
    toolchain.find_ptxas()
    HAVE_PTXAS = True
except ToolchainError:
    HAVE_PTXAS = False

needs_ptxas = pytest.mark.skipif(not HAVE_PTXAS, reason="no ptxas")

PTX = SHARED_PTX  # entry "s", 4 KiB of static shared memory

REPORT = ("ptxas info    : Compiling entry function 's' for 'sm_90a'\n"
          "ptxas info    : Function properties for s\n"
          "ptxas         .     0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
          "ptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem\n")


@pytest.fixture(autouse=True)
def _fresh_state(monkeypatch):
    """Each test starts with no assembler loaded, and leaves none behind."""
    monkeypatch.setattr(jitlink, "_LOADED", [])
    monkeypatch.setattr(jitlink, "_LOADING", [])
    monkeypatch.delenv(jitlink.SWITCH, raising=False)
    monkeypatch.delenv("TILECRAFT_PTXAS", raising=False)


class FakeAssembler:
    """Answers every assembly with ``outcome`` (a (cubin, log) pair or an exception)."""

    def __init__(self, outcome) -> None:
        self.outcome = outcome
        self.calls: list[tuple[str, str]] = []

    def assemble(self, ptx: str, arch: str, name: str) -> tuple[bytes, str]:
        self.calls.append((arch, name))
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


def test_a_loaded_assembler_is_used_and_its_report_read(monkeypatch):
    fake = FakeAssembler((b"\x7fELF-in-process", REPORT))
    jitlink._LOADED.append(fake)

    def no_subprocess(*args):
        raise AssertionError("the ptxas subprocess ran")

    monkeypatch.setattr(toolchain, "_ptxas", no_subprocess)
    result = toolchain.ptx_to_cubin(PTX, 90, name="s")
    assert fake.calls == [("sm_90a", "s")]
    assert (result.cubin, result.registers, result.spills, result.shared) == \
        (b"\x7fELF-in-process", 12, 8, 4096)


@needs_ptxas
@pytest.mark.parametrize("outcome", [jitlink.JitLinkError("refused", "its log"),
                                     (b"\x7fELF", "info    : 0 bytes gmem")],
                         ids=["refused", "no report"])
def test_ptxas_takes_what_the_assembler_refuses_or_does_not_report_on_from_then_on(outcome):
    fake = FakeAssembler(outcome)
    jitlink._LOADED.append(fake)
    result = toolchain.ptx_to_cubin(PTX, 90, name="s")
    assert result.cubin[:4] == b"\x7fELF" and result.shared == 4096
    assert "Compiling entry function 's'" in result.log  # ptxas's own report
    assert jitlink.ready() is None
    toolchain.ptx_to_cubin(PTX, 90, name="s")
    assert len(fake.calls) == 1


@needs_ptxas
def test_bad_ptx_is_reported_by_ptxas_and_keeps_the_assembler():
    fake = FakeAssembler(jitlink.JitLinkError("refused"))
    jitlink._LOADED.append(fake)
    with pytest.raises(toolchain.PTXASError, match="bogus"):
        toolchain.ptx_to_cubin(PTX.replace("ret;", "bogus;"), 90, name="s")
    assert jitlink.ready() is fake


@pytest.mark.parametrize("variable", [(jitlink.SWITCH, "0"), ("TILECRAFT_PTXAS", "/x/ptxas")])
def test_the_subprocess_can_be_chosen(monkeypatch, variable):
    jitlink._LOADED.append(FakeAssembler((b"", REPORT)))
    monkeypatch.setenv(*variable)
    assert jitlink.ready() is None


def test_the_first_call_starts_the_load_in_the_background(monkeypatch):
    started = []
    monkeypatch.setattr(jitlink, "_load", lambda arch, version: started.append(1) or None)
    assert jitlink.ready() is None
    assert jitlink.wait() is None and started == [1]
    assert jitlink.ready() is None and started == [1]  # loaded (as nothing) once


@needs_ptxas
def test_nvjitlink_agrees_with_ptxas_where_it_is_installed():
    assembler = jitlink.wait()
    if assembler is None:
        pytest.skip("no nvJitLink library here")
    cubin, log = assembler.assemble(PTX, "sm_90a", "s")
    subprocess_result = toolchain._ptxas(PTX, 90, "s")
    in_process = toolchain.ptx_to_cubin(PTX, 90, name="s")
    assert cubin[:4] == b"\x7fELF" and "Used" in log
    assert (in_process.registers, in_process.spills, in_process.shared) == \
        (subprocess_result.registers, subprocess_result.spills, subprocess_result.shared)
    assert toolchain.cubin_arch(in_process.cubin) == 90
    with pytest.raises(jitlink.JitLinkError) as refused:
        assembler.assemble(PTX.replace("ret;", "bogus;"), "sm_90a", "s")
    assert "bogus" in refused.value.log


def test_a_compile_starts_loading_the_assembler_before_its_frontend_runs(monkeypatch):
    """The CUDA backend's `prepare` starts the load, and a kernel's first compile prepares its
    backend before the frontend, so that nvJitLink loads while the frontend runs."""
    import numpy as np

    import tilecraft as tc
    import tilecraft.language as tl
    from tilecraft.runtime import compiler as runtime_compiler
    from tilecraft.runtime import jit as runtime_jit

    events: list[str] = []
    warmed = []
    monkeypatch.setattr(jitlink, "_load_in_background",
                        lambda arch, version: warmed.append((arch, version)) or
                        jitlink._LOADED.append(None))
    compiler_get_backend = runtime_compiler.get_backend

    class Recording(runtime_compiler.CUDABackend):
        def prepare(self) -> None:
            events.append("prepare")
            super().prepare()

    monkeypatch.setattr(runtime_jit, "get_backend",
                        lambda name: Recording(90) if name == "cuda" else
                        compiler_get_backend(name))
    def frontend(self, spec):
        events.append("frontend")
        raise RuntimeError("stop after the frontend")

    monkeypatch.setattr(runtime_jit.JITFunction, "_compile", frontend)

    @tc.jit
    def copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))

    monkeypatch.setattr(runtime_jit, "selected_backend", lambda: "cuda")  # (no GPU needed)
    x = np.zeros(16, np.float32)
    with pytest.raises(RuntimeError, match="stop after the frontend"):
        copy_kernel[(1,)](x, x, BLOCK=16)
    assert events == ["prepare", "frontend"]
    assert jitlink._LOADING and not jitlink._LOADING[0].join(timeout=10)
    assert jitlink._LOADED == [None]
    assert warmed == [("sm_90a", "8.6")]  # warmed up on the target being compiled for


@needs_ptxas
@pytest.mark.parametrize("capability", [80, 90])
def test_the_warm_up_kernel_assembles_for_the_target_it_warms(capability, monkeypatch):
    """What `start_assembler` hands the loader is PTX that ptxas takes for that target."""
    warmed = []
    monkeypatch.setattr(jitlink, "_load_in_background",
                        lambda arch, version: warmed.append((arch, version)) or
                        jitlink._LOADED.append(None))
    toolchain.start_assembler(capability)
    jitlink.wait()
    (arch, version), = warmed
    assert arch == toolchain.gpu_name(capability)
    ptx = jitlink._WARM_UP_PTX.format(version=version, arch=arch)
    assert toolchain._ptxas(ptx, capability, "warm_up").cubin[:4] == b"\x7fELF"
