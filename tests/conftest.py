"""Session-wide test settings: compiled kernels are cached in a fresh directory, so that tests
never read objects compiled by an older checkout (nor fill the user's cache), and the native
launchers are built there first (where a C compiler exists), so that every test launches the
same way whatever it does to the cache or the environment (tests of the Python launchers switch
them off). The directory is removed when the session ends.

Launches compile optimized builds (``TILECRAFT_QUICK_BUILDS=0``): the tests of the lowering and
of the language check the code that kernels run once they have run a while, and
tests/runtime/test_quick_builds.py turns quick builds back on to test them."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ["TILECRAFT_CACHE_DIR"] = tempfile.mkdtemp(prefix="tilecraft-test-cache-")
atexit.register(shutil.rmtree, os.environ["TILECRAFT_CACHE_DIR"], ignore_errors=True)
os.environ["TILECRAFT_QUICK_BUILDS"] = "0"

from tilecraft.backends import native  # noqa: E402  (after the cache is chosen)

native.launchers(wait=True)
