"""Offline: the framing of docs/PROTOCOL.md, byte for byte and round trips."""

import pytest

from streakd_client import framing
from streakd_client.framing import Frame, FrameDecoder, FrameKind, RequestBody, StatusHeader


def test_preface_bytes():
    assert framing.PREFACE == bytes.fromhex("53545245414B4401")


def test_frame_layout_is_big_endian_and_length_counts_kind_and_id():
    data = framing.encode_frame(FrameKind.PING, 0, b"ABCDEFGH")
    assert data == bytes.fromhex("0000000D" "06" "00000000") + b"ABCDEFGH"
    data = framing.encode_frame(FrameKind.CANCEL, 0x01020304)
    assert data == bytes.fromhex("00000005" "05" "01020304")


def test_request_body_layout():
    body = RequestBody("/streak.v1.Streaks/Ping", [("authorization", "Bearer t"), ("deadline-ms", "250")],
                       b"\x0a\x01x").encode()
    expected = (b"\x00\x17/streak.v1.Streaks/Ping" + b"\x02"
                + b"\x0dauthorization" + b"\x00\x08Bearer t"
                + b"\x0bdeadline-ms" + b"\x00\x03250"
                + b"\x0a\x01x")
    assert body == expected


@pytest.mark.parametrize("body", [
    RequestBody("/streak.v1.Streaks/GetHeatmap"),
    RequestBody("/streak.v1.Streaks/GetDay", [("authorization", "Bearer stk_" + "a" * 64)], b"\x0a\x06\x08\xe8\x0f"),
    RequestBody("/m", [("k", "")] * 255, b""),
    RequestBody("/m", [("unicode", "h\u00e9llo")], bytes(range(256))),
])
def test_request_body_round_trip(body):
    assert RequestBody.decode(body.encode()) == body


def test_too_many_metadata_entries_refused():
    with pytest.raises(ValueError):
        RequestBody("/m", [("k", "v")] * 256).encode()


@pytest.mark.parametrize("code,message,payload", [(0, "", b"\x08\x01"), (5, "habit 9 not found", b""),
                                                  (16, "missing token", b""), (3, "caf\u00e9 " * 1000, b"")])
def test_status_round_trip(code, message, payload):
    body = framing.encode_response_body(code, message, payload)
    assert body[0] == code and int.from_bytes(body[1:3], "big") == len(message.encode())
    status, rest = framing.decode_status(body)
    assert status == StatusHeader(code, message) and rest == payload


def test_goaway_round_trip():
    body = framing.encode_goaway_body(41, 14, "shutting down")
    assert body[:4] == b"\x00\x00\x00\x29"
    assert framing.decode_goaway(body) == (41, StatusHeader(14, "shutting down"))


def test_decoder_byte_by_byte_with_preface():
    frames = [Frame(FrameKind.RESPONSE, 1, framing.encode_response_body(0, "", b"abc")),
              Frame(FrameKind.STREAM_MESSAGE, 2, b""),
              Frame(FrameKind.END_STREAM, 2, StatusHeader(1, "cancelled").encode()),
              Frame(FrameKind.PONG, 0, b"12345678")]
    stream = framing.PREFACE + b"".join(f.encode() for f in frames)
    decoder = FrameDecoder(expect_preface=True)
    out = []
    for i in range(len(stream)):
        decoder.feed(stream[i:i + 1])
        while (frame := decoder.next_frame()) is not None:
            out.append(frame)
    assert out == frames and decoder.buffered == 0


def test_decoder_refused_preface_reports_goaway():
    decoder = FrameDecoder(expect_preface=True)
    decoder.feed(framing.encode_frame(FrameKind.GOAWAY, 0, framing.encode_goaway_body(0, 3, "bad preface")))
    with pytest.raises(framing.PrefaceRefused) as info:
        decoder.next_frame()
    assert info.value.status == StatusHeader(3, "bad preface")


