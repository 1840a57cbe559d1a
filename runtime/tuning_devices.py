"""The GPUs the autotuner measures configurations on at once, and the arguments copied to them.

Where several GPUs of the model that holds the launch's tensors are visible, the autotuner
measures a configuration on each of them at a time (`Autotuner`), each with copies of the
launch's tensors (same shape, strides and contents). It does so only when every array argument
is a torch CUDA tensor on one device; anything else (host arrays, tensor descriptors, tensors on
several devices) is measured on that one device. ``TILECRAFT_AUTOTUNE_DEVICES=N`` uses at most
``N`` GPUs (1: only the launch's own).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from .environment import count_variable
from .tensor_descriptor import TensorDescriptor

_ENVIRONMENT_VARIABLE = "TILECRAFT_AUTOTUNE_DEVICES"


def device_limit() -> int | None:
    """``TILECRAFT_AUTOTUNE_DEVICES`` as a count, or None when unset."""
    return count_variable(_ENVIRONMENT_VARIABLE, "GPUs")


def measuring_devices(values: Sequence[Any]) -> list[int]:
    """The GPUs to measure on for a launch with these argument values: the device of its
    tensors first, then the other visible GPUs of the same model; [] when the launch's tensors
    cannot be copied to another GPU (see the module docstring)."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return []
    tensors = [value for value in values if isinstance(value, torch.Tensor)]
    if not tensors or any(not tensor.is_cuda for tensor in tensors):
        return []
    if any(isinstance(value, TensorDescriptor) for value in values):
        return []
    homes = {tensor.device.index for tensor in tensors}
    if len(homes) != 1:
        return []
    home = homes.pop()
    model = torch.cuda.get_device_name(home)
    devices = [home] + [index for index in range(torch.cuda.device_count())
                        if index != home and torch.cuda.get_device_name(index) == model]
    limit = device_limit()
    return devices if limit is None else devices[:limit]


def copy_to(value: Any, device: int) -> Any:
    """``value`` on GPU ``device``: a torch tensor as a copy with its shape, strides and
    contents, anything else as it is."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.Tensor):
        return value
    copy = torch.empty_strided(value.shape, value.stride(), dtype=value.dtype,
                               device=f"cuda:{device}")
    copy.copy_(value)
    return copy
