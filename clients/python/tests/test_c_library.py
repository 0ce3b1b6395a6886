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


# --- frames and deadlines: call-probe against the fake server ------------------------------------

import re  # noqa: E402
import struct  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from fakeserver import FakeServer  # noqa: E402
from streakd_client import framing  # noqa: E402
from streakd_client.framing import FrameKind  # noqa: E402

OK_RESPONSE = framing.encode_response_body(0)


def raw(kind, request_id, body=b""):
    return framing.encode_frame(kind, request_id, body)


def scenario(answer):
    """A fake server handler: `answer(conn, request_id, n)` for the n-th REQUEST (from 1)."""
    count = []

    def handler(conn, frame, server):
        if frame.kind == FrameKind.REQUEST:
            count.append(frame.request_id)
            answer(conn, frame.request_id, len(count))
    return handler


def probe(build, handler, mode, deadline_ms, calls=1):
    """Runs call-probe against a fake server with `handler`: its output lines (the elapsed seconds
    as a float at the end of each) and the server."""
    server = FakeServer(handler)
    try:
        out = run(build / "call-probe", str(server.port), mode, str(deadline_ms), str(calls), timeout=60)
    finally:
        server.close()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "runtime error" not in out.stderr and "Sanitizer" not in out.stderr, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == calls, out.stdout
    return [(line, float(re.search(r"\[([0-9.]+)s\]$", line).group(1))) for line in lines], server


def later(seconds, action):
    def guarded():
        try:
            action()
        except OSError:
            pass  # the test is over and the connection closed
    timer = threading.Timer(seconds, guarded)
    timer.daemon = True
    timer.start()


STALLS = {
    # the first bytes of a RESPONSE frame (header and two status bytes of 100), then nothing
    "stall_mid_frame": lambda conn, rid, n: conn.send(struct.pack(">IBI", 100, 2, rid) + b"\x00\x00"),
    # one byte of a frame's length, then nothing
    "stall_after_first_byte": lambda conn, rid, n: conn.send(b"\x00"),
    # a whole RESPONSE, one byte every 0.4 s (12 bytes: 4.8 s)
    "trickle": lambda conn, rid, n: [later(0.4 * i, lambda b=b: conn.send(bytes([b])))
                                     for i, b in enumerate(raw(FrameKind.RESPONSE, rid, OK_RESPONSE))],
}


@pytest.mark.parametrize("stall", sorted(STALLS))
@pytest.mark.parametrize("mode", ["unary", "stream"])
def test_the_deadline_holds_once_a_frame_has_started(build, stall, mode):
    """A 1000 ms call or stream ends with DEADLINE_EXCEEDED after about a second (a stream's after
    its two-second drain at most), CANCEL sent, however the frame in progress arrives; the header's
    promise. It used to wait 10 s more for the frame and fail UNAVAILABLE "partial frame"."""
    (line, elapsed), server = probe(build, scenario(STALLS[stall]), mode, 1000)[0][0], None
    assert "DEADLINE_EXCEEDED: /streak.v1.Streaks/" in line and "deadline exceeded (client)" in line, line
    assert 0.9 <= elapsed < (1.9 if mode == "unary" else 3.9), line


def test_a_frame_cut_by_a_deadline_is_resumed_by_the_next_call(build):
    """The first answer stalls mid-frame past the deadline and arrives later: the connection stays
    usable, the next call reads the rest of that frame (a late answer, dropped) and then its own."""
    first_sent = threading.Event()

    def answer(conn, rid, n):
        if n == 1:
            frame = raw(FrameKind.RESPONSE, rid, OK_RESPONSE)
            conn.send(frame[:6])
            later(1.0, lambda: (conn.send(frame[6:]), first_sent.set()))
        else:
            first_sent.wait(5)  # frames do not interleave: the rest of the first one goes first
            conn.respond(rid)

    lines, server = probe(build, scenario(answer), "unary", 700, calls=2)
    assert lines[0][0].startswith("call 1: DEADLINE_EXCEEDED"), lines
    assert lines[1][0].startswith("call 2: OK"), lines
    assert server.cancels == [1]


