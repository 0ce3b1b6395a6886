"""Offline: the client against a fake in-process server (errors, deadlines, streams, GOAWAY)."""

import threading
import time

import pytest

from fakeserver import FakeServer, fake_client
from streakd_client import Client, StatusCode, StreakError, framing, service_pb2, types_pb2
from streakd_client.framing import FrameKind, RequestBody


def _method(server, request_id):
    return dict(server.requests)[request_id]


def scripted(conn, frame, server):
    """Answers by method name; see each test for what it relies on."""
    if frame.kind == FrameKind.PING:
        conn.send_frame(FrameKind.PONG, 0, frame.body)
    if frame.kind != FrameKind.REQUEST:
        return
    body = RequestBody.decode(frame.body)
    name = body.method.rsplit("/", 1)[-1]
    rid = frame.request_id
    if name == "Ping":
        req = service_pb2.PingRequest.FromString(body.message)
        conn.respond(rid, payload=service_pb2.PingResponse(payload=req.payload, serving=True).SerializeToString())
    elif name == "GetStreak":
        auth = dict(body.metadata).get("authorization")
        if auth != "Bearer good":
            conn.respond(rid, StatusCode.UNAUTHENTICATED, "missing or unknown token")
        else:
            streak = types_pb2.StreakSummary(as_of=types_pb2.Date(year=2024, month=3, day=5), current=3, longest=5)
            conn.respond(rid, payload=service_pb2.GetStreakResponse(streak=streak).SerializeToString())
    elif name == "RenameHabit":
        conn.respond(rid, StatusCode.NOT_FOUND, "habit 99 not found")
    elif name == "GetDay":
        conn.respond(rid, StatusCode.INVALID_ARGUMENT, "invalid date 2024-02-30 in field date")
    elif name == "GetSettings":
        pass  # never answers: the client deadline must fire
    elif name == "ListHabits":
        conn.respond(rid, payload=b"\xff\xff\xff")  # not a message
    elif name == "GetServerInfo":
        conn.sock.close()  # connection lost mid-call
    elif name == "Watch":
        def stream():
            for i in range(1, 3):
                day = types_pb2.Date(year=2024, month=3, day=i)
                event = service_pb2.WatchEvent(day=types_pb2.DayRecord(date=day),
                                               streak=types_pb2.StreakSummary(as_of=day, current=i))
                conn.send_frame(FrameKind.STREAM_MESSAGE, rid, event.SerializeToString())
            as_of = service_pb2.WatchRequest.FromString(body.message).as_of
            if as_of.year == 2000:
                conn.send_frame(FrameKind.END_STREAM, rid, framing.StatusHeader(0, "").encode())
            elif as_of.year == 2001:
                conn.send_frame(FrameKind.END_STREAM, rid, framing.StatusHeader(8, "too many watchers").encode())
            else:
                server.cancel_seen.wait(5)
                conn.send_frame(FrameKind.END_STREAM, rid, framing.StatusHeader(1, "cancelled").encode())
        threading.Thread(target=stream, daemon=True).start()
    elif name == "BuildMonthLabels":
        # GOAWAY that excludes this request, then close.
        conn.send_frame(FrameKind.GOAWAY, 0, framing.encode_goaway_body(rid - 1, 14, "shutting down"))
        conn.sock.close()
    else:
        conn.respond(rid, StatusCode.UNIMPLEMENTED, f"unknown method {body.method}")


@pytest.fixture
def server():
    server = FakeServer(scripted)
    yield server
    server.close()


@pytest.fixture
def client(server):
    yield from fake_client(server)


def test_ping_carries_no_token_and_echoes(client, server):
    response = client.ping(b"hello")
    assert response.payload == b"hello" and response.serving
    (rid, body), = server.requests
    assert body.method == "/streak.v1.Streaks/Ping"
    assert "authorization" not in dict(body.metadata)
    assert dict(body.metadata)["deadline-ms"] == "5000"


def test_token_and_typed_success(client, server):
    assert client.get_streak("2024-03-05").current == 3
    rid, body = server.requests[-1]
    assert rid > 0 and dict(body.metadata)["authorization"] == "Bearer good"
    assert service_pb2.GetStreakRequest.FromString(body.message).as_of == types_pb2.Date(year=2024, month=3, day=5)


