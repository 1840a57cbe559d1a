"""Mutation testing of the generator: a mutated `.td` file gets valid output or a located error.

`mutate` damages a `.td` file the way typing and tools do (characters inserted, deleted or
doubled, a NUL or a byte that is not UTF-8, a value left unset, nesting thousands deep);
`check_mutant` runs the whole generator on it in process and says what went wrong, if anything:
an exception that is not a `Diagnostic`, a diagnostic without ``file:line:col`` and a caret, an
"internal error", or generated Python that does not compile. `run` does this for many seeded
mutants (``tools/td_fuzz.py``; a bounded run is part of the tests).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic
from .main import Layout, generate

_INSERTED = ['"', "'", "\\", "\0", "\x7f", "\u00e9", "\u2028", "{", "}", "[{", "}]", "<", ">",
             "(", ")", "[", "]", ";", ":", ",", "#", "$", "!", "?", "=", "/*", "//", "\n",
             "0x", "-", "let ", "def ", "class ", "bit ", "int ", "in ", "\t", "NAME"]


def _insert(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_INSERTED).encode("utf-8") + data[at:]


def _insert_in_string(data: bytes, rng: random.Random) -> bytes:
    """A character a `.td` string may hold, inside a string literal."""
    starts = [i + 1 for i, byte in enumerate(data) if byte == ord('"')]
    if not starts:
        return _insert(data, rng)
    at = rng.choice(starts)
    char = chr(rng.choice([0, 1, 7, 8, 11, 12, 13, 27, 127, 0x85, 0xa0, 0x2028, 0x2029,
                           0xfeff, rng.randrange(0x20, 0x10000)]))
    if 0xd800 <= ord(char) < 0xe000:
        char = "\ufffd"
    return data[:at] + char.encode("utf-8") + data[at:]


def _delete(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data))
    return data[:at] + data[at + rng.randrange(1, 12):]


def _double(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data))
    end = at + rng.randrange(1, 40)
    return data[:end] + data[at:end] + data[end:]


def _bad_byte(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + bytes([rng.choice([0x80, 0xc3, 0xe9, 0xff, 0xfe])]) + data[at:]


def _unset(data: bytes, rng: random.Random) -> bytes:
    """A ``let`` or field value replaced by ``?``."""
    spots = [i for i in range(len(data) - 2) if data[i:i + 3] == b" = "]
    if not spots:
        return _insert(data, rng)
    at = rng.choice(spots) + 3
    end = at
    while end < len(data) and data[end] not in b";\n":
        end += 1
    return data[:at] + b"?" + data[end:]


def _deep(data: bytes, rng: random.Random) -> bytes:
    """A value nested thousands deep."""
    opener, closer = rng.choice([(b"[", b"]"), (b"(ins ", b")"), (b"!not(", b")"),
                                 (b"{", b"}")])
    depth = rng.choice([50, 500, 5000])
    value = opener * depth + b"1" + closer * depth
    return data + b"\ndef DeepMutant { int deep = " + value + b"; }\n"


_MUTATORS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _insert, _insert, _insert_in_string, _insert_in_string, _delete, _delete, _double,
    _bad_byte, _unset, _unset, _deep)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """``data`` with one to three random mutations."""
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = rng.choice(_MUTATORS)(data, rng) if data else b"\0"
    return data


def check_mutant(layout: Layout) -> str | None:
    """Run the generator on ``layout``; None when it gave valid output or a located error,
    else what went wrong."""
    try:
        generate(layout)
    except Diagnostic as error:
        text = str(error)
        if error.message.startswith("internal error"):
            return text
        if error.loc is None or not error.loc.file:
            return f"no file:line:col: {text}"
        lines = text.split("\n")
        if len(lines) < 3 or lines[2].strip() != "^":
            return f"no caret: {text}"
        return None
    except RecursionError:
        return "RecursionError escaped:\n" + traceback.format_exc(limit=-8)
    except Exception:  # noqa: BLE001 - any other exception is what this looks for
        return traceback.format_exc(limit=-8)
    return None


@dataclass(frozen=True, slots=True)
class Problem:
    """A mutant the generator handled badly: the file, the seed that made it, what happened."""

    file: str
    seed: int
    detail: str


def run(defs: Path, files: list[str], cases: int, seed: int) -> Iterator[Problem]:
    """Mutate each of ``files`` (names in ``defs``) ``cases`` times, seeds from ``seed`` on.

    Each mutant is generated in a scratch copy of ``defs/base`` holding only the mutated main
    file (and the main files it includes), so that a case takes a fraction of a second.
    """
    with tempfile.TemporaryDirectory(prefix="tilecraft-fuzz-") as scratch:
        root = Path(scratch)
        shutil.copytree(defs, root / "defs")
        originals = {name: (defs / name).read_bytes() for name in files}
        for name in files:
            layout = Layout(root)
            for other in (root / "defs").glob("*.td"):
                if other.name != name and other.name not in _includes(defs, name):
                    other.unlink()
            target = root / "defs" / name
            for case in range(cases):
                rng = random.Random(seed + case)
                target.write_bytes(mutate(originals[name], rng))
                problem = check_mutant(layout)
                if problem is not None:
                    yield Problem(name, seed + case, problem)
            target.write_bytes(originals[name])
            shutil.rmtree(root / "defs")
            shutil.copytree(defs, root / "defs")


def _includes(defs: Path, name: str) -> set[str]:
    """The main files ``name`` includes, directly or not (``include "x.td"`` in ``defs``)."""
    found: set[str] = set()
    pending = [name]
    while pending:
        text = (defs / pending.pop()).read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith('include "') and "/" not in line:
                included = line.split('"')[1]
                if included not in found:
                    found.add(included)
                    pending.append(included)
    return found
