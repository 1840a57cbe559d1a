"""The generator's view of the records: dialects, ops, attributes, types, enums and passes.

`build_model` reads the evaluated `.td` records and checks what the backends rely on, reporting
mistakes as `TdError`s at the record or field that caused them. Backends only see this model.
"""

from __future__ import annotations

import ast
import keyword
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import SourceLoc
from .predicates import PredicateChecker, comment_in
from .td import Record, RecordKeeper, TdError, Unset

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# Members of the IR's Operation, attribute and type base classes that accessors must not shadow.
RESERVED = frozenset(
    """name operands results result regions successors properties attributes location parent
    parent_op verify verify_invariants print parse build create walk erase clone operand
    emit_error block uses type types detach move_before move_after set_operand num_operands
    num_results num_regions OPERATION_NAME TRAITS HOOKS PARAMETERS DIALECT MNEMONIC ALIAS
    get_operand op_operands next_op prev_op parent_region is_registered has_trait
    get_attr set_operands drop_all_references is_ancestor is_before_in_block verify_regions
    operand_group result_group verify_groups all_attributes split_attributes type_error
    attribute_error region_error parameters replace""".split()
)


def snake_case(name: str) -> str:
    """`bodyRegion` -> `body_region`; names already in snake_case stay as they are."""
    return _CAMEL.sub("_", name).lower()


# Members of the dialect attribute and type base classes that parameter accessors must not shadow.
PARAMETER_RESERVED = frozenset(
    """ALIAS DIALECT MNEMONIC PARAMETERS HOOKS IS_SHAPED parameters parse_parameters
    print_parameters replace is_float is_index is_integer is_signed_integer is_signless_integer
    is_tensor is_unsigned_integer""".split()
)


def accessor_name(name: str, reserved: frozenset[str] = RESERVED) -> str:
    """The Python accessor for an operand, result, attribute, region or (with
    `PARAMETER_RESERVED`) parameter `name`."""
    py = snake_case(name)
    return py + "_" if py in reserved or py in _PY_KEYWORDS else py


_PY_KEYWORDS = frozenset(
    "and as assert async await break class continue def del elif else except finally for from "
    "global if import in is lambda nonlocal not or pass raise return try while with yield".split()
)


def class_name(record: Record) -> str:
    """`Arith_AddIOp` -> `AddIOp`: the text after the dialect prefix, as MLIR's tblgen does."""
    name = record.name
    return name.split("_", 1)[1] if "_" in name and not name.startswith("anonymous") else name


def _is_identifier(name: str) -> bool:
    """Whether generated Python may use ``name`` as a name (an identifier, not a keyword)."""
    return name.isidentifier() and not keyword.iskeyword(name)


def checked_class_name(record: Record, name: str) -> str:
    """`name`, the Python class generated for `record`; a TdError when it is not an identifier
    (a def named `Math_` or `UB_0xPoisonOp`)."""
    if not _is_identifier(name):
        raise TdError(f"the def '{record.name}' gives the class name '{name}', which is not a "
                      "Python identifier", record.loc)
    return name


@dataclass
class TypeConstraintModel:
    """A type constraint: its predicate (with `$_self`), summary and buildable type, if any."""

    pred: str
    summary: str
    builder: str | None
    py_type: str


@dataclass
class Operand:
    name: str
    accessor: str
    kind: str  # "single", "optional" or "variadic"
    constraint: TypeConstraintModel


@dataclass
class AttributeModel:
    name: str
    accessor: str
    pred: str
    summary: str
    py_type: str
    return_value: str
    build_value: str
    value_type: str
    asm_printer: str
    asm_parser: str
    optional: bool
    default: str | None
    enum: str | None

    @property
    def required(self) -> bool:
        return not self.optional and self.default is None


@dataclass
class RegionModel:
    name: str
    accessor: str
    variadic: bool
    pred: str
    summary: str


@dataclass
class SuccessorModel:
    name: str
    accessor: str
    variadic: bool


@dataclass
class OpTrait:
    """A native trait (`expr` names a class of tilecraft.ir.traits) or an op predicate."""

    expr: str | None
    name: str
    pred: str | None = None
    summary: str = ""
    values: list[str] = field(default_factory=list)
    lhs: str = ""
    rhs: str = ""
    transformer: str = ""


# The `languageKind`s and `tlSignature`s an op may declare, with the operands each takes.
LANGUAGE_KINDS = {"unary": 1, "binary": 2, "cast": 1}
TL_SIGNATURES = {"float_unary": 1, "float_binary": 2, "int_unary": 1, "float_classify": 1}


@dataclass
class LanguageFacts:
    """What the kernel language and the interpreter know of an element-wise op (the `.td`
    fields `languageName`, `languageKind`, `interpreterImpl`, `tl*`)."""

    name: str
    kind: str
    # The numpy function's Python expression; "" when the interpreter has none.
    interpreter_impl: str
    # The `tl.math` function's name ("" for none), whether it is also `tl.<name>` and a tensor
    # method, its signature and allowed element types.
    tl_name: str
    tl_top_level: bool
    tl_signature: str
    tl_dtypes: list[str]


# The LLVM instructions a `.td` lowering may name, by the number of operands each takes.
LLVM_INSTRUCTIONS = {
    **dict.fromkeys(("fneg",), 1),
    **dict.fromkeys(("add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor",
                     "shl", "lshr", "ashr", "fadd", "fsub", "fmul", "fdiv", "frem"), 2),
    **dict.fromkeys(("select",), 3),
}
LLVM_CASTS = ("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp",
              "sitofp")
