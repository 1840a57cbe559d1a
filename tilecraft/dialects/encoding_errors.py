"""`EncodingInferenceError`, in a module of its own: the hooks modules (``tt``, ``ttg``) may be
loaded twice when one is imported before its generated module (see
`tilecraft.dialects.generated_module`), and a class defined in them would then exist twice, so
that an inference hook's error escaped the verifier that catches it."""

from __future__ import annotations


class EncodingInferenceError(Exception):
    """A layout that an encoding's inference hook refuses (Triton's DialectInferLayoutInterface,
    which ttg implements for its attributes); ``message`` is the inference's diagnostic."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
