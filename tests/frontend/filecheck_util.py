"""Runs the `filecheck` package in-process on a text, with CHECK lines given as a string."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path


def filecheck(text: str, checks: str) -> None:
    """Fails (with filecheck's report and the text) unless ``text`` matches ``checks``."""
    from filecheck.matcher import Matcher
    from filecheck.options import parse_argv_options

    with tempfile.TemporaryDirectory() as folder:
        check_file = Path(folder) / "checks.mlir"
        input_file = Path(folder) / "input.mlir"
        check_file.write_text(checks)
        input_file.write_text(text)
        opts = parse_argv_options(["filecheck", str(check_file), "--input-file",
                                   str(input_file)])
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = Matcher.from_opts(opts).run()
    assert code == 0, f"filecheck failed:\n{out.getvalue()}\n--- input ---\n{text}"
