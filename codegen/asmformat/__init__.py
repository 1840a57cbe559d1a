"""Declarative assembly formats: parsing the format string and generating printers and parsers.

An op's `assemblyFormat` (MLIR's syntax: `` $lhs `,` $rhs attr-dict `:` type($result) ``) is
parsed into elements, checked (every operand, region and successor appears; every type can be
parsed or inferred from traits and buildable types) and turned into the Python source of the
op's `print` method and `parse` classmethod, calling the IR's Printer and Parser.

The package has three parts: `elements` (the format's elements and the parser of format
strings), `inference` (which operand and result types traits determine) and `emit` (the
generated `print` and `parse`).
"""

from .emit import generate_format, punct_space_before
from .inference import InferenceRules, infer_one, inference_rules

__all__ = ["InferenceRules", "generate_format", "infer_one", "inference_rules",
           "punct_space_before"]
