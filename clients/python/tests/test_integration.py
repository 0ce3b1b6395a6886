"""Integration: every method against a real streakd ($STREAKD_BIN) on an ephemeral port."""

import datetime
import socket
import time

import pytest

from streakd_client import (Client, Completion, Habit, RestPeriod, StatusCode, StreakError, WatchEventKind, Weekday,
                            framing, method_path, service_pb2, types_pb2)
from streakd_client.framing import FrameKind
from streakd_process import connected, expect_error, running_streakd

pytestmark = pytest.mark.integration

D = types_pb2.Date  # a raw message: the client sends it unchecked (invalid days reach the server)
day = datetime.date


@pytest.fixture
def server():
    yield from running_streakd()


@pytest.fixture
def client(server):
    yield from connected(server)


# -- operational ---------------------------------------------------------------------------

def test_ping_needs_no_token_and_ping_frame(server):
    with Client(server.host, server.port, token=None) as anonymous:
        response = anonymous.ping(b"hi")
        assert response.payload == b"hi" and response.serving
        assert anonymous.ping_frame(b"pingpong") >= 0


def test_server_info(client):
    info = client.get_server_info()
    assert info.protocol_version == 1 and info.version and info.storage == "sqlite"
    assert info.connections_current >= 1 and info.requests_total >= 0
    # The test server's default budget, and the user this module's client loaded.
    assert info.user_memory_budget_bytes == 256 * 1024 * 1024
    client.get_streak()
    info = client.get_server_info()
    assert info.users_held >= 1 and info.user_memory_bytes > 0 and info.users_evicted == 0
    assert info.storage_upkeep_failing == ()  # a healthy store's upkeep works


# -- habits --------------------------------------------------------------------------------

def test_habit_lifecycle(client):
    read = client.create_habit("Read", created_on="2024-01-01")
    assert read.id > 0 and read.name == "Read" and read.created_on == day(2024, 1, 1)
    assert read.archived_on is None and not read.archived and read.schedule == ()
    run = client.create_habit("Run", created_on=day(2024, 1, 1))  # datetime.date in
    assert run.id != read.id
    assert [h.name for h in client.list_habits()] == ["Read", "Run"]
    renamed = client.rename_habit(read.id, "Read 20 pages")
    assert renamed.id == read.id and renamed.name == "Read 20 pages"
    archived = client.archive_habit(run.id, "2024-02-01")
    assert archived.archived_on == day(2024, 2, 1) and archived.archived
    assert archived.active_on(day(2024, 1, 31)) and not archived.active_on(day(2024, 2, 1))
    assert [h.id for h in client.list_habits()] == [read.id]
    assert [h.id for h in client.list_habits(include_archived=True)] == [read.id, run.id]


def test_create_habit_defaults_to_today(client):
    habit = client.create_habit("Stretch")
    assert isinstance(habit.created_on, datetime.date) and habit.created_on.year >= 2024


# -- completions and queries -----------------------------------------------------------------

