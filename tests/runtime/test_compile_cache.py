"""The compile cache as a launch uses it: damaged entries (even ones whose manifest was updated
to match) are compiled again instead of trusted, the key changes with everything the binary
depends on, `warmup` compiles without launching and TILECRAFT_ALWAYS_COMPILE skips the cache."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import tilecraft as tc
import tilecraft.language as tl
from tilecraft.runtime import cache
from tilecraft.runtime import cpu_driver
from tilecraft.runtime.compiler import CPUBackend

SCALE: tl.constexpr = tl.constexpr(2.0)


@tc.jit
def _scaled(x):
    return x * SCALE


@tc.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, _scaled(x) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TILECRAFT_BACKEND", "cpu")
    for name in ("TILECRAFT_CACHE_DISABLE", "TILECRAFT_INTERPRET", "TILECRAFT_ALWAYS_COMPILE"):
        monkeypatch.delenv(name, raising=False)
    axpy_kernel.forget_compiled()
    return tmp_path


@pytest.fixture
def compiles(monkeypatch):
    """The number of times the CPU backend compiled, as a one-element list."""
    count = [0]
    original = CPUBackend.compile

    def counting(self, module, options, quick=False):
        count[0] += 1
        return original(self, module, options, quick)

    monkeypatch.setattr(CPUBackend, "compile", counting)
    return count


def _run(n: int = 300, block: int = 128):
    """Launches axpy_kernel on fresh data; checks the result against float64."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    compiled = axpy_kernel[(tc.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    expected = 2.0 * x.astype(np.float64) + y
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    return compiled


def _entry(cache_dir: Path) -> Path:
    """The one kernel entry in ``cache_dir`` (a launch that starts the CPU backend's thread
    pool puts the pool's object in an entry of its own)."""
    entries = [path for path in cache_dir.iterdir() if not path.name.startswith(".")
               and not (path / cpu_driver._POOL_FILE).exists()]
    assert len(entries) == 1, entries
    return entries[0]


def _rewrite(entry: Path, name: str, data: bytes) -> None:
    """Replaces one file of an entry and updates the manifest to match, as a damage that the
    manifest cannot see."""
    (entry / name).write_bytes(data)
    manifest = json.loads((entry / "manifest.json").read_text())
    manifest["files"][name].update(size=len(data), sha256=hashlib.sha256(data).hexdigest())
    (entry / "manifest.json").write_text(json.dumps(manifest))


def _metadata(entry: Path) -> dict:
    return json.loads((entry / cache.METADATA_FILE).read_text())


def _relaunch_from_disk(compiles) -> None:
    """Launches again as a new process would (nothing in memory) and checks that the damaged
    entry was compiled again and replaced by an intact one."""
    axpy_kernel.forget_compiled()
    before = compiles[0]
    _run()
    assert compiles[0] == before + 1


def test_a_launch_is_served_from_disk_after_the_first(cache_dir, compiles):
    _run()
    assert compiles[0] == 1
    axpy_kernel.forget_compiled()
    _run()
    assert compiles[0] == 1
    assert cache.get(_entry(cache_dir).name) is not None


def test_an_entry_keeps_the_stages_but_the_assembly_which_is_made_when_read(cache_dir, compiles):
    first = _run()
    entry = _entry(cache_dir)
    assert sorted(path.name for path in entry.iterdir()) == [
        "axpy_kernel.llir", "axpy_kernel.o", "axpy_kernel.ttir", "manifest.json",
        cache.METADATA_FILE]
    axpy_kernel.forget_compiled()
    again = _run()
    assert compiles[0] == 1 and set(again.asm) == {"ttir", "llir", "asm"}
    assert again.asm["llir"] == first.asm["llir"]
    assert "axpy_kernel.grid" in again.asm["asm"] and again.asm["asm"] == first.asm["asm"]


