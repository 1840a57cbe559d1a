"""Hooks of the tt (Triton) dialect: Triton's verifiers, and the custom assembly formats of
`tt.load`, `tt.store`, `tt.descriptor_load` (MLIR's ``oilist`` of cache and eviction hints),
`tt.func` (MLIR's function syntax with argument attributes) and `!tt.tensordesc`.

Every tt op gets a `custom_verify` that checks Triton's tensor size rule, the layouts of its
tensors against the module (the ``tensor_layout_error`` hook of their encodings), and then the
op's own rules from `_RULES`; the messages are Triton's (or MLIR's, for functions and calls).
"""

from __future__ import annotations

from collections.abc import Callable

from tilecraft.ir import (
    BlockArgument, DenseArrayAttr, IntegerAttr, IntegerType, Operation, RankedTensorType, Type,
    Value, VerificationError, i32, i64,
)
from tilecraft.ir.ods import implements, parse_enum_keyword
from tilecraft.ir.parser import Parser
from tilecraft.ir.printer import print_op

from . import generated_module
from .encoding_errors import EncodingInferenceError
from .functions import (
    parse_function, print_function, verify_direct_call, verify_function_attrs, verify_return,
)

gen = generated_module(__name__, "tt")

PointerType = gen.PointerType

# Triton's limit on the number of elements of a tensor.
MAX_TENSOR_ELEMENTS = 1 << 20


# -- type helpers --------------------------------------------------------------------------------


def pointee_type(ptr_type):
    """What a load through ``ptr_type`` gives: the pointee of a pointer (a tensor for a tensor
    pointer), or a tensor of pointees for a tensor of pointers; None for other types."""
    if isinstance(ptr_type, RankedTensorType) and isinstance(ptr_type.element_type, PointerType):
        return RankedTensorType(ptr_type.shape, ptr_type.element_type.pointee_type,
                                ptr_type.encoding)
    if isinstance(ptr_type, PointerType):
        return ptr_type.pointee_type
    return None


def i1_like(type_):
    """i1 for a scalar; a tensor of i1 of the same shape and encoding for a tensor."""
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, IntegerType(1), type_.encoding)
    return IntegerType(1)


def bit_width(type_) -> int:
    """The width of an integer or float type; 64 for a pointer (as Triton's bitcast sees it)."""
    if isinstance(type_, PointerType):
        return 64
    return type_.width


def _shape_text(shape) -> str:
    return ", ".join(str(d) for d in shape)


def inference_failure(op, *messages: str) -> VerificationError:
    """MLIR's errors when an op cannot infer its result types: the inference's ``messages``
    (reported), then "failed to infer returned types" (returned, to raise)."""
    from tilecraft.transforms.diagnostics import emit_error

    for message in messages:
        emit_error(op, message)
    return op.emit_error("failed to infer returned types")


def inferred_mismatch(op, inferred, actual) -> VerificationError:
    """MLIR's errors when a result type differs from the one the op infers: the mismatch
    (reported), then "failed to infer returned types" (returned, to raise)."""
    inferred_text = ", ".join(f"'{t}'" for t in inferred)
    actual_text = ", ".join(f"'{t}'" for t in actual)
    return inference_failure(op, f"'{op.name}' op inferred type(s) {inferred_text} are "
                                  f"incompatible with return type(s) of operation {actual_text}")


def inferred_encoding(op, encoding, fallback, hook: str, *args, then: tuple[str, ...] = ()):
    """The result encoding that the inference ``hook`` (``infer_trans_encoding``, ...) of the
    source's ``encoding`` gives: None for a source without one, ``fallback`` (the result's own)
    where the encoding has no such hook or does not know its layout. A layout the hook refuses
    fails the op with the hook's message, then the op's own ones (``then``)."""
    if encoding is None:
        return None
    infer = getattr(encoding, hook, None)
    if infer is None:
        return fallback
    try:
        inferred = infer(*args)
    except EncodingInferenceError as failure:
        raise inference_failure(op, failure.message, *then) from None
    return fallback if inferred is None else inferred


def layouts_equal(shape, expected, got) -> bool:
    """Triton's ``verifyLayoutsAreEqual``: the same encoding, or two that lay out ``shape`` the
    same way (the ``verify_layouts_are_equal`` hook of ``expected``)."""
    if expected is got or expected == got:
        return True
    check = getattr(expected, "verify_layouts_are_equal", None)
    return check is not None and got is not None and check(shape, got)


def _equivalent_types(a, b) -> bool:
    """Triton's ``verifyEquivalentTensorType``: the same type, or tensors of one shape and
    element type whose encodings are equal layouts."""
    if a == b:
        return True
    if not isinstance(a, RankedTensorType) or not isinstance(b, RankedTensorType):
        return False
    return a.shape == b.shape and a.element_type == b.element_type and \
        layouts_equal(a.shape, a.encoding, b.encoding)


# -- the verifier attached to every tt op --------------------------------------------------------

_RULES: dict[type, Callable] = {}


def rule(cls: type) -> Callable:
    """Register the op-specific verifier of ``cls`` (run after the traits and the tensor size
    check)."""

    def register(function: Callable) -> Callable:
        _RULES[cls] = function
        return function

    return register


def verify_tensor_sizes(op) -> None:
    """Triton's TensorSizeTrait: every tensor operand and result has a power-of-two number of
    elements, at most 2^20."""
    for value in (*op.operands, *op.results):
        type_ = value.type
        if not isinstance(type_, RankedTensorType) or not type_.has_static_shape():
            continue
        count = type_.num_elements
        if count > MAX_TENSOR_ELEMENTS:
            raise op.emit_error(f"maximum allowed number of elements is {MAX_TENSOR_ELEMENTS}, "
                                f"but {type_} has {count}")
        if count & (count - 1):
            raise op.emit_error(f"number of elements must be power-of-two, but {type_} has "
                                f"{count}")


def plain_error(op: Operation, message: str) -> VerificationError:
    """An error at ``op``'s location without the ``'name' op`` prefix (MLIR's ``emitError``
    rather than ``emitOpError``)."""
    loc, source = op.location.diagnostic_position()
    return VerificationError(message, loc, source, op=op)


# What is wrong with the layout of a value of the given type used by the op (None when nothing
# is).
LayoutCheck = Callable[[Operation, Type], str | None]


