"""Generating an op's `print` method and `parse` classmethod from its format elements."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import AttributeModel, OpModel, Operand
from ..predicates import substitute
from .elements import (
    AttrDict, Element, FormatParser, FunctionalType, Group, Literal, Operands, Regions, Results,
    Successors, TypeOf, Var, walk,
)
from .inference import infer_one, inference_rules

_WRITE = re.compile(r"^(\s*)printer\.write\(('[^'\\]*'|\"[^\"\\]*\")\)$")


def _merge_writes(lines: list[str]) -> list[str]:
    """Join consecutive `printer.write("...")` of literals at the same indentation."""
    out: list[str] = []
    for line in lines:
        match = _WRITE.match(line)
        previous = _WRITE.match(out[-1]) if out else None
        if match and previous and match.group(1) == previous.group(1):
            text = eval(previous.group(2)) + eval(match.group(2))  # noqa: S307 - literals only
            out[-1] = f"{match.group(1)}printer.write({text!r})"
        else:
            out.append(line)
    return out


def punct_space_before(text: str, last_was_punct: bool) -> bool:
    """MLIR's rule for whether a space goes before a literal."""
    if len(text) != 1 and text != "->":
        return True
    if last_was_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


@dataclass
class _Emit:
    lines: list[str]
    indent: int = 2

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)


