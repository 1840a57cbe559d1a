"""`TdError`: every error the `.td` front end reports, rendered with its line and a caret."""

from __future__ import annotations

from ..diagnostics import Diagnostic


class TdError(Diagnostic):
    """A syntax or semantic error in a `.td` file.

    ``str()`` renders ``file:line:col: error: message`` followed by the source line, a caret under
    the column, and any notes (such as where a duplicate was first defined).
    """