def tensor_layout_message(op: Operation, type_: Type) -> str | None:
    """What the ``tensor_layout_error(op, tensor)`` hook of a ranked tensor's encoding finds
    wrong with it in ``op`` (ttg gives every one of its attributes the hook: Triton's
    DialectVerifyTensorLayoutInterface); None for other types, tensors without an encoding and
    encodings without the hook."""
    if not isinstance(type_, RankedTensorType) or type_.encoding is None:
        return None
    check = getattr(type_.encoding, "tensor_layout_error", None)
    return None if check is None else check(op, type_)


def value_text(value: Value) -> str:
    """A value as MLIR's diagnostics print it: ``<block argument> of type '...' at index: N``,
    or the op that defines it (here with the alias definitions it uses)."""
    if isinstance(value, BlockArgument):
        return f"<block argument> of type '{value.type}' at index: {value.index}"
    return print_op(value.defining_op).rstrip("\n")


def verify_layouts(op: Operation, message_of: LayoutCheck) -> None:
    """Triton's VerifyTensorLayoutsTrait (and VerifyMemDescLayoutsTrait) with ``message_of`` as
    the check: the operands in order, then the results; the first bad layout is an error."""
    for index, operand in enumerate(op.operands):
        message = message_of(op, operand.type)
        if message is not None:
            raise plain_error(op, f"Operand {index} ({value_text(operand)}) has an invalid "
                                  f"layout: {message}")
    results = op.results
    for index, result in enumerate(results):
        message = message_of(op, result.type)
        if message is not None:
            which = "Result" if len(results) == 1 else f"Result {index}"
            raise plain_error(op, f"{which} has an invalid layout: {message}")


def _make_verifier(own: Callable | None) -> Callable:
    """The op's `custom_verify` (the IR verifier runs it after the op's traits, as MLIR does):
    Triton's tensor size rule, the tensors' layouts against the module (Triton's traits run in
    that order, after the op's other traits), then the op's rules."""

    def custom_verify(self) -> None:
        verify_tensor_sizes(self)
        verify_layouts(self, tensor_layout_message)
        if own is not None:
            own(self)

    return custom_verify


# -- parsing: tensor-typed type directives ------------------------------------------------------


def _tensor_typed_parse(op_class: type, accessor: str) -> None:
    """Make the generated parser of ``op_class`` reject a non-tensor type for the value named
    ``accessor``, as MLIR's parser rejects a type directive whose constraint's C++ class is
    ``RankedTensorType`` ("invalid kind of type specified") before any verifier runs."""
    generated = op_class.__dict__["parse"].__func__

    def parse(cls: type, parser: Parser) -> Operation:
        token = parser.i
        op = generated(cls, parser)
        if not isinstance(getattr(op, accessor).type, RankedTensorType):
            parser.error("invalid kind of type specified", token)
        return op

    parse.__doc__ = f"The generated parser of {op_class.OPERATION_NAME}, checking type kinds."
    op_class.parse = classmethod(parse)


_tensor_typed_parse(gen.JoinOp, "lhs")
_tensor_typed_parse(gen.SplitOp, "src")
_tensor_typed_parse(gen.MakeRangeOp, "result_")


# -- casts and arithmetic ------------------------------------------------------------------------


@rule(gen.BitcastOp)
def _verify_bitcast(op) -> None:
    src = op.src.type
    dst = op.result_.type
    src = src.element_type if isinstance(src, RankedTensorType) else src
    dst = dst.element_type if isinstance(dst, RankedTensorType) else dst
    src_ptr, dst_ptr = isinstance(src, PointerType), isinstance(dst, PointerType)
    if src_ptr or dst_ptr:
        if not (src_ptr and dst_ptr):
            raise op.emit_error("Cannot bitcast pointer to non-pointer type")
        if src.address_space != dst.address_space:
            raise op.emit_error("Cannot bitcast pointer between different address spaces")
        return
    if bit_width(src) != bit_width(dst):
        raise op.emit_error(f"Cannot bitcast data-type of size {bit_width(src)} to data-type of "
                            f"size {bit_width(dst)}")


@rule(gen.FpToFpOp)
def _verify_fp_to_fp(op) -> None:
    src = op.src.type
    dst = op.result_.type
    src = src.element_type if isinstance(src, RankedTensorType) else src
    dst = dst.element_type if isinstance(dst, RankedTensorType) else dst
    if dst.width < src.width and op.rounding is None:
        raise op.emit_error("Rounding mode is required for FP downcast")


# -- shapes --------------------------------------------------------------------------------------


@rule(gen.MakeRangeOp)
def _verify_make_range(op) -> None:
    start, end = op.start, op.end
    if start >= end:
        raise op.emit_error("start must be less than end")
    type_ = op.result_.type
    if type_.rank != 1:
        raise op.emit_error("return type must be a 1D tensor")
    if end - start != type_.shape[0]:
        raise op.emit_error(f"number of elements in returned tensor, {type_.shape[0]}, must "
                            f"match size of range [{start}, {end}), which has {end - start} "
                            "elements")
    if not type_.element_type.is_integer(32):
        raise op.emit_error("returned tensor must have i32 elements")


@rule(gen.SplatOp)
def _verify_splat(op) -> None:
    src = op.src.type
    if isinstance(src, RankedTensorType) and src.rank != 0:
        raise op.emit_error(f"source must be a scalar or a 0-d tensor, but got {src}")


@rule(gen.UnsplatOp)
def _verify_unsplat(op) -> None:
    if op.src.type.num_elements != 1:
        raise op.emit_error("source tensor must have exactly one element")


@rule(gen.ExpandDimsOp)
def _verify_expand_dims(op) -> None:
    src, dst = op.src.type, op.result_.type
    axis = op.axis
    if not 0 <= axis <= src.rank:
        raise op.emit_error(f"axis {axis} is out of range for a tensor of rank {src.rank} "
                            f"(expected 0 <= axis <= {src.rank})")
    shape = list(src.shape)
    shape.insert(axis, 1)
    encoding = inferred_encoding(op, src.encoding, dst.encoding, "infer_expand_dims_encoding",
                                  axis, then=("failed to infer layout for ExpandDimsOp",))
    inferred = RankedTensorType(shape, src.element_type, encoding)
    if inferred is not dst:
        raise inferred_mismatch(op, [inferred], [dst])


