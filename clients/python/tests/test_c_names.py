"""Offline: the C library checks a habit name before sending it (PROTOCOL.md section 2.2),
through clients/c's streak-example against the fake server: 1 to 200 Unicode scalars (UTF-8
lead bytes), not blank, no control character. The cases are docs/vectors/habit-names.json, which
the Swift and Python tests read too."""

from __future__ import annotations

import subprocess

import pytest

import vectors
from fakeserver import FakeServer
from streakd_client import service_pb2
from test_c_example import handler


MESSAGES, ALL_CASES = vectors.habit_names()
# A C string ends at U+0000: such a name never reaches the C client (nor an argv).
CASES = [case for case in ALL_CASES if "\x00" not in case[0]]


@pytest.fixture(scope="module")
def example(c_build):
    return str(c_build / "streak-example")


def create(example: str, name: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Runs streak-example for habit `name`; returns the run and the names CreateHabit sent."""
    server = FakeServer(handler)
    try:
        run = subprocess.run([example, "--server", f"127.0.0.1:{server.port}", "--token", "tok",
                              "--habit", name, "--date", "2024-03-04"], capture_output=True, text=True, timeout=30)
    finally:
        server.close()
    sent = [service_pb2.CreateHabitRequest.FromString(body.message).name
            for _, body in server.requests if body.method.endswith("/CreateHabit")]
    return run, sent


@pytest.mark.parametrize("name, refused, why", CASES, ids=[why for _, _, why in CASES])
def test_each_case_is_sent_or_refused_unsent(example, name, refused, why):
    run, sent = create(example, name)
    if refused is None:
        assert run.returncode == 0, run.stderr
        assert sent == [name]
        return
    assert run.returncode != 0
    assert "INVALID_ARGUMENT" in run.stderr and MESSAGES[refused] in run.stderr, run.stderr
    if refused == "length":
        assert f"got {len(name)})" in run.stderr, run.stderr
    assert sent == []


@pytest.mark.parametrize("name, reason", [
    ("Re\nad", "control characters (U+000A at byte offset 2)"),
    ("Read\u0085", "control characters (U+0085 at byte offset 4)"),
    ("\u00e9\x7f", "control characters (U+007F at byte offset 2)"),
])
def test_the_message_names_the_control_character(example, name, reason):
    run, sent = create(example, name)
    assert run.returncode != 0
    assert reason in run.stderr, run.stderr
    assert sent == []
