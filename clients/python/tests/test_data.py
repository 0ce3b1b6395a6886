"""Offline: DeleteHabit, UnarchiveHabit, ImportData and ExportData against a fake server.

The fake server keeps a small account and streams it in pages of the requested size, the way
docs/PROTOCOL.md section 7 describes; a few page sizes script a broken stream instead.
"""

from __future__ import annotations

import datetime
import threading

import pytest

from fakeserver import FakeServer, fake_client
from streakd_client import (Client, Export, ExportedHabit, ExportPage, ExportStream, Habit, ImportHabit,
                            ImportRecordError, RestPeriod, ScheduleEntry, Settings, StatusCode, StreakError, Weekday,
                            framing, service_pb2, types_pb2)
from streakd_client.framing import FrameKind, RequestBody

S = service_pb2
day = datetime.date


def pbd(value: datetime.date) -> types_pb2.Date:
    return types_pb2.Date(year=value.year, month=value.month, day=value.day)


READ = types_pb2.Habit(id=3, name="Read", created_on=pbd(day(2024, 1, 1)), schedule=[
    types_pb2.ScheduleEntry(effective_from=pbd(day(2024, 1, 1)), weekdays=[2, 4, 6])])
RUN = types_pb2.Habit(id=5, name="Run", created_on=pbd(day(2024, 1, 1)), archived_on=pbd(day(2024, 2, 1)))
SETTINGS = types_pb2.Settings(time_zone="Europe/Berlin", locale="de_DE", week_start=2, min_percent=50,
                              day_start_minutes=180)
REST = types_pb2.RestPeriod(id=1, note="holiday", **{"from": pbd(day(2024, 7, 1)), "to": pbd(day(2024, 7, 14))})
# Records in the server's order: completions by habit then date, then skips.
COMPLETIONS = [(3, day(2024, 1, 1)), (3, day(2024, 1, 3)), (3, day(2024, 1, 5)), (5, day(2024, 1, 2))]
SKIPS = [(3, day(2024, 1, 8)), (5, day(2024, 1, 9))]

# Page sizes that script a broken stream.
ENDS_EARLY, STRAY_HABIT, NEVER_ENDS, PAGE_AFTER_LAST, NO_CREATED_ON = 7, 8, 9, 10, 12


def pages(page_size: int) -> list[S.ExportDataPage]:
    size = page_size or 4096
    records = [("c", h, d) for h, d in COMPLETIONS] + [("s", h, d) for h, d in SKIPS]
    out = []
    first = True
    while first or records:
        chunk, records = records[:size], records[size:]
        page = S.ExportDataPage(
            completions=[types_pb2.Completion(habit_id=h, date=pbd(d)) for kind, h, d in chunk if kind == "c"],
            skips=[types_pb2.Skip(habit_id=h, date=pbd(d)) for kind, h, d in chunk if kind == "s"],
            last=not records)
        if first:
            page.settings.CopyFrom(SETTINGS)
            page.habits.extend([READ, RUN])
            page.rest_periods.append(REST)
            page.total_records = len(COMPLETIONS) + len(SKIPS)
            first = False
        out.append(page)
    return out


def end_stream(conn, rid: int, code: int = 0, message: str = "") -> None:
    conn.send_frame(FrameKind.END_STREAM, rid, framing.StatusHeader(code, message).encode())