@rule(gen.ReshapeOp)
def _verify_reshape(op) -> None:
    src, dst = op.src.type, op.result_.type
    if src.has_static_shape() and dst.has_static_shape() and \
            src.num_elements != dst.num_elements:
        raise plain_error(op, "number of src and dst elements of reshape must be the same")
    if (src.encoding is None) != (dst.encoding is None):
        raise plain_error(op, "Op requires that either (a) src and dst both have encodings, or "
                              "(b) neither does.")
    if src.encoding is None or op.allow_reorder:
        return
    # A reshape that keeps the order moves no element between threads: the result's layout
    # is the one that holds the same elements in each thread.
    infer = getattr(src.encoding, "infer_reshape_encoding", None)
    expected = None if infer is None else infer(src.shape, dst.shape)
    if expected is not None and not layouts_equal(dst.shape, expected, dst.encoding):
        raise plain_error(op, f"Expected result encoding {expected} but was {dst.encoding}")


@rule(gen.BroadcastOp)
def _verify_broadcast(op) -> None:
    src, dst = op.src.type.shape, op.result_.type.shape
    if len(src) != len(dst):
        raise op.emit_error("rank of source must be same as rank of result")
    for index, (a, b) in enumerate(zip(src, dst)):
        if a != 1 and a != b:
            raise op.emit_error(f"Different dimensions at index {index} between source and "
                                "result.  Broadcast requires the source dimension to be 1.")


@rule(gen.CatOp)
def _verify_cat(op) -> None:
    lhs, dst = op.lhs.type, op.result_.type
    if lhs.has_static_shape() and dst.has_static_shape():
        expected = lhs.num_elements * 2
        if dst.num_elements != expected:
            raise op.emit_error("result element count must equal the sum of the operand "
                                f"element counts, expected {expected} but got "
                                f"{dst.num_elements}")
    if (lhs.encoding is None) != (dst.encoding is None):
        raise op.emit_error("requires that either (a) operands and result all have encodings, "
                            "or (b) none do.")


@rule(gen.JoinOp)
def _verify_join(op) -> None:
    src, dst = op.lhs.type, op.result_.type
    expected = (*src.shape, 2)
    if dst.shape != expected:
        raise op.emit_error(f"result shape must be ({_shape_text(expected)}), but got "
                            f"{_shape_text(dst.shape)}")
    if dst.element_type is not src.element_type:
        raise op.emit_error("result element type must match the input element type")
    if dst.encoding is None:
        if src.encoding is not None:
            raise op.emit_error("result encoding must be specified")
        return
    # A source layout gives several joined ones, but a joined layout has one source layout:
    # split the result's and compare.
    infer = getattr(dst.encoding, "infer_split_encoding", None)
    if infer is None:
        return
    try:
        expected = infer(dst.shape)
    except EncodingInferenceError as failure:
        raise plain_error(op, failure.message) from None
    if expected is not None and not layouts_equal(src.shape, expected, src.encoding):
        raise op.emit_error("incompatible join layout")


@rule(gen.SplitOp)
def _verify_split(op) -> None:
    src, dst = op.src.type, op.out_lhs.type
    if not src.shape or src.shape[-1] != 2:
        raise inference_failure(op, "last dimension of input tensor must be 2")
    encoding = inferred_encoding(op, src.encoding, dst.encoding, "infer_split_encoding",
                                  src.shape)
    inferred = RankedTensorType(src.shape[:-1], src.element_type, encoding)
    actual = [dst, op.out_rhs.type]
    if not all(_equivalent_types(inferred, type_) for type_ in actual):
        raise inferred_mismatch(op, [inferred, inferred], actual)


def verified_order(op, rank: int) -> tuple[int, ...]:
    """The ``order`` of a transpose (``tt.trans``, ``ttg.memdesc_trans``) of a value of
    ``rank``, checked to be a permutation of its dimensions with Triton's messages."""
    order = tuple(op.order)
    if len(order) != rank:
        raise plain_error(op, "order must have the same size as the source tensor")
    if sorted(order) != list(range(rank)):
        raise plain_error(op, "order must be a permutation of 0..n-1")
    return order


@rule(gen.TransOp)
def _verify_trans(op) -> None:
    src, dst = op.src.type, op.result_.type
    order = verified_order(op, src.rank)
    encoding = inferred_encoding(op, src.encoding, dst.encoding, "infer_trans_encoding",
                                  src.shape, order)
    inferred = RankedTensorType([src.shape[i] for i in order], src.element_type, encoding)
    if not _equivalent_types(inferred, dst):
        raise inferred_mismatch(op, [inferred], [dst])


@rule(gen.MakeTensorPtrOp)
def _verify_make_tensor_ptr(op) -> None:
    rank = op.result_.type.pointee_type.rank
    if op.num_operands != 1 + 3 * rank:
        raise op.emit_error(f"expected {rank} shape, {rank} stride and {rank} offset values for a "
                            f"block of rank {rank}, but got {op.num_operands - 1} values")


@rule(gen.AdvanceOp)
def _verify_advance(op) -> None:
    rank = op.ptr.type.pointee_type.rank
    if len(op.offsets) != rank:
        raise op.emit_error(f"expected {rank} offsets for a block of rank {rank}, but got "
                            f"{len(op.offsets)}")


# -- dot, reduce, scan ---------------------------------------------------------------------------


def _verify_dot_shapes(op, extents: Callable[[], tuple[int, int, int, int]]) -> None:
    """Triton's DotOpInterface rules. ``extents`` gives the K extents of `a` and `b` and the M
    and N extents of the product once the ranks are known to be right (what `tt.dot_scaled`
    reads of packed fp4 operands differs from their shapes)."""
    a, b, c = op.a.type, op.b.type, op.c.type
    if a.rank not in (2, 3):
        raise op.emit_error("expected operands to be 2d or 3d")
    if a.rank != b.rank or a.rank != c.rank:
        raise op.emit_error("expected all operands to have the same rank")
    k_a, k_b, m, n = extents()
    if k_a != k_b:
        raise op.emit_error("expected the last dimension of the first operand to be equal to "
                            "the second-to-last dimension of the second operand")
    if a.rank == 3 and (a.shape[0] != c.shape[0] or b.shape[0] != c.shape[0]):
        raise op.emit_error("expected the first dimension of the first operand to be equal to "
                            "the first dimension of the result")
    if c.shape[-2] != m or c.shape[-1] != n:
        raise op.emit_error("expected the output shape to be the concatenation of the last "
                            "dimension of the first operand and the last dimension of the "
                            "second")


