"""Offline: the C library checks a habit name before sending it (PROTOCOL.md section 2.2),
through clients/c's streak-example against the fake server: 1 to 200 Unicode scalars (UTF-8
lead bytes), not blank, no control character."""

from __future__ import annotations

import subprocess

import pytest

from fakeserver import FakeServer
from streakd_client import service_pb2
from test_c_example import handler


# One per Unicode scalar: an emoji is one (4 bytes), e + U+0301 two, a flag two regional indicators.
ACCEPTED_200 = ["a" * 200, "\U0001F3C3" * 200, "e\u0301" * 100, "\U0001F1F3\U0001F1F1" * 100, "\u00e9" * 200]
IDS = ["ascii", "emoji", "combining", "flags", "precomposed"]


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


@pytest.mark.parametrize("name", ACCEPTED_200, ids=IDS)
def test_a_200_scalar_name_is_sent(example, name):
    assert len(name) == 200
    run, sent = create(example, name)
    assert run.returncode == 0, run.stderr
    assert sent == [name]


@pytest.mark.parametrize("name", [n + n[-1] for n in ACCEPTED_200] + ["e\u0301" * 100 + "e"],
                         ids=IDS + ["combining-odd"])
def test_a_201_scalar_name_is_refused_unsent(example, name):
    assert len(name) == 201
    run, sent = create(example, name)
    assert run.returncode != 0
    assert "INVALID_ARGUMENT" in run.stderr and "1 to 200 characters (Unicode scalars; got 201)" in run.stderr
    assert sent == []


@pytest.mark.parametrize("name, reason", [
    (" \t\u3000", "a character that is not white space"),
    ("Re\nad", "control characters (U+000A at byte offset 2)"),
    ("Read\u0085", "control characters (U+0085 at byte offset 4)"),
    ("\u00e9\x7f", "control characters (U+007F at byte offset 2)"),
])
def test_blank_and_control_names_are_refused_unsent(example, name, reason):
    run, sent = create(example, name)
    assert run.returncode != 0
    assert reason in run.stderr, run.stderr
    assert sent == []
