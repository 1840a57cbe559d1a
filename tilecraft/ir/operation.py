"""Operations: the nodes of the IR.

An `Operation` has operands (uses of values), results, inherent attributes (``properties``,
printed ``<{...}>`` in generic form), discardable ``attributes`` (``{...}``), regions, successor
blocks and a location, and sits in a block's linked list. Op classes (generated from `.td`)
subclass it and set ``OPERATION_NAME``, ``TRAITS``, ``HOOKS`` and ``PROPERTY_NAMES``; they may
define ``verify_invariants(self)``, ``verify_regions(self)`` (run after the nested ops verified),
``print(self, printer)`` and ``classmethod parse(cls, parser)``. An op whose name has no
registered class is a plain `Operation` that keeps its name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable, Iterator

from tilecraft.ir.attributes import Attribute
from tilecraft.ir.block import Block, Region
from tilecraft.ir.errors import VerificationError
from tilecraft.ir.location import Location, UnknownLoc
from tilecraft.ir.types import Type
from tilecraft.ir.values import OpOperand, OpResult, Value

if TYPE_CHECKING:
    from tilecraft.ir.traits import Trait

_UNKNOWN = UnknownLoc()


#: (op class, trait) -> whether the class has the trait; op classes do not change their TRAITS.
_HAS_TRAIT: dict[tuple[type, type], bool] = {}


class Operation:
    """An operation; see the module docstring. Build one with `create` (or a `Builder`)."""

    __slots__ = (
        "name", "_operands", "results", "properties", "attributes", "regions", "successors",
        "location", "parent", "_prev", "_next", "_order",
    )
    OPERATION_NAME: ClassVar[str] = ""
    TRAITS: ClassVar[tuple[type[Trait], ...]] = ()
    HOOKS: ClassVar[tuple[str, ...]] = ()
    PROPERTY_NAMES: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        name: str,
        operands: Iterable[Value] = (),
        result_types: Iterable[Type] = (),
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: int | Iterable[Region] = 0,
        successors: Iterable[Block] = (),
        location: Location | None = None,
    ) -> None:
        properties = dict(properties) if properties else {}
        attributes = dict(attributes) if attributes else {}
        for table in (properties, attributes):
            for key, value in table.items():
                if not isinstance(value, Attribute):
                    raise TypeError(f"'{name}': attribute {key!r} = {value!r} is not an "
                                    "Attribute")
        self.name = name
        self.parent: Block | None = None
        self._prev: Operation | None = None
        self._next: Operation | None = None
        self.location = location if location is not None else _UNKNOWN
        self._operands = uses = []
        for index, value in enumerate(operands):
            if not isinstance(value, Value):
                raise TypeError(f"'{name}': operand {value!r} is not a Value")
            uses.append(OpOperand(self, index, value))
        results = []
        for index, type_ in enumerate(result_types):
            if not isinstance(type_, Type):
                for use in uses:
                    use.drop()
                raise TypeError(f"'{name}': result type {type_!r} is not a Type")
            results.append(OpResult(type_, self, index))
        self.results = tuple(results)
        self.properties = properties
        self.attributes = attributes
        if isinstance(regions, int):
            self.regions = tuple(Region(self) for _ in range(regions))
        else:
            self.regions = tuple(regions)
            for region in self.regions:
                if region.parent is not None:
                    raise ValueError(f"'{name}': a region given to create belongs to another op")
                region.parent = self
        self.successors = list(successors)

    @classmethod
    def create(
        cls,
        name: str,
        operands: Iterable[Value] = (),
        result_types: Iterable[Type] = (),
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: int | Iterable[Region] = 0,
        successors: Iterable[Block] = (),
        location: Location | None = None,
    ) -> Operation:
        """A new detached op of the class registered for ``name`` (a plain `Operation` when none
        is). ``regions`` is a number of empty regions to make, or regions to adopt."""
        if cls is not Operation and cls.OPERATION_NAME == name:
            klass = cls
        else:
            from tilecraft.ir.registry import lookup_op

            klass = lookup_op(name) or Operation
        op = object.__new__(klass)
        Operation.__init__(op, name, operands, result_types, properties, attributes, regions,
                           successors, location)
        return op

    @classmethod
    def has_trait(cls, trait: type[Trait]) -> bool:
        """Whether the op class has ``trait`` (or a trait derived from it) among its TRAITS
        (answered once per class and trait: analyses ask it of every op)."""
        key = (cls, trait)
        found = _HAS_TRAIT.get(key)
        if found is None:
            found = _HAS_TRAIT[key] = any(issubclass(t, trait) for t in cls.TRAITS)
        return found

    @property
    def is_registered(self) -> bool:
        """Whether this op has a class of its own (False for a generic unregistered op)."""
        return type(self) is not Operation

    # -- operands and results

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple([operand._value for operand in self._operands])

    @property
    def op_operands(self) -> tuple[OpOperand, ...]:
        """The uses this op makes, one `OpOperand` per operand."""
        return tuple(self._operands)

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def get_operand(self, index: int) -> Value:
        return self._operands[index]._value

    def set_operand(self, index: int, value: Value) -> None:
        self._operands[index].set(value)

    def set_operands(self, values: Iterable[Value]) -> None:
        """Replace the whole operand list (its length may change)."""
        values = list(values)
        for operand in self._operands:
            operand.drop()
        self._operands = [OpOperand(self, i, v) for i, v in enumerate(values)]

    @property
    def num_results(self) -> int:
        return len(self.results)

    @property
    def result(self) -> OpResult:
        """The single result (ValueError unless the op has exactly one)."""
        if len(self.results) != 1:
            raise ValueError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    def get_attr(self, name: str, default: Attribute | None = None) -> Attribute | None:
        """The property ``name``, else the discardable attribute ``name``, else ``default``."""
        value = self.properties.get(name)
        if value is None:
            value = self.attributes.get(name, default)
        return value

    # -- position in the IR

    @property
    def next_op(self) -> Operation | None:
        return self._next

    @property
    def prev_op(self) -> Operation | None:
        return self._prev

    @property
    def parent_region(self) -> Region | None:
        return self.parent.parent if self.parent is not None else None

    @property
    def parent_op(self) -> Operation | None:
        """The operation whose region holds this one (None at the top)."""
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    def is_ancestor(self, other: Operation | None) -> bool:
        """Whether ``other`` is this op or nested (at any depth) in its regions."""
        while other is not None:
            if other is self:
                return True
            other = other.parent_op
        return False

    def is_before_in_block(self, other: Operation) -> bool:
        """Whether this op comes before ``other`` in their common block: O(1) through the
        block's order indices, renumbered (O(block)) after an insertion found no room."""
        block = self.parent
        if other.parent is not block or block is None:
            raise ValueError("the operations are not in the same block")
        if not block._ordered:
            block._renumber()
        return self._order < other._order

    def walk(self, post_order: bool = False) -> Iterator[Operation]:
        """This op and every op nested in it, parents before children (after with
        ``post_order``). A post-order walk may erase the op it is on."""
        if not post_order:
            yield self
        for region in self.regions:
            for block in region.blocks:
                op = block._first
                while op is not None:
                    following = op._next
                    if op.regions:
                        yield from op.walk(post_order)
                    else:  # (most ops: no generator of their own)
                        yield op
                    op = following
        if post_order:
            yield self

    # -- mutation

    def detach(self) -> Operation:
        """Take this op out of its block (it stays intact, ready to be inserted elsewhere)."""
        if self.parent is not None:
            self.parent._unlink(self)
        return self

    def move_before(self, other: Operation) -> None:
        """Move this op right before ``other`` (possibly in another block)."""
        if other is not self:
            self.detach()
            other.parent.insert_before(other, self)

    def move_after(self, other: Operation) -> None:
        """Move this op right after ``other`` (possibly in another block)."""
        if other is not self:
            self.detach()
            other.parent.insert_after(other, self)

    def drop_all_references(self) -> None:
        """Remove every use this op and its nested ops make, and forget its successors."""
        for operand in self._operands:
            operand.drop()
        self._operands = []
        self.successors = []
        for region in self.regions:
            region.drop_all_references()

    def erase(self) -> None:
        """Delete this op and its regions. Its results must have no uses left (uses from inside
        its own regions do not count: they go with it)."""
        for result in self.results:
            outside = [use for use in result._uses if not self.is_ancestor(use.owner)]
            if outside:
                raise ValueError(
                    f"cannot erase '{self.name}': result #{result.index} still has "
                    f"{len(outside)} uses"
                )
        self.drop_all_references()
        self.detach()

    def clone(self, mapping: dict | None = None) -> Operation:
        """A deep copy (regions included), detached. ``mapping`` maps values and blocks to their
        replacements: operands found in it are remapped, and the copy's results, block arguments
        and blocks are added to it."""
        mapping = {} if mapping is None else mapping
        created: list[Operation] = []
        copy = self._clone_structure(mapping, created)
        for op in created:
            for operand in op._operands:
                new_value = mapping.get(operand._value)
                if new_value is not None:
                    operand.set(new_value)
        return copy

    def _clone_structure(self, mapping: dict, created: list[Operation]) -> Operation:
        op = object.__new__(type(self))
        op.name = self.name
        op.parent = op._prev = op._next = None
        op.location = self.location
        op._operands = [OpOperand(op, i, o._value) for i, o in enumerate(self._operands)]
        op.results = tuple(OpResult(r.type, op, r.index) for r in self.results)
        for old, new in zip(self.results, op.results):
            mapping[old] = new
        op.properties = dict(self.properties)
        op.attributes = dict(self.attributes)
        op.successors = [mapping.get(block, block) for block in self.successors]
        regions = []
        for region in self.regions:
            new_region = Region(op)
            for block in region.blocks:
                new_block = new_region.add_block(Block())
                for arg in block.arguments:
                    mapping[arg] = new_block.add_argument(arg.type, arg.location)
                mapping[block] = new_block
            for block in region.blocks:
                new_block = mapping[block]
                for child in block:
                    new_block.append(child._clone_structure(mapping, created))
            regions.append(new_region)
        op.regions = tuple(regions)
        created.append(op)
        return op

    # -- diagnostics and text

    def emit_error(self, message: str) -> VerificationError:
        """A `VerificationError` ``'name' op message`` at this op's location (raise it)."""
        loc, source = self.location.diagnostic_position()
        return VerificationError(f"'{self.name}' op {message}", loc, source, op=self)

    def verify(self) -> None:
        """Check this op and everything nested in it; raises `VerificationError` on the first
        broken invariant (structure, then per op ``verify_invariants``, traits, regions)."""
        from tilecraft.ir.verifier import verify_operation

        verify_operation(self)

    def __str__(self) -> str:
        """The op's text (custom form), without the final newline `print_op` ends with."""
        from tilecraft.ir.printer import print_op

        return print_op(self)[:-1]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} '{self.name}'>"


__all__ = ["Operation"]
