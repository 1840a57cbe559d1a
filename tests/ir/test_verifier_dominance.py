"""Dominance of definitions over uses, across blocks and into nested regions."""

import pytest

from tilecraft.ir import VerificationError, parse_module


def verify(text: str) -> None:
    parse_module(text, allow_unregistered=True).verify()


def test_value_from_a_sibling_block_does_not_dominate():
    text = """module {
  "t.f"() ({
    %c = "t.cond"() : () -> i1
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %x = "t.def"() : () -> i32
    cf.br ^bb3
  ^bb2:
    "t.use"(%x) : (i32) -> ()
    cf.br ^bb3
  ^bb3:
    "t.ret"() : () -> ()
  }) : () -> ()
}
"""
    with pytest.raises(VerificationError) as info:
        verify(text)
    assert "'t.use' op operand #0 does not dominate this use" in str(info.value)


def test_value_from_a_dominating_block_is_fine():
    verify("""module {
  "t.f"() ({
    %x = "t.def"() : () -> i32
    cf.br ^bb1
  ^bb1:
    "t.use"(%x) : (i32) -> ()
    "t.ret"() : () -> ()
  }) : () -> ()
}
""")


def test_nested_use_before_the_definition_in_the_outer_block():
    text = """module {
  "t.region"() ({
    "t.use"(%x) : (i32) -> ()
    "t.end"() : () -> ()
  }) : () -> ()
  %x = "t.def"() : () -> i32
}
"""
    with pytest.raises(VerificationError) as info:
        verify(text)
    assert "'t.use' op operand #0 does not dominate this use" in str(info.value)