LLVM_BACKENDS = ("", "cpu", "cuda")
LLVM_REGISTER_TYPES = ("f32", "f64", "i1", "i8", "i16", "i32", "i64")
LLVM_FAST_MATH_FLAGS = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")


@dataclass
class LoweringRule:
    """One rule of an op's `llvmLowering` (defs/base/LLVMLoweringBase.td)."""

    # 'instruction', 'cast', 'intrinsic', 'call', 'function_hook' or 'op_hook'
    kind: str
    # The LLVM instruction, intrinsic, function symbol or hook it names.
    name: str
    backend: str
    types: tuple[str, ...]
    fast_math: bool = False
    # Fast-math flags an intrinsic's call always carries (`callFlags`).
    flags: tuple[str, ...] = ()


@dataclass
class LoweringFacts:
    """How the backends lower an element-wise op to LLVM IR (the `.td` fields `llvmLowering`,
    `llvmLoweringCost`, `llvmExactResult`, `mathFunction`)."""

    rules: list[LoweringRule]
    # The number of operands; None for an op of one variadic operand.
    operands: int | None
    cost: int
    exact: bool
    # The math function the op also is (its mnemonic), or "" when it is none.
    math_function: str
    # Where `llvmLowering` is set.
    loc: SourceLoc


@dataclass
class OpModel:
    record: Record
    dialect: str
    mnemonic: str
    class_name: str
    summary: str
    description: str
    operands: list[Operand]
    attributes: list[AttributeModel]
    results: list[Operand]
    regions: list[RegionModel]
    successors: list[SuccessorModel]
    traits: list[OpTrait]
    assembly_format: str | None
    hooks: list[str]
    # The `Pat`s with `appliedBy = "canonicalize"` rooted at this op: (file stem, def name).
    canonicalization_patterns: list[tuple[str, str]] = field(default_factory=list)
    language: LanguageFacts | None = None
    lowering: LoweringFacts | None = None

    @property
    def full_name(self) -> str:
        return f"{self.dialect}.{self.mnemonic}"

    @property
    def has_canonicalization_patterns(self) -> bool:
        """Whether the generated class has `get_canonicalization_patterns` (declared `Pat`s or
        the hand-written `hasCanonicalizer` hook)."""
        return bool(self.canonicalization_patterns) or "canonicalization_patterns" in self.hooks

    def has_trait(self, name: str) -> bool:
        return any(t.name == name for t in self.traits)


@dataclass
class EnumCase:
    symbol: str
    value: int
    keyword: str


@dataclass
class EnumModel:
    name: str
    summary: str
    cases: list[EnumCase]


@dataclass
class ParameterModel:
    name: str
    accessor: str
    py_type: str
    summary: str
    printer: str
    parser: str
    converter: str
    default: str | None


@dataclass
class AttrOrTypeModel:
    record: Record
    kind: str  # "Attr" or "Type"
    dialect: str
    mnemonic: str
    class_name: str
    summary: str
    description: str
    parameters: list[ParameterModel]
    assembly_format: str | None
    alias: str
    hooks: list[str]
    # A type with the `ShapedTypeInterface` trait: the IR core reads its `shape` and
    # `element_type` as it does a tensor's.
    shaped: bool = False


@dataclass
class DialectModel:
    record: Record
    name: str
    summary: str
    description: str
    hooks_module: str
    dependent_dialects: list[str]
    ops: list[OpModel] = field(default_factory=list)
    attrs: list[AttrOrTypeModel] = field(default_factory=list)
    types: list[AttrOrTypeModel] = field(default_factory=list)
    enums: list[EnumModel] = field(default_factory=list)


@dataclass
class OptionModel:
    name: str
    argument: str
    type: str
    default: str
    description: str
    is_list: bool


@dataclass
class StatisticModel:
    name: str
    stat_name: str
    description: str


@dataclass
class PassModel:
    record: Record
    class_name: str
    argument: str
    summary: str
    description: str
    anchor: str
    dependent_dialects: list[str]
    options: list[OptionModel]
    statistics: list[StatisticModel]
    impl_module: str
    # The `Pat`s with `appliedBy` set to this pass's argument: (file stem, def name).
    patterns: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Model:
    dialects: dict[str, DialectModel]
    passes: list[PassModel]
    # Pattern defs by the stem of the main file that defines them.
    patterns: dict[str, list[Record]]
    predicates: PredicateChecker

    def ops_by_def(self) -> dict[str, OpModel]:
        """Every op model by the name of its def (`TT_DotOp`)."""
        return {op.record.name: op for d in self.dialects.values() for op in d.ops}


_HOOK_BITS = (
    ("hasVerifier", "custom_verify"),
    ("hasRegionVerifier", "custom_verify_regions"),
    ("hasFolder", "fold"),
    ("hasCanonicalizer", "canonicalization_patterns"),
    ("hasCanonicalizeMethod", "canonicalize"),
    ("hasCustomAssemblyFormat", "parse"),
)

PASS_OPTION_TYPES = {
    "bool": "bool", "int": "int", "unsigned": "int", "int32_t": "int", "int64_t": "int",
    "uint32_t": "int", "uint64_t": "int", "float": "float", "double": "float",
    "string": "str", "std::string": "str",
}