def test_completions_streak_and_queries(client):
    h = client.create_habit("Read", created_on="2024-01-01").id
    other = client.create_habit("Run", created_on="2024-01-01").id

    first = client.record_completion(h, day(2024, 3, 4), as_of=day(2024, 3, 5))
    assert first.changed and first.day.date == day(2024, 3, 4)
    assert first.day.completed_habit_ids == (h,)
    assert (first.day.completed, first.day.active, first.day.percent, first.day.level) == (1, 2, 50, 2)
    assert first.day.contributing
    assert first.streak.as_of == day(2024, 3, 5)
    assert first.streak.current == 1 and first.streak.today_pending
    assert not client.record_completion(h, "2024-03-04", as_of="2024-03-05").changed  # idempotent

    removed = client.remove_completion(h, "2024-03-04", as_of="2024-03-05")
    assert removed.changed and removed.day.completed == 0 and removed.streak.current == 0
    assert not client.remove_completion(h, "2024-03-04", as_of="2024-03-05").changed

    batch = client.batch_completions(
        record=[(h, "2024-03-01"), (h, "2024-03-02"), (h, "2024-03-03"), (other, "2024-03-03"), (h, "2024-02-20")],
        remove=[(h, "2024-02-20")], as_of="2024-03-03")
    assert batch.changed >= 4
    assert [(d.date.month, d.date.day) for d in batch.days] == sorted((d.date.month, d.date.day) for d in batch.days)
    assert (3, 3) in [(d.date.month, d.date.day) for d in batch.days]
    assert batch.streak.current == 3 and batch.streak.current_start == day(2024, 3, 1)

    streak = client.get_streak("2024-03-03")
    assert (streak.current, streak.longest) == (3, 3)
    assert (streak.longest_start, streak.longest_end) == (day(2024, 3, 1), day(2024, 3, 3))
    assert client.get_streak(day(2024, 3, 4)).current == 3  # today pending keeps it
    assert client.get_streak("2024-03-05").current == 0
    assert client.get_streak("2024-03-05").current_start is None

    detail = client.get_day("2024-03-03")
    assert detail.date == day(2024, 3, 3)
    assert sorted(habit.id for habit in detail.completed_habits) == sorted([h, other])
    assert (detail.completed, detail.active, detail.percent, detail.level) == (2, 2, 100, 3)
    assert detail.accessibility_label == "March 3: 100% completed, 2 of 2 habits"

    heatmap = client.get_heatmap(start="2024-01-01", as_of="2024-03-03", week_start=Weekday.MONDAY,
                                 accessibility_labels=True)
    assert heatmap.week_start == Weekday.MONDAY
    assert (heatmap.start, heatmap.end) == (day(2024, 1, 1), day(2024, 3, 3))
    assert all(len(week.cells) == 7 for week in heatmap.weeks)
    assert heatmap.weeks[0].start == day(2024, 1, 1)
    assert [(label.label, label.week_index) for label in heatmap.month_labels][0] == ("Jan", 0)
    assert [entry.level for entry in heatmap.legend] == [0, 1, 2, 3]
    cells = {c.date: c for c in heatmap.days()}
    assert cells[day(2024, 3, 3)].level == 3 and cells[day(2024, 3, 1)].level == 2
    assert cells[day(2024, 2, 20)].level == 0
    assert cells[day(2024, 3, 3)].accessibility_label
    assert heatmap.cell(day(2024, 3, 3)) == cells[day(2024, 3, 3)] and heatmap.cell(day(2024, 3, 4)) is None
    # The same range under every spelling: positional, start/end, from_/to, datetime.date or string.
    same = [client.get_heatmap("2024-01-01", "2024-03-03", as_of="2024-03-03"),
            client.get_heatmap(start=day(2024, 1, 1), end=day(2024, 3, 3), as_of=day(2024, 3, 3)),
            client.get_heatmap(from_="2024-01-01", to="2024-03-03", as_of="2024-03-03")]
    assert all((m.start, m.end, m.weeks) == (same[0].start, same[0].end, same[0].weeks) for m in same)

    default_range = client.get_heatmap(as_of="2024-03-03")
    assert default_range.start == day(2023, 4, 1)

    chart = client.get_weekday_chart(as_of="2024-03-31", include_total=True, locale="en_US")
    assert (chart.start, chart.end) == (day(2024, 3, 1), day(2024, 3, 31))  # from the first completion
    assert all(len(series.counts) == 7 for series in chart.series)
    total = [series for series in chart.series if series.total]
    assert len(total) == 1 and sum(c.count for c in total[0].counts) == 4
    assert [c.short_name for c in total[0].counts][0] == "Sun" and total[0].counts[0].weekday == Weekday.SUNDAY
    march_only = client.get_weekday_chart("2024-03-02", "2024-03-03", as_of="2024-03-31", include_total=True)
    assert (march_only.start, march_only.end) == (day(2024, 3, 2), day(2024, 3, 3))
    assert [sum(c.count for c in series.counts) for series in march_only.series if series.total] == [3]

    page = client.get_month_page(2024, 3, as_of="2024-03-03", selected=day(2024, 3, 2))
    assert (page.year, page.month, len(page.days)) == (2024, 3, 42)
    assert page.days[0].date == day(2024, 2, 25) and page.week_start == Weekday.SUNDAY
    assert (page.previous_year, page.previous_month, page.next_year, page.next_month) == (2024, 2, 2024, 4)
    march = {d.day: d for d in page.days if d.in_month}
    assert march[3].today and march[2].selected and march[1].highlighted and not march[4].highlighted


