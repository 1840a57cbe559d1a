"""The op backend: the Python source of each op class (accessors, builder, verifier, format).

Every function here is a pure function of the model and returns lines of Python; the dialect
backend assembles them into a module with the jinja2 template `dialect.py.j2`.
"""

from __future__ import annotations

from ..asmformat import InferenceRules, generate_format, infer_one, inference_rules
from ..model import AttributeModel, OpModel, Operand, snake_case
from ..predicates import substitute


class ConstraintTable:
    """Deduplicated module-level constraint functions, like MLIR's local type constraints."""

    def __init__(self) -> None:
        self.functions: dict[tuple[str, str], tuple[str, str]] = {}

    def function(self, kind: str, pred: str) -> str:
        """The name of the function checking `pred` (substituted now, so that an unknown
        placeholder is reported while the op using it is rendered)."""
        key = (kind, pred)
        if key not in self.functions:
            arg = {"type": "type_", "attr": "attr", "region": "region"}[kind]
            self.functions[key] = (f"_{kind}_constraint_{len(self.functions)}",
                                   substitute(pred, {"_self": arg}))
        return self.functions[key][0]

    def lines(self) -> list[str]:
        out = []
        for (kind, _), (name, body) in self.functions.items():
            arg = {"type": "type_", "attr": "attr", "region": "region"}[kind]
            out += [f"def {name}({arg}) -> bool:", f"    return bool({body})", "", ""]
        return out


def docstring_text(text: str) -> str:
    """``text`` written so that it reads back as itself inside a ``\"\"\"`` docstring:
    backslashes, quotes that would end the docstring and characters that are not printable
    (NUL, carriage returns, U+2028, ...) are escaped; newlines stay."""
    body = text.replace("\\", "\\\\").rstrip('"')
    text = body.replace('"""', '\\"\\"\\"') + '\\"' * (len(text) - len(text.rstrip('"')))
    if all(char.isprintable() or char == "\n" for char in text):
        return text
    return "".join(char if char.isprintable() or char == "\n" else repr(char)[1:-1]
                   for char in text)


def _docstring(summary: str, description: str, indent: str = "    ",
               fallback: str = "An operation.") -> list[str]:
    text = summary.strip() or fallback
    if description.strip():
        text += "\n\n" + description.strip()
    lines = docstring_text(text).split("\n")
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    return [f'{indent}"""{lines[0]}'] + [f"{indent}{l}".rstrip() for l in lines[1:]] + [
        f'{indent}"""']


def _static_index(groups: list[Operand], index: int) -> int | None:
    """The fixed position of group `index` when every group before it is a single value."""
    if all(g.kind == "single" for g in groups[:index]):
        return index
    return None


def _group_accessor(kind: str, groups: list[Operand], index: int) -> list[str]:
    group = groups[index]
    fixed = _static_index(groups, index)
    annotation = {"single": "Value", "optional": "Value | None", "variadic": "list[Value]"}
    lines = ["    @property", f"    def {group.accessor}(self) -> {annotation[group.kind]}:"]
    if group.kind == "single" and fixed is not None:
        access = f"get_operand({fixed})" if kind == "operand" else f"results[{fixed}]"
        lines.append(f"        return self.{access}")
    elif group.kind == "single":
        lines.append(f"        return self.{kind}_group({index})[0]")
    elif group.kind == "optional":
        lines += [f"        group = self.{kind}_group({index})",
                  "        return group[0] if group else None"]
    else:
        lines.append(f"        return self.{kind}_group({index})")
    return lines + [""]


def _attr_accessor(attr: AttributeModel) -> list[str]:
    value = substitute(attr.return_value, {"_self": "attr"})
    fallback = attr.default if attr.default is not None else "None"
    annotation = attr.py_type if attr.required or attr.default is not None else (
        f"{attr.py_type} | None")
    return [
        "    @property",
        f"    def {attr.accessor}(self) -> {annotation}:",
        f"        attr = self.properties.get({attr.name!r})",
        f"        return {fallback} if attr is None else {value}",
        "",
        "    @property",
        f"    def {attr.accessor}_attr(self) -> Attribute | None:",
        f"        return self.properties.get({attr.name!r})",
        "",
    ]