class ModelBuilder:
    """Turns records into the model, one def at a time, checking as it goes."""

    def __init__(self, records: RecordKeeper) -> None:
        self.records = records
        self.predicates = PredicateChecker()
        self.dialects: dict[str, DialectModel] = {}

    def build(self) -> Model:
        for rec in self.records.all_derived("Dialect"):
            self._dialect(rec)
        self.predicates.extra_names |= {
            rec["className"] for rec in self.records.all_derived("IntEnumAttr")}
        self.predicates.extra_names |= {
            class_name(rec) for rec in self.records.all_derived("AttrOrTypeDef")}
        enums_seen: dict[str, set[str]] = {}
        for rec in self.records.all_derived("Op"):
            op = self._op(rec)
            dialect = self.dialects[op.dialect]
            dialect.ops.append(op)
            for attr_rec in self._enum_attrs(rec):
                seen = enums_seen.setdefault(op.dialect, set())
                if attr_rec["className"] not in seen:
                    seen.add(attr_rec["className"])
                    dialect.enums.append(self._enum(attr_rec))
        for rec in self.records.all_derived("AttrOrTypeDef"):
            model = self._attr_or_type(rec)
            dialect = self.dialects[model.dialect]
            (dialect.attrs if model.kind == "Attr" else dialect.types).append(model)
        self._check_unique()
        self._check_unique_names()
        passes = [self._pass(rec) for rec in self.records.all_derived("PassBase")]
        names: dict[str, Record] = {}
        for p in passes:
            if p.argument in names:
                raise TdError(f"duplicate pass argument '{p.argument}'", p.record.loc)
            names[p.argument] = p.record
        patterns: dict[str, list[Record]] = {}
        for rec in self.records.all_derived("Pattern"):
            stem = Path(rec.loc.file or "patterns").stem
            patterns.setdefault(stem, []).append(rec)
            self._attach_pattern(rec, stem, passes)
        return Model(dict(sorted(self.dialects.items())), sorted(passes, key=lambda p: p.argument),
                     dict(sorted(patterns.items())), self.predicates)

    def _check_unique_names(self) -> None:
        """`languageName`s, `tlName`s and the names of math functions (`mathFunction`) are
        unique over all dialects."""
        names: tuple[tuple[str, Callable[[OpModel], str]], ...] = (
            ("languageName", lambda op: op.language.name if op.language else ""),
            ("tlName", lambda op: op.language.tl_name if op.language else ""),
            ("mathFunction", lambda op: op.lowering.math_function if op.lowering else ""),
        )
        for field_name, name_of in names:
            seen: dict[str, Record] = {}
            for dialect in self.dialects.values():
                for op in dialect.ops:
                    value = name_of(op)
                    if not value:
                        continue
                    if value in seen:
                        raise TdError(f"{field_name} '{value}' of '{op.record.name}' is already "
                                      f"that of '{seen[value].name}'",
                                      op.record.field_loc(field_name),
                                      notes=[(seen[value].field_loc(field_name),
                                              "first declared here")])
                    seen[value] = op.record

    # -- patterns ------------------------------------------------------------------------------

    def _attach_pattern(self, rec: Record, stem: str, passes: list[PassModel]) -> None:
        """Give the pattern to what `appliedBy` names: its root op's canonicalization, or a
        pass."""
        applied_by = rec.get("appliedBy", "")
        loc = rec.field_loc("appliedBy") if "appliedBy" in rec.fields else rec.loc
        if not isinstance(applied_by, str) or not applied_by:
            raise TdError(f"pattern '{rec.name}' is applied by nothing: set 'appliedBy' to "
                          "\"canonicalize\" (a canonicalization of its root op) or to the "
                          "argument of the pass that applies it", rec.loc)
        if applied_by == "canonicalize":
            source = rec.get("sourcePattern")
            root = getattr(source, "op", None)
            # by name: each main file's records are its own, and a def one file includes from
            # another is a copy of the one that file defines (same name, same place)
            op = next((op for d in self.dialects.values() for op in d.ops
                       if isinstance(root, Record) and op.record.name == root.name), None)
            if op is not None:  # else the rewrite backend reports the source pattern
                op.canonicalization_patterns.append((stem, rec.name))
            return
        target = next((p for p in passes if p.argument == applied_by), None)
        if target is None:
            known = ", ".join(sorted(p.argument for p in passes))
            raise TdError(f"pattern '{rec.name}' is applied by '{applied_by}', which is not a "
                          f"pass (\"canonicalize\" or one of: {known})", loc)
        target.patterns.append((stem, rec.name))

    # -- dialects ------------------------------------------------------------------------------

    def _dialect(self, rec: Record) -> None:
        name = rec.get("name")
        if not isinstance(name, str) or not name:
            raise TdError(f"dialect '{rec.name}' has no 'name'", rec.loc)
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise TdError(f"dialect name '{name}' must be a lower-case identifier",
                          rec.field_loc("name"))
        if name in self.dialects:
            raise TdError(f"dialect '{name}' is defined twice", rec.loc,
                          notes=[(self.dialects[name].record.loc, "first defined here")])
        self.dialects[name] = DialectModel(
            record=rec, name=name, summary=rec.get("summary", ""),
            description=_dedent(rec.get("description", "")),
            hooks_module=rec.get("hooksModule", "") or f"tilecraft.dialects.{name}",
            dependent_dialects=list(rec.get("dependentDialects", [])),
        )

    def _dialect_of(self, rec: Record, field_name: str) -> str:
        dialect = rec.get(field_name)
        if not isinstance(dialect, Record) or not dialect.isa("Dialect"):
            raise TdError(f"'{rec.name}' needs a Dialect in '{field_name}'", rec.loc)
        return dialect["name"]

    # -- ops -----------------------------------------------------------------------------------

    def _op(self, rec: Record) -> OpModel:
        dialect = self._dialect_of(rec, "opDialect")
        mnemonic = rec.get("opName")
        if not isinstance(mnemonic, str) or not re.fullmatch(r"[A-Za-z_][\w.$]*", mnemonic):
            raise TdError(f"op '{rec.name}' has an invalid mnemonic '{mnemonic}'", rec.loc)
        operands, attributes = [], []
        for value, name in self._dag_args(rec, "arguments", "ins"):
            if value.isa("AttrConstraint"):
                attributes.append(self._attribute(rec, value, name))
            elif value.isa("TypeConstraint"):
                operands.append(self._operand(rec, value, name))
            else:
                raise TdError(
                    f"argument '${name}' of '{rec.name}' is a '{value.name}', which is neither "
                    "a type nor an attribute constraint", rec.field_loc("arguments"))
        results = []
        for value, name in self._dag_args(rec, "results", "outs"):
            if not value.isa("TypeConstraint"):
                raise TdError(f"result '${name}' of '{rec.name}' is not a type constraint",
                              rec.field_loc("results"))
            results.append(self._operand(rec, value, name, "results"))
        regions = []
        for value, name in self._dag_args(rec, "regions", "region"):
            if not value.isa("RegionConstraint"):
                raise TdError(f"region '${name}' of '{rec.name}' is not a region constraint",
                              rec.field_loc("regions"))
            pred = self.predicates.expression(value["predicate"]["predExpr"], rec, "regions")
            regions.append(RegionModel(name, accessor_name(name), value.isa("VariadicRegion"),
                                       pred, value.get("summary", "")))
        successors = []
        for value, name in self._dag_args(rec, "successors", "successor"):
            if not value.isa("SuccessorConstraint"):
                raise TdError(f"successor '${name}' of '{rec.name}' is not a successor",
                              rec.field_loc("successors"))
            successors.append(SuccessorModel(name, accessor_name(name),
                                             value.isa("VariadicSuccessor")))
        self._check_names(rec, operands, attributes, results, regions, successors)
        traits = self._traits(rec, rec.get("traits", []))
        hooks = [hook for bit, hook in _HOOK_BITS if rec.get_bit(bit)]
        fmt = rec.get("assemblyFormat", Unset)
        if fmt is Unset or fmt == "":
            fmt = None
        if fmt is not None and "parse" in hooks:
            raise TdError(f"op '{rec.name}' sets both 'assemblyFormat' and "
                          "'hasCustomAssemblyFormat'", rec.field_loc("assemblyFormat"))
        if "parse" in hooks:
            hooks.append("print")
        for trait_name, group, what in (("AttrSizedOperandSegments", operands, "operands"),
                                        ("AttrSizedResultSegments", results, "results")):
            if not group and any(t.name == trait_name for t in traits):
                raise TdError(f"op '{rec.name}' has the trait '{trait_name}' but no {what}",
                              rec.loc)
        variadic = [o for o in operands if o.kind != "single"]
        if len(variadic) > 1 and not any(
            t.name in ("AttrSizedOperandSegments", "SameVariadicOperandSize") for t in traits
        ):
            raise TdError(
                f"op '{rec.name}' has more than one variadic or optional operand: it needs "
                "'AttrSizedOperandSegments' or 'SameVariadicOperandSize'", rec.loc)
        variadic_results = [r for r in results if r.kind != "single"]
        if len(variadic_results) > 1 and not any(
            t.name in ("AttrSizedResultSegments", "SameVariadicResultSize") for t in traits
        ):
            raise TdError(
                f"op '{rec.name}' has more than one variadic or optional result: it needs "
                "'AttrSizedResultSegments' or 'SameVariadicResultSize'", rec.loc)
        return OpModel(
            record=rec, dialect=dialect, mnemonic=mnemonic,
            class_name=checked_class_name(rec, class_name(rec)),
            summary=rec.get("summary", ""), description=_dedent(rec.get("description", "")),
            operands=operands, attributes=attributes, results=results, regions=regions,
            successors=successors, traits=traits, assembly_format=fmt, hooks=hooks,
            language=self._language(rec, operands, results),
            lowering=self._lowering(rec, operands, results, traits),
        )

    def _lowering(self, rec: Record, operands: list[Operand], results: list[Operand],
                  traits: list[OpTrait]) -> LoweringFacts | None:
        """The op's LLVM lowering, checked; None if it declares none."""
        entries = rec.get("llvmLowering", [])
        math_function = rec.get_bit("mathFunction")
        if not entries:
            if math_function:
                raise TdError(f"op '{rec.name}' sets 'mathFunction' but no 'llvmLowering'",
                              rec.field_loc("mathFunction"))
            return None
        loc = rec.field_loc("llvmLowering")
        variadic = [o.kind for o in operands] == ["variadic"]
        if (len(results) != 1 or results[0].kind != "single"
                or (not variadic and any(o.kind != "single" for o in operands))
                or not any(t.name == "Elementwise" for t in traits)):
            raise TdError(f"op '{rec.name}' declares an 'llvmLowering' but is not an element-wise "
                          "op of single operands (or one variadic operand) and one result "
                          "(trait 'Elementwise')", loc)
        operand_count = None if variadic else len(operands)
        rules = [rule for entry in entries for rule in _lowering_rules(rec, entry, operand_count)]
        cost = rec.get("llvmLoweringCost", 1)
        if not isinstance(cost, int) or cost < 1:
            raise TdError(f"llvmLoweringCost of '{rec.name}' must be a positive number of "
                          f"instructions, not {cost!r}", rec.field_loc("llvmLoweringCost"))
        if math_function and variadic:
            raise TdError(f"op '{rec.name}' is a math function, which takes a fixed number of "
                          "operands, but its operand is variadic", rec.field_loc("mathFunction"))
        if math_function:
            bad = next((r for r in rules if r.kind in ("op_hook", "cast") or r.fast_math), None)
            if bad is not None:
                raise TdError(f"op '{rec.name}' is a math function, which the backends call with "
                              f"registers alone, but its lowering has the {bad.kind} rule "
                              f"'{bad.name}'{' with fast-math flags' * bad.fast_math}",
                              rec.field_loc("mathFunction"))
        return LoweringFacts(rules, operand_count, cost, rec.get_bit("llvmExactResult"),
                             rec.get("opName", "") if math_function else "", loc)

    def _language(self, rec: Record, operands: list[Operand],
                  results: list[Operand]) -> LanguageFacts | None:
        """The op's facts for the language and the interpreter, checked; None if it has none."""
        name = rec.get("languageName", "")
        kind = rec.get("languageKind", "")
        impl = rec.get("interpreterImpl", "")
        tl_name = rec.get("tlName", "")
        signature = rec.get("tlSignature", "")
        if not name:
            for field_name, value in (("languageKind", kind), ("interpreterImpl", impl),
                                      ("tlName", tl_name)):
                if value:
                    raise TdError(f"op '{rec.name}' sets '{field_name}' but no 'languageName'",
                                  rec.field_loc(field_name))
            return None
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise TdError(f"languageName '{name}' of '{rec.name}' must be a lower-case "
                          "identifier", rec.field_loc("languageName"))
        if kind not in LANGUAGE_KINDS:
            raise TdError(f"op '{rec.name}' has languageKind '{kind}'; expected one of "
                          f"{', '.join(map(repr, LANGUAGE_KINDS))}", rec.field_loc("languageKind")
                          if "languageKind" in rec.fields else rec.loc)
        if (len(operands) != LANGUAGE_KINDS[kind] or len(results) != 1
                or any(o.kind != "single" for o in [*operands, *results])):
            raise TdError(f"op '{rec.name}' is a {kind} op of the language but has "
                          f"{len(operands)} operand(s) and {len(results)} result(s); it needs "
                          f"{LANGUAGE_KINDS[kind]} and 1, none optional or variadic",
                          rec.field_loc("languageKind"))
        if impl:
            try:
                ast.parse(impl, mode="eval")
            except SyntaxError as err:
                raise TdError(f"interpreterImpl of '{rec.name}' is not a Python expression: "
                              f"{err.msg}", rec.field_loc("interpreterImpl")) from None
            if comment_in(impl) or "\n" in impl:
                raise TdError(f"interpreterImpl of '{rec.name}' must be a one-line Python "
                              "expression without a '#' comment", rec.field_loc("interpreterImpl"))
        if tl_name or signature:
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", tl_name):
                raise TdError(f"op '{rec.name}' sets 'tlSignature' but no valid 'tlName'",
                              rec.field_loc("tlName") if tl_name else rec.loc)
            if TL_SIGNATURES.get(signature) != LANGUAGE_KINDS[kind] or kind == "cast":
                expected = [sig for sig, count in TL_SIGNATURES.items()
                            if count == LANGUAGE_KINDS[kind] and kind != "cast"]
                raise TdError(f"op '{rec.name}' has tlSignature '{signature}'; a {kind} op "
                              f"takes one of {', '.join(map(repr, expected)) or 'none'}",
                              rec.field_loc("tlSignature") if signature else rec.loc)
        return LanguageFacts(name, kind, impl, tl_name, rec.get_bit("tlTopLevel"), signature,
                             list(rec.get("tlDtypes", [])))

    def _dag_args(self, rec: Record, field_name: str, operator: str) -> list[tuple[Record, str]]:
        dag = rec.get(field_name)
        if dag is Unset or dag is None:
            return []
        loc = rec.field_loc(field_name)
        op = dag.op
        op_name = op.name if isinstance(op, Record) else str(op)
        if op_name != operator:
            raise TdError(f"'{field_name}' must be a '({operator} ...)' dag, not '({op_name} ...)'",
                          loc)
        out = []
        for value, name in dag.args:
            if not name:
                raise TdError(f"every entry of '{field_name}' needs a name ('$name')", loc)
            if not isinstance(value, Record):
                raise TdError(f"'${name}' in '{field_name}' must be a constraint, not {value!r}",
                              loc)
            out.append((value, name))
        return out

    def _type_constraint(self, rec: Record, value: Record, field_name: str) -> TypeConstraintModel:
        base = value.get("baseType") if value.isa("Variadic") or value.isa("Optional") else value
        pred = self.predicates.expression(base["predicate"]["predExpr"], rec, field_name,
                                          origin=base)
        builder = base.get("builderCall", "") if base.isa("Type") else ""
        if builder:
            self._code(builder, rec, field_name, base)
        py_type = self._code(base.get("pyTypeName", "Type"), rec, field_name, base)
        return TypeConstraintModel(pred, base.get("summary", ""), builder or None, py_type)

    def _code(self, expr: str, rec: Record, field_name: str, origin: Record) -> str:
        """``expr``, Python code of ``origin`` (a type annotation, a default, a parameter's
        printer) that ``rec`` uses, after checking that it compiles and holds no comment."""
        return self.predicates.expression(expr, rec, field_name, origin=origin, names=False)

    def _operand(self, rec: Record, value: Record, name: str,
                 field_name: str = "arguments") -> Operand:
        kind = "variadic" if value.isa("Variadic") else (
            "optional" if value.isa("Optional") else "single")
        return Operand(name, accessor_name(name), kind,
                       self._type_constraint(rec, value, field_name))

    def _attribute(self, rec: Record, value: Record, name: str) -> AttributeModel:
        pred = self.predicates.expression(value["predicate"]["predExpr"], rec, "arguments",
                                          origin=value)
        default = value.get("defaultValue", Unset)
        enum = value.get("className") if value.isa("IntEnumAttr") else None
        if enum is None and value.get("baseAttr", Unset) is not Unset:
            base = value["baseAttr"]
            enum = base.get("className") if base.isa("IntEnumAttr") else None
        if value.isa("Attr"):
            fields = {k: value.get(k, "") for k in (
                "pyTypeName", "returnValue", "buildValue", "valueType", "asmPrinter",
                "asmParser")}
        else:
            fields = dict(pyTypeName="Attribute", returnValue="$_self", buildValue="$_value",
                          valueType="", asmPrinter="", asmParser="")
        for key in ("returnValue", "buildValue", "valueType", "asmPrinter", "asmParser"):
            if fields[key] or key in ("returnValue", "buildValue"):
                self.predicates.expression(fields[key], rec, "arguments", statement=False)
        self._code(fields["pyTypeName"], rec, "arguments", value)
        if default is not Unset:
            self._code(_python_literal(default), rec, "arguments", value)
        return AttributeModel(
            name=name, accessor=accessor_name(name), pred=pred, summary=value.get("summary", ""),
            py_type=fields["pyTypeName"], return_value=fields["returnValue"],
            build_value=fields["buildValue"], value_type=fields["valueType"],
            asm_printer=fields["asmPrinter"], asm_parser=fields["asmParser"],
            optional=bool(value.get_bit("isOptional")) if value.isa("Attr") else False,
            default=_python_literal(default) if default is not Unset else None,
            enum=enum,
        )

    def _enum_attrs(self, rec: Record) -> list[Record]:
        found = []
        for value, _ in self._dag_args(rec, "arguments", "ins"):
            while value is not None and value is not Unset:
                if value.isa("IntEnumAttr"):
                    found.append(value)
                    break
                value = value.get("baseAttr", Unset) if value.isa("Attr") else None
        return found

    def _enum(self, rec: Record) -> EnumModel:
        """The enum of the `IntEnumAttr` ``rec``: its class name and cases, whose symbols are
        Python identifiers, each used once (a TdError at the case otherwise)."""
        name = rec["className"]
        if not _is_identifier(name):
            raise TdError(f"the enum class name '{name}' of '{rec.name}' is not a Python "
                          "identifier", rec.loc)
        cases: list[EnumCase] = []
        seen: dict[str, Record] = {}
        for case in rec["enumerants"]:
            symbol = case["symbol"]
            if not _is_identifier(symbol):
                raise TdError(f"the case '{symbol}' of the enum '{name}' is not a Python "
                              "identifier", case.loc)
            key = unicodedata.normalize("NFKC", symbol)
            if key in seen:
                raise TdError(f"the enum '{name}' has the case '{symbol}' twice", case.loc,
                              notes=[(seen[key].loc, "the first is here")])
            seen[key] = case
            cases.append(EnumCase(symbol, case["value"], case["str"]))
        return EnumModel(name, rec.get("summary", ""), cases)

    def _traits(self, rec: Record, traits: list) -> list[OpTrait]:
        out: list[OpTrait] = []
        for trait in traits:
            if not isinstance(trait, Record) or not trait.isa("Trait"):
                raise TdError(f"'{trait}' in the traits of '{rec.name}' is not a Trait",
                              rec.field_loc("traits"))
            if trait.isa("TraitList"):
                out += self._traits(rec, trait["traitList"])
            elif trait.isa("PredOpTrait"):
                pred = self.predicates.expression(trait["predicate"]["predExpr"], rec, "traits")
                transformer = trait.get("transformer", "")
                if transformer:
                    # Type inference writes it into the generated parser and builders.
                    self.predicates.expression(transformer, rec, "traits")
                out.append(OpTrait(
                    None, _trait_class(trait), pred, trait.get("summary", ""),
                    list(trait.get("values", [])), trait.get("lhs", ""), trait.get("rhs", ""),
                    transformer,
                ))
            else:
                expr = trait.get("pyTrait", "")
                if not expr:
                    raise TdError(f"trait '{trait.name}' has no 'pyTrait'", rec.loc)
                out.append(OpTrait(self._code(expr, rec, "traits", trait), expr.split(".")[0]))
        return out

    def _check_names(self, rec: Record, *groups: list) -> None:
        seen: dict[str, str] = {}
        for group in groups:
            for item in group:
                if item.accessor in seen:
                    raise TdError(f"'{rec.name}' uses the name '{item.name}' twice", rec.loc)
                seen[item.accessor] = item.name

    # -- attributes and types ------------------------------------------------------------------

    def _attr_or_type(self, rec: Record) -> AttrOrTypeModel:
        kind = rec["defKind"]
        dialect = self._dialect_of(rec, "attrDialect" if kind == "Attr" else "typeDialect")
        mnemonic = rec.get("mnemonic", Unset)
        if not isinstance(mnemonic, str) or not mnemonic:
            raise TdError(f"{kind.lower()} '{rec.name}' needs a 'mnemonic'", rec.loc)
        params = []
        for value, name in _dag_entries(rec, "parameters"):
            params.append(self._parameter(rec, value, name))
        fmt = rec.get("assemblyFormat", Unset)
        hooks = ["parse_parameters", "print_parameters"] if rec.get_bit(
            "hasCustomAssemblyFormat") else []
        if rec.get_bit("genVerifyDecl"):
            hooks.append("verify")
        shaped = any(isinstance(t, Record) and t.name == "ShapedTypeInterface"
                     for t in rec.get("traits", []))
        if shaped and (kind != "Type"
                       or not {"shape", "element_type"} <= {p.accessor for p in params}):
            raise TdError(f"'{rec.name}' has the trait 'ShapedTypeInterface', so it must be a type "
                          "with the parameters '$shape' and '$elementType'", rec.field_loc("traits"))
        return AttrOrTypeModel(
            record=rec, kind=kind, dialect=dialect, mnemonic=mnemonic,
            class_name=checked_class_name(rec, class_name(rec)),
            summary=rec.get("summary", ""),
            description=_dedent(rec.get("description", "")), parameters=params,
            assembly_format=None if fmt is Unset or fmt == "" else fmt,
            alias=rec.get("alias", "") if kind == "Attr" else "", hooks=hooks, shaped=shaped,
        )

    def _parameter(self, rec: Record, value: object, name: str) -> ParameterModel:
        if isinstance(value, str):
            param = _CPP_PARAMETERS.get(value.strip().removeprefix("::mlir::"))
            if param is None:
                raise TdError(f"parameter '${name}' of '{rec.name}' has the unknown type "
                              f"'{value}'", rec.field_loc("parameters"))
            param = self.records.defs[param]
        elif isinstance(value, Record) and value.isa("AttrOrTypeParameter"):
            param = value
        else:
            raise TdError(f"parameter '${name}' of '{rec.name}' must be an AttrOrTypeParameter "
                          "or a type name string", rec.field_loc("parameters"))
        default = param.get("defaultValue", Unset)
        for code in (param["pyTypeName"], param["printer"], param["parser"], param["converter"],
                     *([] if default is Unset else [_python_literal(default)])):
            self._code(code, rec, "parameters", param)
        return ParameterModel(
            name=name, accessor=accessor_name(name, PARAMETER_RESERVED),
            py_type=param["pyTypeName"],
            summary=param.get("summary", ""), printer=param["printer"], parser=param["parser"],
            converter=param["converter"],
            default=None if default is Unset else _python_literal(default),
        )

    def _check_unique(self) -> None:
        for dialect in self.dialects.values():
            for kind, items in (("op", dialect.ops), ("attribute", dialect.attrs),
                                ("type", dialect.types)):
                seen: dict[str, Record] = {}
                for item in items:
                    if item.mnemonic in seen:
                        raise TdError(
                            f"{kind} '{dialect.name}.{item.mnemonic}' is defined twice",
                            item.record.loc, notes=[(seen[item.mnemonic].loc, "first here")])
                    seen[item.mnemonic] = item.record
            classes: dict[str, Record] = {}
            for item in [*dialect.ops, *dialect.attrs, *dialect.types]:
                if item.class_name in classes:
                    raise TdError(f"two defs of dialect '{dialect.name}' give the class name "
                                  f"'{item.class_name}'", item.record.loc,
                                  notes=[(classes[item.class_name].loc, "the other one")])
                classes[item.class_name] = item.record

    # -- passes --------------------------------------------------------------------------------

    def _pass(self, rec: Record) -> PassModel:
        argument = rec.get("argument", "")
        if not re.fullmatch(r"[a-z][a-z0-9-]*", argument or ""):
            raise TdError(f"pass '{rec.name}' needs a lower-case argument like 'my-pass', not "
                          f"'{argument}'", rec.loc)
        options = []
        for opt in rec.get("options", []):
            py_type = PASS_OPTION_TYPES.get(opt["type"])
            if py_type is None:
                raise TdError(f"option '{opt['argument']}' of pass '{argument}' has the "
                              f"unsupported type '{opt['type']}' (one of "
                              f"{', '.join(sorted(PASS_OPTION_TYPES))})", rec.field_loc("options"))
            default = opt.get("defaultValue", "")
            if not opt.isa("ListOption") and option_default(py_type, default) is None:
                raise TdError(f"option '{opt['argument']}' of pass '{argument}' has the default "
                              f"'{default}', which is not a valid {opt['type']} value", opt.loc)
            options.append(OptionModel(
                name=_member_name(opt, "option", argument), argument=opt["argument"],
                type=py_type, default=default, description=opt.get("description", ""),
                is_list=opt.isa("ListOption")))
        stats = [StatisticModel(_member_name(s, "statistic", argument), s["name"],
                                s.get("description", ""))
                 for s in rec.get("statistics", [])]
        anchor = rec.get("opName", "") if rec.isa("Pass") else ""
        return PassModel(
            record=rec, class_name=checked_class_name(rec, _pass_class_name(rec.name)),
            argument=argument,
            summary=rec.get("summary", ""), description=_dedent(rec.get("description", "")),
            anchor=anchor, dependent_dialects=list(rec.get("dependentDialects", [])),
            options=options, statistics=stats,
            impl_module=rec.get("implModule", "") or "tilecraft.transforms",
        )