def test_request_messages(server, client):
    """`request=` (a message instead of keyword fields) on the typed methods, against the real server."""
    S = service_pb2
    read = client.create_habit(request=S.CreateHabitRequest(name="Read", created_on=D(year=2024, month=1, day=1)))
    h = read.id
    assert read.created_on == day(2024, 1, 1)
    assert client.rename_habit(request=S.RenameHabitRequest(habit_id=h, name="Read more")).name == "Read more"
    run = client.create_habit(request=S.CreateHabitRequest(name="Run", created_on=D(year=2024, month=1, day=1)))
    archived = client.archive_habit(request=S.ArchiveHabitRequest(habit_id=run.id,
                                                                  archived_on=D(year=2024, month=2, day=1)))
    assert archived.archived_on == day(2024, 2, 1)
    assert [x.id for x in client.list_habits(request=S.ListHabitsRequest())] == [h]
    assert len(client.list_habits(request=S.ListHabitsRequest(include_archived=True))) == 2

    done = client.record_completion(request=S.RecordCompletionRequest(
        habit_id=h, date=D(year=2024, month=3, day=1), as_of=D(year=2024, month=3, day=2)))
    assert done.changed and done.day.level == 3
    batch = client.batch_completions(request=S.BatchCompletionsRequest(
        record=[types_pb2.Completion(habit_id=h, date=D(year=2024, month=3, day=2))], as_of=D(year=2024, month=3, day=2)))
    assert batch.changed == 1 and batch.streak.current == 2
    assert client.get_streak(request=S.GetStreakRequest(as_of=D(year=2024, month=3, day=2))).current == 2
    assert client.get_day(request=S.GetDayRequest(date=D(year=2024, month=3, day=2))).completed == 1
    undone = client.remove_completion(request=S.RemoveCompletionRequest(
        habit_id=h, date=D(year=2024, month=3, day=2), as_of=D(year=2024, month=3, day=2)))
    assert undone.changed and undone.streak.current == 1
    labels = client.build_month_labels(request=S.BuildMonthLabelsRequest(
        week_starts=[D(year=2024, month=1, day=1), D(year=2024, month=1, day=8), D(year=2024, month=1, day=15),
                     D(year=2024, month=2, day=5)]))
    assert [(label.label, label.week_index) for label in labels] == [("Jan", 0), ("Feb", 3)]

    with Client(server.host, server.port, token=server.token, timeout=10) as watcher:
        stream = watcher.watch(request=S.WatchRequest(as_of=D(year=2024, month=3, day=10)))
        event = None
        for n in range(10, 20):  # the server registers the stream asynchronously
            client.record_completion(h, f"2024-03-{n:02d}")
            event = stream.read(timeout=2)
            if event is not None:
                break
        assert event is not None, "no WatchEvent after 10 completions"
        assert event.streak.as_of == day(2024, 3, 10)
        stream.cancel()


def test_settings(client):
    settings = client.get_settings()
    assert (settings.time_zone, settings.locale, settings.week_start, settings.min_percent) == \
        ("UTC", "en_US", Weekday.MONDAY, None)
    updated = client.update_settings(time_zone="Europe/Berlin", week_start=Weekday.SUNDAY, min_percent=50)
    assert (updated.time_zone, updated.locale, updated.week_start, updated.min_percent) == \
        ("Europe/Berlin", "en_US", Weekday.SUNDAY, 50)
    assert client.update_settings(clear_min_percent=True).min_percent is None
    assert client.get_settings().time_zone == "Europe/Berlin"
    assert client.update_settings(week_start=types_pb2.WEEKDAY_MONDAY).week_start == Weekday.MONDAY  # a plain int


# -- stateless builders --------------------------------------------------------------------

@pytest.mark.parametrize("starts,labels", [
    (["2024-01-01", "2024-01-08", "2024-01-15", "2024-02-05"], [("Jan", 0), ("Feb", 3)]),
    (["2024-01-01", "2024-01-08", "2024-02-01", "2024-03-01"], [("Jan", 0), ("Mar", 3)]),
])
def test_build_month_labels_seed_examples(client, starts, labels):
    response = client.build_month_labels(starts)
    assert [(label.label, label.week_index) for label in response] == labels