def accessors(op: OpModel) -> list[str]:
    lines: list[str] = []
    for i in range(len(op.operands)):
        lines += _group_accessor("operand", op.operands, i)
    for i in range(len(op.results)):
        lines += _group_accessor("result", op.results, i)
    for attr in op.attributes:
        lines += _attr_accessor(attr)
    for i, region in enumerate(op.regions):
        ann, expr = ("list[Region]", f"self.regions[{i}:]") if region.variadic else (
            "Region", f"self.regions[{i}]")
        lines += ["    @property", f"    def {region.accessor}(self) -> {ann}:",
                  f"        return {expr}", ""]
    if (op.has_trait("SingleBlock") and len(op.regions) == 1 and not op.regions[0].variadic
            and all(item.accessor != "body" for item in [*op.operands, *op.results,
                                                         *op.attributes, *op.regions])):
        lines += ["    @property", "    def body(self) -> Block:",
                  '        """The single block of the op\'s region."""',
                  "        return self.regions[0].blocks[0]", ""]
    for i, succ in enumerate(op.successors):
        ann, expr = ("list[Block]", f"list(self.successors[{i}:])") if succ.variadic else (
            "Block", f"self.successors[{i}]")
        lines += ["    @property", f"    def {succ.accessor}(self) -> {ann}:",
                  f"        return {expr}", ""]
    return lines


def builder_inferred_results(op: OpModel) -> dict[str, str]:
    """Results whose types `build` infers, with the expression it uses (in `build`'s scope)."""
    rules = inference_rules(op)
    known = {o.name: f"{o.accessor}.type" for o in op.operands if o.kind == "single"}
    known.update({a.name: f"properties[{a.name!r}].type" for a in op.attributes if a.required})
    inferred: dict[str, str] = {}
    for result in op.results:
        if result.kind == "single":
            expr = _infer_from(result.name, rules, known)
            if expr is not None:
                inferred[result.name] = expr
    return inferred


def type_param(result: Operand) -> str:
    """The builder parameter for a result's type: `result_type` for a result named `result`."""
    return f"{snake_case(result.name)}_type"


def builder(op: OpModel) -> list[str]:
    """A `build` classmethod: operands as Values, attributes as Python values, inferred types."""
    inferred = builder_inferred_results(op)
    required: list[str] = []
    defaulted: list[str] = []
    for result in op.results:
        if result.name in inferred:
            defaulted.append(f"{type_param(result)}: Type | None = None")
        elif result.kind == "variadic":
            required.append(f"{type_param(result)}s: Sequence[Type]")
        elif result.kind == "optional":
            defaulted.append(f"{type_param(result)}: Type | None = None")
        else:
            required.append(f"{type_param(result)}: Type")
    for operand in op.operands:
        if operand.kind == "single":
            required.append(f"{operand.accessor}: Value")
        elif operand.kind == "optional":
            defaulted.append(f"{operand.accessor}: Value | None = None")
        else:
            defaulted.append(f"{operand.accessor}: Sequence[Value] = ()")
    for attr in op.attributes:
        if attr.required:
            required.append(f"{attr.accessor}: {attr.py_type} | Attribute")
        else:
            defaulted.append(f"{attr.accessor}: {attr.py_type} | Attribute | None = None")
    for succ in op.successors:
        required.append(f"{succ.accessor}: Sequence[Block]" if succ.variadic
                        else f"{succ.accessor}: Block")
    for region in op.regions:
        if region.variadic:
            defaulted.append(f"num_{region.accessor}: int = 0")
    params = ["cls", *required, *defaulted, "*", "attributes: dict[str, Attribute] | None = None",
              "location: Location | None = None"]
    lines = ["    @classmethod"]
    header = f"    def build({', '.join(params)}) -> {op.class_name}:"
    if len(header) <= 100:
        lines.append(header)
    else:
        lines += ["    def build(", *[f"        {p}," for p in params],
                  f"    ) -> {op.class_name}:"]
    lines += [
        f'        """Create a `{op.full_name}` op; results whose types the traits determine '
        'may be omitted."""',
    ]
    operand_terms = []
    for operand in op.operands:
        operand_terms.append(
            f"[{operand.accessor}]" if operand.kind == "single" else
            f"([] if {operand.accessor} is None else [{operand.accessor}])"
            if operand.kind == "optional" else f"list({operand.accessor})")
    lines.append(f"        operands = {' + '.join(operand_terms) or '[]'}")
    lines.append("        properties: dict[str, Attribute] = {}")
    for attr in op.attributes:
        build = substitute(attr.build_value, {"_value": attr.accessor})
        indent = "        "
        if not attr.required:
            lines.append(f"        if {attr.accessor} is not None:")
            indent += "    "
        lines.append(f"{indent}properties[{attr.name!r}] = ({attr.accessor} if "
                     f"isinstance({attr.accessor}, Attribute) else {build})")
    result_terms = []
    for result in op.results:
        if result.name in inferred:
            lines.append(f"        if {type_param(result)} is None:")
            lines.append(f"            {type_param(result)} = {inferred[result.name]}")
            result_terms.append(f"[{type_param(result)}]")
        elif result.kind == "variadic":
            result_terms.append(f"list({type_param(result)}s)")
        elif result.kind == "optional":
            result_terms.append(
                f"([] if {type_param(result)} is None else [{type_param(result)}])")
        else:
            result_terms.append(f"[{type_param(result)}]")
    lines.append(f"        result_types = {' + '.join(result_terms) or '[]'}")
    if op.has_trait("AttrSizedOperandSegments"):
        sizes = ", ".join(f"len({t})" for t in operand_terms)
        lines.append(f"        properties['operandSegmentSizes'] = DenseArrayAttr(i32, ({sizes},))")
    if op.has_trait("AttrSizedResultSegments"):
        sizes = ", ".join(f"len({t})" for t in result_terms)
        lines.append(f"        properties['resultSegmentSizes'] = DenseArrayAttr(i32, ({sizes},))")
    fixed_regions = sum(1 for r in op.regions if not r.variadic)
    variadic_regions = " + ".join(f"num_{r.accessor}" for r in op.regions if r.variadic)
    regions = f"{fixed_regions} + {variadic_regions}" if variadic_regions else str(fixed_regions)
    successors = " + ".join(
        f"list({s.accessor})" if s.variadic else f"[{s.accessor}]" for s in op.successors) or "()"
    create = [
        "cls.create(",
        "    cls.OPERATION_NAME, operands=operands, result_types=result_types,",
        "    properties=properties, attributes=attributes,",
        f"    regions={regions}, successors={successors}, location=location,",
        ")",
    ]
    if op.has_trait("SingleBlock") and op.has_trait("NoTerminator") and op.regions:
        # Like MLIR's module, such an op starts with one empty block in each region.
        lines += [f"        op = {create[0]}", *[f"        {line}" for line in create[1:]],
                  "        for region in op.regions:", "            ensure_entry_block(region)",
                  "        return op", ""]
    else:
        lines += [f"        return {create[0]}", *[f"        {line}" for line in create[1:]],
                  ""]
    return lines


