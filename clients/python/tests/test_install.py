"""Integration: `pip install clients/python` (not editable) into a fresh venv, then the installed package
is imported from outside the source tree, used offline, and pings a real streakd ($STREAKD_BIN).

Needs the package index (pip fetches the build backend and protobuf), like the venv the tests run in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from streakd_process import running_streakd

pytestmark = pytest.mark.integration

PROJECT = Path(__file__).resolve().parent.parent

USE_IT = textwrap.dedent("""
    import datetime, pathlib, sys
    import streakd_client
    from streakd_client import Client, Habit, StreakError, TokenFileError, read_token, to_date, types_pb2

    package = pathlib.Path(streakd_client.__file__).resolve().parent
    source = pathlib.Path(sys.argv[1]).resolve()
    assert source not in package.parents and package != source / "streakd_client", package
    assert (package / "py.typed").is_file() and (package / "pb" / "types_pb2.pyi").is_file()
    # Offline: dates, the dataclasses, the token file's error.
    assert to_date("2024-03-05") == datetime.date(2024, 3, 5)
    habit = Habit.from_pb(types_pb2.Habit(id=1, name="Read", created_on=types_pb2.Date(year=2024, month=1, day=1)))
    assert habit.created_on == datetime.date(2024, 1, 1) and habit.to_pb().name == "Read"
    try:
        read_token(pathlib.Path(sys.argv[2]) / "no-such-token")
    except TokenFileError as error:
        assert isinstance(error, StreakError) and "no-such-token" in error.message
    else:
        raise AssertionError("no TokenFileError")
    # And a real server, with the token file it wrote.
    with Client.connect(sys.argv[3], token_file=sys.argv[4], timeout=10) as client:
        assert client.ping(b"x").serving
        assert client.get_streak("2024-03-05").as_of == datetime.date(2024, 3, 5)
    print("installed", streakd_client.__version__, "at", package)
""")


@pytest.fixture
def server():
    yield from running_streakd()


def test_pip_install_into_a_fresh_venv(tmp_path, server):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    build_existed = (PROJECT / "build").exists()
    try:
        install = subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                                  str(PROJECT)], capture_output=True, text=True, timeout=900)
    finally:
        if not build_existed:  # setuptools builds the wheel in the source tree
            shutil.rmtree(PROJECT / "build", ignore_errors=True)
    assert install.returncode == 0, f"pip install {PROJECT} failed:\n{install.stdout}\n{install.stderr}"
    show = subprocess.run([str(python), "-m", "pip", "show", "streakd-client"], capture_output=True, text=True,
                          timeout=120)
    assert "Version: 0.2.0" in show.stdout.splitlines(), show.stdout
    assert "Editable project location" not in show.stdout, "installed editable:\n" + show.stdout
    script = tmp_path / "use_it.py"
    script.write_text(USE_IT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "STREAK_TOKEN", "STREAK_SERVER")}
    token_file = Path(server.data_dir) / "token"
    run = subprocess.run([str(python), str(script), str(PROJECT), str(tmp_path), server.address, str(token_file)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("installed 0.2.0 at " + str(venv.resolve())), run.stdout
