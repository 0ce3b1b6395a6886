"""Offline: the public API is typed. mypy --strict (settings in pyproject.toml) passes on the package,
examples/heatmap.py and tests/typing/sample.py (a user's code), and infers `datetime.date` where the results carry dates."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_package_ships_its_type_information():
    package = ROOT / "streakd_client"
    assert (package / "py.typed").is_file()
    assert (package / "pb" / "types_pb2.pyi").is_file() and (package / "pb" / "service_pb2.pyi").is_file()


def normalized(revealed: str) -> str:
    """mypy's spelling varies by version: `builtins.list[X]` or `list[X]`, `Union[X, None]` or `X | None`."""
    revealed = revealed.replace("builtins.", "")
    match = re.fullmatch(r"Union\[(.*), None\]", revealed)
    return f"{match.group(1)} | None" if match else revealed


def test_mypy_strict_passes_and_infers_dates():
    pytest.importorskip("mypy", reason="mypy is in the [test] extra (pip install -e .[test])")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--no-incremental",
         "--no-error-summary", "--hide-error-context", "streakd_client", str(ROOT / "examples" / "heatmap.py"),
         str(ROOT / "tests" / "typing" / "sample.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    errors = [line for line in lines if ": error:" in line]
    assert result.returncode == 0 and not errors, "\n".join(lines) + result.stderr
    revealed = [normalized(line.split("Revealed type is ", 1)[1].strip('"')) for line in lines
                if "Revealed type is" in line]
    assert revealed == [
        "datetime.date",
        "list[streakd_client.models.Habit]",
        "datetime.date | None",
        "streakd_client.models.WatchEvent | None",
        "datetime.date",
        "streakd_client.models.Settings | None",
        "streakd_client.models.Habit | None",
    ]
