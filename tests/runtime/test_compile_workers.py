"""Compiling several specializations at once in worker processes: what workers compile is what
the process compiles itself, the autotuner hands its configurations to them, and anything that
goes wrong in a worker falls back to compiling in the process."""

from __future__ import annotations

import numpy as np
import pytest

import tilecraft as tc
from tilecraft.ir import print_op
from tilecraft.runtime import compile_workers
from tilecraft.runtime.compiler import CPUBackend

from .autotuned_kernels import FAST, LARGE, SLOW, accumulate_kernel, exact_inputs, grid

BLOCKS = (64, 128, 256, 512)


@pytest.fixture(autouse=True)
def environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    monkeypatch.setenv("TILECRAFT_COMPILE_WORKERS", "2")
    for name in ("TILECRAFT_CACHE_DISABLE", "TILECRAFT_INTERPRET", "TILECRAFT_ALWAYS_COMPILE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def compiled_here(monkeypatch):
    """The kernels this process's CPU backend compiled itself (workers have their own)."""
    names: list[str] = []
    real = CPUBackend.compile

    def counting(self, module, options, quick=False):
        binary = real(self, module, options, quick)
        names.append(binary.name)
        return binary

    monkeypatch.setattr(CPUBackend, "compile", counting)
    return names


def _modules():
    x, out = exact_inputs(64, 0)
    return [accumulate_kernel.ir(x, out, 64, BLOCK=block, ROUNDS=1) for block in BLOCKS]


@pytest.mark.parametrize("text", ["0", "-2", "many"])
def test_a_bad_worker_count_names_the_variable(monkeypatch, text):
    monkeypatch.setenv("TILECRAFT_COMPILE_WORKERS", text)
    with pytest.raises(ValueError, match=f"TILECRAFT_COMPILE_WORKERS={text!r}"):
        compile_workers.worker_count()


def test_workers_compile_what_the_process_compiles(compiled_here):
    backend = CPUBackend()
    modules = _modules()
    requests = [compile_workers.Request("cpu", None, print_op(m, print_debuginfo=True), None)
                for m in modules]
    answers = compile_workers.compile_all(requests)
    assert compiled_here == []
    for module, answer in zip(modules, answers):
        assert answer is not None
        files, metadata = answer
        here_files, here_metadata = backend.cache_files(backend.compile(module, None))
        assert metadata == here_metadata
        assert {k: v for k, v in files.items() if not k.endswith(".o")} == \
            {k: v for k, v in here_files.items() if not k.endswith(".o")}


def test_a_request_that_fails_in_a_worker_answers_none():
    good = compile_workers.Request("cpu", None, print_op(_modules()[0]), None)
    broken = compile_workers.Request("cpu", None, "tt.func @f( {", None)
    answers = compile_workers.compile_all([broken, good])
    assert answers[0] is None and answers[1] is not None


def test_a_worker_sees_the_environment_of_its_request(monkeypatch):
    monkeypatch.setenv("TILECRAFT_SOME_SETTING", "1")
    assert compile_workers.Request("cpu", None, "", None).environment[
        "TILECRAFT_SOME_SETTING"] == "1"


def test_compile_all_hands_all_but_the_first_two_to_workers(monkeypatch, compiled_here):
    monkeypatch.setattr(compile_workers, "worth_workers", lambda seconds, count: True)
    x, out = exact_inputs(64, 0)
    kernels = accumulate_kernel.compile_all(
        [((x, out, 64), {"BLOCK": block, "ROUNDS": 1}) for block in BLOCKS])
    assert len(compiled_here) == 2
    assert all(isinstance(kernel, tc.runtime.compiler.CompiledKernel) for kernel in kernels)
    again = accumulate_kernel.compile_all([((x, out, 64), {"BLOCK": 64, "ROUNDS": 1})])
    assert again[0] is kernels[0]  # kept in memory as launches keep it


def test_compile_all_gives_each_call_its_own_error(monkeypatch):
    monkeypatch.setattr(compile_workers, "worth_workers", lambda seconds, count: True)
    x, out = exact_inputs(64, 0)
    outcomes = accumulate_kernel.compile_all(
        [((x, out, 64), {"BLOCK": 64, "ROUNDS": 1}), ((x, out, 64), {"BLOCK": 64}),
         ((x, out, 64), {"BLOCK": 128, "ROUNDS": 1})])
    assert isinstance(outcomes[1], Exception) and "ROUNDS" in str(outcomes[1])
    assert not isinstance(outcomes[0], Exception) and not isinstance(outcomes[2], Exception)


def test_the_autotuner_compiles_its_configurations_in_workers(monkeypatch, compiled_here):
    monkeypatch.setattr(compile_workers, "worth_workers", lambda seconds, count: True)
    configs = [tc.Config(dict(SLOW)), tc.Config({"BLOCK": 256, "ROUNDS": 64}),
               tc.Config({"BLOCK": 512, "ROUNDS": 128}), tc.Config(dict(FAST))]
    kernel = tc.autotune(configs=configs, key=["n"], reset_to_zero=["out_ptr"],
                         warmup=1, rep=5)(accumulate_kernel)
    accumulate_kernel.forget_compiled()
    x, out = exact_inputs(LARGE, 1)
    kernel[grid](x, out, LARGE)
    assert len(compiled_here) == 2
    assert kernel.best_config.kwargs == FAST
    np.testing.assert_array_equal(out, x)  # reset_to_zero zeroed it before the launch
