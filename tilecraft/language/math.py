"""``tl.math``: element-wise math functions: those `.td` declares (`tlName`, see
`elementwise`), and Triton's functions with their own argument handling and aliases."""

from __future__ import annotations

from .elementwise import FUNCTIONS
from .functions import abs, div_rn, fdiv, fma, umulhi  # noqa: F401 - re-exported
from .functions import maximum as max  # noqa: F401,A004
from .functions import minimum as min  # noqa: F401,A004

globals().update(FUNCTIONS)

nearbyint = FUNCTIONS["rint"]
finitef = FUNCTIONS["isfinite"]