@rule(gen.DotOp)
def _verify_dot(op) -> None:
    a, b, c = op.a.type, op.b.type, op.c.type
    _verify_dot_shapes(op, lambda: (a.shape[-1], b.shape[-2], a.shape[-2], b.shape[-1]))
    if bit_width(a.element_type) != bit_width(b.element_type):
        raise plain_error(op, "element types of operands A and B must have same bit width")
    if a.encoding is None and b.encoding is None:
        return
    if a.encoding is None or b.encoding is None:
        raise plain_error(op, "mismatching encoding between A and B operands")
    if c.encoding is None:
        raise plain_error(op, "miss encoding of C operand")
    check = getattr(c.encoding, "verify_dot_operands", None)
    if check is not None:
        check(op, a.encoding, b.encoding)


def _scale_factor(op, operand, scale, k_dim: int, unpack: int) -> int:
    """The number of elements along K that one scale of ``operand`` covers (16 or 32), or 0
    when there is no scale or a single one."""
    if scale is None or scale.type.num_elements == 1:
        return 0
    per_row = scale.type.shape[-1]
    factor = operand.type.shape[k_dim] * unpack // per_row if per_row else 0
    if factor not in (16, 32):
        raise op.emit_error(f"scale factor must be 16 or 32. Got {factor}")
    return factor


@rule(gen.DotScaledOp)
def _verify_dot_scaled(op) -> None:
    """Triton's DotScaledOp rules: e2m1 operands hold two values per i8 (along K when packed
    along K, else along M or N); scales cover 16 or 32 elements of K, the same for both."""
    a, b, c = op.a.type, op.b.type, op.c.type
    e2m1 = gen.ScaleDotElemType.E2M1
    a_unpack = 2 if op.a_elem_type == e2m1 else 1
    b_unpack = 2 if op.b_elem_type == e2m1 else 1
    k_pack_a = a_unpack if op.lhs_k_pack else 1
    k_pack_b = b_unpack if op.rhs_k_pack else 1
    _verify_dot_shapes(op, lambda: (
        a.shape[-1] * k_pack_a, b.shape[-2] * k_pack_b,
        a.shape[-2] * (1 if op.lhs_k_pack else a_unpack),
        b.shape[-1] * (1 if op.rhs_k_pack else b_unpack)))
    k = a.shape[-1] * k_pack_a
    factor_a = _scale_factor(op, op.a, op.a_scale, -1, k_pack_a)
    factor_b = _scale_factor(op, op.b, op.b_scale, -2, k_pack_b)
    if factor_a and factor_b and factor_a != factor_b:
        raise op.emit_error(f"Operands must have the same scale factor; (lhs: {factor_a} vs "
                            f"rhs: {factor_b})")
    factor = factor_a or factor_b or 32
    for scale, extent, name in ((op.a_scale, c.shape[-2], "M"), (op.b_scale, c.shape[-1], "N")):
        if scale is None:
            continue
        shape = scale.type.shape
        if len(shape) != a.rank:
            raise op.emit_error(f"scales must have the rank of the operands, but got "
                                f"{scale.type}")
        if shape[-2] != extent:
            raise op.emit_error(f"scales {name} dimension must match the operand {name} "
                                "dimension")
        if shape[-1] != k // factor:
            raise op.emit_error("scales K dimension must match the operand K divided by the "
                                "scale factor")


def _verify_reduce_scan(op) -> None:
    """Triton's verifyReduceScan."""
    srcs = op.srcs
    if not srcs:
        raise op.emit_error("must have at least 1 operand")
    if len(srcs) != len(op.results):
        raise op.emit_error("must have the same number of inputs as outputs")
    axis = op.axis
    first_rank = None
    for value in srcs:
        rank = value.type.rank
        if axis < 0 or axis >= rank:
            raise op.emit_error(f"axis out of bounds for operand rank {rank}")
        if first_rank is None:
            first_rank = rank
        elif rank != first_rank:
            raise op.emit_error(f"all operands must have the same rank, but got ranks "
                                f"{first_rank} and {rank}")
    for value, result in zip(srcs, op.results):
        res = result.type
        if value.type.element_type is not (res.element_type if res.IS_SHAPED else res):
            raise op.emit_error("operand types and result types must agree")


def _verify_combine_region(op, return_class) -> None:
    """Triton's verifyRegionsImpl: the combine block takes two elements of each operand and
    returns one element per operand."""
    elements = [v.type.element_type for v in op.srcs]
    block = op.combine_op.blocks[0]
    count = 2 * len(elements)
    if len(block.arguments) != count:
        raise op.emit_error(f"nested block must take {count} arguments, but given block with "
                            f"{len(block.arguments)} arguments")
    for index, arg in enumerate(block.arguments):
        expected = elements[index % len(elements)]
        if arg.type is not expected:
            raise op.emit_error(f"type mismatch on combine operation. Expected argument {index} "
                                f"to have type {expected} but got {arg.type}")
    terminator = block.last_op
    if not isinstance(terminator, return_class):
        found = "nothing" if terminator is None else f"'{terminator.name}'"
        raise op.emit_error(f"combine operation must be terminated with a "
                            f"{return_class.OPERATION_NAME} but got {found}")
    returned = terminator.operands
    if len(returned) != len(elements):
        raise op.emit_error(f"expected combine operation to return {len(elements)} values but "
                            f"got {len(returned)}")
    for index, (value, expected) in enumerate(zip(returned, elements)):
        if value.type is not expected:
            raise op.emit_error(f"type mismatch on combine operation. Expected argument {index} "
                                f"to have type {expected} but got {value.type}")


@rule(gen.MapElementwiseOp)
def _verify_map_elementwise(op) -> None:
    # No operands at all: SameOperandsAndResultShape has already said so, as in MLIR.
    pack = op.pack
    if pack <= 0 or pack & (pack - 1):
        raise op.emit_error("Pack must be a power of 2")


@implements(gen.MapElementwiseOp)
def custom_verify_regions(self) -> None:  # noqa: F811 - one hook per class
    """Triton's rules for the scalar region: ``pack`` arguments of each operand's element type
    (operand by operand), returns of ``pack`` elements of each result, and no stores."""
    from tilecraft.ir.traits import MemWrite

    pack = self.pack
    block = self.scalar_op.blocks[0]
    if len(block.arguments) != len(self.srcs) * pack:
        raise self.emit_error("region has wrong number of arguments")
    expected_args = [v.type.element_type for v in self.srcs for _ in range(pack)]
    if [a.type for a in block.arguments] != expected_args:
        raise plain_error(self, "argument types did not match")
    expected_returns = [r.type.element_type for r in self.results for _ in range(pack)]
    for nested in self.scalar_op.walk():
        if nested.has_trait(MemWrite):
            raise nested.emit_error("Stores are not supported inside map_elementwise")
        if (isinstance(nested, gen.MapElementwiseReturnOp)
                and [v.type for v in nested.operands] != expected_returns):
            raise plain_error(nested, "region return does not match map_elementwise result")


