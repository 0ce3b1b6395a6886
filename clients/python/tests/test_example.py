"""Offline: examples/heatmap.py fails cleanly (one line, no traceback) when the token file is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "heatmap.py"


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("STREAK_", "STREAKD_"))}
    environment.update(env)
    return subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=60,
                          env=environment)


def test_missing_token_file_is_one_clear_line(tmp_path):
    missing = tmp_path / "token"
    result = run("--server", "127.0.0.1:1", "--token-file", str(missing))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"heatmap.py: UNAUTHENTICATED (16): cannot read the token file {missing}: "
                                    "it does not exist;"), result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_default_token_file_comes_from_the_data_dir(tmp_path):
    result = run("--server", "127.0.0.1:1", STREAKD_DATA_DIR=str(tmp_path / "data"))
    assert result.returncode == 1
    assert f"cannot read the token file {tmp_path / 'data' / 'token'}" in result.stderr
    assert "Traceback" not in result.stderr