def _infer_from(name: str, rules: InferenceRules, known: dict[str, str]) -> str | None:
    known = dict(known)
    expr = infer_one(name, rules, known)
    if expr is None:
        # Chains such as operand -> result A -> result B.
        for _ in range(3):
            for other in [*rules.same_all, *sum(rules.groups, [])]:
                if other not in known:
                    found = infer_one(other, rules, known)
                    if found is not None:
                        known[other] = found
            expr = infer_one(name, rules, known)
            if expr is not None:
                break
    return expr


def verifier(op: OpModel, table: ConstraintTable) -> list[str]:
    """`verify_invariants`: attributes, operands, results, regions, successors, op predicates."""
    lines = ["    def verify_invariants(self) -> None:"]
    if all(g.kind == "single" for g in [*op.operands, *op.results]):
        # Fixed counts: check them cheaply, and let verify_groups word a mismatch.
        lines += [f"        if self.num_operands != {len(op.operands)} or "
                  f"self.num_results != {len(op.results)}:",
                  "            self.verify_groups()"]
    else:
        lines.append("        self.verify_groups()")
    for attr in op.attributes:
        fn = table.function("attr", attr.pred)
        lines.append(f"        attr = self.properties.get({attr.name!r})")
        if attr.required:
            lines += ["        if attr is None:",
                      f"            raise self.emit_error(\"requires attribute '{attr.name}'\")"]
        lines += [f"        if attr is not None and not {fn}(attr):",
                  f"            raise self.attribute_error({attr.name!r}, {attr.summary!r})"]
    for kind, groups in (("operand", op.operands), ("result", op.results)):
        for index, group in enumerate(groups):
            if group.constraint.pred == "(True)":
                continue
            fn = table.function("type", group.constraint.pred)
            fixed = _static_index(groups, index) if group.kind == "single" else None
            if fixed is not None:
                access = f"get_operand({fixed})" if kind == "operand" else f"results[{fixed}]"
                lines += [f"        value = self.{access}",
                          f"        if not {fn}(value.type):",
                          f"            raise self.type_error({kind!r}, value, "
                          f"{group.constraint.summary!r})"]
                continue
            lines += [f"        for value in self.{kind}_group({index}):",
                      f"            if not {fn}(value.type):",
                      f"                raise self.type_error({kind!r}, value, "
                      f"{group.constraint.summary!r})"]
    for index, region in enumerate(op.regions):
        if region.pred == "(True)":
            continue
        fn = table.function("region", region.pred)
        target = f"self.regions[{index}:]" if region.variadic else f"[self.regions[{index}]]"
        lines += [f"        for region in {target}:",
                  f"            if not {fn}(region):",
                  f"                raise self.region_error(region, {region.name!r}, "
                  f"{region.summary!r})"]
    for trait in op.traits:
        if trait.pred is None:
            continue
        pred = substitute(trait.pred, {"_op": "self"}, op_var="self")
        lines += [f"        if not ({pred}):",
                  f"            raise self.emit_error({('failed to verify that ' + trait.summary)!r})"]
    lines.append("")
    if "custom_verify_regions" in op.hooks:
        lines += ["    def verify_regions(self) -> None:", "        self.custom_verify_regions()",
                  ""]
    return lines