def _member_name(rec: Record, what: str, pass_argument: str) -> str:
    """The Python attribute of a pass's option or statistic ``rec``: its `cppName` in snake case,
    which must be an identifier (a TdError at ``rec`` otherwise)."""
    name = rec["cppName"]
    if not _is_identifier(name):
        raise TdError(f"the {what} name '{name}' of pass '{pass_argument}' is not an "
                      "identifier", rec.loc)
    return accessor_name(name)


def option_default(py_type: str, text: str) -> bool | int | float | str | None:
    """The Python value of a pass option's `defaultValue` ``text`` (of the Python type
    ``py_type``; an empty text is the type's zero), None when it is not one."""
    text = text.strip()
    if py_type == "str":
        return text.strip('"')
    if not text:
        return {"bool": False, "int": 0, "float": 0.0}[py_type]
    if not text.isascii():
        return None
    if py_type == "bool":
        return {"true": True, "1": True, "false": False, "0": False}.get(text.lower())
    try:
        value = int(text, 0) if py_type == "int" else float(text)
    except ValueError:
        return None
    return value if py_type == "int" or math.isfinite(value) else None


_CPP_PARAMETERS = {
    "Type": "TypeParameter", "unsigned": "IntParameter", "int": "IntParameter",
    "int32_t": "IntParameter", "int64_t": "IntParameter", "uint32_t": "IntParameter",
    "bool": "BoolParameter", "StringRef": "StringParameter", "std::string": "StringParameter",
    "Attribute": "AttributeParameter",
}