def test_build_heatmap(client):
    habits = [Habit(id=1, name="A", created_on=day(2024, 1, 1))]
    completions = [Completion(1, day(2024, 1, d)) for d in (8, 9)] + [(1, "2024-01-10")]
    response = client.build_heatmap(habits, completions, start="2024-01-01", end=day(2024, 1, 31),
                                    as_of="2024-01-10")
    assert response.streak.current == 3 and response.streak.longest == 3
    assert response.streak.current_start == day(2024, 1, 8)
    assert response.heatmap.week_start == Weekday.MONDAY
    assert len(response.heatmap.weeks) == 5  # Jan 1 2024 is a Monday; the 31st is in week 5
    week = response.heatmap.weeks[1].cells  # Jan 8...14; as_of is Wednesday Jan 10
    assert week[2].present and week[2].level == 3 and not week[3].present  # future cells are absent
    assert not any(cell.present for cell in response.heatmap.weeks[2].cells)
    assert week[3].date is None
    # Protocol messages are still accepted, and from_/to name the range too.
    same = client.build_heatmap([h.to_pb() for h in habits], [types_pb2.Completion(habit_id=1, date=D(
        year=2024, month=1, day=d)) for d in (8, 9, 10)], from_="2024-01-01", to="2024-01-31", as_of="2024-01-10")
    assert same == response


def test_build_heatmap_with_skips_and_rest_periods(client):
    habits = [Habit(1, "A", day(2024, 1, 1))]
    response = client.build_heatmap(
        habits, [(1, day(2024, 1, d)) for d in (1, 2, 5)], as_of="2024-01-06", start="2024-01-01",
        skips=[(1, "2024-01-03")], rest_periods=[RestPeriod(0, day(2024, 1, 4), day(2024, 1, 4))])
    rest = [cell.date for cell in response.heatmap.days() if cell.rest]
    assert rest == [day(2024, 1, 3), day(2024, 1, 4)]
    assert (response.streak.current, response.streak.current_start) == (3, day(2024, 1, 1))
    tuples = client.build_heatmap(habits, [(1, day(2024, 1, d)) for d in (1, 2, 5)], as_of="2024-01-06",
                                  start="2024-01-01", skips=[(1, "2024-01-03")],
                                  rest_periods=[("2024-01-04", "2024-01-04", "a note")])
    assert tuples == response


def test_build_month_page(client):
    page = client.build_month_page(2024, 2, as_of="2024-02-15", locale="en_US", highlighted=[day(2024, 2, 14)])
    assert page.title == "February 2024" and len(page.days) == 42
    assert page.week_start == Weekday.SUNDAY and page.weekday_symbols[0] == "Sun"
    assert [d.day for d in page.days[:5]] == [28, 29, 30, 31, 1]
    assert [d.date for d in page.days if d.highlighted] == [day(2024, 2, 14)]
    assert [d.date for d in page.days if d.today] == [day(2024, 2, 15)]


# -- errors --------------------------------------------------------------------------------

def test_unauthenticated(server):
    for token in (None, "stk_" + "0" * 64, "garbage"):
        with Client(server.host, server.port, token=token, timeout=10) as client:
            expect_error(StatusCode.UNAUTHENTICATED, client.list_habits)
            expect_error(StatusCode.UNAUTHENTICATED, client.build_month_labels, ["2024-01-01"])
            assert client.ping().serving  # the connection stays usable


@pytest.mark.parametrize("call", [
    lambda c: c.get_day(D(year=2024, month=2, day=30)),
    lambda c: c.create_habit("X", created_on=D(year=2024, month=2, day=30)),
    lambda c: c.get_streak(D(year=2023, month=13, day=1)),
    lambda c: c.get_heatmap(as_of=D(year=2024, month=1, day=0)),
    lambda c: c.build_month_labels([D(year=2024, month=2, day=30)]),
])
def test_invalid_dates(client, call):
    error = expect_error(StatusCode.INVALID_ARGUMENT, call, client)
    assert error.message


def test_invalid_date_message_names_the_date(client):
    error = expect_error(StatusCode.INVALID_ARGUMENT, client.get_day, D(year=2024, month=2, day=30))
    assert "2024-02-30" in error.message


def server_status(client, method, message):
    """The status the server answers `message` with, sent as it is (past the client's own checks)."""
    conn = client.connection
    request_id = conn.start_request(method_path(method), message.SerializeToString(), token=client.token, timeout=10)
    try:
        frame = conn.wait(request_id, time.monotonic() + 10)
        assert frame is not None, f"{method}: no answer"
        status, _ = framing.decode_status(frame.body)
        return status
    finally:
        conn.forget(request_id)


def test_other_invalid_arguments(client):
    # The client refuses a name the server would refuse before sending it; the server does too.
    for name, got in (("", "got 0"), ("x" * 201, "got 201"), ("\U0001F3C3" * 201, "got 201")):
        with pytest.raises(ValueError, match=got):
            client.create_habit(name)
        status = server_status(client, "CreateHabit", service_pb2.CreateHabitRequest(name=name))
        assert status.code == StatusCode.INVALID_ARGUMENT and got in status.message, status
    assert client.create_habit("\U0001F3C3" * 200).name == "\U0001F3C3" * 200  # 200 scalars, 800 bytes
    expect_error(StatusCode.INVALID_ARGUMENT, client.get_day)  # date is required
    expect_error(StatusCode.INVALID_ARGUMENT, client.update_settings, min_percent=101)