@pytest.mark.parametrize("call,code,name", [
    (lambda c: c.rename_habit(99, "x"), 5, "NOT_FOUND"),
    (lambda c: c.get_day(types_pb2.Date(year=2024, month=2, day=30)), 3, "INVALID_ARGUMENT"),
    (lambda c: c.build_heatmap(as_of="2024-01-01"), 12, "UNIMPLEMENTED"),
])
def test_errors_are_typed(client, call, code, name):
    with pytest.raises(StreakError) as info:
        call(client)
    assert info.value.code == code and info.value.code_name == name and info.value.message


# Every typed method with `request=` and no fields: the message goes out as given. (Each
# method passes its named parameters, None when not given; those must not count as fields.)
REQUEST_CASES = [
    ("create_habit", "CreateHabit", service_pb2.CreateHabitRequest(name="Read", created_on=types_pb2.Date(
        year=2024, month=1, day=1))),
    ("list_habits", "ListHabits", service_pb2.ListHabitsRequest(include_archived=True)),
    ("rename_habit", "RenameHabit", service_pb2.RenameHabitRequest(habit_id=3, name="Walk")),
    ("archive_habit", "ArchiveHabit", service_pb2.ArchiveHabitRequest(habit_id=3, archived_on=types_pb2.Date(
        year=2024, month=2, day=1))),
    ("record_completion", "RecordCompletion", service_pb2.RecordCompletionRequest(habit_id=3, date=types_pb2.Date(
        year=2024, month=3, day=1))),
    ("remove_completion", "RemoveCompletion", service_pb2.RemoveCompletionRequest(habit_id=3, date=types_pb2.Date(
        year=2024, month=3, day=1))),
    ("batch_completions", "BatchCompletions", service_pb2.BatchCompletionsRequest(record=[types_pb2.Completion(
        habit_id=3, date=types_pb2.Date(year=2024, month=3, day=2))])),
    ("get_day", "GetDay", service_pb2.GetDayRequest(date=types_pb2.Date(year=2024, month=3, day=2))),
    ("get_streak", "GetStreak", service_pb2.GetStreakRequest(as_of=types_pb2.Date(year=2024, month=3, day=5))),
    ("build_month_labels", "BuildMonthLabels", service_pb2.BuildMonthLabelsRequest(
        week_starts=[types_pb2.Date(year=2024, month=1, day=1)], locale="en_US")),
    ("get_heatmap", "GetHeatmap", service_pb2.GetHeatmapRequest(as_of=types_pb2.Date(year=2024, month=3, day=5))),
    ("update_settings", "UpdateSettings", service_pb2.UpdateSettingsRequest(min_percent=50)),
    ("set_habit_schedule", "SetHabitSchedule", service_pb2.SetHabitScheduleRequest(
        habit_id=3, weekdays=types_pb2.WeekdaySet(weekdays=[2, 4]))),
    ("skip_habit", "SkipHabit", service_pb2.SkipHabitRequest(habit_id=3)),
    ("unskip_habit", "UnskipHabit", service_pb2.UnskipHabitRequest(habit_id=3)),
    ("add_rest_period", "AddRestPeriod", service_pb2.AddRestPeriodRequest(
        note="x", **{"from": types_pb2.Date(year=2024, month=7, day=1), "to": types_pb2.Date(year=2024, month=7, day=2)})),
    ("remove_rest_period", "RemoveRestPeriod", service_pb2.RemoveRestPeriodRequest(id=4)),
    ("get_weekday_chart", "GetWeekdayChart", service_pb2.GetWeekdayChartRequest(include_total=True)),
    ("get_month_page", "GetMonthPage", service_pb2.GetMonthPageRequest(year=2024, month=2)),
    ("build_heatmap", "BuildHeatmap", service_pb2.BuildHeatmapRequest(as_of=types_pb2.Date(year=2024, month=3, day=5))),
    ("build_month_page", "BuildMonthPage", service_pb2.BuildMonthPageRequest(
        year=2024, month=2, as_of=types_pb2.Date(year=2024, month=3, day=5))),
    ("delete_habit", "DeleteHabit", service_pb2.DeleteHabitRequest(habit_id=3)),
    ("unarchive_habit", "UnarchiveHabit", service_pb2.UnarchiveHabitRequest(habit_id=3)),
    ("import_data", "ImportData", service_pb2.ImportDataRequest(habits=[service_pb2.ImportHabit(
        name="Read", completions=[types_pb2.Date(year=2024, month=3, day=1)])], settings=types_pb2.Settings())),
]


