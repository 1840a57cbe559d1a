"""Which GPUs the autotuner measures on: the variable that limits them, and launches whose
arguments cannot be copied to another GPU."""

from __future__ import annotations

import numpy as np
import pytest

from tilecraft.runtime import tuning_devices


@pytest.mark.parametrize("text", ["0", "-1", "two", " "])
def test_a_bad_device_limit_names_the_variable(monkeypatch, text):
    monkeypatch.setenv("TILECRAFT_AUTOTUNE_DEVICES", text)
    with pytest.raises(ValueError, match=f"TILECRAFT_AUTOTUNE_DEVICES={text!r}"):
        tuning_devices.device_limit()


def test_the_limit_is_read_as_a_count(monkeypatch):
    monkeypatch.setenv("TILECRAFT_AUTOTUNE_DEVICES", "2")
    assert tuning_devices.device_limit() == 2
    monkeypatch.delenv("TILECRAFT_AUTOTUNE_DEVICES")
    assert tuning_devices.device_limit() is None


def test_host_arrays_are_measured_where_they_are():
    assert tuning_devices.measuring_devices([np.zeros(4), 3, 1.5]) == []
    value = np.ones(3)
    assert tuning_devices.copy_to(value, 1) is value