def _dag_entries(rec: Record, field_name: str) -> list[tuple[object, str]]:
    dag = rec.get(field_name)
    if dag is Unset or dag is None:
        return []
    out = []
    for value, name in dag.args:
        if not name:
            raise TdError(f"every entry of '{field_name}' needs a name ('$name')",
                          rec.field_loc(field_name))
        out.append((value, name))
    return out


def _lowering_rules(rec: Record, entry: object,
                    operand_count: int | None) -> list[LoweringRule]:
    """The rules of one entry of `rec`'s `llvmLowering` (a `LibraryCall` gives one per type);
    ``operand_count`` is None for an op of one variadic operand."""
    loc = rec.field_loc("llvmLowering")
    if not isinstance(entry, Record) or not entry.isa("LLVMLowering"):
        raise TdError(f"'{entry}' in the llvmLowering of '{rec.name}' is not an LLVMLowering",
                      loc)
    kind = next((k for k, (cls, _) in _LOWERING_CLASSES.items() if entry.isa(cls)), None)
    if kind is None:
        raise TdError(f"'{entry.name}' in the llvmLowering of '{rec.name}' is no kind of rule "
                      "the backends know (Instruction, CastInstruction, Intrinsic, Call, "
                      "LibraryCall, FunctionHook, OpHook)", loc)
    cls, field_name = _LOWERING_CLASSES[kind]
    name = entry[field_name]
    what = f"{cls}<\"{name}\"> in the llvmLowering of '{rec.name}'"
    backend, types = entry.get("backend", ""), tuple(entry.get("types", []))
    if backend not in LLVM_BACKENDS:
        raise TdError(f"{what} names the backend '{backend}'; expected \"\", \"cpu\" or "
                      "\"cuda\"", loc)
    unknown = [t for t in types if t not in LLVM_REGISTER_TYPES]
    if unknown:
        raise TdError(f"{what} names the register type '{unknown[0]}'; expected one of "
                      f"{', '.join(LLVM_REGISTER_TYPES)}", loc)
    if kind == "library":
        return [LoweringRule("call", name + entry["f32Suffix"] * (t == "f32"), backend, (t,))
                for t in types]
    if kind in ("instruction", "cast") and operand_count is None:
        raise TdError(f"{what}: an instruction takes a fixed number of operands, but the op's "
                      "operand is variadic", loc)
    if kind == "instruction" and LLVM_INSTRUCTIONS.get(name) != operand_count:
        known = ", ".join(i for i, n in LLVM_INSTRUCTIONS.items() if n == operand_count)
        raise TdError(f"{what}: not an LLVM instruction of {operand_count} operand(s) "
                      f"(one of: {known or 'none'})", loc)
    if kind == "cast" and (name not in LLVM_CASTS or operand_count != 1):
        raise TdError(f"{what}: not an LLVM conversion of one operand (one of: "
                      f"{', '.join(LLVM_CASTS)})", loc)
    if kind == "intrinsic" and not re.fullmatch(r"llvm(\.[a-z0-9_]+)+", name):
        raise TdError(f"{what}: an intrinsic's name is 'llvm.<name>'", loc)
    if not re.fullmatch(r"[A-Za-z_][\w.$]*", name):
        raise TdError(f"{what}: not a function name", loc)
    flags = tuple(entry.get("callFlags", [])) if kind == "intrinsic" else ()
    unknown = [f for f in flags if f not in LLVM_FAST_MATH_FLAGS]
    if unknown:
        raise TdError(f"{what} names the fast-math flag '{unknown[0]}'; expected one of "
                      f"{', '.join(LLVM_FAST_MATH_FLAGS)}", loc)
    return [LoweringRule(kind, name, backend, types, kind == "instruction"
                         and entry.get_bit("fastMath"), flags)]