def _request_script(conn, frame, server):
    """Answers every request UNIMPLEMENTED: these tests check only what was sent."""
    if frame.kind == FrameKind.REQUEST:
        conn.respond(frame.request_id, StatusCode.UNIMPLEMENTED, "recorded")


@pytest.mark.parametrize("method,rpc,request_message", REQUEST_CASES, ids=[c[0] for c in REQUEST_CASES])
def test_typed_methods_take_a_request_message(method, rpc, request_message):
    server = FakeServer(_request_script)
    try:
        with Client("127.0.0.1", server.port, token="good", timeout=5) as client:
            with pytest.raises(StreakError) as info:
                getattr(client, method)(request=request_message)
        assert info.value.code == StatusCode.UNIMPLEMENTED  # reached the server: no TypeError
        (_, body), = server.requests
        assert body.method == f"/streak.v1.Streaks/{rpc}"
        assert body.message == request_message.SerializeToString()
    finally:
        server.close()


def test_request_and_a_field_with_a_value_is_a_type_error(client, server):
    with pytest.raises(TypeError, match="not both"):
        client.get_streak("2024-03-05", request=service_pb2.GetStreakRequest())
    with pytest.raises(TypeError, match="not both"):
        client.list_habits(True, request=service_pb2.ListHabitsRequest())
    with pytest.raises(TypeError, match="takes a GetStreakRequest"):
        client.get_streak(request=service_pb2.GetDayRequest())
    assert server.requests == []


def test_request_message_with_the_typed_method(client, server):
    request = service_pb2.GetStreakRequest(as_of=types_pb2.Date(year=2024, month=3, day=5))
    assert client.get_streak(request=request).current == 3
    assert service_pb2.GetStreakRequest.FromString(server.requests[-1][1].message) == request


def test_export_data_takes_a_request_message():
    server = FakeServer(_request_script)
    try:
        with Client("127.0.0.1", server.port, token="good", timeout=5) as client:
            stream = client.export_data(request=service_pb2.ExportDataRequest(page_size=5))
            with pytest.raises(StreakError) as info:
                next(stream)
        assert info.value.code == StatusCode.UNIMPLEMENTED
        (_, body), = server.requests
        assert body.method == "/streak.v1.Streaks/ExportData"
        assert service_pb2.ExportDataRequest.FromString(body.message).page_size == 5
    finally:
        server.close()


def test_watch_takes_a_request_message(client, server):
    stream = client.watch(request=service_pb2.WatchRequest(as_of=types_pb2.Date(year=2000, month=1, day=1)))
    assert [e.streak.current for e in stream] == [1, 2]
    assert stream.done and stream.status.code == 0


def test_unauthenticated(server):
    with Client("127.0.0.1", server.port, token="bad") as client:
        with pytest.raises(StreakError) as info:
            client.get_streak()
    assert info.value.status == StatusCode.UNAUTHENTICATED


def test_client_deadline_sends_cancel(client, server):
    with pytest.raises(StreakError) as info:
        client.get_settings(timeout=0.2)
    assert info.value.code == StatusCode.DEADLINE_EXCEEDED
    assert server.cancel_seen.wait(5)
    assert server.cancels == [server.requests[-1][0]]
    assert dict(server.requests[-1][1].metadata)["deadline-ms"] == "200"
    assert client.ping().serving  # the connection is still usable


def test_bad_response_message_is_internal(client):
    with pytest.raises(StreakError) as info:
        client.list_habits()
    assert info.value.code == StatusCode.INTERNAL


def test_connection_lost_is_unavailable(client):
    with pytest.raises(StreakError) as info:
        client.get_server_info()
    assert info.value.code == StatusCode.UNAVAILABLE
    with pytest.raises(StreakError):
        client.ping()


def test_goaway_refuses_later_requests(client, server):
    with pytest.raises(StreakError) as info:
        client.build_month_labels(["2024-01-01"])
    assert info.value.code == StatusCode.UNAVAILABLE and "shutting down" in info.value.message
    assert client.connection.goaway[0] == server.requests[-1][0] - 1


def test_watch_stream_ends_ok(client):
    stream = client.watch(as_of="2000-01-01")
    assert [e.streak.current for e in stream] == [1, 2]
    assert stream.done and stream.status.code == 0


def test_watch_stream_error_raises(client):
    stream = client.watch(as_of="2001-01-01")
    assert stream.read(5).streak.current == 1
    assert next(stream).streak.current == 2
    with pytest.raises(StreakError) as info:
        next(stream)
    assert info.value.code == StatusCode.RESOURCE_EXHAUSTED


