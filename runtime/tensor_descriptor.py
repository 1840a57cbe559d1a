"""Host tensor descriptors: ``TensorDescriptor(base, shape, strides, block_shape)`` passed to a
kernel whose parameter it becomes a `tl.tensor_descriptor` of (``desc.load(offsets)``,
``desc.store(offsets, value)``), as Triton's ``triton.tools.tensor_descriptor``.

A kernel specializes on the descriptor's element type and block shape; its base, sizes and
strides are runtime values. Where the kernel takes the descriptor as pointer arithmetic (the CPU
backend, GPUs without TMA) it is passed as its pack (`descriptor_pack_values`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tilecraft.language import core as tl

from .arguments import address_of, element_type_of

__all__ = ["TensorDescriptor", "descriptor_pack_values"]


@dataclass
class TensorDescriptor:
    """Blocks of ``block_shape`` of the array ``base`` viewed with ``shape`` and ``strides``
    (in elements; the last stride must be 1); elements outside read as ``padding`` ("zero" or
    "nan")."""

    base: Any
    shape: Sequence[int]
    strides: Sequence[int]
    block_shape: Sequence[int]
    padding: str = "zero"

    def __post_init__(self) -> None:
        self.shape = [int(size) for size in self.shape]
        self.strides = [int(stride) for stride in self.strides]
        self.block_shape = [int(size) for size in self.block_shape]
        rank = len(self.block_shape)
        if not 1 <= rank <= 5:
            raise ValueError(f"a tensor descriptor has rank 1 to 5, got {rank}")
        if not len(self.shape) == len(self.strides) == rank:
            raise ValueError(f"TensorDescriptor: {len(self.shape)} sizes and "
                             f"{len(self.strides)} strides for a block of rank {rank}")
        if self.strides[-1] != 1:
            raise ValueError(f"a tensor descriptor's last stride must be 1, got "
                             f"{self.strides[-1]}")
        if any(size < 1 or size & (size - 1) for size in self.block_shape):
            raise ValueError(f"block shape {self.block_shape} must be powers of 2")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"padding {self.padding!r} is not supported (use 'zero' or 'nan')")
        element = self.element_type
        if self.padding == "nan" and not element.is_floating():
            raise ValueError("padding 'nan' needs a floating-point element type")
        itemsize = element.primitive_bitwidth // 8
        if address_of(self.base) % 16:
            raise ValueError("a tensor descriptor's base must be 16-byte aligned")
        for dim, stride in enumerate(self.strides[:-1]):
            if stride * itemsize % 16:
                raise ValueError(f"a tensor descriptor's strides must be multiples of 16 bytes "
                                 f"(but the last); stride {dim} is {stride} x {element}")
        if self.block_shape[-1] * itemsize < 16:
            raise ValueError(f"Descriptor block shape must have at least 16 bytes in the last "
                             f"dimension, but got {self.block_shape[-1]} * {itemsize} = "
                             f"{self.block_shape[-1] * itemsize} bytes")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: Sequence[int],
                    padding: str = "zero") -> "TensorDescriptor":
        """A descriptor of ``tensor`` (a torch tensor or numpy array) with its own shape and
        strides."""
        if hasattr(tensor, "stride") and callable(tensor.stride):
            strides = list(tensor.stride())
        else:
            strides = [stride // tensor.itemsize for stride in tensor.strides]
        return TensorDescriptor(tensor, list(tensor.shape), strides, block_shape, padding)

    @property
    def element_type(self) -> tl.dtype:
        return element_type_of(self.base)

    def language_type(self) -> tl.tensor_descriptor_type:
        """The kernel parameter's type: the element type and the block shape."""
        return tl.tensor_descriptor_type(tl.block_type(self.element_type, self.block_shape))


def descriptor_pack_values(desc: TensorDescriptor, base: int) -> list:
    """The values that stand for ``desc`` in a kernel rewritten to pointer arithmetic (the
    order of `descriptor_pack_types`): the address ``base``, the sizes, the strides, whether
    out-of-bounds elements read as NaN, whether f32 loads round to TF32 (never)."""
    return [base, *desc.shape, *desc.strides, desc.padding == "nan", False]