@pytest.mark.parametrize("mode", ["unary", "stream"])
def test_a_frame_length_under_5_is_refused_from_the_length_alone(build, mode):
    """Length 3 and two more bytes: INTERNAL at once, not a wait for nine header bytes."""
    lines, _ = probe(build, scenario(lambda conn, rid, n: conn.send(struct.pack(">IB", 3, 2) + b"\0\0")), mode, 5000)
    line, elapsed = lines[0]
    assert "INTERNAL: bad frame from the server: length 3 is not 5...4194304" in line, line
    assert elapsed < 1.5, line


PROTOCOL_ERRORS = {
    "unknown kind": ("unary", lambda conn, rid, n: conn.send(raw(99, rid, b"xx")), "frame kind 99"),
    "END_STREAM for a unary call": ("unary", lambda conn, rid, n: conn.send(raw(FrameKind.END_STREAM, rid, OK_RESPONSE)),
                                    "a END_STREAM for the unary call /streak.v1.Streaks/GetStreak"),
    "STREAM_MESSAGE for a unary call": ("unary", lambda conn, rid, n: conn.send(raw(FrameKind.STREAM_MESSAGE, rid)),
                                        "a STREAM_MESSAGE for the unary call"),
    "truncated GOAWAY": ("unary", lambda conn, rid, n: conn.send(raw(FrameKind.GOAWAY, 0, b"\0\0")), "a GOAWAY of 2 bytes"),
    "GOAWAY with bytes after": ("unary", lambda conn, rid, n: conn.send(raw(
        FrameKind.GOAWAY, 0, framing.encode_goaway_body(rid, 14, "bye") + b"x")), "a GOAWAY of 11 bytes"),
    "PING of 4 bytes": ("unary", lambda conn, rid, n: conn.send(raw(FrameKind.PING, 0, b"1234")), "a PING with 4 bytes"),
    "END_STREAM with bytes after": ("stream", lambda conn, rid, n: conn.send(raw(
        FrameKind.END_STREAM, rid, OK_RESPONSE + b"junk")), "bytes after an END_STREAM's status"),
}


@pytest.mark.parametrize("case", sorted(PROTOCOL_ERRORS))
def test_a_protocol_error_ends_the_call_at_once(build, case):
    """Frames PROTOCOL.md section 2.1 refuses: INTERNAL now, not a wait for the deadline."""
    mode, answer, message = PROTOCOL_ERRORS[case]
    lines, _ = probe(build, scenario(answer), mode, 5000, calls=2)
    (first, elapsed), (second, _) = lines
    assert "INTERNAL: bad frame from the server: " + message in first, first
    assert elapsed < 1.5, first
    assert "INTERNAL" in second  # the connection is closed


# --- server addresses: address-probe against docs/vectors/server-addresses.json -----------------

import vectors  # noqa: E402

ADDRESSES, LOOPBACK = vectors.server_addresses()


def test_addresses_and_loopback_as_the_shared_cases_say(build):
    """streak_parse_address and streak_is_loopback follow the rule of `streak --server` and of the
    Python client (docs/vectors/server-addresses.json; a C string cannot hold U+0000, and no case does)."""
    arguments = []
    for case in ADDRESSES:
        arguments += ["address", case["text"]]
    for host, _ in LOOPBACK:
        arguments += ["loopback", host]
    out = run(build / "address-probe", *arguments)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")[:-1]
    expected = [("address\terror" if case.get("error") is not None
                 else f"address\t{case['host']}\t{case['port']}\t{int(case['loopback'])}") for case in ADDRESSES]
    expected += [f"loopback\t{int(loopback)}" for _, loopback in LOOPBACK]
    for line, want, argument in zip(lines, expected, arguments[1::2]):
        assert line == want, repr(argument)
    assert len(lines) == len(expected)