def handler(conn, frame, server):
    if frame.kind != FrameKind.REQUEST:
        return
    body = RequestBody.decode(frame.body)
    name = body.method.rsplit("/", 1)[-1]
    rid = frame.request_id
    if name == "ExportData":
        size = S.ExportDataRequest.FromString(body.message).page_size
        if size > 65536:
            end_stream(conn, rid, StatusCode.INVALID_ARGUMENT, f"page_size {size} is outside 1...65536")
            return
        stream = pages(1 if size in (ENDS_EARLY, STRAY_HABIT, NEVER_ENDS, PAGE_AFTER_LAST, NO_CREATED_ON) else size)
        if size == ENDS_EARLY:
            stream = stream[:2]
        elif size == NEVER_ENDS:
            stream = stream[:1]
        elif size == STRAY_HABIT:
            stream[1].completions[0].habit_id = 99
        elif size == NO_CREATED_ON:
            stream[0].habits[1].ClearField("created_on")
        for page in stream:
            conn.send_frame(FrameKind.STREAM_MESSAGE, rid, page.SerializeToString())
        if size == NEVER_ENDS:  # (in a thread: this one must go on reading, for the CANCEL)
            def wait_for_cancel():
                server.cancel_seen.wait(5)
                end_stream(conn, rid, StatusCode.CANCELLED, "cancelled")
            threading.Thread(target=wait_for_cancel, daemon=True).start()
            return
        if size == PAGE_AFTER_LAST:
            conn.send_frame(FrameKind.STREAM_MESSAGE, rid, S.ExportDataPage(last=True).SerializeToString())
        end_stream(conn, rid)
    elif name == "DeleteHabit":
        request = S.DeleteHabitRequest.FromString(body.message)
        if request.habit_id != 3:
            conn.respond(rid, StatusCode.NOT_FOUND, f"no habit {request.habit_id}")
            return
        conn.respond(rid, payload=S.DeleteHabitResponse(habit=READ, completions=3, skips=1).SerializeToString())
    elif name == "UnarchiveHabit":
        request = S.UnarchiveHabitRequest.FromString(body.message)
        if request.habit_id == 3:
            conn.respond(rid, StatusCode.FAILED_PRECONDITION, "habit 3 is not archived")
            return
        live = types_pb2.Habit()
        live.CopyFrom(RUN)
        live.ClearField("archived_on")
        conn.respond(rid, payload=S.UnarchiveHabitResponse(habit=live).SerializeToString())
    elif name == "ImportData":
        request = S.ImportDataRequest.FromString(body.message)
        errors = [S.ImportRecordError(habit_index=i, field="name", message="a habit's name must not be blank")
                  for i, h in enumerate(request.habits) if not h.name.strip()]
        errors.append(S.ImportRecordError(habit_index=0, field="completions", date=pbd(day(2023, 12, 31)),
                                          message="before the habit's first day 2024-01-01"))
        errors.append(S.ImportRecordError(habit_index=-1, field="settings", message="unknown time zone Mars/Base"))
        habits = [types_pb2.Habit() if not h.name.strip() else
                  types_pb2.Habit(id=10 + i, name=h.name, created_on=pbd(day(2024, 1, 1)))
                  for i, h in enumerate(request.habits)]
        response = S.ImportDataResponse(habits_created=1, habits_matched=1, completions_added=2, skips_added=1,
                                        rest_periods_added=1, schedules_set=1, settings_changed=True,
                                        errors=errors, habits=habits)
        if not (request.habits and request.habits[0].name == "old server"):  # an older server sends none
            response.error_count = 1234
        conn.respond(rid, payload=response.SerializeToString())
    else:
        conn.respond(rid, StatusCode.UNIMPLEMENTED, f"unknown method {body.method}")


@pytest.fixture
def server():
    server = FakeServer(handler)
    yield server
    server.close()


@pytest.fixture
def client(server):
    yield from fake_client(server)


def sent(server, method: str):
    for _, body in reversed(server.requests):
        if body.method.endswith("/" + method):
            return getattr(S, f"{method}Request").FromString(body.message), body
    raise AssertionError(f"no {method} request")


# -- delete and unarchive ----------------------------------------------------------------------

def test_delete_habit(client, server):
    deleted = client.delete_habit(3)
    assert deleted.habit.id == 3 and deleted.habit.name == "Read" and deleted.habit.created_on == day(2024, 1, 1)
    assert (deleted.completions, deleted.skips) == (3, 1)
    request, body = sent(server, "DeleteHabit")
    assert request.habit_id == 3 and dict(body.metadata)["authorization"] == "Bearer good"
    with pytest.raises(StreakError) as info:
        client.delete_habit(habit_id=4)
    assert info.value.code == StatusCode.NOT_FOUND


def test_unarchive_habit(client, server):
    habit = client.unarchive_habit(5)
    assert habit.id == 5 and habit.archived_on is None and not habit.archived
    assert sent(server, "UnarchiveHabit")[0].habit_id == 5
    with pytest.raises(StreakError) as info:
        client.unarchive_habit(3)
    assert info.value.code == StatusCode.FAILED_PRECONDITION == 9
    assert info.value.message == "habit 3 is not archived"


# -- import --------------------------------------------------------------------------------------

