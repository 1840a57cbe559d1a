"""tools/bench/gpu_clocks.py: nvidia-smi's samples parsed and summarized over named spans, with
a stand-in nvidia-smi on PATH (a script printing what the real one prints)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))

from gpu_clocks import ClockLog, parse_sample  # noqa: E402

FAKE_SMI = """#!{python}
import datetime, sys, time
assert "--query-gpu=timestamp,clocks.sm,power.draw" in sys.argv
while True:
    now = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S.%f")[:-3]
    mhz = 1665 if int(time.time() * 10) % 2 else 1440
    print(f"{{now}}, {{mhz}}, 692.50", flush=True)
    time.sleep(0.01)
"""


def test_a_sample_line_is_parsed_and_other_lines_are_not() -> None:
    when, mhz, watts = parse_sample("2026/11/29 13:30:01.123, 1440, 691.02\n")
    assert (mhz, watts) == (1440.0, 691.02)
    assert abs(when - time.mktime((2026, 11, 29, 13, 30, 1, 0, 0, -1)) - 0.123) < 1e-3
    for line in ("timestamp, clocks.sm [MHz], power.draw [W]", "[N/A], 1, 2", "", "a, b"):
        assert parse_sample(line) is None


@pytest.fixture
def fake_smi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "nvidia-smi"
    script.write_text(FAKE_SMI.format(python=sys.executable))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")


def test_spans_summarize_the_samples_taken_inside_them(fake_smi: None) -> None:
    log = ClockLog()
    assert log.unavailable is None
    started = time.time() + 30  # (the stand-in is a Python process: it may start slowly)
    while not log.samples and time.time() < started:
        time.sleep(0.01)
    with log.span("kernel"):
        time.sleep(0.3)
    time.sleep(0.05)
    log.close()
    mhz, watts = log.summary("kernel")
    assert mhz in (1440.0, 1552.5, 1665.0) and watts == 692.5
    assert log.summary("never timed") is None
    (start, end), = log.spans["kernel"]
    assert sum(start <= when <= end for when, _, _ in log.samples) >= 3


def test_without_nvidia_smi_it_says_why(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    log = ClockLog()
    with log.span("kernel"):
        pass
    log.close()
    assert log.unavailable == "nvidia-smi not found" and log.summary("kernel") is None
