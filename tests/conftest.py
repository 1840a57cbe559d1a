"""Session-wide test settings: compiled kernels are cached in a fresh directory, so that tests
never read objects compiled by an older checkout (nor fill the user's cache)."""

from __future__ import annotations

import os
import tempfile

os.environ["TILECRAFT_CACHE_DIR"] = tempfile.mkdtemp(prefix="tilecraft-test-cache-")