@rule(gen.ReduceOp)
def _verify_reduce(op) -> None:
    _verify_reduce_scan(op)
    axis = op.axis
    inferred = []
    for value, result in zip(op.srcs, op.results):
        src = value.type
        shape = src.shape[:axis] + src.shape[axis + 1:]
        if not shape:
            inferred.append(src.element_type)
            continue
        fallback = result.type.encoding if isinstance(result.type, RankedTensorType) else None
        encoding = inferred_encoding(op, src.encoding, fallback, "infer_reduce_encoding", axis)
        inferred.append(RankedTensorType(shape, src.element_type, encoding))
    actual = [r.type for r in op.results]
    if inferred != actual:
        raise inferred_mismatch(op, inferred, actual)


@implements(gen.ReduceOp)
def custom_verify_regions(self) -> None:
    _verify_combine_region(self, gen.ReduceReturnOp)


@rule(gen.ScanOp)
def _verify_scan(op) -> None:
    _verify_reduce_scan(op)
    for value, result in zip(op.srcs, op.results):
        if value.type is not result.type:
            raise inferred_mismatch(op, [v.type for v in op.srcs], [r.type for r in op.results])


@implements(gen.ScanOp)
def custom_verify_regions(self) -> None:  # noqa: F811 - one hook per class
    _verify_combine_region(self, gen.ScanReturnOp)


def verify_same_encoding(op) -> None:
    """Triton's SameOperandsAndResultEncoding: the tensors that have an encoding share it; an
    op without operands passes (unlike MLIR's same-type traits)."""
    encodings = [v.type.encoding for v in (*op.operands, *op.results)
                 if isinstance(v.type, RankedTensorType) and v.type.encoding is not None]
    if any(e is not encodings[0] for e in encodings):
        raise op.emit_error("requires the same encoding for all operands and results")


@rule(gen.ElementwiseInlineAsmOp)
def _verify_inline_asm(op) -> None:
    verify_same_encoding(op)
    if not op.args:
        return
    first = op.args[0].type
    count = first.num_elements if isinstance(first, RankedTensorType) else 0
    if count % op.packed_element:
        raise op.emit_error(f"number of input elements {count} must be a multiple of the op's "
                            f"packed_element attribute, {op.packed_element}")


# -- gathers and tensor descriptors -------------------------------------------------------------


@rule(gen.GatherOp)
def _verify_gather(op) -> None:
    src, indices, result = op.src.type, op.indices.type, op.result_.type
    if indices.shape != result.shape:
        raise op.emit_error("indices and output shapes must match")
    if indices.encoding is not result.encoding:
        raise op.emit_error("indices and output encodings must match")
    if src.element_type is not result.element_type:
        raise op.emit_error("input and output element types must match")
    if src.rank != indices.rank:
        raise op.emit_error("input and indices ranks must match")
    if op.axis >= src.rank:
        raise op.emit_error("gather dimension must be less than the input rank")
    for dim in range(indices.rank):
        if dim != op.axis and indices.shape[dim] != src.shape[dim]:
            raise op.emit_error(f"indices dimension {dim} must match the corresponding input "
                                "dimension")


@implements(gen.TensorDescType)
def print_parameters(self, printer) -> None:
    """``<128x64xf16>``, or ``<128x64xf16, #layout>`` with a shared layout."""
    printer.write("<" + "".join(f"{d}x" for d in self.shape))
    printer.print_type(self.element_type)
    if self.shared_layout is not None:
        printer.write(", ")
        printer.print_attribute(self.shared_layout)
    printer.write(">")


@implements(gen.TensorDescType)
@classmethod
def parse_parameters(cls, parser):
    """Read what `print_parameters` writes, then Triton's check of the element type."""
    parser.parse_punct("<")
    start = parser.i
    shape = tuple(parser.parse_dimension_list())
    element_type = parser.parse_type()
    layout = parser.parse_attribute() if parser.parse_optional_punct(",") else None
    parser.parse_punct(">")
    result = cls(shape, element_type, layout)
    message = result.verify()
    if message is not None:
        parser.error(message, start)
    return result


@implements(gen.TensorDescType)
def verify(self) -> str | None:  # noqa: F811 - one hook per class
    """A descriptor's element type is a scalar type; its shape is the block's."""
    if isinstance(self.element_type, RankedTensorType):
        return ("tensor descriptors must not wrap tensor types; use "
                "!tt.tensordesc<shape x element-type[, layout]> instead")
    return None


def block_type(desc_type) -> RankedTensorType:
    """The block a tensor descriptor moves, as a tensor of its signless element type."""
    element = desc_type.element_type
    if isinstance(element, IntegerType):
        element = IntegerType(element.width)
    return RankedTensorType(desc_type.shape, element)


def _verify_descriptor_access(op, tensor) -> None:
    """Triton's rule for loads, stores and reducing stores of whole blocks."""
    block = block_type(op.desc.type)
    if block.element_type is not tensor.element_type:
        raise op.emit_error("descriptor block and tensor element types must match, but got "
                            f"descriptor element type '{block.element_type}' and tensor "
                            f"element type '{tensor.element_type}'")
    if block.num_elements != tensor.num_elements:
        raise op.emit_error("descriptor block and tensor must have the same number of elements, "
                            f"but got descriptor block with {block.num_elements} elements tensor "
                            f"with {tensor.num_elements} elements")


@rule(gen.DescriptorLoadOp)
def _verify_descriptor_load(op) -> None:
    _verify_descriptor_access(op, op.result_.type)


@rule(gen.DescriptorStoreOp)
def _verify_descriptor_store(op) -> None:
    _verify_descriptor_access(op, op.src.type)


@rule(gen.DescriptorReduceOp)
def _verify_descriptor_reduce(op) -> None:
    _verify_descriptor_access(op, op.src.type)


