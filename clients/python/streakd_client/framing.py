"""The Streakd framing of docs/PROTOCOL.md sections 1 and 2: preface, frames, headers.

Pure functions and an incremental decoder; no sockets. All header integers are
unsigned big-endian.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass, field

PREFACE = b"STREAKD\x01"
"""The 8-byte connection preface: "STREAKD" then protocol version 1."""

PROTOCOL_VERSION = 1
DEFAULT_PORT = 7411
DEFAULT_MAX_FRAME_SIZE = 4 * 1024 * 1024
"""Default maximum of a frame's `length` field (everything after the length itself)."""

_HEADER = struct.Struct(">IBI")  # length, kind, request_id
HEADER_SIZE = _HEADER.size  # 9
MIN_LENGTH = 5  # kind + request_id


class FrameKind(enum.IntEnum):
    """Frame kinds (PROTOCOL.md section 2)."""

    REQUEST = 1
    RESPONSE = 2
    STREAM_MESSAGE = 3
    END_STREAM = 4
    CANCEL = 5
    PING = 6
    PONG = 7
    GOAWAY = 8


class FramingError(Exception):
    """A byte stream that does not follow the framing (bad preface, bad length, bad header)."""


@dataclass(frozen=True)
class Frame:
    """One frame: its kind, request id and body (everything after the 9-byte header)."""

    kind: int
    request_id: int
    body: bytes = b""

    def encode(self) -> bytes:
        """The frame on the wire: u32 length, u8 kind, u32 request_id, body."""
        return encode_frame(self.kind, self.request_id, self.body)


def encode_frame(kind: int, request_id: int, body: bytes = b"") -> bytes:
    """Encodes one frame; `length` counts kind + request_id + body."""
    if not 0 <= request_id <= 0xFFFFFFFF:
        raise ValueError(f"request id out of range: {request_id}")
    return _HEADER.pack(MIN_LENGTH + len(body), int(kind), request_id) + bytes(body)


def encode_string(value: str | bytes, *, width: int = 2) -> bytes:
    """A header string: u16 (or u8 for metadata keys) byte length, then the bytes."""
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    limit = (1 << (8 * width)) - 1
    if len(data) > limit:
        raise ValueError(f"string of {len(data)} bytes does not fit a u{8 * width} length")
    return len(data).to_bytes(width, "big") + data