def test_decoder_rejects_wrong_preface():
    decoder = FrameDecoder(expect_preface=True)
    decoder.feed(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    with pytest.raises(framing.NotStreakd, match="did not answer with the Streakd preface"):
        decoder.next_frame()


@pytest.mark.parametrize("head", [b"H", b"\x00\x02", b"\x00\x00\x00\x05", b"\x00\x00\x00\x0c\x02", b"STREAKD\x02"])
def test_decoder_tells_a_peer_that_is_not_streakd_from_its_first_bytes(head):
    """Bytes that are neither the preface nor the start of a GOAWAY: refused without waiting for more."""
    decoder = FrameDecoder(expect_preface=True)
    decoder.feed(head)
    with pytest.raises(framing.NotStreakd):
        decoder.next_frame()


def test_decoder_waits_for_a_possible_goaway_in_place_of_the_preface():
    goaway = framing.encode_frame(FrameKind.GOAWAY, 0, framing.encode_goaway_body(0, 8, "too many connections"))
    decoder = FrameDecoder(expect_preface=True)
    for byte in goaway[:-1]:
        decoder.feed(bytes([byte]))
        assert decoder.next_frame() is None
    decoder.feed(goaway[-1:])
    with pytest.raises(framing.PrefaceRefused):
        decoder.next_frame()


@pytest.mark.parametrize("length", [0, 4, 4 * 1024 * 1024 + 1, 0xFFFFFFFF])
def test_decoder_rejects_bad_lengths_from_the_header_alone(length):
    decoder = FrameDecoder()
    decoder.feed(length.to_bytes(4, "big"))
    with pytest.raises(framing.FramingError):
        decoder.next_frame()


def test_decoder_accepts_the_maximum_size():
    decoder = FrameDecoder(max_frame_size=16)
    frame = Frame(FrameKind.PING, 0, b"x" * 11)
    decoder.feed(frame.encode())
    assert decoder.next_frame() == frame


def test_truncated_header_fields_are_errors():
    with pytest.raises(framing.FramingError):
        framing.decode_status(b"\x00\x00\x05ab")
    with pytest.raises(framing.FramingError):
        RequestBody.decode(b"\x00\x02/m\x01\x03key\x00")


# The byte-by-byte exchange of PROTOCOL.md section 3 (framing helper's section).
EXCHANGE_CLIENT = bytes.fromhex(
    "53545245414B4401"
    "0000001F" "0100000001" "0017" + b"/streak.v1.Streaks/Ping".hex() + "00"
    "00000088" "0100000002" "001C" + b"/streak.v1.Streaks/GetStreak".hex() + "01"
    "0D" + b"authorization".hex() + "004B"
    + b"Bearer stk_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".hex()
    + "0A0708EA0F100B1817")
EXCHANGE_SERVER = bytes.fromhex(
    "53545245414B4401"
    "00000027" "0200000002" "10" "001F" + b"missing or invalid bearer token".hex()
    + "0000000A" "0200000001" "00" "0000" "1001")


def test_protocol_md_exchange_client_bytes():
    from streakd_client import service_pb2, types_pb2
    token = "stk_" + "0123456789abcdef" * 4
    get_streak = service_pb2.GetStreakRequest(as_of=types_pb2.Date(year=2026, month=11, day=23))
    data = (framing.PREFACE
            + framing.encode_frame(FrameKind.REQUEST, 1, RequestBody("/streak.v1.Streaks/Ping").encode())
            + framing.encode_frame(FrameKind.REQUEST, 2, RequestBody(
                "/streak.v1.Streaks/GetStreak", [("authorization", f"Bearer {token}")],
                get_streak.SerializeToString()).encode()))
    assert data == EXCHANGE_CLIENT


def test_protocol_md_exchange_server_bytes():
    from streakd_client import service_pb2
    decoder = FrameDecoder(expect_preface=True)
    decoder.feed(EXCHANGE_SERVER)
    first, second = decoder.next_frame(), decoder.next_frame()
    assert (first.kind, first.request_id) == (FrameKind.RESPONSE, 2)
    assert framing.decode_status(first.body) == (StatusHeader(16, "missing or invalid bearer token"), b"")
    status, payload = framing.decode_status(second.body)
    assert status.code == 0 and service_pb2.PingResponse.FromString(payload).serving