def _verify_gather_scatter(op, tensor) -> None:
    """Triton's rules for `tt.descriptor_gather`/`tt.descriptor_scatter` on NVIDIA's TMA: rows
    of a one-row 2-D block, at least 8 of them and 32 bytes of each, elements of at most
    32 bits."""
    block = block_type(op.desc.type)
    indices = op.x_offsets.type
    if block.rank != 2:
        raise op.emit_error(f"descriptor block must be a 2D tensor, but got '{block}'")
    if block.shape[0] != 1:
        raise op.emit_error(f"descriptor block must have exactly 1 row, but got '{block}'")
    if indices.rank != 1:
        raise op.emit_error(f"x offsets must be a 1D tensor, but got '{indices}'")
    if tensor.rank != 2:
        raise op.emit_error(f"result must be a 2D tensor, but got '{tensor}'")
    rows, cols = tensor.shape
    if rows < 8:
        raise op.emit_error(f"must have at least 8 rows, but got {rows}")
    element = tensor.element_type
    width = bit_width(element)
    if width > 32:
        raise op.emit_error("TMA dtype cannot be greater than 32 bits")
    min_cols = 32 // width * 8
    if cols < min_cols:
        raise op.emit_error(f"must have at least {min_cols} columns for '{element}', but got "
                            f"{cols}")
    if rows != indices.shape[0]:
        raise op.emit_error(f"result tensor must have as many rows as indices "
                            f"({indices.shape[0]}), but got '{tensor}'")
    if cols != block.shape[1]:
        raise op.emit_error(f"result tensor number of columns must match block "
                            f"({block.shape[1]}), but got '{tensor}'")
    if element is not block.element_type:
        raise op.emit_error(f"result tensor element type must match block "
                            f"('{block.element_type}'), but got '{tensor}'")


@rule(gen.DescriptorGatherOp)
def _verify_descriptor_gather(op) -> None:
    _verify_gather_scatter(op, op.result_.type)


@rule(gen.DescriptorScatterOp)
def _verify_descriptor_scatter(op) -> None:
    _verify_gather_scatter(op, op.src.type)


def _parse_dialect_type(parser, cls):
    """A type of the class ``cls``, qualified (``!tt.ptr<f16>``) or only its parameters
    (``<f16>``), as MLIR reads a type whose class the op's format fixes."""
    if parser.toks[parser.i] == "<":
        return cls.parse_parameters(parser)
    token = parser.i
    type_ = parser.parse_type()
    if not isinstance(type_, cls):
        parser.error(f"invalid kind of type specified: expected {cls.__name__}, but found "
                     f"'{type_}'", token)
    return type_


