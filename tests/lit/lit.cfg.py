# lit configuration of the IR tests: `lit tests/lit` runs every .mlir file's RUN lines.
# (`python -m pytest tests/lit` runs the same lines without lit.)
# ruff: noqa: F821 - lit defines `config`

import os
import sys
import tempfile

import lit.formats

sys.path.insert(0, os.path.dirname(__file__))
from litsupport import tool_substitutions  # noqa: E402

config.name = "tilecraft"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(tempfile.gettempdir(), "tilecraft-lit")
config.substitutions.extend(tool_substitutions())
