"""A dialect written in the style of MLIR's OpBase.td and Triton's TritonOps.td."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.codegen.td import Code, RecordKeeper, Unset, load_records, print_records

DATA = Path(__file__).parent / "data" / "realworld"


@pytest.fixture(scope="module")
def rk() -> RecordKeeper:
    return load_records(DATA / "TileOps.td", include_dirs=[str(DATA / "include")])


def test_all_ops_in_definition_order(rk: RecordKeeper) -> None:
    assert [op.name for op in rk.all_derived("Op")] == [
        "Tile_ProgramIdOp", "Tile_LoadOp", "Tile_Iadd_", "Tile_Fadd_", "Tile_Imul_",
        "Tile_Fmul_", "Tile_Subi_", "Tile_SplatOp", "Tile_ReturnOp"]
    assert [op["fullName"] for op in rk.all_derived("Op")][:3] == [
        "tile.get_program_id", "tile.load", "tile.addi"]


def test_dialect_and_op_fields(rk: RecordKeeper) -> None:
    load = rk.defs["Tile_LoadOp"]
    assert load.superclasses == ["Op", "Tile_Op"]
    assert load["opDialect"] is rk.defs["Tile_Dialect"]
    assert load["cppNamespace"] == "::tilecraft::tile"
    assert load.get_bit("hasVerifier") and load.get_bit("hasCanonicalizer")
    assert not load.get_bit("hasFolder")
    assert isinstance(load["description"], Code) and "masked-out" in load["description"]
    assert load["assemblyFormat"].strip().startswith("$ptr (`,` $mask^)?")
    assert "isMasked()" in load["extraClassDeclaration"]
    assert rk.defs["Tile_ProgramIdOp"]["extraClassDeclaration"] is Unset
    assert rk.defs["Tile_ProgramIdOp"]["assemblyFormat"] == "$axis attr-dict `:` type($result)"


def test_dag_arguments_with_attribute_wrappers(rk: RecordKeeper) -> None:
    args = rk.defs["Tile_LoadOp"]["arguments"]
    assert args.op is rk.defs["ins"]
    assert args.arg_names == ["ptr", "mask", "other", "cache", "isVolatile", "evict"]
    ptr, mask, _, cache, volatile, evict = args.arg_values
    assert ptr is rk.defs["Tile_PtrLike"]
    assert mask.isa("Optional") and mask["baseType"] is rk.defs["Tile_IntLike"]
    assert cache.isa("DefaultValuedAttr") and cache["defaultValue"] == '"none"'
    assert cache["baseAttr"] is rk.defs["StrAttr"] and cache["storageType"] == "::mlir::StringAttr"
    assert volatile["defaultValue"] == "false"
    assert evict["convertFromStorage"] == (
        "$_self ? ::std::optional<uint32_t>($_self) : (::std::nullopt)")
    axis = rk.defs["Tile_ProgramIdOp"]["arguments"].arg_values[0]
    children = axis["predicate"]["children"]
    assert children[0] is rk.defs["I32Attr"]["predicate"]
    assert children[1]["predExpr"] == "(::llvm::cast<::mlir::IntegerAttr>($_self).getInt() >= 0)"


def test_builders_and_code_blocks(rk: RecordKeeper) -> None:
    first, second = rk.defs["Tile_LoadOp"]["builders"]
    assert first["dagParams"].arg_names == ["ptr", "cache"]
    assert first["dagParams"].arg_values == ["::mlir::Value", "::llvm::StringRef"]
    assert "build($_builder, $_state, ptr" in first["body"]
    assert second["body"] == ""


def test_traits_and_interfaces(rk: RecordKeeper) -> None:
    traits = rk.defs["Tile_LoadOp"]["traits"]
    assert traits[0].isa("DeclareOpInterfaceMethods")
    assert traits[0]["trait"] == "MemoryEffectOpInterface::Trait"
    assert traits[1]["summary"] == "all of {ptr, result} have same type"
    assert traits[1]["predicate"]["predExpr"] == (
        "(true && $ptr.getType() == $result.getType())")
    assert [t.name for t in rk.defs["Tile_Iadd_"]["traits"]] == [
        "Commutative", "SameOperandsAndResultType", "Pure"]
    assert rk.defs["Tile_ReturnOp"].get_bit("hasFolder")


def test_type_constraints_built_with_foreach_and_interleave(rk: RecordKeeper) -> None:
    assert rk.defs["Tile_Float"]["summary"] == "floating-point"
    assert rk.defs["Tile_Int"]["summary"] == (
        "1-bit signless integer or 32-bit signless integer or 64-bit signless integer")
    assert rk.defs["F32"]["builderCall"] == "$_builder.getF32Type()"
    assert rk.defs["I64"]["predicate"]["predExpr"] == "($_self.isSignlessInteger(64))"
    tensor = rk.defs["Tile_Tensor"]
    assert tensor["summary"].startswith("tensor of 1-bit signless integer or ")
    subst = tensor["predicate"]["children"][1]
    assert subst.isa("SubstLeaves") and subst["pattern"] == "$_self"
    assert len(subst["children"][0]["children"]) == 7


def test_multiclass_ops(rk: RecordKeeper) -> None:
    addf = rk.defs["Tile_Fadd_"]
    assert addf["summary"] == ("Elementwise addf of floating-point or tensor of 16-bit float or "
                               "32-bit float or 64-bit float values")
    assert addf["results"].arg_values == [rk.defs["Tile_FloatLike"]]
    assert addf.field_loc("summary").file.endswith("TileOps.td")
    assert addf.field_loc("hasVerifier").file.endswith("OpBase.td")


def test_print_records_is_deterministic(rk: RecordKeeper) -> None:
    text = print_records(rk)
    again = print_records(load_records(DATA / "TileOps.td",
                                       include_dirs=[str(DATA / "include")]))
    assert text == again
    assert "def Tile_LoadOp {\t// Op Tile_Op\n" in text
    assert "  bit hasVerifier = 1;\n" in text
    assert "class Tile_Op<string Tile_Op:mnemonic = ?, list<Trait> Tile_Op:traits = []> {" in text