def test_import_data_sends_dataclasses_with_dates(client, server):
    gym = ImportHabit("Gym", created_on="2024-05-11", archived_on=day(2024, 9, 1),
                      schedule=[ScheduleEntry(day(2024, 5, 11), (Weekday.MONDAY, Weekday.FRIDAY))],
                      completions=[day(2024, 5, 13), "2024-05-17"], skips=[(2024, 5, 20)])
    assert gym.completions == (day(2024, 5, 13), day(2024, 5, 17)) and gym.skips == (day(2024, 5, 20),)
    assert isinstance(gym.schedule, tuple) and gym.records == 3
    exported = ExportedHabit(Habit(3, "Read", day(2024, 1, 1)), (day(2024, 1, 2),), ())
    result = client.import_data(
        [gym, exported, Habit(9, "Walk", day(2024, 2, 2)), ImportHabit("  ")],
        rest_periods=[RestPeriod(0, day(2024, 8, 1), day(2024, 8, 14), "Holiday"), ("2024-12-24", "2024-12-26")],
        settings=Settings("Europe/Berlin", "de_DE", Weekday.MONDAY, None, 180))
    request, _ = sent(server, "ImportData")
    assert [h.name for h in request.habits] == ["Gym", "Read", "Walk", "  "]
    first = request.habits[0]
    assert (first.created_on, first.archived_on) == (pbd(day(2024, 5, 11)), pbd(day(2024, 9, 1)))
    assert list(first.completions) == [pbd(day(2024, 5, 13)), pbd(day(2024, 5, 17))]
    assert list(first.skips) == [pbd(day(2024, 5, 20))]
    assert first.schedule[0].effective_from == pbd(day(2024, 5, 11)) and list(first.schedule[0].weekdays) == [2, 6]
    assert request.habits[1].HasField("created_on") and not request.habits[1].HasField("archived_on")
    assert list(request.habits[1].completions) == [pbd(day(2024, 1, 2))]
    assert not request.habits[3].HasField("created_on")  # absent: its first record, else today
    assert [(getattr(p, "from"), p.to, p.note) for p in request.rest_periods] == [
        (pbd(day(2024, 8, 1)), pbd(day(2024, 8, 14)), "Holiday"), (pbd(day(2024, 12, 24)), pbd(day(2024, 12, 26)), "")]
    assert request.settings == types_pb2.Settings(time_zone="Europe/Berlin", locale="de_DE", week_start=2,
                                                  min_percent=0, day_start_minutes=180)

    assert (result.habits_created, result.habits_matched, result.completions_added, result.skips_added,
            result.rest_periods_added, result.schedules_set, result.settings_changed) == (1, 1, 2, 1, 1, 1, True)
    assert result.errors == (
        ImportRecordError(3, "name", None, "a habit's name must not be blank"),
        ImportRecordError(0, "completions", day(2023, 12, 31), "before the habit's first day 2024-01-01"),
        ImportRecordError(-1, "settings", None, "unknown time zone Mars/Base"))
    assert [h.id if h else None for h in result.habits] == [10, 11, 12, None]  # a refused name: None
    assert (result.error_count, result.errors_omitted) == (1234, 1231)  # the server lists the first 1,000


def test_import_data_error_count_of_an_older_server_is_the_errors_listed(client):
    result = client.import_data([ImportHabit("old server")])  # the fake server sends no error_count
    assert len(result.errors) == 2 and (result.error_count, result.errors_omitted) == (2, 0)


def test_import_data_without_settings_leaves_them_absent(client, server):
    client.import_data([ImportHabit("Read")])
    request, _ = sent(server, "ImportData")
    assert not request.HasField("settings") and list(request.rest_periods) == []
    client.import_data(settings=types_pb2.Settings(time_zone="UTC"))  # a message passes through
    assert sent(server, "ImportData")[0].settings.time_zone == "UTC"
    raw = S.ImportHabit(name="Raw", completions=[types_pb2.Date(year=2024, month=2, day=30)])
    client.import_data([raw])  # sent unchecked, for the server to judge
    assert sent(server, "ImportData")[0].habits[0] == raw


def test_import_habit_checks_its_dates_locally():
    with pytest.raises(ValueError):
        ImportHabit("Read", completions=["2024-02-30"])
    with pytest.raises(ValueError):
        ImportHabit("Read", created_on="yesterday")
    habit = ImportHabit("Read", created_on="2024-01-01", completions=["2024-01-02"])
    assert ImportHabit.from_pb(habit.to_pb()) == habit
    assert habit == ImportHabit("Read", day(2024, 1, 1), completions=(day(2024, 1, 2),))
    with pytest.raises(TypeError, match="cannot import a habit from str"):
        Client.__new__(Client).import_data(["Read"])  # type: ignore[list-item]


# -- export --------------------------------------------------------------------------------------

