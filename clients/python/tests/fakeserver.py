"""A fake in-process streakd for offline tests: real sockets, scripted answers."""

from __future__ import annotations

import socket
import threading
from typing import Callable

from streakd_client import framing
from streakd_client.framing import Frame, FrameKind, RequestBody


class FakeConnection:
    """The server side of one accepted connection, handed to the handler."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.decoder = framing.FrameDecoder()
        self.lock = threading.Lock()

    def send(self, data: bytes) -> None:
        with self.lock:
            self.sock.sendall(data)

    def send_frame(self, kind: int, request_id: int, body: bytes = b"") -> None:
        self.send(framing.encode_frame(kind, request_id, body))

    def respond(self, request_id: int, code: int = 0, message: str = "", payload: bytes = b"") -> None:
        self.send_frame(FrameKind.RESPONSE, request_id, framing.encode_response_body(code, message, payload))

    def read_exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def frames(self):
        """Frames from the client until it closes."""
        while True:
            frame = self.decoder.next_frame()
            if frame is not None:
                yield frame
                continue
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            self.decoder.feed(chunk)


Handler = Callable[[FakeConnection, Frame, "FakeServer"], None]


class FakeServer:
    """Accepts connections on `host` (127.0.0.1 unless given), port 0; checks the preface (or refuses it), then hands each
    frame to `handler`. Records every request body and CANCEL it saw."""

    def __init__(self, handler: Handler, *, refuse_preface: bool = False, send_preface: bool = True,
                 host: str = "127.0.0.1") -> None:
        self.handler = handler
        self.refuse_preface = refuse_preface
        self.send_preface = send_preface
        self.requests: list[tuple[int, RequestBody]] = []
        self.cancels: list[int] = []
        self.pongs: list[bytes] = []
        self.listener = socket.create_server((host, 0))
        self.port = self.listener.getsockname()[1]
        self.threads: list[threading.Thread] = []
        self.connections: list[FakeConnection] = []
        self.cancel_seen = threading.Event()
        self._accept_thread = threading.Thread(target=self._accept, daemon=True)
        self._accept_thread.start()

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            conn = FakeConnection(sock)
            self.connections.append(conn)
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, conn: FakeConnection) -> None:
        try:
            preface = conn.read_exact(8)
            if self.refuse_preface or preface != framing.PREFACE:
                conn.send_frame(FrameKind.GOAWAY, 0, framing.encode_goaway_body(
                    0, 3, 'bad preface: expected "STREAKD" version 1'))
                conn.sock.close()
                return
            if self.send_preface:
                conn.send(framing.PREFACE)
            for frame in conn.frames():
                if frame.kind == FrameKind.REQUEST:
                    self.requests.append((frame.request_id, RequestBody.decode(frame.body)))
                elif frame.kind == FrameKind.CANCEL:
                    self.cancels.append(frame.request_id)
                    self.cancel_seen.set()
                elif frame.kind == FrameKind.PONG:
                    self.pongs.append(frame.body)
                self.handler(conn, frame, self)
        except (EOFError, OSError):
            pass
        finally:
            try:
                conn.sock.close()
            except OSError:
                pass

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        self._accept_thread.join(timeout=2)
        for conn in self.connections:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.sock.close()
        for thread in self.threads:
            thread.join(timeout=2)


def fake_client(server: FakeServer, timeout: float = 5.0):
    """Yields a Client of the fake `server` (token "good") and closes it afterwards (the body of a
    `client` fixture)."""
    from streakd_client import Client

    with Client("127.0.0.1", server.port, token="good", timeout=timeout) as client:
        yield client
