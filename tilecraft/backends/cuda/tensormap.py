"""The host side of TMA: a `TensorDescriptor` kernel argument encoded as a ``CUtensorMap``
(``cuTensorMapEncodeTiled``) in device memory, whose address the kernel gets.

The kernel says how (`tma.tensormap_parameter`): the box its copies move and the swizzle of its
shared buffers; the descriptor gives the tensor (address, sizes, strides, element type) and
what out-of-bounds reads give (``padding="nan"``: NaN). Encoded maps are kept by their inputs,
so launching again with the same tensors encodes and copies nothing.

Kernels that make descriptors (``tl.make_tensor_descriptor``) write their maps to global scratch
memory, 128 bytes per map (two or three maps for one made in a loop with asynchronous stores)
and program: `global_scratch` gives each stream of each device one buffer that grows to the
largest launch (launches on one stream run in order, so they can share it).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from .driver import (CudaError, DeviceBuffer, _check, _driver, ensure_context, pointer_of,
                     stream_handle)

__all__ = ["global_scratch", "tensormap_address"]

#: Encoded maps kept, least recently used first out.
_KEPT = 256
_MAPS: OrderedDict[tuple, DeviceBuffer] = OrderedDict()

_DATA_TYPES = {
    "fp16": "FLOAT16", "bf16": "BFLOAT16", "fp32": "FLOAT32", "fp64": "FLOAT64",
    "int8": "UINT8", "uint8": "UINT8", "fp8e4nv": "UINT8", "fp8e5": "UINT8",
    "int16": "UINT16", "uint16": "UINT16", "int32": "INT32", "uint32": "UINT32",
    "int64": "INT64", "uint64": "UINT64",
}
_SWIZZLES = {128: "128B", 64: "64B", 32: "32B", 0: "NONE"}


def tensormap_address(desc: Any, parameter: dict, name: str) -> int:
    """The device address of ``desc`` (a `TensorDescriptor` argument named ``name``) encoded
    as kernel parameter ``parameter`` (`tma.tensormap_parameter`) asks."""
    element = desc.element_type
    if list(desc.block_shape) != parameter["block"] or \
            element.primitive_bitwidth != parameter["element_bits"]:
        raise TypeError(f"argument '{name}': a descriptor of {desc.block_shape} x {element} "
                        f"blocks where the kernel was compiled for {parameter['block']}")
    base = pointer_of(desc.base, name)
    key = (base, tuple(desc.shape), tuple(desc.strides), tuple(parameter["box"]),
           parameter["swizzle"], element.name, desc.padding)
    buffer = _MAPS.get(key)
    if buffer is None:
        buffer = _encode(base, desc, parameter, name)
        _MAPS[key] = buffer
        if len(_MAPS) > _KEPT:
            _MAPS.popitem(last=False)
    else:
        _MAPS.move_to_end(key)
    return int(buffer.address)


def _encode(base: int, desc: Any, parameter: dict, name: str) -> DeviceBuffer:
    driver = _driver()
    element = desc.element_type
    itemsize = element.primitive_bitwidth // 8
    data_type = getattr(driver.CUtensorMapDataType,
                        f"CU_TENSOR_MAP_DATA_TYPE_{_DATA_TYPES[element.name]}")
    swizzle = getattr(driver.CUtensorMapSwizzle,
                      f"CU_TENSOR_MAP_SWIZZLE_{_SWIZZLES[parameter['swizzle']]}")
    fill = (driver.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
            if desc.padding == "nan" else
            driver.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    rank = len(desc.shape)
    try:
        sizes = [driver.cuuint64_t(size) for size in reversed(desc.shape)]
        strides = [driver.cuuint64_t(stride * itemsize)
                   for stride in reversed(desc.strides[:-1])]
        box = [driver.cuuint32_t(size) for size in reversed(parameter["box"])]
        tensor_map = _check(driver.cuTensorMapEncodeTiled(
            data_type, rank, base, sizes, strides, box, [driver.cuuint32_t(1)] * rank,
            driver.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
            driver.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_256B, fill),
            "cuTensorMapEncodeTiled")
    except CudaError as error:
        raise CudaError(f"argument '{name}': {error} (shape {desc.shape}, strides "
                        f"{desc.strides}, box {parameter['box']})") from None
    buffer = DeviceBuffer(128)
    _check(driver.cuMemcpyHtoD(buffer.address, tensor_map.getPtr(), 128), "cuMemcpyHtoD")
    return buffer


_SCRATCH: dict[tuple[int, int], DeviceBuffer] = {}


def global_scratch(nbytes: int, stream: object) -> int:
    """The address of at least ``nbytes`` of device memory for a launch on ``stream`` (None:
    the current stream)."""
    key = (ensure_context(), stream_handle(stream))
    buffer = _SCRATCH.get(key)
    if buffer is None or buffer.size < nbytes:
        buffer = _SCRATCH[key] = DeviceBuffer(max(nbytes, 2 * (buffer.size if buffer else 0)))
    return int(buffer.address)