def test_export_data_pages(client, server):
    stream = client.export_data(page_size=2)
    assert isinstance(stream, ExportStream) and stream.total_records is None
    got = list(stream)
    assert sent(server, "ExportData")[0].page_size == 2
    assert [p.last for p in got] == [False, False, True]
    assert [len(p.completions) + len(p.skips) for p in got] == [2, 2, 2]
    first = got[0]
    assert isinstance(first, ExportPage)
    assert first.settings == Settings("Europe/Berlin", "de_DE", Weekday.MONDAY, 50, 180)
    assert [h.name for h in first.habits] == ["Read", "Run"] and first.habits[1].archived_on == day(2024, 2, 1)
    assert first.rest_periods == (RestPeriod(1, day(2024, 7, 1), day(2024, 7, 14), "holiday"),)
    assert first.total_records == 6 and stream.total_records == 6 and stream.pages == 3
    assert all(p.settings is None and p.habits == () and p.rest_periods == () for p in got[1:])
    assert stream.done and stream.status.code == StatusCode.OK and stream.last_seen


def test_export_data_default_page_size_is_not_sent(client, server):
    pages_read = list(client.export_data())
    assert len(pages_read) == 1 and pages_read[0].last
    request, body = sent(server, "ExportData")
    assert body.message == b"" and request.page_size == 0
    assert "deadline-ms" not in dict(body.metadata)  # no deadline unless given
    list(client.export_data(timeout=3))
    assert dict(sent(server, "ExportData")[1].metadata)["deadline-ms"] == "3000"


def test_export_all_assembles_each_habit_with_its_history(client):
    export = client.export_all(page_size=1)
    assert isinstance(export, Export)
    assert export == client.export_all()  # the page size does not change the result
    read, run = export.habits
    assert read.habit.name == "Read" and read.habit.schedule[0].weekdays == (Weekday.MONDAY, Weekday.WEDNESDAY,
                                                                           Weekday.FRIDAY)
    assert read.completions == (day(2024, 1, 1), day(2024, 1, 3), day(2024, 1, 5)) and read.skips == (day(2024, 1, 8),)
    assert run.completions == (day(2024, 1, 2),) and run.skips == (day(2024, 1, 9),)
    assert export.settings is not None and export.settings.day_start_minutes == 180
    assert export.rest_periods[0].note == "holiday" and export.total_records == 6
    assert export.habit("Run") is run and export.habit("Swim") is None
    assert run.to_import() == ImportHabit("Run", day(2024, 1, 1), day(2024, 2, 1), (), (day(2024, 1, 2),),
                                          (day(2024, 1, 9),))


@pytest.mark.parametrize("page_size,message", [
    (ENDS_EARLY, "ExportData: the stream ended before its last page"),
    (STRAY_HABIT, "ExportData: bad response: a completion of habit 99, which the export does not have"),
    (PAGE_AFTER_LAST, "ExportData: a page after the last one"),
    (NO_CREATED_ON, "ExportData: bad response: Habit.created_on is absent"),
])
def test_export_all_refuses_a_broken_stream(client, page_size, message):
    with pytest.raises(StreakError) as info:
        client.export_all(page_size=page_size)
    assert info.value.code == StatusCode.INTERNAL and info.value.message == message
    assert client.unarchive_habit(5).id == 5  # the connection stays usable


def test_a_bad_page_ends_the_stream(client, server):
    stream = client.export_data(page_size=NO_CREATED_ON)
    with pytest.raises(StreakError) as info:
        next(stream)
    assert info.value.code == StatusCode.INTERNAL and stream.done
    assert server.cancel_seen.wait(5) and server.cancels == [sent_id(server, "ExportData")]
    assert client.unarchive_habit(5).id == 5


def test_export_error_status_raises_on_first_read(client):
    stream = client.export_data(page_size=70000)
    with pytest.raises(StreakError) as info:
        next(stream)
    assert info.value.code == StatusCode.INVALID_ARGUMENT and "page_size" in info.value.message
    assert stream.done


def test_export_cancel(client, server):
    with client.export_data(page_size=NEVER_ENDS) as stream:
        assert stream.read(5) is not None
    assert stream.done and stream.status.code == StatusCode.CANCELLED
    assert server.cancels == [sent_id(server, "ExportData")]


def sent_id(server, method: str) -> int:
    return [rid for rid, body in server.requests if body.method.endswith("/" + method)][-1]


def test_export_data_is_not_a_unary_call(client):
    with pytest.raises(ValueError, match="server-streaming: use watch\\(\\) or export_data\\(\\)"):
        client.call("ExportData")


def test_export_interleaves_with_unary_calls(client):
    stream = client.export_data(page_size=1)
    first = stream.read(5)
    assert first is not None and first.total_records == 6
    assert client.delete_habit(3).completions == 3  # a unary call while pages wait
    rest = list(stream)
    assert len(rest) == 5 and rest[-1].last


def test_concurrent_exports_on_one_connection(client):
    results: list[Export] = []

    def work():
        results.append(client.export_all(page_size=2))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(results) == 4 and all(r == results[0] for r in results)