class FormatGenerator:
    """Generates `print` and `parse` for one op's format and checks that it is complete."""

    def __init__(self, op: OpModel, elements: list[Element]) -> None:
        self.op = op
        self.elements = elements
        self.error = lambda message: FormatParser(op).error(message, 0)
        self.operands = {o.name: o for o in op.operands}
        self.results = {r.name: r for r in op.results}
        self.attrs = {a.name: a for a in op.attributes}
        self.check()

    # -- checks and type inference -------------------------------------------------------------

    def check(self) -> None:
        walked = walk(self.elements)
        top_vars = [e for e in walked if isinstance(e, Var)]
        # Vars that appear as values (not inside type directives).
        value_vars = {v.name for v in self._value_vars(self.elements)}
        has = {type(e) for e in walked}
        if not any(isinstance(e, AttrDict) for e in walked):
            raise self.error("the format needs an 'attr-dict' directive")
        if Operands not in has or not any(
            isinstance(e, Operands) for e in self._value_elements(self.elements)
        ):
            for operand in self.op.operands:
                if operand.name not in value_vars:
                    raise self.error(f"the format omits the operand '${operand.name}'")
        if Regions not in has:
            for region in self.op.regions:
                if region.name not in value_vars:
                    raise self.error(f"the format omits the region '${region.name}'")
        if Successors not in has:
            for succ in self.op.successors:
                if succ.name not in value_vars:
                    raise self.error(f"the format omits the successor '${succ.name}'")
        for var in top_vars:
            if var.kind == "result" and var.name in value_vars:
                raise self.error(f"the result '${var.name}' can only appear in 'type(...)'")
        self.type_sources = self._type_sources()
        self.inferred = self._infer()
        # Attributes whose type gives an operand's or result's (arith.constant's `$value`):
        # they are parsed as attributes with a type.
        self.typed_attributes = {
            var.name for var in self._value_vars(self.elements) if var.kind == "attribute"
            and any(f"attrs[{var.name!r}].type" in expr for expr in self.inferred.values())}
        transformed = {rhs for _, rhs, transformer in inference_rules(self.op).derived
                       if transformer.strip() != "$_self"}
        self.derived = [name for name in self.inferred if name in transformed]

    def _value_elements(self, elements: list) -> list:
        out = []
        for element in elements:
            if isinstance(element, Group):
                out += self._value_elements(element.elements + element.else_elements)
            elif not isinstance(element, (TypeOf, FunctionalType)):
                out.append(element)
        return out

    def _value_vars(self, elements: list) -> list[Var]:
        return [e for e in self._value_elements(elements) if isinstance(e, Var)]

    def _type_sources(self) -> set[str]:
        """Names of operands and results whose types the format spells out."""
        names: set[str] = set()
        for element in walk(self.elements):
            args = []
            if isinstance(element, TypeOf):
                args = [element.arg]
            elif isinstance(element, FunctionalType):
                args = [element.inputs, element.outputs]
            for arg in args:
                if isinstance(arg, Var):
                    names.add(arg.name)
                elif isinstance(arg, Operands):
                    names |= set(self.operands)
                else:
                    names |= set(self.results)
        return names

    def _infer(self) -> dict[str, str]:
        """For each operand/result whose type the format lacks, a Python expression for it."""
        known = {n: f"types[{n!r}][0]" for n in self.type_sources}
        # A typed attribute in the format (arith.constant's `$value`) gives its type.
        for var in self._value_vars(self.elements):
            if var.kind == "attribute":
                known.setdefault(var.name, f"attrs[{var.name!r}].type")
        inferred: dict[str, str] = {}
        todo = [n for n in [*self.operands, *self.results] if n not in known]
        rules = inference_rules(self.op)
        progress = True
        while todo and progress:
            progress = False
            for name in list(todo):
                expr = infer_one(name, rules, known)
                if expr is not None:
                    known[name] = inferred[name] = expr
                    todo.remove(name)
                    progress = True
        if todo:
            name = todo[0]
            group = self.operands.get(name) or self.results[name]
            what = "operand" if name in self.operands else "result"
            raise self.error(f"the type of the {what} '${name}' can neither be parsed nor "
                             f"inferred: add 'type(${name})' to the format")
        for name in inferred:
            group = self.operands.get(name) or self.results.get(name)
            if group.kind == "variadic" and name in self.results:
                raise self.error(f"the types of the variadic result '${name}' must be in the "
                                 "format")
        return inferred

    # -- printer -------------------------------------------------------------------------------

    def printer(self) -> list[str]:
        lines = ["    def print(self, printer: Printer) -> None:"]
        emit = _Emit(lines)
        state = {"space": True, "punct": False}
        self._print_elements(self.elements, emit, state)
        return _merge_writes(lines)

    def _print_elements(self, elements: list, emit: _Emit, state: dict) -> None:
        for element in elements:
            self._print_element(element, emit, state)

    def _space(self, emit: _Emit, state: dict) -> None:
        if state["space"]:
            emit('printer.write(" ")')

    def _print_element(self, element: Element, emit: _Emit, state: dict) -> None:
        if isinstance(element, Literal):
            text = element.text
            space = state["space"] and punct_space_before(text, state["punct"])
            emit(f"printer.write({(' ' if space else '') + text!r})")
            state["space"] = len(text) != 1 or text not in "<({["
            state["punct"] = not (text[0] == "_" or text[0].isalpha())
            return
        if isinstance(element, AttrDict):
            elided = {v.name for v in walk(self.elements)
                      if isinstance(v, Var) and v.kind == "attribute"}
            for trait, attr in (("AttrSizedOperandSegments", "operandSegmentSizes"),
                                ("AttrSizedResultSegments", "resultSegmentSizes")):
                if self.op.has_trait(trait):
                    elided.add(attr)
            elided = sorted(elided)
            method = "print_attr_dict_with_keyword" if element.with_keyword else "print_attr_dict"
            defaults = [a for a in self.op.attributes
                        if a.default is not None and a.name not in elided]
            extra = " + self.attributes_at_default()" if defaults else ""
            emit(f"printer.{method}(self.all_attributes(), {tuple(elided)!r}{extra})")
            state["space"], state["punct"] = True, False
            return
        if isinstance(element, Group):
            emit(f"if {self._group_condition(element)}:")
            emit.indent += 1
            self._print_elements(element.elements, emit, dict(state))
            emit.indent -= 1
            if element.else_elements:
                emit("else:")
                emit.indent += 1
                self._print_elements(element.else_elements, emit, dict(state))
                emit.indent -= 1
            state["space"], state["punct"] = True, False
            return
        if isinstance(element, Var) and element.kind == "attribute" and self.attrs[
                element.name].py_type == "bool" and self.attrs[element.name].return_value == "True":
            return  # a unit attribute anchors its group and prints nothing itself
        self._space(emit, state)
        state["space"], state["punct"] = True, False
        if isinstance(element, Var):
            self._print_var(element, emit)
        elif isinstance(element, Operands):
            emit("printer.print_operands(self.operands)")
        elif isinstance(element, Regions):
            emit("for region in self.regions:")
            emit("    printer.print_region(region)")
        elif isinstance(element, Successors):
            emit("printer.write(', '.join(printer.block_name(b) for b in self.successors))")
        elif isinstance(element, TypeOf) and self._is_single(element.arg):
            emit(f"printer.print_type(self.{self._group(element.arg).accessor}.type)")
        elif isinstance(element, TypeOf):
            emit(f"printer.print_types({self._types_expr(element.arg)})")
        elif isinstance(element, FunctionalType):
            emit(f"printer.print_functional_type({self._types_expr(element.inputs)}, "
                 f"{self._types_expr(element.outputs)})")

    def _print_var(self, var: Var, emit: _Emit) -> None:
        op = self.op
        if var.kind == "operand":
            operand = self.operands[var.name]
            if operand.kind == "single":
                emit(f"printer.print_operand(self.{operand.accessor})")
            elif operand.kind == "optional" and var.anchor:
                emit(f"printer.print_operand(self.{operand.accessor})")
            elif operand.kind == "optional":
                emit(f"if self.{operand.accessor} is not None:")
                emit(f"    printer.print_operand(self.{operand.accessor})")
            else:
                emit(f"printer.print_operands(self.{operand.accessor})")
        elif var.kind == "attribute":
            attr = self.attrs[var.name]
            expr = f"self.properties.get({attr.name!r})"
            if attr.asm_printer:
                code = substitute(attr.asm_printer, {"_self": "attr", "_printer": "printer"})
                emit(f"attr = {expr}")
                emit("if attr is not None:")
                emit(f"    {code}")
            elif attr.value_type:
                emit(f"printer.print_attribute_without_type({expr})")
            else:
                emit(f"printer.print_attribute({expr})")
        elif var.kind == "region":
            region = next(r for r in op.regions if r.name == var.name)
            index = op.regions.index(region)
            if region.variadic:
                emit(f"for region in self.regions[{index}:]:")
                emit("    printer.print_region(region)")
            else:
                emit(f"printer.print_region(self.regions[{index}])")
        else:
            succ = next(s for s in op.successors if s.name == var.name)
            if succ.variadic:
                emit(f"printer.write(', '.join(printer.block_name(b) for b in "
                     f"self.{succ.accessor}))")
            else:
                emit(f"printer.print_successor(self.{succ.accessor})")

    def _types_expr(self, arg: Var | Operands | Results) -> str:
        if isinstance(arg, Operands):
            return "[v.type for v in self.operands]"
        if isinstance(arg, Results):
            return "[v.type for v in self.results]"
        group = self.operands.get(arg.name) if arg.kind == "operand" else self.results[arg.name]
        accessor = group.accessor if arg.kind == "operand" else group.accessor
        if group.kind == "single":
            return f"[self.{accessor}.type]"
        if group.kind == "optional":
            return f"[v.type for v in (self.{accessor},) if v is not None]"
        return f"[v.type for v in self.{accessor}]"

    def _group_condition(self, group: Group) -> str:
        anchor = group.anchor()
        var = anchor.arg if isinstance(anchor, TypeOf) else anchor
        if isinstance(var, (Operands, Results)):
            return "self.operands" if isinstance(var, Operands) else "self.results"
        if var.kind == "operand":
            operand = self.operands[var.name]
            return (f"self.{operand.accessor} is not None" if operand.kind == "optional"
                    else f"len(self.{operand.accessor}) > 0" if operand.kind == "variadic"
                    else "True")
        if var.kind == "result":
            result = self.results[var.name]
            return (f"self.{result.accessor} is not None" if result.kind == "optional"
                    else f"len(self.{result.accessor}) > 0")
        if var.kind == "attribute":
            return f"self.properties.get({var.name!r}) is not None"
        if var.kind == "region":
            index = [r.name for r in self.op.regions].index(var.name)
            return f"self.regions[{index}].blocks"
        succ = next(s for s in self.op.successors if s.name == var.name)
        return f"self.{succ.accessor}"

    # -- parser --------------------------------------------------------------------------------

    def parser(self) -> list[str]:
        op = self.op
        lines = ["    @classmethod", "    def parse(cls, parser: Parser) -> Operation:"]
        emit = _Emit(lines)
        if self.derived:
            emit("start = parser.i")
        for operand in op.operands:
            emit(f"u_{operand.name}: list = []")
        emit("types: dict[str, list] = {}")
        emit("attrs: dict[str, Attribute] = {}")
        if op.regions:
            emit("regions: dict[str, list] = {}")
        if op.successors:
            emit("successors: dict[str, list] = {}")
        self._parse_elements(self.elements, emit)
        self._parse_finish(emit)
        return lines

    def _parse_elements(self, elements: list, emit: _Emit) -> None:
        for element in elements:
            self._parse_element(element, emit)

    def _parse_element(self, element: Element, emit: _Emit) -> None:
        if isinstance(element, Literal):
            method = "parse_keyword" if element.is_keyword else "parse_punct"
            emit(f"parser.{method}({element.text!r})")
        elif isinstance(element, AttrDict):
            method = ("parse_optional_attr_dict_with_keyword" if element.with_keyword
                      else "parse_optional_attr_dict")
            emit(f"attrs.update(parser.{method}())")
        elif isinstance(element, Group):
            self._parse_group(element, emit)
        elif isinstance(element, Var):
            self._parse_var(element, emit)
        elif isinstance(element, Operands):
            emit("u_all = parser.parse_operand_list()")
            self._split_all_operands(emit)
        elif isinstance(element, Regions):
            emit("regions['*'] = []")
            emit("while (region := parser.parse_optional_region()) is not None:")
            emit("    regions['*'].append(region)")
        elif isinstance(element, Successors):
            emit("successors['*'] = parse_successor_list(parser)")
        elif isinstance(element, TypeOf):
            self._parse_types_into(element.arg, "parse_type_group(parser, "
                                   f"{self._is_single(element.arg)})", emit)
        elif isinstance(element, FunctionalType):
            emit("ins, outs = parser.parse_functional_type()")
            self._parse_types_into(element.inputs, "ins", emit)
            self._parse_types_into(element.outputs, "outs", emit)

    def _group(self, var: Var) -> Operand:
        return self.operands.get(var.name) or self.results[var.name]

    def _is_single(self, arg: Var | Operands | Results) -> bool:
        if isinstance(arg, Var):
            group = self.operands.get(arg.name) or self.results[arg.name]
            return group.kind == "single"
        return False

    def _split_all_operands(self, emit: _Emit) -> None:
        operands = self.op.operands
        if sum(o.kind != "single" for o in operands) > 1:
            raise self.error("'operands' cannot split several variadic or optional operands; "
                             "name them one by one")
        targets = "".join(f"u_{o.name}, " for o in operands)
        kinds = "".join(f"{o.kind!r}, " for o in operands)
        emit(f"({targets}) = split_groups(u_all, ({kinds}))")

    def _parse_types_into(self, arg: Var | Operands | Results, expr: str, emit: _Emit) -> None:
        if isinstance(arg, Var):
            emit(f"types[{arg.name!r}] = {expr}")
        else:
            key = "*operands" if isinstance(arg, Operands) else "*results"
            emit(f"types[{key!r}] = {expr}")

    def _parse_var(self, var: Var, emit: _Emit, optional: bool = False) -> None:
        if var.kind == "operand":
            operand = self.operands[var.name]
            if operand.kind == "variadic":
                emit(f"u_{var.name}.extend(parser.parse_operand_list())")
            else:
                emit(f"u_{var.name}.append(parser.parse_operand())")
        elif var.kind == "attribute":
            attr = self.attrs[var.name]
            if attr.py_type == "bool" and attr.return_value == "True":
                emit(f"attrs[{var.name!r}] = UnitAttr()")
            else:
                typed = var.name in self.typed_attributes
                emit(f"attrs[{var.name!r}] = {_attr_parse_expr(attr, typed=typed)}")
        elif var.kind == "region":
            emit(f"regions[{var.name!r}] = [{self._region_expr('parser.parse_region()')}]")
        else:
            emit(f"successors[{var.name!r}] = [parser.parse_successor()]")

    def _parse_group(self, group: Group, emit: _Emit) -> None:
        first = group.elements[0]
        rest = group.elements[1:]
        if isinstance(first, Literal):
            method = "parse_optional_keyword" if first.is_keyword else "parse_optional_punct"
            emit(f"if parser.{method}({first.text!r}):")
        elif isinstance(first, Var) and first.kind == "operand":
            emit("operand = parser.parse_optional_operand()")
            emit("if operand is not None:")
            rest = [("operand", first)] + rest
        elif isinstance(first, Var) and first.kind == "attribute":
            attr = self.attrs[first.name]
            emit(f"attr = {_attr_parse_expr(attr, optional=True)}")
            emit("if attr is not None:")
            rest = [("attribute", first)] + rest
        elif isinstance(first, Var) and first.kind == "region":
            emit("region = parser.parse_optional_region()")
            emit("if region is not None:")
            rest = [("region", first)] + rest
        elif isinstance(first, Var) and first.kind == "successor":
            emit("block = parser.parse_optional_successor()")
            emit("if block is not None:")
            rest = [("successor", first)] + rest
        elif isinstance(first, TypeOf):
            emit("type_ = parser.parse_optional_type()")
            emit("if type_ is not None:")
            rest = [("type", first)] + rest
        else:
            raise self.error("an optional group must start with a literal, a variable or a "
                             "type directive")
        emit.indent += 1
        for element in rest:
            if isinstance(element, tuple):
                self._parse_first_value(element, emit)
            else:
                self._parse_element(element, emit)
        emit.indent -= 1
        if group.else_elements:
            emit("else:")
            emit.indent += 1
            self._parse_elements(group.else_elements, emit)
            emit.indent -= 1

    def _parse_first_value(self, item: tuple[str, Var | TypeOf], emit: _Emit) -> None:
        kind, element = item
        if kind == "operand":
            operand = self.operands[element.name]
            emit(f"u_{element.name}.append(operand)")
            if operand.kind == "variadic":
                emit("while parser.parse_optional_punct(','):")
                emit(f"    u_{element.name}.append(parser.parse_operand())")
        elif kind == "attribute":
            emit(f"attrs[{element.name!r}] = attr")
        elif kind == "region":
            emit(f"regions[{element.name!r}] = [{self._region_expr('region')}]")
        elif kind == "successor":
            emit(f"successors[{element.name!r}] = [block]")
        else:
            arg = element.arg
            if self._is_single(arg):
                self._parse_types_into(arg, "[type_]", emit)
            else:
                self._parse_types_into(arg, "[type_] + parse_more_types(parser)", emit)

    def _parse_finish(self, emit: _Emit) -> None:
        op = self.op
        # Types given by `type(operands)`/`type(results)` are split per group by count.
        if "*operands" in self._type_keys():
            counts = _tuple([f"len(u_{o.name})" for o in op.operands])
            names = _tuple([repr(o.name) for o in op.operands])
            emit(f"types.update(zip({names}, split_counts(types.pop('*operands'), {counts})))")
        if "*results" in self._type_keys():
            kinds = _tuple([repr(r.kind) for r in op.results])
            names = _tuple([repr(r.name) for r in op.results])
            emit(f"types.update(zip({names}, split_groups(types.pop('*results'), {kinds})))")
        if self.derived:
            # A trait's type transform may not apply to a wrongly typed input: say so at the op.
            emit("try:")
            emit.indent += 1
        for name, expr in self.inferred.items():
            if name in self.operands:
                emit(f"types[{name!r}] = [{expr}] * len(u_{name})")
            else:
                emit(f"types[{name!r}] = [{expr}]")
        if self.derived:
            emit.indent -= 1
            emit("except (AttributeError, TypeError, ValueError, IndexError):")
            names = ", ".join(f"'${n}'" for n in self.derived)
            emit(f"    parser.error({f'cannot infer the type of {names} from the types given'!r}, "
                 "start)")
        operand_names = [o.name for o in op.operands]
        if operand_names:
            unresolved = " + ".join(f"u_{n}" for n in operand_names)
            typed = " + ".join(self._types_of(n) for n in operand_names)
            emit(f"operands = parser.resolve_operands({unresolved}, {typed})")
        else:
            emit("operands = []")
        result_types = " + ".join(self._types_of(r.name) for r in op.results) or "[]"
        emit(f"result_types = {result_types}")
        if op.has_trait("AttrSizedOperandSegments"):
            sizes = ", ".join(f"len(u_{n})" for n in operand_names)
            emit(f"attrs['operandSegmentSizes'] = DenseArrayAttr(i32, ({sizes},))")
        if op.has_trait("AttrSizedResultSegments"):
            sizes = ", ".join(f"len({self._types_of(r.name)})" for r in op.results)
            emit(f"attrs['resultSegmentSizes'] = DenseArrayAttr(i32, ({sizes},))")
        if op.regions:
            parts = " + ".join(f"regions.get({r.name!r}, [])" for r in op.regions)
            if any(isinstance(e, Regions) for e in walk(self.elements)):
                parts = "regions['*']"
            emit(f"region_list = {parts}")
        if op.successors:
            parts = " + ".join(f"successors.get({s.name!r}, [])" for s in op.successors)
            if any(isinstance(e, Successors) for e in walk(self.elements)):
                parts = "successors['*']"
            emit(f"successor_list = {parts}")
        emit("properties, attributes = cls.split_attributes(attrs)")
        emit("return cls.create(")
        emit("    cls.OPERATION_NAME, operands=operands, result_types=result_types,")
        emit("    properties=properties, attributes=attributes,")
        emit(f"    regions={'region_list' if op.regions else 0},")
        emit(f"    successors={'successor_list' if op.successors else '()'},")
        emit(")")

    def _region_expr(self, expr: str) -> str:
        if self.op.has_trait("SingleBlock") and self.op.has_trait("NoTerminator"):
            return f"ensure_entry_block({expr})"
        return expr

    def _types_of(self, name: str) -> str:
        """The parsed types of a group; groups inside optional groups may have none."""
        group = self.operands.get(name) or self.results[name]
        return f"types[{name!r}]" if group.kind == "single" else f"types.get({name!r}, [])"

    def _type_keys(self) -> set[str]:
        keys = set()
        for element in walk(self.elements):
            args = [element.arg] if isinstance(element, TypeOf) else (
                [element.inputs, element.outputs] if isinstance(element, FunctionalType) else [])
            for arg in args:
                if isinstance(arg, Operands):
                    keys.add("*operands")
                elif isinstance(arg, Results):
                    keys.add("*results")
        return keys


def _tuple(items: list[str]) -> str:
    """The Python tuple of the expressions ``items``: ``(a,)``, ``(a, b,)``, or ``()``."""
    return f"({', '.join(items)},)" if items else "()"


def _attr_parse_expr(attr: AttributeModel, optional: bool = False, typed: bool = False) -> str:
    """The expression that parses ``attr`` (None when ``optional`` and absent); ``typed``: it
    must be an attribute with a type, which the parser checks."""
    if attr.asm_parser:
        expr = substitute(attr.asm_parser, {"_parser": "parser"})
        return f"parse_optional(parser, lambda: {expr})" if optional else expr
    method = ("parse_optional_attribute" if optional else
              "parse_typed_attribute" if typed else "parse_attribute")
    if attr.value_type:
        return f"parser.{method}(type={attr.value_type})"
    return f"parser.{method}()"


def generate_format(op: OpModel) -> tuple[list[str], list[str]]:
    """Return the lines of the `print` method and of the `parse` classmethod for `op`."""
    elements = FormatParser(op).parse()
    generator = FormatGenerator(op, elements)
    return generator.printer(), generator.parser()
