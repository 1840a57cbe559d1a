"""``tc.Space``: a configuration space for the autotuner's model-guided search.

``tc.Space(BLOCK_M=[64, 128], BLOCK_N=[64, 128, 256], num_warps=[4, 8], num_stages=[3, 4])``
is the cartesian product of its axes; an axis named like a launch option (``num_warps``,
``num_stages``, ``num_ctas``, ``maxnreg``) sets that option of each `Config`, every other axis
a meta-parameter (a constexpr parameter of the kernel). ``where=lambda point: ...`` keeps only
the points (dicts of axis values) it accepts, as Triton users prune with
``early_config_prune``. A point's neighbours (one axis moved one step along its values) are
what the search walks.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

# The axes that are launch options of a `Config` rather than meta-parameters.
OPTION_AXES = ("num_warps", "num_stages", "num_ctas", "maxnreg")


class Space:
    """A cartesian product of configuration axes (see the module docstring)."""

    def __init__(self, where: Callable[[dict[str, Any]], bool] | None = None,
                 **axes: Sequence[Any]) -> None:
        if not axes:
            raise ValueError("tc.Space needs at least one axis, e.g. Space(BLOCK=[64, 128])")
        for name, values in axes.items():
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) \
                    or not values:
                raise ValueError(f"tc.Space axis {name!r} must be a non-empty list of values, "
                                 f"got {values!r}")
            if len(set(map(repr, values))) != len(values):
                raise ValueError(f"tc.Space axis {name!r} repeats a value: {list(values)!r}")
        self.axes: dict[str, tuple[Any, ...]] = {name: tuple(v) for name, v in axes.items()}
        self.where = where
        indices = itertools.product(*(range(len(v)) for v in self.axes.values()))
        self.points: list[tuple[int, ...]] = [p for p in indices
                                              if where is None or where(self.values(p))]
        if not self.points:
            raise ValueError("tc.Space: `where` accepts no point of the space")
        self._position = {point: i for i, point in enumerate(self.points)}

    def __len__(self) -> int:
        return len(self.points)

    def __repr__(self) -> str:
        axes = ", ".join(f"{name}={list(values)!r}" for name, values in self.axes.items())
        return f"Space({axes}; {len(self)} points)"

    def values(self, point: Sequence[int]) -> dict[str, Any]:
        """The axis values of ``point`` (one index per axis)."""
        return {name: values[i] for (name, values), i in zip(self.axes.items(), point)}

    def index(self, point: tuple[int, ...]) -> int | None:
        """``point``'s position among the points `where` keeps; None for a point it drops."""
        return self._position.get(point)

    def neighbours(self, position: int) -> list[int]:
        """The positions of the points one step along one axis from the point at
        ``position``."""
        point = self.points[position]
        out = []
        for axis, size in enumerate(len(v) for v in self.axes.values()):
            for step in (-1, 1):
                moved = point[axis] + step
                if 0 <= moved < size:
                    found = self.index((*point[:axis], moved, *point[axis + 1:]))
                    if found is not None:
                        out.append(found)
        return out

    def config_parts(self, position: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """The meta-parameters and the launch options of the point at ``position``."""
        values = self.values(self.points[position])
        options = {k: v for k, v in values.items() if k in OPTION_AXES}
        return {k: v for k, v in values.items() if k not in OPTION_AXES}, options