@implements(gen.MakeTensorDescOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%base, [%sizes], [%strides] {attrs} : ptr-type, desc-type``, each type with or without
    its ``!tt.ptr``/``!tt.tensordesc`` prefix."""
    base = parser.parse_operand()
    parser.parse_punct(",")
    parser.parse_punct("[")
    shape = parser.parse_operand_list()
    parser.parse_punct("]")
    parser.parse_punct(",")
    parser.parse_punct("[")
    strides = parser.parse_operand_list()
    parser.parse_punct("]")
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punct(":")
    base_type = _parse_dialect_type(parser, PointerType)
    parser.parse_punct(",")
    result_type = _parse_dialect_type(parser, gen.TensorDescType)
    operands = parser.resolve_operands([base, *shape, *strides],
                                       [base_type, *[i32] * len(shape), *[i64] * len(strides)])
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=[result_type],
                      properties=properties, attributes=attributes)


@implements(gen.MakeTensorDescOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    """Triton's form: the types without their dialect prefix (``: <f16>, <128x64xf16>``)."""
    printer.write(" ")
    printer.print_operand(self.base)
    printer.write(", [")
    printer.print_operands(self.shape)
    printer.write("], [")
    printer.print_operands(self.strides)
    printer.write("]")
    printer.print_attr_dict(self.all_attributes(), self.attributes_at_default())
    printer.write(" : ")
    self.base.type.print_parameters(printer)
    printer.write(", ")
    self.result_.type.print_parameters(printer)


@implements(gen.DescriptorLoadOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%desc[%i, ...] [cacheModifier = ..] [evictionPolicy = ..] {attrs} : desc-type ->
    tensor-type``."""
    desc = parser.parse_operand()
    parser.parse_punct("[")
    indices = parser.parse_operand_list()
    parser.parse_punct("]")
    attrs = {}
    _parse_clauses(parser, attrs)
    attrs.update(parser.parse_optional_attr_dict())
    parser.parse_punct(":")
    desc_type = parser.parse_type()
    parser.parse_punct("->")
    result_type = parser.parse_type()
    operands = [parser.resolve_operand(desc, desc_type),
                *parser.resolve_operands(indices, i32)]
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=[result_type],
                      properties=properties, attributes=attributes)


@implements(gen.DescriptorLoadOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operand(self.desc)
    printer.write("[")
    printer.print_operands(self.indices)
    printer.write("]")
    _print_clauses(self, printer)
    printer.print_attr_dict(self.all_attributes(), ["cache", "evict"])
    printer.write(" : ")
    printer.print_type(self.desc.type)
    printer.write(" -> ")
    printer.print_type(self.result_.type)


# -- functions, calls, returns -------------------------------------------------------------------


@rule(gen.FuncOp)
def _verify_func(op) -> None:
    verify_function_attrs(op)


@rule(gen.ReturnOp)
def _verify_return(op) -> None:
    function = op.parent_op
    if isinstance(function, gen.FuncOp):  # else the HasParent trait reports it
        verify_return(op, function, op.srcs, op_prefix=True)


@rule(gen.CallOp)
def _verify_call(op) -> None:
    verify_direct_call(op, gen.FuncOp, op.operands_, op.results)


@implements(gen.FuncOp)
@classmethod
def parse(cls, parser):
    """``tt.func [visibility] @name(args) [-> results] [attributes {...}] [{ body }]``."""
    return parse_function(cls, parser)


@implements(gen.FuncOp)
def print(self, printer) -> None:  # noqa: A001 - the hook's name
    print_function(self, printer)


# -- loads and stores ----------------------------------------------------------------------------

# MLIR's oilist: the clauses may come in any order, each at most once.
_CLAUSES = (
    ("cacheModifier", "cache", gen.CacheModifier, gen.CacheModifier.NONE),
    ("evictionPolicy", "evict", gen.EvictionPolicy, gen.EvictionPolicy.NORMAL),
)


def _parse_clauses(parser, attrs: dict) -> None:
    seen = set()
    while True:
        token = parser.i
        keyword = parser.parse_optional_keyword(tuple(c[0] for c in _CLAUSES))
        if keyword is None:
            return
        if keyword in seen:
            parser.error(f"'{keyword}' clause can appear at most once in the expansion of the "
                         "oilist directive", token)
        seen.add(keyword)
        _, name, enum, _ = next(c for c in _CLAUSES if c[0] == keyword)
        parser.parse_punct("=")
        cases = {case.keyword: case for case in enum}
        attrs[name] = IntegerAttr(int(parse_enum_keyword(parser, cases, enum.__name__)), i32)


def _print_clauses(op, printer) -> None:
    for keyword, name, enum, default in _CLAUSES:
        attr = op.properties.get(name)
        if attr is not None and attr.value != default:
            printer.write(f" {keyword} = {enum(attr.value).keyword}")


def _elided_defaults(op) -> list[str]:
    """Attributes the attr-dict leaves out: the segment sizes, the clauses, and default-valued
    attributes that hold their default (as MLIR's generated printers do)."""
    elided = ["operandSegmentSizes", "cache", "evict"]
    checks = {"boundaryCheck": DenseArrayAttr(i32, ()), "isVolatile": IntegerAttr(0, IntegerType(1))}
    for name, default in checks.items():
        attr = op.properties.get(name)
        if attr is not None and attr == default:
            elided.append(name)
    return elided


def _parse_pointer_type(parser):
    parser.parse_punct(":")
    token = parser.i
    ptr_type = parser.parse_type()
    value_type = pointee_type(ptr_type)
    if value_type is None:
        parser.error(f"expected a pointer, a tensor of pointers or a tensor pointer type, but "
                     f"got {ptr_type}", token)
    return ptr_type, value_type


@implements(gen.LoadOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%ptr [, %mask [, %other]] [cacheModifier = ..] [evictionPolicy = ..] {attrs}
    : ptr-type``."""
    unresolved = [parser.parse_operand()]
    while len(unresolved) < 3 and parser.parse_optional_punct(","):
        operand = parser.parse_optional_operand()  # `%ptr, :` is accepted, as by MLIR
        if operand is None:
            break
        unresolved.append(operand)
    attrs = {}
    _parse_clauses(parser, attrs)
    attrs.update(parser.parse_optional_attr_dict())
    ptr_type, value_type = _parse_pointer_type(parser)
    types = [ptr_type, i1_like(value_type), value_type][:len(unresolved)]
    operands = parser.resolve_operands(unresolved, types)
    count = len(unresolved)
    attrs["operandSegmentSizes"] = DenseArrayAttr(i32, (1, int(count > 1), int(count > 2)))
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, result_types=[value_type],
                      properties=properties, attributes=attributes)


@implements(gen.LoadOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operands([v for v in (self.ptr, self.mask, self.other) if v is not None])
    _print_clauses(self, printer)
    printer.print_attr_dict(self.all_attributes(), _elided_defaults(self))
    printer.write(" : ")
    printer.print_type(self.ptr.type)


@implements(gen.StoreOp)
@classmethod
def parse(cls, parser):  # noqa: F811 - one hook per class
    """``%ptr, %value [, %mask] [cacheModifier = ..] [evictionPolicy = ..] {attrs} : ptr-type``."""
    unresolved = [parser.parse_operand()]
    parser.parse_punct(",")
    unresolved.append(parser.parse_operand())
    if parser.parse_optional_punct(","):
        unresolved.append(parser.parse_operand())
    attrs = {}
    _parse_clauses(parser, attrs)
    attrs.update(parser.parse_optional_attr_dict())
    ptr_type, value_type = _parse_pointer_type(parser)
    types = [ptr_type, value_type, i1_like(value_type)][:len(unresolved)]
    operands = parser.resolve_operands(unresolved, types)
    properties, attributes = cls.split_attributes(attrs)
    return cls.create(cls.OPERATION_NAME, operands=operands, properties=properties,
                      attributes=attributes)


@implements(gen.StoreOp)
def print(self, printer) -> None:  # noqa: A001,F811 - the hook's name
    printer.write(" ")
    printer.print_operands(self.operands)
    _print_clauses(self, printer)
    printer.print_attr_dict(self.all_attributes(), _elided_defaults(self))
    printer.write(" : ")
    printer.print_type(self.ptr.type)


for _cls in gen.DIALECT.ops.values():
    implements(_cls)(_make_verifier(_RULES.get(_cls)))
del _cls


# ================================================================================================
# Folding and canonicalization (Triton's folders and canonicalization patterns)
# ================================================================================================

from tilecraft.ir import DenseElementsAttr, FloatAttr, Operation  # noqa: E402
from tilecraft.ir.patterns import RewritePattern  # noqa: E402

from .foldutils import (  # noqa: E402
    MAX_FOLD_ELEMENTS, const_attr, is_zero, make_attr, splat_value,
)


def materialize_constant(attr, type_, location):
    """Constants of tt folds are `arith.constant`s (as in Triton, which uses arith's)."""
    from .arith import materialize_constant as arith_materialize

    return arith_materialize(attr, type_, location)


def _fold_hook(cls):
    def attach(function):
        function.__name__ = "fold"
        function.__qualname__ = f"{cls.__name__}.fold"
        implements(cls)(function)
        return function

    return attach


def _resized(attr, type_):
    """A splat constant resized to ``type_`` (None for other constants)."""
    if isinstance(attr, DenseElementsAttr) and attr.is_splat:
        return make_attr(type_, splat_value(attr))
    return None


def _reshaped(attr, type_):
    """A dense constant with its elements (in order) given the shape of ``type_``."""
    resized = _resized(attr, type_)
    if resized is not None or not isinstance(attr, DenseElementsAttr):
        return resized
    if not type_.has_static_shape() or type_.num_elements > MAX_FOLD_ELEMENTS:
        return None
    return DenseElementsAttr(type_, attr.values)


@_fold_hook(gen.SplatOp)
def _fold_splat(self, operand_constants):
    """splat(constant) -> dense<constant>."""
    (src,) = operand_constants
    if src is None or isinstance(src, DenseElementsAttr):
        return None
    attr = make_attr(self.result_.type, splat_value(src))
    return [attr] if attr is not None else None


@_fold_hook(gen.BroadcastOp)
def _fold_broadcast(self, operand_constants):
    """broadcast(x) -> x when the types match; broadcast(splat constant) -> splat constant."""
    if self.src.type is self.result_.type:
        return [self.src]
    attr = _resized(operand_constants[0], self.result_.type)
    return [attr] if attr is not None else None


@_fold_hook(gen.ExpandDimsOp)
def _fold_expand_dims(self, operand_constants):
    """expand_dims(constant) -> the constant with the new shape."""
    attr = _reshaped(operand_constants[0], self.result_.type)
    return [attr] if attr is not None else None


@_fold_hook(gen.ReshapeOp)
def _fold_reshape(self, operand_constants):
    """reshape(x) -> x when the types match (and no reorder is allowed); reshape(constant)."""
    if self.src.type is self.result_.type and not self.allow_reorder:
        return [self.src]
    src = operand_constants[0]
    if isinstance(src, DenseElementsAttr) and not src.is_splat and self.allow_reorder:
        return None
    attr = _reshaped(src, self.result_.type)
    return [attr] if attr is not None else None


def _is_iota(order) -> bool:
    return tuple(order) == tuple(range(len(order)))


@_fold_hook(gen.TransOp)
def _fold_trans(self, operand_constants):
    """trans(x, identity order) -> x; trans(constant) -> the transposed constant."""
    if _is_iota(self.order) and self.src.type is self.result_.type:
        return [self.src]
    src = operand_constants[0]
    attr = _resized(src, self.result_.type)
    if attr is None and isinstance(src, DenseElementsAttr) and \
            src.type.num_elements <= MAX_FOLD_ELEMENTS:
        import numpy

        values = numpy.array(src.values, dtype=object).reshape(src.type.shape)
        attr = DenseElementsAttr(self.result_.type,
                                 numpy.transpose(values, self.order).reshape(-1).tolist())
    return [attr] if attr is not None else None


@_fold_hook(gen.AddPtrOp)
def _fold_addptr(self, operand_constants):
    """addptr(p, 0) -> p."""
    return [self.ptr] if is_zero(operand_constants[1]) else None


@_fold_hook(gen.MakeRangeOp)
def _fold_make_range(self, operand_constants):
    """make_range(start, start + 1) -> dense<start>."""
    if self.end != self.start + 1:
        return None
    attr = make_attr(self.result_.type, self.start)
    return [attr] if attr is not None else None


@_fold_hook(gen.FpToFpOp)
def _fold_fp_to_fp(self, operand_constants):
    """fp_to_fp(x) -> x for the same type; constants whose conversion is exact (zeros among
    them, as Triton folds), or rounds to a finite value under rtne."""
    import math

    if self.src.type is self.result_.type:
        return [self.src]
    src = operand_constants[0]
    value = splat_value(src)
    if value is None:
        return None
    target = self.result_.type
    elem = target.element_type if isinstance(target, RankedTensorType) else target
    converted = FloatAttr(value, elem).value
    exact = converted == value or (math.isnan(converted) and math.isnan(value))
    if exact and value == 0.0 and math.copysign(1.0, converted) != math.copysign(1.0, value):
        exact = False  # -0.0 in a format without negative zero
    rtne = self.rounding == gen.RoundingMode.RTNE
    if not exact and not (rtne and math.isfinite(converted) and math.isfinite(value)):
        return None
    attr = make_attr(target, converted)
    return [attr] if attr is not None else None


@_fold_hook(gen.BitcastOp)
def _fold_bitcast(self, operand_constants):
    """bitcast(x) -> x for the same type."""
    return [self.src] if self.src.type is self.result_.type else None


# -- canonicalization patterns -------------------------------------------------------------------


def _defining(value, cls):
    op = value.defining_op
    return op if isinstance(op, cls) else None


class ExpandDimsOfBroadcast(RewritePattern):
    """expand_dims(broadcast(x)) -> broadcast(expand_dims(x)). With encodings, the new
    expand_dims takes the layout that Triton's inference gives (a slice along ``axis`` expands
    into its parent); where there is none nothing fires.

    Not a `Pat`: the inner expand_dims' type is computed (a 1 inserted in the shape and the layout
    inferred by the encoding's hook), and the pattern language cannot give a nested result op a type
    it does not infer itself.
    """

    ROOT = "tt.expand_dims"

    def match_and_rewrite(self, op, rewriter) -> bool:
        broadcast = _defining(op.src, gen.BroadcastOp)
        if broadcast is None:
            return False
        src_type = broadcast.src.type
        encoding = _expanded_encoding(src_type.encoding, op.axis)
        if encoding is None and src_type.encoding is not None:
            return False
        shape = list(src_type.shape)
        shape.insert(op.axis, 1)
        expanded = rewriter.insert(gen.ExpandDimsOp.build(
            RankedTensorType(shape, src_type.element_type, encoding), broadcast.src, op.axis,
            location=op.location))
        rewriter.replace_op_with_new_op(op, gen.BroadcastOp, op.result_.type, expanded.result_)
        return True


def _expanded_encoding(encoding, axis: int):
    """The encoding of expand_dims along ``axis`` of a tensor with ``encoding`` (the
    ``infer_expand_dims_encoding`` hook: Triton's inferExpandDimsOpEncoding); None for an
    encoding without the hook or one it refuses."""
    infer = getattr(encoding, "infer_expand_dims_encoding", None)
    try:
        return None if infer is None else infer(axis)
    except EncodingInferenceError:
        return None


class IntToPtrOfConstantByteOffset(RewritePattern):
    """int_to_ptr(x + c) -> addptr(int_to_ptr(x), c / size) for a scalar or splat constant byte
    offset ``c`` (the add's right operand) that is a multiple of the pointee's size in bytes;
    int_to_ptr(ptr_to_int(p)) then folds away. The offset keeps the add's integer type.

    Not a `Pat`: the element offset is a computed constant (the byte offset divided by the pointee's
    size), and the inner int_to_ptr's type is not one the pattern language infers.
    """

    ROOT = "tt.int_to_ptr"

    def match_and_rewrite(self, op, rewriter) -> bool:
        from tilecraft.generated.arith import AddIOp, ConstantOp

        add = _defining(op.src, AddIOp)
        if add is None:
            return False
        byte_offset = splat_value(const_attr(add.rhs))
        if byte_offset is None:
            return False
        result_type = op.result_.type
        pointer = result_type.element_type if isinstance(result_type, RankedTensorType) \
            else result_type
        size = max(1, bit_width(pointer.pointee_type) // 8)
        if byte_offset % size:
            return False
        base = rewriter.insert(gen.IntToPtrOp.build(result_type, add.lhs, location=op.location))
        offset_type = add.rhs.type
        offset = rewriter.insert(ConstantOp.build(
            make_attr(offset_type, byte_offset // size), offset_type, location=op.location))
        rewriter.replace_op_with_new_op(op, gen.AddPtrOp, base.result_, offset.results[0])
        return True


def _patterns(cls, *pattern_classes):
    @implements(cls)
    @staticmethod
    def canonicalization_patterns():
        return [p() for p in pattern_classes]


_patterns(gen.ExpandDimsOp, ExpandDimsOfBroadcast)
_patterns(gen.IntToPtrOp, IntToPtrOfConstantByteOffset)
