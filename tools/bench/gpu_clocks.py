"""The SM clock and the board's power while a benchmark's columns run, sampled by
``nvidia-smi`` in the background.

A large matmul on an H100/H200 runs at the board's power cap (700 W), and the clock the cap
leaves differs from kernel to kernel: on an H200 (fp16 8192^3), cuBLAS's kernel ran at
1425-1440 MHz and tilecraft's mma.sync kernel at 1650-1680 MHz, both at 691-693 W. A ratio of
their TFLOP/s is then also a ratio of their energy per FLOP, which the clock column shows.

    log = ClockLog()            # starts nvidia-smi (or records why it cannot)
    with log.span("cuBLAS"):    # any number of spans per label
        ...
    log.summary("cuBLAS")       # (median MHz, median W) of the samples inside its spans
    log.close()
"""

from __future__ import annotations

import contextlib
import datetime
import shutil
import statistics
import subprocess
import threading
import time
from typing import Iterator

QUERY = "timestamp,clocks.sm,power.draw"


def parse_sample(line: str) -> tuple[float, float, float] | None:
    """``(seconds since the epoch, MHz, W)`` of one line of ``nvidia-smi --query-gpu=timestamp,
    clocks.sm,power.draw --format=csv,noheader,nounits``, or None for a line that is not one
    (a header, ``[N/A]``, an error message)."""
    parts = [part.strip() for part in line.split(",")]
    if len(parts) != 3:
        return None
    try:
        when = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        return when, float(parts[1]), float(parts[2])
    except ValueError:
        return None


class ClockLog:
    """Samples of GPU ``device``'s SM clock and power every ``period_ms``, and named time
    spans to summarize them over. Where ``nvidia-smi`` is missing or fails, `unavailable`
    says why and every summary is None."""

    def __init__(self, device: int = 0, period_ms: int = 20) -> None:
        self.samples: list[tuple[float, float, float]] = []
        self.spans: dict[str, list[tuple[float, float]]] = {}
        self.unavailable: str | None = None
        self._process: subprocess.Popen | None = None
        executable = shutil.which("nvidia-smi")
        if executable is None:
            self.unavailable = "nvidia-smi not found"
            return
        try:
            self._process = subprocess.Popen(
                [executable, f"--query-gpu={QUERY}", "--format=csv,noheader,nounits",
                 f"-lms={period_ms}", f"-i={device}"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError as error:
            self.unavailable = f"nvidia-smi did not start: {error}"
            return
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            sample = parse_sample(line)
            if sample is not None:
                self.samples.append(sample)

    @contextlib.contextmanager
    def span(self, label: str) -> Iterator[None]:
        """Records the time the ``with`` body takes as one of ``label``'s spans."""
        start = time.time()
        try:
            yield
        finally:
            self.spans.setdefault(label, []).append((start, time.time()))

    def summary(self, label: str) -> tuple[float, float] | None:
        """The median SM clock (MHz) and power (W) of the samples inside ``label``'s spans, or
        None where there are none."""
        inside = [(mhz, watts) for when, mhz, watts in list(self.samples)
                  if any(start <= when <= end for start, end in self.spans.get(label, ()))]
        if not inside:
            return None
        return (statistics.median(mhz for mhz, _ in inside),
                statistics.median(watts for _, watts in inside))

    def close(self) -> None:
        """Stops sampling, once the samples nvidia-smi wrote are read (they and the spans
        stay)."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait()
            self._reader.join()
            self._process = None
