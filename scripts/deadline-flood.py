#!/usr/bin/env python3
"""Sends Pings that carry a deadline to a running streakd and prints the server's resident memory.

Usage: scripts/deadline-flood.py PORT SERVER_PID [REQUESTS [DEADLINE_MS]]

Keeps 64 Pings in flight on one connection (standard library only, no protobuf needed: a
PingRequest may be empty). Each answered request should leave nothing behind on the server,
whatever its deadline (docs/PERFORMANCE-LOG.md, "A request's deadline after its answer").
"""
import socket
import struct
import sys

PREFACE = b"STREAKD\x01"
METHOD = b"/streak.v1.Streaks/Ping"


def request(request_id, deadline):
    key, value = b"deadline-ms", deadline.encode()
    body = (struct.pack(">H", len(METHOD)) + METHOD + bytes([1])
            + bytes([len(key)]) + key + struct.pack(">H", len(value)) + value)
    return struct.pack(">IBI", 5 + len(body), 1, request_id) + body


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise SystemExit(f"no process {pid}")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 400_000
    deadline = sys.argv[4] if len(sys.argv) > 4 else "86400000"
    before = resident_kib(pid)
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(PREFACE + b"".join(request(i, deadline) for i in range(1, 65)))
    sent, answered, buffer, preface = 64, 0, b"", True
    while answered < total:
        data = connection.recv(1 << 20)
        if not data:
            raise SystemExit("the server closed the connection")
        buffer += data
        if preface and len(buffer) >= 8:
            buffer, preface = buffer[8:], False
        more = bytearray()
        while not preface and len(buffer) >= 4:
            (length,) = struct.unpack(">I", buffer[:4])
            if len(buffer) < 4 + length:
                break
            kind, request_id = struct.unpack(">BI", buffer[4:9])
            if kind == 2 and buffer[9] != 0:
                raise SystemExit(f"request {request_id} failed with status {buffer[9]}")
            buffer, answered = buffer[4 + length:], answered + 1
            if sent < total:
                sent += 1
                more += request(request_id, deadline)
        if more:
            connection.sendall(more)
    after = resident_kib(pid)
    print(f"{answered} Pings with deadline-ms {deadline}: server resident {before} -> {after} KiB "
          f"({after - before:+d})")


if __name__ == "__main__":
    main()
