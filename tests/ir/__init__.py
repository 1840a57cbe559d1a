"""Tests of the IR core (tilecraft.ir)."""