# The `.td` class of each kind of lowering rule, and the field that names what it applies.
_LOWERING_CLASSES = {
    "instruction": ("Instruction", "instruction"), "cast": ("CastInstruction", "cast"),
    "intrinsic": ("Intrinsic", "intrinsic"), "call": ("Call", "symbol"),
    "library": ("LibraryCall", "librarySymbol"), "function_hook": ("FunctionHook", "functionHook"),
    "op_hook": ("OpHook", "opHook"),
}


def _trait_class(trait: Record) -> str:
    for name in ("TypesMatchWith", "OptionalTypesMatchWith", "AllTypesMatch"):
        if trait.isa(name) or trait.name == name:
            return name
    return "PredOpTrait"


def _pass_class_name(def_name: str) -> str:
    base = def_name.split("_", 1)[1] if "_" in def_name else def_name
    base = base[0].upper() + base[1:]
    return base if base.endswith("Pass") else base + "Pass"


def _python_literal(text: str) -> str:
    """Defaults in MLIR's files are C++ literals; map the few that differ from Python."""
    return {"true": "True", "false": "False", "nullptr": "None", "{}": "None"}.get(
        text.strip(), text.strip())


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(str(text)).strip("\n")


def build_model(records: RecordKeeper) -> Model:
    """Check the records and return the model the backends render."""
    return ModelBuilder(records).build()
