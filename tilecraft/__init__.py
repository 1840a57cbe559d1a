"""tilecraft: a tile-level GPU compiler in Python, with dialects generated from `.td` files."""

__version__ = "0.1.0"