def test_not_found(client):
    expect_error(StatusCode.NOT_FOUND, client.rename_habit, 999999, "x")
    expect_error(StatusCode.NOT_FOUND, client.archive_habit, 999999)
    expect_error(StatusCode.NOT_FOUND, client.record_completion, 999999, "2024-03-01")


def test_users_are_isolated(server, client):
    habit = client.create_habit("Mine", created_on="2024-01-01")
    bob_token = server.add_user("bob")
    assert bob_token.startswith("stk_")
    with Client(server.host, server.port, token=bob_token, timeout=10) as bob:
        assert bob.list_habits(include_archived=True) == []
        expect_error(StatusCode.NOT_FOUND, bob.rename_habit, habit.id, "stolen")
        expect_error(StatusCode.NOT_FOUND, bob.record_completion, habit.id, "2024-03-01")


def test_unknown_method_is_unimplemented(client, server):
    connection = client.connection
    request_id = connection.start_request("/streak.v1.Streaks/NoSuchMethod", b"", token=server.token, timeout=5)
    frame = connection.wait(request_id, time.monotonic() + 10)
    connection.forget(request_id)
    assert frame.kind == FrameKind.RESPONSE
    status, _ = framing.decode_status(frame.body)
    assert status.code == StatusCode.UNIMPLEMENTED


def test_bad_preface_gets_goaway(server):
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    # PROTOCOL.md §1: the server sends its own preface first, then the GOAWAY.
    assert data.startswith(framing.PREFACE)
    decoder = framing.FrameDecoder(expect_preface=True)
    decoder.feed(data)
    frame = decoder.next_frame()
    assert frame.kind == FrameKind.GOAWAY and frame.request_id == 0
    last, status = framing.decode_goaway(frame.body)
    assert last == 0
    assert status.code == StatusCode.INVALID_ARGUMENT and "preface" in status.message


# -- watch ---------------------------------------------------------------------------------

def test_watch_stream(server, client):
    habit = client.create_habit("Read", created_on="2024-01-01").id
    with Client(server.host, server.port, token=server.token, timeout=10) as watcher:
        stream = watcher.watch(as_of=day(2024, 3, 10))
        event = None
        # No frame tells when the server has registered the stream: record until an event comes.
        for n in range(1, 11):
            client.record_completion(habit, day(2024, 3, n))
            event = stream.read(timeout=2)
            if event is not None:
                break
        assert event is not None, "no WatchEvent after 10 completions"
        assert event.day.completed == 1 and habit in event.day.completed_habit_ids
        assert event.streak.as_of == day(2024, 3, 10)
        first_day = event.day.date.day

        removed = client.remove_completion(habit, f"2024-03-{first_day:02d}")
        assert removed.changed
        while True:
            event = stream.read(timeout=10)
            assert event is not None, "no WatchEvent for the removal"
            if event.day.date.day == first_day and event.day.completed == 0:
                break
        # Unary calls share the watcher's connection with the stream.
        assert watcher.get_streak("2024-03-10").as_of == day(2024, 3, 10)
        stream.cancel()
        assert stream.done and stream.status.code == StatusCode.CANCELLED
        assert watcher.ping().serving


def test_watch_needs_a_token(server):
    with Client(server.host, server.port, token=None) as anonymous:
        stream = anonymous.watch()
        with pytest.raises(StreakError) as info:
            stream.read(timeout=10)
        assert info.value.code == StatusCode.UNAUTHENTICATED


def _open_watch(client, habit, stream, first_day=1):
    """Records completions until the stream shows an event (registration is not acknowledged)."""
    for day in range(first_day, first_day + 10):
        client.record_completion(habit, f"2024-05-{day:02d}")
        event = stream.read(timeout=2)
        if event is not None:
            return event
    raise AssertionError("no WatchEvent after 10 completions")