def op_class(op: OpModel, table: ConstraintTable) -> list[str]:
    """The whole class for `op`."""
    traits = [t.expr for t in op.traits if t.expr]
    lines = ["@DIALECT.op", f"class {op.class_name}(DefinedOp):"]
    lines += _docstring(op.summary, op.description, fallback=f"The `{op.full_name}` op.")
    lines += [
        "",
        f"    OPERATION_NAME = {op.full_name!r}",
        f"    TRAITS = ({''.join(t + ', ' for t in traits)})",
        f"    HOOKS = ({''.join(repr(h) + ', ' for h in _hooks(op))})",
        f"    PROPERTY_NAMES = ({''.join(repr(n) + ', ' for n in _property_names(op))})",
        *_default_valued(op),
        f"    OPERAND_GROUPS = ({''.join(repr(o.kind) + ', ' for o in op.operands)})",
        f"    RESULT_GROUPS = ({''.join(repr(r.kind) + ', ' for r in op.results)})",
        *_asm_result_names(op),
        "    __slots__ = ()",
        "",
    ]
    lines += accessors(op)
    lines += builder(op)
    lines += verifier(op, table)
    lines += canonicalization_patterns(op)
    if op.assembly_format is not None:
        printer, parser = generate_format(op)
        lines += printer + [""] + parser + [""]
    while lines[-1] == "":
        lines.pop()
    return lines


def _asm_result_names(op: OpModel) -> list[str]:
    """`ASM_RESULT_NAMES`, the names the printer gives the op's result groups (``%outLHS,
    %outRHS = tt.split``): as MLIR's ODS, for an op with several declared results that does not
    name them itself (no `OpAsmOpInterface` trait); empty otherwise."""
    if len(op.results) < 2 or op.has_trait("OpAsmOpInterface"):
        return []
    return [f"    ASM_RESULT_NAMES = ({''.join(repr(r.name) + ', ' for r in op.results)})"]


def _hooks(op: OpModel) -> list[str]:
    """`HOOKS`: the hand-written hooks `.td` declares, and `get_canonicalization_patterns`
    (generated) when the op has canonicalization patterns, which the canonicalizer collects."""
    if op.has_canonicalization_patterns:
        return [*op.hooks, "get_canonicalization_patterns"]
    return op.hooks


def canonicalization_patterns(op: OpModel) -> list[str]:
    """`get_canonicalization_patterns`: the `Pat`s applied by `canonicalize` at this op, then
    those of the hand-written `canonicalization_patterns` hook (`hasCanonicalizer`)."""
    if not op.has_canonicalization_patterns:
        return []
    lines = ["    @classmethod", "    def get_canonicalization_patterns(cls) -> list:",
             '        """The op\'s canonicalization patterns: its `Pat`s in .td, then its '
             'hook\'s."""']
    items = [f"_patterns_{stem}.{name}()" for stem, name in op.canonicalization_patterns]
    for stem in dict.fromkeys(stem for stem, _ in op.canonicalization_patterns):
        lines.append(f"        from tilecraft.generated.patterns import {stem} as _patterns_{stem}")
    if "canonicalization_patterns" in op.hooks:
        items.append("*cls.canonicalization_patterns()")
    lines += [f"        return [{', '.join(items)}]", ""]
    return lines


def _default_valued(op: OpModel) -> list[str]:
    """`DEFAULT_VALUED`: (attribute, accessor, default) of attributes with a default value, which
    custom formats leave out of the attribute dictionary when they hold their default."""
    entries = [f"({a.name!r}, {a.accessor!r}, {a.default}), " for a in op.attributes
               if a.default is not None]
    return [f"    DEFAULT_VALUED = ({''.join(entries)})"] if entries else []


def _property_names(op: OpModel) -> list[str]:
    names = [a.name for a in op.attributes]
    if op.has_trait("AttrSizedOperandSegments"):
        names.append("operandSegmentSizes")
    if op.has_trait("AttrSizedResultSegments"):
        names.append("resultSegmentSizes")
    return names
