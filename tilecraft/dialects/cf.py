"""Hooks of the cf dialect: branch operands must match the successor's block arguments."""

from __future__ import annotations

from tilecraft.ir.ods import implements

from . import generated_module

gen = generated_module(__name__, "cf")


def verify_successor_operands(op, number: int, operands) -> None:
    """MLIR's check of a branch: the values passed to successor ``number`` match its block's
    arguments in number and type."""
    block = op.successors[number]
    args = block.arguments
    if len(operands) != len(args):
        raise op.emit_error(f"branch has {len(operands)} operands for successor #{number}, but "
                            f"target block has {len(args)}")
    for index, (value, arg) in enumerate(zip(operands, args)):
        if value.type is not arg.type:
            raise op.emit_error(f"type mismatch for bb argument #{index} of successor #{number}")


@implements(gen.BranchOp)
def custom_verify(self) -> None:
    verify_successor_operands(self, 0, self.dest_operands)


@implements(gen.CondBranchOp)
def custom_verify(self) -> None:  # noqa: F811 - one hook per class
    verify_successor_operands(self, 0, self.true_dest_operands)
    verify_successor_operands(self, 1, self.false_dest_operands)
