"""Type inference for formats and builders, from traits and buildable types."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import OpModel
from ..predicates import substitute


@dataclass
class InferenceRules:
    """What an op's traits and constraints say about its operand and result types."""

    same_all: list[str]
    groups: list[list[str]]
    derived: list[tuple[str, str, str]]  # (lhs, rhs, transformer with $_self)
    builders: dict[str, str]


def inference_rules(op: OpModel) -> InferenceRules:
    """Collect the type-equality facts that builders and parsers use to infer types."""
    single = [g.name for g in [*op.operands, *op.results] if g.kind != "variadic"]
    same_all = single if op.has_trait("SameOperandsAndResultType") else []
    groups = []
    derived = []
    for trait in op.traits:
        if trait.name == "AllTypesMatch":
            groups.append(list(trait.values))
        elif trait.name in ("TypesMatchWith", "OptionalTypesMatchWith"):
            derived.append((trait.lhs, trait.rhs, trait.transformer))
    if op.has_trait("SameTypeOperands"):
        groups.append([o.name for o in op.operands if o.kind != "variadic"])
    builders = {g.name: g.constraint.builder for g in op.operands if g.constraint.builder}
    builders.update({g.name: g.constraint.builder for g in op.results
                     if g.constraint.builder and g.kind != "variadic"})
    return InferenceRules(same_all, groups, derived, builders)


def infer_one(name: str, rules: InferenceRules, known: dict[str, str]) -> str | None:
    """An expression for the type of `name` from the `known` ones, or None."""
    if name in rules.builders:
        return rules.builders[name]
    if name in rules.same_all:
        for other in rules.same_all:
            if other in known:
                return known[other]
    for group in rules.groups:
        if name in group:
            for other in group:
                if other in known:
                    return known[other]
    for lhs, rhs, transformer in rules.derived:
        if rhs == name and lhs in known:
            return "(" + substitute(transformer, {"_self": known[lhs]}) + ")"
        if lhs == name and rhs in known and transformer.strip() == "$_self":
            return known[rhs]  # an identity transform works both ways
    return None
