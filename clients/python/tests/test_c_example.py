"""Offline: the C example (clients/c) against the fake server, when it can be built."""

import socket
import subprocess
import time

import pytest

from fakeserver import FakeServer
from streakd_client import service_pb2, types_pb2
from streakd_client.framing import FrameKind, RequestBody



@pytest.fixture(scope="module")
def example(c_build):
    return str(c_build / "streak-example")


def d(y, m, day):
    return types_pb2.Date(year=y, month=m, day=day)


def handler(conn, frame, server):
    if frame.kind != FrameKind.REQUEST:
        return
    body = RequestBody.decode(frame.body)
    name = body.method.rsplit("/", 1)[-1]
    rid = frame.request_id
    if dict(body.metadata).get("authorization") != "Bearer tok":
        conn.respond(rid, 16, "unknown token")
        return
    if name == "ListHabits":
        conn.respond(rid, payload=service_pb2.ListHabitsResponse().SerializeToString())
    elif name == "CreateHabit":
        req = service_pb2.CreateHabitRequest.FromString(body.message)
        habit = types_pb2.Habit(id=7, name=req.name, created_on=req.created_on)
        conn.respond(rid, payload=service_pb2.CreateHabitResponse(habit=habit).SerializeToString())
    elif name == "RecordCompletion":
        req = service_pb2.RecordCompletionRequest.FromString(body.message)
        if req.habit_id != 7:
            conn.respond(rid, 5, "habit not found")
            return
        day = types_pb2.DayRecord(date=req.date, completed_habit_ids=[7], completed=1, active=1, due=1,
                                  percent=100, level=3, contributing=True)
        streak = types_pb2.StreakSummary(as_of=req.date, current=1, current_start=req.date, longest=1,
                                         longest_start=req.date, longest_end=req.date)
        conn.respond(rid, payload=service_pb2.CompletionResponse(day=day, streak=streak, changed=True)
                     .SerializeToString())
    elif name == "GetHeatmap":
        present = types_pb2.HeatmapCell(present=True, date=d(2024, 3, 4), level=3, completed=1, active=1)
        absent = types_pb2.HeatmapCell()
        week1 = types_pb2.HeatmapWeek(start=d(2024, 2, 26), cells=[types_pb2.HeatmapCell(present=True, level=1)] * 7)
        week2 = types_pb2.HeatmapWeek(start=d(2024, 3, 4), cells=[present] + [absent] * 6)
        heatmap = types_pb2.Heatmap(to=d(2024, 3, 4), week_start=2, weeks=[week1, week2],
                                    month_labels=[types_pb2.MonthLabel(label="Feb", week_index=0)])
        getattr(heatmap, "from").CopyFrom(d(2024, 2, 26))
        conn.respond(rid, payload=service_pb2.GetHeatmapResponse(heatmap=heatmap).SerializeToString())
    else:
        conn.respond(rid, 12, "unimplemented")


def test_c_example_against_fake_server(example):
    server = FakeServer(handler)
    try:
        out = subprocess.run([example, "--server", f"127.0.0.1:{server.port}", "--token", "tok",
                              "--habit", "Stretch", "--date", "2024-03-04"],
                             capture_output=True, text=True, timeout=30)
    finally:
        server.close()
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert 'created habit "Stretch" (id 7)' in lines
    assert "day 2024-03-04: 1 of 1 habit, 100%, level 3, contributing" in lines
    assert "streak: current 1 day (since 2024-03-04), longest 1 day (2024-03-04 to 2024-03-04), as of 2024-03-04" \
        in lines
    assert "Mon 13" in lines and "Tue 1." in lines and "Sun 1." in lines
    methods = [b.method.rsplit("/", 1)[-1] for _, b in server.requests]
    assert methods == ["ListHabits", "CreateHabit", "RecordCompletion", "GetHeatmap"]


