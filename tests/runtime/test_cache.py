"""The on-disk compile cache: keys are stable and tell their parts apart, entries round-trip,
corrupted or partial entries are misses that the next put replaces, concurrent writers leave
one whole entry, and TILECRAFT_CACHE_DISABLE turns it all off."""

from __future__ import annotations

import json
import threading

import pytest
from tilecraft.runtime import cache

FILES = {"add_kernel.ttir": "module {\n}\n", "add_kernel.o": b"\x7fELF\x00\x01binary"}
METADATA = {"name": "add_kernel", "num_warps": 4, "shared": 0}


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TILECRAFT_CACHE_DISABLE", raising=False)
    return tmp_path


def test_keys_are_stable_and_tell_parts_apart():
    key = cache.cache_key("add_kernel", 1, ("*fp32", 16), {"BLOCK": 128, "debug": False})
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == cache.cache_key("add_kernel", 1, ("*fp32", 16), {"debug": False, "BLOCK": 128})
    different = [("a", 1), ("a", "1"), ("a", 1.0), ("a", True), (("a", 1),), ("a1",), (b"a", 1),
                 ("a", None), ({"a": 1},), ({"a"},), ("a", [1, 2]), ("a", [12])]
    keys = {cache.cache_key(*parts) for parts in different}
    assert len(keys) == len(different)
    with pytest.raises(TypeError, match="cannot put object in a cache key"):
        cache.cache_key(object())


def test_put_then_get_round_trips(cache_dir):
    key = cache.cache_key("roundtrip")
    assert cache.get(key) is None
    cache.put(key, FILES, METADATA)
    entry = cache.get(key)
    assert entry == {**FILES, cache.METADATA_FILE: METADATA}
    assert isinstance(entry["add_kernel.ttir"], str) and isinstance(entry["add_kernel.o"], bytes)
    assert json.loads((cache_dir / key / cache.METADATA_FILE).read_text()) == METADATA
    assert (cache_dir / key / "add_kernel.ttir").read_text() == FILES["add_kernel.ttir"]
    assert [p.name for p in cache_dir.iterdir()] == [key]  # no temporary directory left


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete", "manifest", "no_manifest"])
def test_corrupted_entries_are_misses_that_put_replaces(cache_dir, damage):
    key = cache.cache_key("corrupted", damage)
    cache.put(key, FILES, METADATA)
    entry = cache_dir / key
    target = entry / "add_kernel.o"
    if damage == "truncate":
        target.write_bytes(target.read_bytes()[:-3])
    elif damage == "flip":
        target.write_bytes(b"\x00" + target.read_bytes()[1:])
    elif damage == "delete":
        target.unlink()
    elif damage == "manifest":
        (entry / "manifest.json").write_text('{"format": 1, "files": ')
    else:
        (entry / "manifest.json").unlink()
    assert cache.get(key) is None
    cache.put(key, FILES, {"name": "fresh"})
    assert cache.get(key)[cache.METADATA_FILE] == {"name": "fresh"}


def test_concurrent_writers_leave_one_whole_entry(cache_dir):
    key = cache.cache_key("concurrent")
    start = threading.Barrier(8)

    def write(number: int) -> None:
        start.wait()
        cache.put(key, FILES, {"writer": number})

    threads = [threading.Thread(target=write, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entry = cache.get(key)
    assert entry is not None and entry[cache.METADATA_FILE]["writer"] in range(8)
    assert [p.name for p in cache_dir.iterdir()] == [key]


def test_disabled_by_the_environment(cache_dir, monkeypatch):
    key = cache.cache_key("disabled")
    cache.put(key, FILES, METADATA)
    monkeypatch.setenv("TILECRAFT_CACHE_DISABLE", "1")
    assert cache.cache_dir() is None and cache.get(key) is None
    cache.put(cache.cache_key("other"), FILES, METADATA)
    assert [p.name for p in cache_dir.iterdir()] == [key]


def test_default_directory_and_invalid_names(monkeypatch, tmp_path):
    monkeypatch.delenv("TILECRAFT_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / ".cache" / "tilecraft"
    with pytest.raises(ValueError, match="not a cache key"):
        cache.get("../etc")
    for name in ("../escape", cache.METADATA_FILE, ".hidden"):
        with pytest.raises(ValueError, match="invalid cache file name"):
            cache.put(cache.cache_key(name), {name: "x"}, {})