def test_watch_cancel_and_interleaved_unary_calls(client, server):
    stream = client.watch()
    assert client.get_streak().longest == 5  # unary call while stream frames arrive
    events = [stream.read(5), stream.read(5)]
    assert [e.streak.current for e in events] == [1, 2]
    assert stream.read(0.1) is None and not stream.done
    stream.cancel()
    assert stream.done and stream.status.code == StatusCode.CANCELLED
    assert server.cancels == [dict((b.method, r) for r, b in server.requests)["/streak.v1.Streaks/Watch"]]


def test_refused_preface_is_a_typed_error():
    server = FakeServer(scripted, refuse_preface=True)
    try:
        with pytest.raises(StreakError) as info:
            Client("127.0.0.1", server.port)
        assert info.value.code == StatusCode.INVALID_ARGUMENT and "bad preface" in info.value.message
    finally:
        server.close()


def test_a_peer_that_is_not_streakd_is_named():
    """An HTTP server on the port: UNAVAILABLE "did not answer with the Streakd preface", as the C
    client says (it was INTERNAL "frame length 1213486160 exceeds the maximum 4194304")."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(8)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            time.sleep(1)

    port = listener.getsockname()[1]
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        with pytest.raises(StreakError) as info:
            Client("127.0.0.1", port, connect_timeout=5)
    finally:
        thread.join(5)
        listener.close()
    assert info.value.code == StatusCode.UNAVAILABLE
    assert info.value.message == (f"cannot connect to 127.0.0.1:{port}: the server did not answer with the "
                                  "Streakd preface (it sent b'HTTP/1.1')"), info.value


def test_connection_refused_is_unavailable():
    server = FakeServer(scripted)
    port = server.port
    server.close()
    with pytest.raises(StreakError) as info:
        Client("127.0.0.1", port, connect_timeout=1)
    assert info.value.code == StatusCode.UNAVAILABLE


def test_ping_frame_and_server_ping_answered(client, server):
    assert client.ping_frame(b"12345678") >= 0
    conn = server.connections[0]
    conn.send_frame(FrameKind.PING, 0, b"abcdefgh")
    client.ping()  # reading for this call answers the server's PING
    for _ in range(100):
        if server.pongs:
            break
        time.sleep(0.02)
    assert server.pongs == [b"abcdefgh"]


def test_threads_share_one_connection(client):
    results = []

    def work(i):
        results.append(client.ping(bytes([i])).payload)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(results) == [bytes([i]) for i in range(20)]


def test_a_request_over_the_frame_limit_is_refused_unsent(server, client):
    """A REQUEST frame over 4 MiB (the server's limit, PROTOCOL.md section 2.2) would get GOAWAY and
    lose the connection: RESOURCE_EXHAUSTED locally, nothing sent, and the connection stays usable."""
    fits = 4 * 1024 * 1024 - 200
    with pytest.raises(StreakError) as info:
        client.call("Ping", payload=b"x" * (4 * 1024 * 1024))
    assert info.value.code == StatusCode.RESOURCE_EXHAUSTED
    assert "request too large" in str(info.value) and "4194304" in str(info.value)
    assert client.call("Ping", payload=b"y" * fits).payload == b"y" * fits
    assert [_method(server, rid).method for rid, _ in server.requests] == ["/streak.v1.Streaks/Ping"]


def test_a_stream_message_for_a_unary_call_is_named(server):
    def handler(conn, frame, srv):
        if frame.kind == FrameKind.REQUEST:
            conn.send_frame(FrameKind.STREAM_MESSAGE, frame.request_id, b"")
    server.handler = handler
    with Client("127.0.0.1", server.port, token="good", timeout=5) as client:
        with pytest.raises(StreakError) as info:
            client.call("GetStreak")
    assert info.value.code == StatusCode.INTERNAL
    assert "the server sent a STREAM_MESSAGE for a unary call" in info.value.message, info.value


def test_bytes_after_an_end_stream_status_are_refused(server):
    def handler(conn, frame, srv):
        if frame.kind == FrameKind.REQUEST:
            conn.send_frame(FrameKind.END_STREAM, frame.request_id, framing.StatusHeader(0, "").encode() + b"junk")
    server.handler = handler
    with Client("127.0.0.1", server.port, token="good", timeout=5) as client:
        with pytest.raises(StreakError) as info:
            list(client.watch())
    assert info.value.code == StatusCode.INTERNAL and "bytes after an END_STREAM's status" in info.value.message