class _Reader:
    """Reads header fields from a body, raising FramingError when it runs short."""

    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.pos = 0

    def take(self, n: int, what: str) -> bytes:
        if self.pos + n > len(self.data):
            raise FramingError(f"body too short for {what}")
        out = bytes(self.data[self.pos : self.pos + n])
        self.pos += n
        return out

    def u8(self, what: str) -> int:
        return self.take(1, what)[0]

    def u16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big")

    def u32(self, what: str) -> int:
        return int.from_bytes(self.take(4, what), "big")

    def string(self, what: str, *, width: int = 2) -> str:
        n = int.from_bytes(self.take(width, what + " length"), "big")
        raw = self.take(n, what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FramingError(f"{what} is not UTF-8") from exc

    def rest(self) -> bytes:
        out = bytes(self.data[self.pos :])
        self.pos = len(self.data)
        return out


@dataclass(frozen=True)
class RequestBody:
    """A REQUEST body: method path, metadata entries (ordered, keys may repeat) and message bytes."""

    method: str
    metadata: list[tuple[str, str]] = field(default_factory=list)
    message: bytes = b""

    def encode(self) -> bytes:
        if len(self.metadata) > 255:
            raise ValueError("at most 255 metadata entries")
        parts = [encode_string(self.method), bytes([len(self.metadata)])]
        for key, value in self.metadata:
            key_bytes = key.encode("ascii")
            parts.append(encode_string(key_bytes, width=1))
            parts.append(encode_string(value))
        parts.append(bytes(self.message))
        return b"".join(parts)

    @staticmethod
    def decode(body: bytes) -> "RequestBody":
        r = _Reader(body)
        method = r.string("method")
        count = r.u8("metadata count")
        metadata = []
        for _ in range(count):
            key = r.string("metadata key", width=1)
            value = r.string("metadata value")
            metadata.append((key, value))
        return RequestBody(method, metadata, r.rest())


@dataclass(frozen=True)
class StatusHeader:
    """A status header (RESPONSE, END_STREAM, GOAWAY): u8 code, then the message string."""

    code: int
    message: str = ""

    def encode(self) -> bytes:
        return bytes([self.code]) + encode_string(self.message)


def decode_status(body: bytes) -> tuple[StatusHeader, bytes]:
    """Splits a RESPONSE/END_STREAM body into its status header and the bytes after it."""
    r = _Reader(body)
    code = r.u8("status code")
    message = r.string("status message")
    return StatusHeader(code, message), r.rest()


def encode_response_body(code: int, message: str = "", payload: bytes = b"") -> bytes:
    """A RESPONSE body: status header, then (for OK) the serialized response message."""
    return StatusHeader(code, message).encode() + bytes(payload)


def encode_goaway_body(last_request_id: int, code: int, message: str = "") -> bytes:
    """A GOAWAY body: u32 last_request_id, then a status header."""
    return last_request_id.to_bytes(4, "big") + StatusHeader(code, message).encode()


def decode_goaway(body: bytes) -> tuple[int, StatusHeader]:
    """The last request id the server will answer and the reason."""
    r = _Reader(body)
    last = r.u32("last_request_id")
    status, _ = decode_status(r.rest())
    return last, status


class FrameDecoder:
    """Incremental decoder: feed bytes with `feed`, take frames with `next_frame`.

    With `expect_preface`, the first 8 bytes must be the server's preface. Per PROTOCOL.md §1
    the server sends its preface first even when it refuses the client's: the refusal is a
    GOAWAY frame after the preface, returned by `next_frame` like any other frame. Only a
    peer that sends a GOAWAY frame in place of the preface (not streakd) is reported as
    `PrefaceRefused` carrying that GOAWAY; any other bytes there are a `FramingError`.
    """

    def __init__(self, *, expect_preface: bool = False, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self._buffer = bytearray()
        self._expect_preface = expect_preface
        self.max_frame_size = max_frame_size

    def feed(self, data: bytes) -> None:
        self._buffer += data

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def next_frame(self) -> Frame | None:
        """The next complete frame, or None when more bytes are needed."""
        if self._expect_preface:
            head = bytes(self._buffer[: len(PREFACE)])
            if PREFACE.startswith(head):
                if len(head) < len(PREFACE):
                    return None
                del self._buffer[: len(PREFACE)]
                self._expect_preface = False
            else:
                # Not the preface: a GOAWAY frame refusing ours, or a peer that is not streakd
                # (an HTTP server, say), told apart by the first bytes that cannot be a GOAWAY.
                if not _could_be_goaway(head):
                    raise NotStreakd(head)
                frame = self._next_raw()
                if frame is None:
                    return None
                raise PrefaceRefused(frame)
        return self._next_raw()

    def _next_raw(self) -> Frame | None:
        if len(self._buffer) < 4:
            return None
        length = int.from_bytes(self._buffer[:4], "big")
        if length < MIN_LENGTH:
            raise FramingError(f"frame length {length} is under 5")
        if length > self.max_frame_size:
            raise FramingError(f"frame length {length} exceeds the maximum {self.max_frame_size}")
        if len(self._buffer) < 4 + length:
            return None
        _, kind, request_id = _HEADER.unpack_from(self._buffer)
        body = bytes(self._buffer[HEADER_SIZE : 4 + length])
        del self._buffer[: 4 + length]
        return Frame(kind, request_id, body)


def _could_be_goaway(head: bytes) -> bool:
    """Whether the first bytes of an answer can start a GOAWAY frame: a length of 12 (an empty
    status message) to 65,547, then kind 8."""
    if len(head) >= 4 and not 12 <= int.from_bytes(head[:4], "big") <= 12 + 0xFFFF:
        return False
    if (len(head) >= 1 and head[0] != 0) or (len(head) >= 2 and head[1] > 1):
        return False
    return len(head) < 5 or head[4] == FrameKind.GOAWAY


class NotStreakd(FramingError):
    """The peer answered the preface with bytes that are neither streakd's preface nor a GOAWAY."""

    def __init__(self, head: bytes) -> None:
        self.head = head
        super().__init__(f"the server did not answer with the Streakd preface (it sent {head!r})")


class PrefaceRefused(FramingError):
    """A GOAWAY frame where the server's preface should be (streakd itself sends its preface first)."""

    def __init__(self, frame: Frame) -> None:
        self.last_request_id, self.status = decode_goaway(frame.body)
        super().__init__(f"preface refused: {self.status.message} (code {self.status.code})")