def test_watch_lifecycle_events(server, client):
    habit = client.create_habit("Read", created_on="2024-01-01").id
    with Client(server.host, server.port, token=server.token, timeout=10) as watcher:
        stream = watcher.watch(as_of="2024-03-10", lifecycle_events=True)
        subscribed = stream.read(timeout=10)
        assert subscribed is not None and subscribed.kind is WatchEventKind.SUBSCRIBED
        assert subscribed.day is None and subscribed.streak.as_of == day(2024, 3, 10)
        # The stream is registered: the next write's event comes without retrying.
        client.record_completion(habit, "2024-03-10")
        changed = stream.read(timeout=10)
        assert changed.kind is WatchEventKind.DAY_CHANGED and changed.day.date == day(2024, 3, 10)
        client.update_settings(min_percent=50)
        settings = stream.read(timeout=10)
        assert settings.kind is WatchEventKind.SETTINGS_CHANGED and settings.day is None
        assert settings.streak == client.get_streak(as_of="2024-03-10")
        stream.cancel()


def test_watch_events_per_changed_day_only(server, client):
    habit = client.create_habit("Read", created_on="2024-01-01").id
    with Client(server.host, server.port, token=server.token, timeout=10) as watcher:
        stream = watcher.watch()
        event = _open_watch(client, habit, stream)
        assert isinstance(event.streak.as_of, datetime.date)  # no as_of in the request: today at each event
        assert not client.record_completion(habit, event.day.date).changed
        assert stream.read(timeout=0.5) is None  # a write that changes nothing sends nothing
        client.batch_completions(record=[(habit, "2024-06-01"), (habit, "2024-06-02"), (habit, "2024-06-03")])
        days = [stream.read(timeout=10).day.date for _ in range(3)]
        assert days == [day(2024, 6, 1), day(2024, 6, 2), day(2024, 6, 3)]
        stream.cancel()


def test_watch_deadline_ends_the_stream(client):
    stream = client.watch(timeout=30)  # local deadline far away; the server's comes first
    connection = client.connection
    request_id = connection.start_request("/streak.v1.Streaks/Watch", b"", token=client.token, timeout=0.3)
    frame = connection.wait(request_id, time.monotonic() + 10)
    connection.forget(request_id)
    assert frame.kind == FrameKind.END_STREAM
    assert framing.decode_status(frame.body)[0].code == StatusCode.DEADLINE_EXCEEDED
    stream.cancel()


def test_shutdown_ends_streams_with_unavailable(server, client):
    habit = client.create_habit("Read", created_on="2024-01-01").id
    stream = client.watch()
    _open_watch(client, habit, stream)
    server.process.terminate()
    with pytest.raises(StreakError) as info:
        while stream.read(timeout=15) is not None:
            pass
    assert info.value.code == StatusCode.UNAVAILABLE
    # A request that reached the server before its GOAWAY may still be answered; later ones are not.
    for _ in range(200):
        try:
            client.ping()
        except StreakError as error:
            assert error.code == StatusCode.UNAVAILABLE
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the connection kept answering after shutdown")


@pytest.mark.parametrize("value,codes", [("abc", {3}), ("-5", {3}), ("1.5", {3}), ("86400001", {3}),
                                         ("0", {0, 4}), ("5000", {0})])
def test_deadline_ms_values(client, server, value, codes):
    connection = client.connection
    request_id = connection.start_request("/streak.v1.Streaks/GetSettings", b"", token=server.token,
                                          timeout=None, metadata=[("deadline-ms", value)])
    frame = connection.wait(request_id, time.monotonic() + 10)
    connection.forget(request_id)
    assert framing.decode_status(frame.body)[0].code in codes  # "0": already late, answered or not


def test_ping_ignores_the_token(server):
    with Client(server.host, server.port, token="not-a-token", timeout=10) as client:
        client.token = "not-a-token"
        connection = client.connection
        request_id = connection.start_request("/streak.v1.Streaks/Ping", b"", token="not-a-token", timeout=5)
        frame = connection.wait(request_id, time.monotonic() + 10)
        connection.forget(request_id)
        assert framing.decode_status(frame.body)[0].code == StatusCode.OK


def test_metadata_key_and_scheme_are_case_sensitive(client, server):
    for metadata in ([("Authorization", f"Bearer {server.token}")], [("authorization", f"bearer {server.token}")]):
        connection = client.connection
        request_id = connection.start_request("/streak.v1.Streaks/GetSettings", b"", token=None, timeout=5,
                                              metadata=metadata)
        frame = connection.wait(request_id, time.monotonic() + 10)
        connection.forget(request_id)
        assert framing.decode_status(frame.body)[0].code == StatusCode.UNAUTHENTICATED
