"""Offline: clients/c's library through its test programs (clients/c/tests, `make tests`), built
plainly and with -fsanitize=address,undefined (where any overflow or bad access aborts)."""

import subprocess

import pytest


@pytest.fixture(scope="module", params=["plain", "sanitized"])
def build(request):
    if request.param == "plain":
        return request.getfixturevalue("c_build")
    return request.getfixturevalue("c_sanitized_build")


def run(program, *args, timeout=60):
    return subprocess.run([str(program), *args], capture_output=True, text=True, timeout=timeout)


def test_packed_dates_are_checked_on_both_paths(build):
    """streak_packed_parse and streak_packed_from_message refuse impossible days (2024-02-30,
    2024-13-01, 0000-00-00, years of millions) before any arithmetic, and decode the ranges at the
    ends of 0001-01-01...9999-12-31 (PROTOCOL.md section 9.7)."""
    out = run(build / "packed-test")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == "packed-test: 0 failed"
    assert "runtime error" not in out.stderr, out.stderr