def test_c_example_fails_on_error(example):
    server = FakeServer(handler)
    try:
        out = subprocess.run([example, "--server", f"127.0.0.1:{server.port}", "--token", "wrong"],
                             capture_output=True, text=True, timeout=30)
    finally:
        server.close()
    assert out.returncode != 0
    assert "UNAUTHENTICATED (16)" in out.stderr


def test_c_connect_honours_the_timeout(example):
    """A listener whose accept queue is full drops SYNs, so connect() would block for minutes;
    streak_connect gives up after its timeout (the example's 5000 ms)."""
    listener = socket.socket()
    fillers = []
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)  # accept queue of one: a second connection's SYN is dropped
        port = listener.getsockname()[1]
        for _ in range(3):
            filler = socket.socket()
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
            fillers.append(filler)
        time.sleep(0.2)
        started = time.monotonic()
        out = subprocess.run([example, "--server", f"127.0.0.1:{port}", "--token", "tok"],
                             capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - started
    finally:
        for filler in fillers:
            filler.close()
        listener.close()
    assert out.returncode == 1
    assert "UNAVAILABLE (14)" in out.stderr and "timed out after 5000 ms" in out.stderr, out.stderr
    assert 4.5 < elapsed < 30, elapsed


def test_c_example_counts_the_due_habits_not_the_active_ones(example, server):
    """Read daily and Gym on Mondays only: on Tuesday 2024-03-05 one habit is due, and Read done is
    1 of 1 (100 %), as the server's own label says, though both are active."""
    from streakd_client import Client, Weekday

    token = server.add_user("denominator")
    with Client(server.host, server.port, token=token, timeout=10) as client:
        client.create_habit("Read", "2024-03-01")
        client.create_habit("Gym", "2024-03-01", schedule=[Weekday.MONDAY])
        out = subprocess.run([example, "--server", server.address, "--token", token, "--habit", "Read",
                              "--date", "2024-03-05", "--as-of", "2024-03-05"], capture_output=True, text=True,
                             timeout=30)
        label = client.get_day("2024-03-05").accessibility_label
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "day 2024-03-05: 1 of 1 habit, 100%, level 3, contributing"
    assert label == "March 5: 100% completed, 1 of 1 habit"


def test_c_connect_names_the_missing_preface(example):
    """A peer that accepts but never sends the preface: UNAVAILABLE "timed out" once the example's
    5000 ms connect timeout passed, as streakclient.h says, naming the preface."""
    listener = socket.socket()
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        started = time.monotonic()
        out = subprocess.run([example, "--server", f"127.0.0.1:{listener.getsockname()[1]}", "--token", "tok"],
                             capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - started
    finally:
        listener.close()
    assert out.returncode == 1
    assert "UNAVAILABLE (14)" in out.stderr, out.stderr
    assert "timed out after 5000 ms waiting for the server's preface" in out.stderr, out.stderr
    assert 4.5 < elapsed < 30, elapsed


def test_c_connect_refuses_a_peer_that_is_not_streakd(example):
    """An HTTP server answering the preface with its own bytes is not streakd: said at once."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(8)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            time.sleep(1)

    import threading
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        out = subprocess.run([example, "--server", f"127.0.0.1:{listener.getsockname()[1]}", "--token", "tok"],
                             capture_output=True, text=True, timeout=60)
    finally:
        thread.join(5)
        listener.close()
    assert out.returncode == 1
    assert "UNAVAILABLE (14)" in out.stderr and "did not answer with the Streakd preface" in out.stderr, out.stderr


def test_c_refuses_a_token_too_long_to_send_whole(example):
    """streak_call refuses a token it would have had to cut (over 592 bytes) instead of sending it cut."""
    server = FakeServer(handler)
    try:
        out = subprocess.run([example, "--server", f"127.0.0.1:{server.port}", "--token", "t" * 593],
                             capture_output=True, text=True, timeout=30)
    finally:
        server.close()
    assert out.returncode == 1
    assert "INVALID_ARGUMENT (3): /streak.v1.Streaks/ListHabits: token too long (593 bytes; at most 592)" in out.stderr, \
        out.stderr
    assert server.requests == []
