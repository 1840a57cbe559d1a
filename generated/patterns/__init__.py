"""Rewrite patterns generated from the `Pat` defs of each .td file in defs/."""
