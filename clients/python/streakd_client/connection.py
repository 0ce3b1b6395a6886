"""One framed connection to streakd: preface, request ids, demultiplexing, deadlines.

Synchronous and usable from several threads: whoever waits reads the socket in short
slices and files every frame under its request id, so a Watch stream and unary calls
can share one connection. With TLS the socket is an `ssl.SSLSocket`; every read and write
of it happens under one lock (an SSL object is not for two threads at once), and waiting
for the socket happens outside it.
"""

from __future__ import annotations

import collections
import math
import os
import select
import socket
import ssl
import threading
import time

from . import framing
from . import tls as _tls
from .errors import StatusCode, StreakError
from .framing import Frame, FrameKind, RequestBody, StatusHeader

_SLICE = 0.05  # seconds a waiter reads before letting other waiters look at their queues


class Connection:
    """A connection after the preface exchange. Use `Client` unless you need raw frames."""

    def __init__(self, host: str, port: int, *, connect_timeout: float = 5.0,
                 max_frame_size: int = framing.DEFAULT_MAX_FRAME_SIZE,
                 tls: ssl.SSLContext | None = None, server_hostname: str | None = None) -> None:
        try:
            sock = socket.create_connection((host, port), timeout=connect_timeout)
        except OSError as exc:
            raise StreakError(StatusCode.UNAVAILABLE, f"cannot connect to {host}:{port}: {exc}") from exc
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self._address = address
        self._sock: socket.socket = (sock if tls is None
                                     else _tls.wrap(sock, tls, server_hostname or host, address))
        self._tls = tls is not None
        self._sock.setblocking(False)
        self._io_lock = threading.Lock()
        self._decoder = framing.FrameDecoder(expect_preface=True, max_frame_size=max_frame_size)
        self._read_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._queues: dict[int, collections.deque[Frame]] = {}
        self._pongs: collections.deque[bytes] = collections.deque()
        self._next_id = 1
        self._closed_status: StatusHeader | None = None
        self.goaway: tuple[int, StatusHeader] | None = None
        self._send(framing.PREFACE)
        # The server may refuse the preface with a GOAWAY; read its answer now so that the
        # caller gets a clear error (a client may also send frames right away instead).
        deadline = time.monotonic() + connect_timeout
        while self._decoder_expects_preface():
            if self._closed_status is not None:
                raise StreakError(self._closed_status.code, self._closed_status.message)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise StreakError(StatusCode.UNAVAILABLE, "no preface from the server")
            with self._read_lock:
                self._pump(min(remaining, _SLICE))

    def _decoder_expects_preface(self) -> bool:
        return self._decoder._expect_preface  # noqa: SLF001 (same package)

    # -- sending ---------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        with self._send_lock:
            view = memoryview(data)
            while view:
                try:
                    with self._io_lock:
                        sent = self._sock.send(view)
                except (BlockingIOError, ssl.SSLWantWriteError):
                    select.select([], [self._sock], [], 1.0)
                    continue
                except ssl.SSLWantReadError:
                    select.select([self._sock], [], [], 1.0)
                    continue
                except OSError as exc:
                    self._fail(StatusHeader(StatusCode.UNAVAILABLE, f"connection lost: {exc}"))
                    raise StreakError(StatusCode.UNAVAILABLE, f"connection lost: {exc}") from exc
                view = view[sent:]

    def start_request(self, method: str, message: bytes, *, token: str | None,
                      timeout: float | None, metadata: list[tuple[str, str]] | None = None) -> int:
        """Sends a REQUEST frame and returns its request id; read answers with `wait`."""
        if self._closed_status is not None:
            raise StreakError(self._closed_status.code, self._closed_status.message)
        if self.goaway is not None:
            raise StreakError(StatusCode.UNAVAILABLE, f"server going away: {self.goaway[1].message}")
        entries: list[tuple[str, str]] = []
        if token is not None:
            entries.append(("authorization", f"Bearer {token}"))
        if timeout is not None:
            entries.append(("deadline-ms", str(max(0, math.ceil(timeout * 1000)))))
        entries.extend(metadata or [])
        body = RequestBody(method, entries, message).encode()
        # The server refuses a frame over its limit (4 MiB by default) with GOAWAY and closes the
        # connection, failing every call on it: refuse it here instead, unsent.
        if framing.MIN_LENGTH + len(body) > framing.DEFAULT_MAX_FRAME_SIZE:
            raise StreakError(StatusCode.RESOURCE_EXHAUSTED,
                              f"{method}: request too large ({framing.MIN_LENGTH + len(body)} bytes; the frame limit "
                              f"is {framing.DEFAULT_MAX_FRAME_SIZE}): nothing was sent; send less per request")
        with self._state_lock:
            request_id = self._allocate_id()
            self._queues[request_id] = collections.deque()
        self._send(framing.encode_frame(FrameKind.REQUEST, request_id, body))
        return request_id

    def _allocate_id(self) -> int:
        while True:
            request_id = self._next_id
            self._next_id = 1 if self._next_id >= 0xFFFFFFFF else self._next_id + 1
            if request_id not in self._queues:
                return request_id

    def cancel(self, request_id: int) -> None:
        """Sends CANCEL for a request; its later frames are still filed until `forget`."""
        if self._closed_status is None:
            try:
                self._send(framing.encode_frame(FrameKind.CANCEL, request_id))
            except StreakError:
                pass

    def forget(self, request_id: int) -> None:
        """Stops filing frames for a request id (they are dropped from now on)."""
        with self._state_lock:
            self._queues.pop(request_id, None)

    def ping(self, payload: bytes | None = None, timeout: float = 5.0) -> float:
        """Sends a PING frame and waits for its PONG; returns the round trip in seconds."""
        payload = os.urandom(8) if payload is None else payload
        if len(payload) != 8:
            raise ValueError("a PING carries exactly 8 bytes")
        start = time.monotonic()
        self._send(framing.encode_frame(FrameKind.PING, 0, payload))
        deadline = start + timeout
        while True:
            with self._state_lock:
                while self._pongs:
                    if self._pongs.popleft() == payload:
                        return time.monotonic() - start
            if self._closed_status is not None:
                raise StreakError(self._closed_status.code, self._closed_status.message)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise StreakError(StatusCode.DEADLINE_EXCEEDED, "no PONG before the deadline")
            with self._read_lock:
                self._pump(min(remaining, _SLICE))

    # -- receiving -------------------------------------------------------------------------

    def wait(self, request_id: int, deadline: float | None) -> Frame | None:
        """The next frame for a request (RESPONSE, STREAM_MESSAGE or END_STREAM).

        `deadline` is a time.monotonic() value or None; returns None when it passes first.
        A connection that closes or a GOAWAY that excludes the request gives an
        END_STREAM-like frame carrying UNAVAILABLE.
        """
        while True:
            with self._state_lock:
                queue = self._queues.get(request_id)
                if queue is None:
                    raise ValueError(f"request {request_id} is not in flight")
                if queue:
                    return queue.popleft()
            if self._closed_status is not None:
                return Frame(FrameKind.END_STREAM, request_id, self._closed_status.encode())
            if deadline is None:
                slice_ = _SLICE
            else:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                slice_ = min(remaining, _SLICE)
            with self._read_lock:
                with self._state_lock:
                    if self._queues.get(request_id):
                        continue
                self._pump(slice_)

    def _pump(self, timeout: float) -> None:
        """Reads what arrives within `timeout` and files the frames. Caller holds _read_lock."""
        if self._closed_status is not None:
            return
        # Bytes TLS already decrypted wait inside the SSL object, where select cannot see them.
        if not (self._tls and self._buffered()):
            try:
                readable, _, _ = select.select([self._sock], [], [], timeout)
            except (OSError, ValueError):
                readable = [self._sock]
            if not readable:
                return
        try:
            with self._io_lock:
                data = self._sock.recv(65536)
        except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return
        except OSError as exc:
            self._fail(StatusHeader(StatusCode.UNAVAILABLE, f"connection lost: {exc}"))
            return
        if not data:
            self._fail(self._eof_status())
            return
        self._decoder.feed(data)
        try:
            while (frame := self._decoder.next_frame()) is not None:
                self._dispatch(frame)
        except framing.PrefaceRefused as exc:
            self._fail(StatusHeader(exc.status.code, exc.status.message))
        except framing.NotStreakd as exc:
            self._fail(StatusHeader(StatusCode.UNAVAILABLE, f"cannot connect to {self._address}: {exc}"))
        except framing.FramingError as exc:
            self._fail(StatusHeader(StatusCode.INTERNAL, f"bad frame from the server: {exc}"))

    def _buffered(self) -> bool:
        sock = self._sock
        with self._io_lock:
            return isinstance(sock, ssl.SSLSocket) and sock.pending() > 0

    @property
    def tls_version(self) -> str | None:
        """The TLS version agreed on (e.g. "TLSv1.3"), or None for a plaintext connection."""
        return self._sock.version() if isinstance(self._sock, ssl.SSLSocket) else None

    def _eof_status(self) -> StatusHeader:
        if self.goaway is not None:
            last, status = self.goaway
            return StatusHeader(StatusCode.UNAVAILABLE,
                                f"server closed the connection after GOAWAY: {status.message}")
        return StatusHeader(StatusCode.UNAVAILABLE, "server closed the connection")

    def _dispatch(self, frame: Frame) -> None:
        kind = frame.kind
        if kind in (FrameKind.RESPONSE, FrameKind.STREAM_MESSAGE, FrameKind.END_STREAM):
            with self._state_lock:
                queue = self._queues.get(frame.request_id)
                if queue is not None:
                    queue.append(frame)
        elif kind == FrameKind.PING:
            self._send(framing.encode_frame(FrameKind.PONG, 0, frame.body))
        elif kind == FrameKind.PONG:
            with self._state_lock:
                self._pongs.append(frame.body)
        elif kind == FrameKind.GOAWAY:
            last, status = framing.decode_goaway(frame.body)
            self.goaway = (last, status)
            refused = StatusHeader(StatusCode.UNAVAILABLE,
                                   f"server going away ({status.message}); request not processed")
            with self._state_lock:
                for request_id, queue in self._queues.items():
                    if request_id > last:
                        queue.append(Frame(FrameKind.END_STREAM, request_id, refused.encode()))
        else:
            self._fail(StatusHeader(StatusCode.INTERNAL, f"unexpected frame kind {kind} from the server"))

    def _fail(self, status: StatusHeader) -> None:
        if self._closed_status is None:
            self._closed_status = status
            try:
                self._sock.close()
            except OSError:
                pass

    @property
    def closed(self) -> bool:
        return self._closed_status is not None

    def close(self) -> None:
        """Closes the socket; calls still waiting get UNAVAILABLE."""
        self._fail(StatusHeader(StatusCode.UNAVAILABLE, "connection closed by the client"))
