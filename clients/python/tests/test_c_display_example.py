"""Offline: the C packed-heatmap decoder and display example (clients/c), when it can be built: the
documented example bytes, refused inputs, and a packed GetHeatmap from the fake server."""

import subprocess

import pytest

from fakeserver import FakeServer
from streakd_client import service_pb2, types_pb2
from streakd_client.framing import FrameKind, RequestBody


# The worked example of PROTOCOL.md section 8.5 (a GetHeatmapResponse), as in test_packed.py.
EXAMPLE_HEX = ("122d 0a0708e80f10031801 120708e80f1003180a 1802 2006 2a02c308 3206640000640032 "
               "3a031a110a 420408091809")

EXPECTED = """packed heatmap: 47 bytes; 2024-03-01 to 2024-03-10, 6 days, 2 weeks from Monday
    ███
    ▀▀▀
     ▄

    ▄█▄
     ▀


███
▀▀▀
 ▄

 ▄

2024-03-01 row 4: level 3, 100%, 1 of 1 due, 1 active
2024-03-02 row 5: level 0, 0%, 0 of 1 due, 1 active
2024-03-03 row 6: level 0, 0%, 0 of 1 due, 2 active
2024-03-04 row 0: level 3, 100%, 2 of 2 due, 2 active
2024-03-05 row 1: level 0, 0%, 0 of 1 due, 2 active
2024-03-06 row 2: level 2, 50%, 1 of 2 due, 2 active
"""


@pytest.fixture(scope="module")
def example(c_build):
    return str(c_build / "streak-display-example")


def run(example, *args):
    return subprocess.run([example, *args], capture_output=True, text=True, timeout=30)


def test_the_documented_example_decodes_and_draws(example):
    out = run(example, "--decode", EXAMPLE_HEX, "--list")
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED


def replaced(old: str, new: str) -> str:
    assert old in EXAMPLE_HEX
    return EXAMPLE_HEX.replace(old, new)


@pytest.mark.parametrize("hex_bytes, message", [
    (replaced("2006", "200b"), "days 11 is more than the range holds"),
    (replaced("2a02c308", "2a02c318"), "levels: the unused bits of the last byte are not 0"),
    (replaced("3206640000640032", "3206640000650032"), "percents: 101 for day 3"),
    (replaced("3a031a110a", "3a021a11"), "active: the runs cover 5 of 6 cells"),
    (replaced("3a031a110a", "3a031a1112"), "active: the runs cover more than 6 cells"),
    (replaced("3a031a110a", "3a020232"), "active: a run of length 0"),
    (replaced("420408091809", "4206378080808010"), "excused: overlong varint at byte 1"),
    (replaced("420408091809", "420133"), "excused: more than active on day 0"),
    (replaced("1802", "1800"), "week_start is required"),
    ("1234", "not a protobuf message"),
    ("0a00", "the response has no packed heatmap"),
])
def test_bad_bytes_are_refused(example, hex_bytes, message):
    if hex_bytes.startswith("122d") and len(hex_bytes) > 4:
        # Keep the outer length right: the packed heatmap's own length changed.
        inner = bytes.fromhex(hex_bytes[4:].replace(" ", ""))
        hex_bytes = "12" + format(len(inner), "02x") + inner.hex()
    out = run(example, "--decode", hex_bytes)
    assert out.returncode == 1
    assert message in out.stderr, out.stderr


def test_a_packed_get_heatmap_from_the_fake_server(example):
    seen = []

    def handler(conn, frame, server):
        if frame.kind != FrameKind.REQUEST:
            return
        body = RequestBody.decode(frame.body)
        request = service_pb2.GetHeatmapRequest.FromString(body.message)
        seen.append(request)
        response = service_pb2.GetHeatmapResponse()
        response.ParseFromString(bytes.fromhex(EXAMPLE_HEX.replace(" ", "")))
        response.packed.month_labels.add(label="Mar", week_index=0)
        conn.respond(frame.request_id, payload=response.SerializeToString())

    server = FakeServer(handler)
    try:
        out = run(example, "--server", f"127.0.0.1:{server.port}", "--token", "tok", "--labels",
                  "--from", "2024-03-01", "--to", "2024-03-10", "--as-of", "2024-03-06", "--week-start", "2")
    finally:
        server.close()
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "packed heatmap: 54 bytes; 2024-03-01 to 2024-03-10, 6 days, 2 weeks from Monday"
    assert lines[1] == "Mar"
    assert lines[2:] == EXPECTED.splitlines()[1:15]
    assert len(seen) == 1 and seen[0].packed and seen[0].packed_month_labels and seen[0].week_start.weekday == 2


@pytest.mark.parametrize("dates, message", [
    ((2024, 2, 30, 2024, 3, 5), "from 2024-02-30 is not a day"),
    ((2024, 13, 1, 2025, 1, 3), "from 2024-13-01 is not a day"),
    ((2024, 3, 1, 2024, 4, 31), "to 2024-04-31 is not a day"),
    ((-5000000, 1, 1, 5000000, 1, 1), "from -5000000-01-01 is not a day"),
])
def test_a_packed_heatmap_with_impossible_dates_is_refused(example, dates, message):
    """The protobuf-c path (streak_packed_from_message) checks from and to as the parser does."""
    fy, fm, fd, ty, tm, td = dates

    def handler(conn, frame, server):
        if frame.kind != FrameKind.REQUEST:
            return
        packed = types_pb2.PackedHeatmap(week_start=2, days=3, levels=b"\x3f", percents=bytes([100, 100, 100]),
                                         active=b"\x19", excused=b"\x18",
                                         to=types_pb2.Date(year=ty, month=tm, day=td))
        getattr(packed, "from").CopyFrom(types_pb2.Date(year=fy, month=fm, day=fd))
        conn.respond(frame.request_id, payload=service_pb2.GetHeatmapResponse(packed=packed).SerializeToString())

    server = FakeServer(handler)
    try:
        out = run(example, "--server", f"127.0.0.1:{server.port}", "--token", "tok", "--list")
    finally:
        server.close()
    assert out.returncode == 1, out.stdout
    assert message in out.stderr, out.stderr