@pytest.mark.parametrize("keep", [0, 64, 200, -1])
def test_truncated_object_file_is_compiled_again(cache_dir, compiles, keep):
    _run()
    entry = _entry(cache_dir)
    obj = entry / "axpy_kernel.o"
    data = obj.read_bytes()
    _rewrite(entry, obj.name, data[:keep] if keep >= 0 else data[:len(data) // 2])
    _relaunch_from_disk(compiles)
    assert (entry / "axpy_kernel.o").read_bytes() == data


@pytest.mark.parametrize("manifest", ["", "garbage{", "[]", "{}", '{"format": 1}',
                                      '{"format": 1, "files": {}}'])
def test_garbage_or_empty_manifest_is_compiled_again(cache_dir, compiles, manifest):
    _run()
    entry = _entry(cache_dir)
    (entry / "manifest.json").write_text(manifest)
    _relaunch_from_disk(compiles)
    assert cache.get(entry.name) is not None


@pytest.mark.parametrize("metadata", [b"", b"garbage", b"[]", b"{}", b'{"name": "axpy_kernel"}',
                                      b"null"])
def test_garbage_metadata_is_compiled_again(cache_dir, compiles, metadata):
    _run()
    entry = _entry(cache_dir)
    _rewrite(entry, cache.METADATA_FILE, metadata)
    _relaunch_from_disk(compiles)
    assert _metadata(entry)["name"] == "axpy_kernel"


@pytest.mark.parametrize("damage", [
    lambda meta: meta.update(arg_kinds=meta["arg_kinds"][:2]),
    lambda meta: meta.update(arg_kinds=meta["arg_kinds"][:-1]),
    lambda meta: meta.update(arg_kinds=meta["arg_kinds"] + ["ptr"]),
    lambda meta: meta.update(arg_kinds=["i64"] + meta["arg_kinds"][1:]),
    lambda meta: meta.update(name="other_kernel"),
    lambda meta: meta.update(prints=[{"prefix": 1}]),
    lambda meta: meta.update(asserts=[{"message": "m"}]),
    lambda meta: meta.update(quick="yes"),
], ids=["two-args", "one-fewer", "one-more", "wrong-kind", "wrong-name", "bad-prints",
        "bad-asserts", "bad-quick"])
def test_metadata_is_checked_against_the_kernels_own_signature(cache_dir, compiles, damage):
    _run()
    entry = _entry(cache_dir)
    metadata = _metadata(entry)
    damage(metadata)
    _rewrite(entry, cache.METADATA_FILE, json.dumps(metadata).encode())
    axpy_kernel.forget_compiled()
    compiled = axpy_kernel.warmup("*fp32:16", "*fp32:16", "*fp32:16", "i32", BLOCK=128)
    assert compiled.metadata["arg_kinds"] == ["ptr", "ptr", "ptr", "i32"]
    assert compiles[0] == 2
    assert _metadata(entry)["arg_kinds"] == ["ptr", "ptr", "ptr", "i32"]
    _run()  # 300 is not divisible by 16: another specialization than the warmed-up one
    _run(n=320)  # the warmed-up specialization, from memory


def test_an_object_that_misses_the_entry_point_is_compiled_again(cache_dir, compiles):
    _run()
    entry = _entry(cache_dir)
    metadata = _metadata(entry)
    metadata["name"] = "other_kernel"
    renamed = {"axpy_kernel.ttir": "other_kernel.ttir", "axpy_kernel.llir": "other_kernel.llir",
               "axpy_kernel.o": "other_kernel.o"}
    manifest = json.loads((entry / "manifest.json").read_text())
    for old, new in renamed.items():
        (entry / old).rename(entry / new)
        manifest["files"][new] = manifest["files"].pop(old)
    (entry / "manifest.json").write_text(json.dumps(manifest))
    _rewrite(entry, cache.METADATA_FILE, json.dumps(metadata).encode())
    _relaunch_from_disk(compiles)
    assert _metadata(entry)["name"] == "axpy_kernel"


def test_discard_removes_an_entry_whole(cache_dir):
    key = cache.cache_key("discarded")
    cache.put(key, {"a.o": b"\x7fELF"}, {"name": "a"})
    cache.discard(key)
    assert cache.get(key) is None and list(cache_dir.iterdir()) == []
    cache.discard(key)  # nothing there: nothing to do


def test_key_follows_specialization_callees_globals_and_source(cache_dir, monkeypatch):
    global SCALE
    _run(n=320)
    _run(n=300)  # not divisible by 16: another specialization
    assert len(list(cache_dir.iterdir())) == 2
    monkeypatch.setattr(cache, "source_fingerprint", lambda: "another tilecraft")
    axpy_kernel.forget_compiled()
    _run(n=320)
    assert len(list(cache_dir.iterdir())) == 3
    monkeypatch.setattr(cache, "source_fingerprint", lambda: "yet another tilecraft")
    SCALE = tl.constexpr(3.0)  # a constexpr global the callee reads
    try:
        fresh = tc.jit(axpy_kernel.fn)  # a new process would compile the kernel afresh
        rng = np.random.default_rng(0)
        x, y = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(
            np.float32)
        out = np.full(64, np.nan, np.float32)
        fresh[(1,)](x, y, out, 64, BLOCK=64)
        np.testing.assert_allclose(out, 3.0 * x.astype(np.float64) + y, rtol=1e-6)
    finally:
        SCALE = tl.constexpr(2.0)


def test_source_fingerprint_covers_the_whole_package():
    modules = cache.source_modules()
    for expected in ("tilecraft.frontend.code_generator", "tilecraft.ir.printer",
                     "tilecraft.analysis.membar", "tilecraft.backends.cpu.lowering",
                     "tilecraft.backends.cuda.driver", "tilecraft.generated.tt",
                     "tilecraft.runtime.jit", "tilecraft.codegen.diagnostics",
                     "tilecraft.language.core", "tilecraft"):
        assert expected in modules, expected
    assert Path(modules["tilecraft.generated.tt"]).parent.name == "generated"
    assert len(cache.source_fingerprint()) == 64


def test_warmup_compiles_without_launching(cache_dir, compiles):
    compiled = axpy_kernel.warmup("*fp32:16", "*fp32:16", "*fp32:16", "i32:16", BLOCK=64,
                                  grid=(5,))
    assert compiles[0] == 1 and set(compiled.asm) >= {"ttir", "llir"}
    assert "tt.divisibility" in compiled.asm["ttir"]
    assert axpy_kernel.warmup("*fp32:16", "*fp32:16", "*fp32:16", "i32:16", BLOCK=64) \
        is compiled
    x = np.arange(320, dtype=np.float32)
    out = np.full_like(x, np.nan)
    assert axpy_kernel[(5,)](x, x, out, 320, BLOCK=64) is compiled
    np.testing.assert_allclose(out, 3.0 * x.astype(np.float64))
    assert compiles[0] == 1


def test_always_compile_bypasses_the_cache(cache_dir, compiles, monkeypatch):
    _run()
    monkeypatch.setenv("TILECRAFT_ALWAYS_COMPILE", "1")
    axpy_kernel.forget_compiled()
    _run()
    assert compiles[0] == 2
    monkeypatch.delenv("TILECRAFT_ALWAYS_COMPILE")
    axpy_kernel.forget_compiled()
    _run()
    assert compiles[0] == 2
    _entry(cache_dir)  # asserts that the cache holds one kernel entry
