#!/usr/bin/env python3
"""Unread ExportData streams: what they cost the server.

Starts `streakd` (the binary given) on a fresh data directory, imports RECORDS completions for
the local user, then opens CONNECTIONS connections that each send EXPORTS ExportData requests
and never read. Prints the server's resident memory before and after, its CPU use (utime +
stime from /proc, seconds per second) while the exports sit unread, and how the requests were
answered once the client finally reads (pages, END_STREAM codes).

    scripts/repro-unread-exports.py .build/release/streakd [--port 7800] [--records 100000]
        [--connections 5] [--exports 128] [--page-size 0]

Uses only the standard library: frames and the few protobuf messages are encoded by hand.
"""

import argparse
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

PREFACE = b"STREAKD\x01"
REQUEST, RESPONSE, STREAM_MESSAGE, END_STREAM, CANCEL = 1, 2, 3, 4, 5


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, payload):
    """A length-delimited protobuf field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def date(day_number):
    """A streak.v1.Date for days since 1970-01-01."""
    t = time.gmtime(day_number * 86400)
    return varint(1 << 3) + varint(t.tm_year) + varint(2 << 3) + varint(t.tm_mon) + varint(3 << 3) + varint(t.tm_mday)


def request_frame(request_id, method, message, token):
    method = method.encode()
    body = struct.pack(">H", len(method)) + method
    key, value = b"authorization", ("Bearer " + token).encode()
    body += bytes([1, len(key)]) + key + struct.pack(">H", len(value)) + value + message
    return struct.pack(">IBI", 5 + len(body), REQUEST, request_id) + body


def read_exact(sock, count):
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return bytes(data)


def read_frame(sock):
    length, kind, request_id = struct.unpack(">IBI", read_exact(sock, 9))
    return kind, request_id, read_exact(sock, length - 5)


def connect(port, receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(PREFACE)
    assert read_exact(sock, 8) == PREFACE
    return sock


def call(sock, request_id, method, message, token):
    sock.sendall(request_frame(request_id, method, message, token))
    while True:
        kind, rid, body = read_frame(sock)
        if kind == RESPONSE and rid == request_id:
            code = body[0]
            if code != 0:
                (n,) = struct.unpack(">H", body[1:3])
                raise RuntimeError(f"{method}: code {code}: {body[3:3 + n].decode()}")
            return body


def proc_stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("streakd")
    parser.add_argument("--port", type=int, default=7800)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=5)
    parser.add_argument("--exports", type=int, default=128)
    parser.add_argument("--page-size", type=int, default=0, help="records a page (0: the server's 4,096)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds to wait before measuring")
    parser.add_argument("--window", type=float, default=5.0, help="seconds of CPU measured")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="streakd-repro-")
    env = dict(os.environ, TZ="UTC")
    log = open(os.path.join(directory, "server.log"), "wb")
    server = subprocess.Popen(
        [args.streakd, "--host", "127.0.0.1", "--port", str(args.port), "--data-dir", directory],
        stdout=subprocess.PIPE, stderr=log, env=env,
    )
    try:
        line = server.stdout.readline().decode()
        assert "listening" in line, line
        token = open(os.path.join(directory, "token")).read().strip()
        setup = connect(args.port)
        habits = 10
        per_habit = args.records // habits
        for h in range(habits):
            completions = b"".join(field(5, date(7305 + d)) for d in range(per_habit))  # from 1990-01-01
            habit = field(1, f"habit {h}".encode()) + field(2, date(7305)) + completions
            call(setup, 1, "/streak.v1.Streaks/ImportData", field(1, habit), token)
        time.sleep(1)
        before = rss_mb(server.pid)
        print(f"imported {habits * per_habit} completions; server RSS {before:.1f} MB")

        sockets = [connect(args.port, receive_buffer=4096) for _ in range(args.connections)]
        for sock in sockets:
            message = varint(1 << 3) + varint(args.page_size) if args.page_size else b""
            frames = b"".join(
                request_frame(i + 1, "/streak.v1.Streaks/ExportData", message, token) for i in range(args.exports)
            )
            sock.sendall(frames)
        time.sleep(args.settle)
        cpu0, t0 = proc_stat(server.pid), time.monotonic()
        time.sleep(args.window)
        cpu1, t1 = proc_stat(server.pid), time.monotonic()
        after = rss_mb(server.pid)
        print(
            f"{args.connections} x {args.exports} unread exports: server RSS {after:.1f} MB "
            f"(+{after - before:.1f} MB), CPU {(cpu1 - cpu0) / (t1 - t0):.3f} s/s over {t1 - t0:.1f} s"
        )

        # Now read everything: count pages and how each stream ended.
        codes = {}
        pages = 0
        for sock in sockets:
            sock.settimeout(60)
            ended = 0
            while ended < args.exports:
                kind, _, body = read_frame(sock)
                if kind == STREAM_MESSAGE:
                    pages += 1
                elif kind in (END_STREAM, RESPONSE):
                    ended += 1
                    (n,) = struct.unpack(">H", body[1:3])
                    key = (body[0], body[3:3 + n].decode()[:70])
                    codes[key] = codes.get(key, 0) + 1
            sock.close()
        print(f"read {pages} pages; endings:")
        for (code, message), count in sorted(codes.items()):
            print(f"  {count:4} x code {code} {message}")
        setup.close()
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    sys.exit(main())
