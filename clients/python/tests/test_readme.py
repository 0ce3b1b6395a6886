"""Integration: the examples of clients/python/README.md run as written against a real streakd
(the quickstart and "Your data"), with only the server's address and the second account's token
filled in."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from streakd_client import Client

pytestmark = pytest.mark.integration

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_quickstart_runs(server, monkeypatch, capsys):
    quickstart = blocks()[0]
    assert 'create_habit("Read"' in quickstart and "c.watch()" in quickstart
    monkeypatch.setenv("STREAK_SERVER", server.address)
    monkeypatch.setenv("STREAK_TOKEN", server.token)
    for name in ("STREAK_TLS", "STREAK_CA_FILE"):
        monkeypatch.delenv(name, raising=False)
    stop = threading.Event()

    def change_something():
        """The quickstart ends watching for one change: make changes until it is done."""
        with Client(server.host, server.port, token=server.token, timeout=5) as other:
            while not stop.wait(0.3):
                habits = [h for h in other.list_habits() if h.name == "Read"]
                if habits:
                    other.record_completion(habits[0].id, "2024-02-01")
                    other.remove_completion(habits[0].id, "2024-02-01")

    writer = threading.Thread(target=change_something, daemon=True)
    writer.start()
    started = time.monotonic()
    try:
        exec(compile(quickstart, "README.md (quickstart)", "exec"), {})
    finally:
        stop.set()
        writer.join(10)
    assert time.monotonic() - started < 30
    out = capsys.readouterr().out.splitlines()
    assert "2024-03-01 3" in out  # the heatmap has the day recorded


def test_your_data_runs(server, monkeypatch):
    example = blocks()[1]
    assert 'Client.connect("backup:7411", token=other_token)' in example
    monkeypatch.setenv("STREAK_SERVER", server.address)
    monkeypatch.setenv("STREAK_TOKEN", server.token)
    for name in ("STREAK_TLS", "STREAK_CA_FILE"):
        monkeypatch.delenv(name, raising=False)
    with Client(server.host, server.port, token=server.token, timeout=5) as mine:
        habit = mine.create_habit("Stretch", created_on="2024-01-01")
        mine.record_completion(habit.id, "2024-01-02")
    code = example.replace('"backup:7411"', repr(server.address))
    # It goes on from the quickstart, whose import it uses.
    exec(compile(code, "README.md (your data)", "exec"), {"Client": Client, "other_token": server.add_user("backup")})
