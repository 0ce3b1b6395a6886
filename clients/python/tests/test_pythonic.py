"""Offline: the Python-facing API against a fake server that records requests and gives canned answers.

Keyword arguments (no Python keyword or builtin as a parameter, `start`/`end` and `from_`/`to`,
the deprecated 0.1 spellings), `datetime.date` in (every date argument) and out (every result),
the frozen dataclasses, and the token file's errors.
"""

from __future__ import annotations

import builtins
import dataclasses
import datetime
import inspect
import keyword
import os
import re
import threading
import warnings
from pathlib import Path

import pytest
from google.protobuf.message import Message

import streakd_client
import vectors
from fakeserver import FakeServer, fake_client
from streakd_client import (Client, Completion, ExportStream, Habit, ImportHabit, RestPeriod, ScheduleEntry,
                            StatusCode, StreakError, TokenFileError, Weekday, WatchStream, framing, models, read_token,
                            service_pb2, to_date, types_pb2)
from streakd_client.framing import FrameKind, RequestBody

DAY = datetime.date(2024, 3, 5)


def pbd(year: int, month: int, day: int) -> types_pb2.Date:
    return types_pb2.Date(year=year, month=month, day=day)


# == Canned answers ==============================================================================

HABIT = types_pb2.Habit(id=7, name="Read", created_on=pbd(2024, 1, 1), schedule=[
    types_pb2.ScheduleEntry(effective_from=pbd(2024, 1, 1), weekdays=[2, 4, 6])])
ARCHIVED = types_pb2.Habit(id=8, name="Run", created_on=pbd(2024, 1, 1), archived_on=pbd(2024, 2, 1))
STREAK = types_pb2.StreakSummary(as_of=pbd(2024, 3, 5), current=2, current_start=pbd(2024, 3, 4), longest=2,
                                 longest_start=pbd(2024, 3, 4), longest_end=pbd(2024, 3, 5), today_pending=False)
DAY_RECORD = types_pb2.DayRecord(date=pbd(2024, 3, 5), completed_habit_ids=[7], completed=1, active=2, percent=50,
                                 level=2, contributing=True, due=2)
REST = types_pb2.RestPeriod(id=1, note="holiday", **{"from": pbd(2024, 7, 1), "to": pbd(2024, 7, 14)})
CELLS = [types_pb2.HeatmapCell(present=False)] + [
    types_pb2.HeatmapCell(present=True, date=pbd(2024, 3, d), completed=1, active=1, level=3, percent=100, due=1)
    for d in range(4, 10)]
HEATMAP = types_pb2.Heatmap(
    week_start=2, weeks=[types_pb2.HeatmapWeek(start=pbd(2024, 3, 4), cells=CELLS)],
    month_labels=[types_pb2.MonthLabel(label="Mar", week_index=0)],
    legend=[types_pb2.LegendEntry(level=0, min_percent=0, max_percent=0, description="0%")],
    **{"from": pbd(2024, 3, 4), "to": pbd(2024, 3, 9)})
PAGE = types_pb2.MonthPage(year=2024, month=3, title="March 2024", weekday_symbols=["Sun"] * 7, days=[
    types_pb2.MonthDay(date=pbd(2024, 3, d), day=d, in_month=True) for d in range(1, 31)] + [
    types_pb2.MonthDay(date=pbd(2024, 4, d), day=d) for d in range(1, 13)],
    previous_year=2024, previous_month=2, next_year=2024, next_month=4, week_start=1)
SETTINGS = types_pb2.Settings(time_zone="UTC", locale="en_US", week_start=2, min_percent=0, day_start_minutes=0)
COUNTS = [types_pb2.WeekdayCount(weekday=w, short_name="x", count=1) for w in range(1, 8)]
S = service_pb2
CANNED: dict[str, Message] = {
    "CreateHabit": S.CreateHabitResponse(habit=HABIT),
    "SetHabitSchedule": S.SetHabitScheduleResponse(habit=HABIT),
    "ListHabits": S.ListHabitsResponse(habits=[HABIT, ARCHIVED]),
    "RenameHabit": S.RenameHabitResponse(habit=HABIT),
    "ArchiveHabit": S.ArchiveHabitResponse(habit=ARCHIVED),
    "RecordCompletion": S.CompletionResponse(day=DAY_RECORD, streak=STREAK, changed=True),
    "RemoveCompletion": S.CompletionResponse(day=DAY_RECORD, streak=STREAK, changed=True),
    "SkipHabit": S.CompletionResponse(day=DAY_RECORD, streak=STREAK, changed=True),
    "UnskipHabit": S.CompletionResponse(day=DAY_RECORD, streak=STREAK, changed=True),
    "BatchCompletions": S.BatchCompletionsResponse(days=[DAY_RECORD], streak=STREAK, changed=1),
    "AddRestPeriod": S.AddRestPeriodResponse(rest_period=REST, streak=STREAK),
    "ListRestPeriods": S.ListRestPeriodsResponse(rest_periods=[REST]),
    "RemoveRestPeriod": S.RemoveRestPeriodResponse(rest_period=REST, streak=STREAK),
    "GetDay": S.GetDayResponse(day=types_pb2.DayDetail(date=pbd(2024, 3, 5), completed_habits=[HABIT],
                                                       open_habits=[ARCHIVED], completed=1, active=2)),
    "GetHeatmap": S.GetHeatmapResponse(heatmap=HEATMAP),
    "GetStreak": S.GetStreakResponse(streak=STREAK),
    "GetWeekdayChart": S.GetWeekdayChartResponse(chart=types_pb2.WeekdayChart(to=pbd(2024, 3, 5), series=[
        types_pb2.WeekdaySeries(habit_id=7, name="Read", counts=COUNTS)])),
    "GetMonthPage": S.GetMonthPageResponse(page=PAGE),
    "GetSettings": S.GetSettingsResponse(settings=SETTINGS),
    "UpdateSettings": S.UpdateSettingsResponse(settings=SETTINGS),
    "BuildMonthLabels": S.BuildMonthLabelsResponse(labels=[types_pb2.MonthLabel(label="Mar", week_index=0)]),
    "BuildHeatmap": S.BuildHeatmapResponse(heatmap=HEATMAP, streak=STREAK),
    "BuildMonthPage": S.BuildMonthPageResponse(page=PAGE),
    "Ping": S.PingResponse(payload=b"hi", serving=True),
    "GetServerInfo": S.GetServerInfoResponse(version="1.0", protocol_version=1),
    "DeleteHabit": S.DeleteHabitResponse(habit=HABIT, completions=2, skips=1),
    "UnarchiveHabit": S.UnarchiveHabitResponse(habit=HABIT),
    "ImportData": S.ImportDataResponse(
        habits_created=1, completions_added=1, habits=[HABIT, types_pb2.Habit()],
        errors=[S.ImportRecordError(habit_index=0, field="skips", date=pbd(2024, 3, 5),
                                    message="the day is also a completion"),
                S.ImportRecordError(habit_index=1, field="name", message="blank")]),
}
EXPORT_PAGES = [
    S.ExportDataPage(settings=SETTINGS, habits=[HABIT, ARCHIVED], rest_periods=[REST], total_records=2,
                     completions=[types_pb2.Completion(habit_id=7, date=pbd(2024, 3, 5))]),
    S.ExportDataPage(skips=[types_pb2.Skip(habit_id=8, date=pbd(2024, 1, 9))], last=True),
]


def canned(conn, frame, server):
    if frame.kind != FrameKind.REQUEST:
        return
    body = RequestBody.decode(frame.body)
    name = body.method.rsplit("/", 1)[-1]
    if name == "Watch":
        event = S.WatchEvent(day=DAY_RECORD, streak=STREAK)
        conn.send_frame(FrameKind.STREAM_MESSAGE, frame.request_id, event.SerializeToString())
        conn.send_frame(FrameKind.END_STREAM, frame.request_id, framing.StatusHeader(0, "").encode())
    elif name == "ExportData":
        for page in EXPORT_PAGES:
            conn.send_frame(FrameKind.STREAM_MESSAGE, frame.request_id, page.SerializeToString())
        conn.send_frame(FrameKind.END_STREAM, frame.request_id, framing.StatusHeader(0, "").encode())
    elif name == "GetStreak" and server.broken.is_set():
        conn.respond(frame.request_id, payload=S.GetStreakResponse(
            streak=types_pb2.StreakSummary(current=1)).SerializeToString())
    else:
        conn.respond(frame.request_id, payload=CANNED[name].SerializeToString())


@pytest.fixture(scope="module")
def server():
    server = FakeServer(canned)
    server.broken = threading.Event()
    yield server
    server.close()


@pytest.fixture(scope="module")
def client(server):
    yield from fake_client(server)


def sent(server, method: str) -> Message:
    """The last request message the fake server got, parsed as `method`'s request."""
    for _, body in reversed(server.requests):
        if body.method.endswith("/" + method):
            return getattr(S, f"{method}Request").FromString(body.message)
    raise AssertionError(f"no {method} request")


# == Keyword arguments ===========================================================================

def public_callables():
    for name, member in inspect.getmembers(Client):
        if not name.startswith("_") and callable(member):
            yield f"Client.{name}", member
    yield "Client.__init__", Client.__init__
    for stream in (WatchStream, ExportStream):
        for name, member in inspect.getmembers(stream):
            if not name.startswith("_") and callable(member):
                yield f"{stream.__name__}.{name}", member


def test_no_parameter_is_a_keyword_or_a_builtin():
    offenders = []
    for qualified, function in public_callables():
        for parameter in inspect.signature(function).parameters.values():
            if parameter.kind is parameter.VAR_KEYWORD:
                continue
            if keyword.iskeyword(parameter.name) or hasattr(builtins, parameter.name):
                offenders.append(f"{qualified}({parameter.name})")
    assert offenders == []


RANGE_METHODS = [
    ("get_heatmap", "GetHeatmap", {}),
    ("get_weekday_chart", "GetWeekdayChart", {}),
    ("build_heatmap", "BuildHeatmap", {"as_of": DAY}),
    ("add_rest_period", "AddRestPeriod", {}),
]


@pytest.mark.parametrize("method,rpc,extra", RANGE_METHODS, ids=[m[0] for m in RANGE_METHODS])
def test_ranges_take_start_end_and_from_to(client, server, method, rpc, extra):
    call = getattr(client, method)
    spellings = [
        lambda: call("2024-01-01", "2024-01-31", **extra) if method != "build_heatmap" else
        call(start="2024-01-01", end="2024-01-31", **extra),
        lambda: call(start=datetime.date(2024, 1, 1), end=datetime.date(2024, 1, 31), **extra),
        lambda: call(from_=datetime.date(2024, 1, 1), to="2024-01-31", **extra),
        lambda: call(start=(2024, 1, 1), to=pbd(2024, 1, 31), **extra),
    ]
    for spelling in spellings:
        spelling()
        request = sent(server, rpc)
        assert (getattr(request, "from"), request.to) == (pbd(2024, 1, 1), pbd(2024, 1, 31))
    with pytest.raises(TypeError, match="both start= and from_="):
        call(start="2024-01-01", from_="2024-01-01", **extra)
    with pytest.raises(TypeError, match="both end= and to="):
        call(end="2024-01-01", to="2024-01-01", **extra)


@pytest.mark.parametrize("method,rpc,extra", RANGE_METHODS[:3], ids=[m[0] for m in RANGE_METHODS[:3]])
def test_the_0_1_from_spelling_still_works_with_a_warning(client, server, method, rpc, extra):
    with pytest.warns(DeprecationWarning, match="'from' is deprecated, use start=") as caught:
        getattr(client, method)(**{"from": "2024-01-02"}, **extra)
    assert [Path(w.filename).name for w in caught] == ["test_pythonic.py"]  # points at the caller
    assert getattr(sent(server, rpc), "from") == pbd(2024, 1, 2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'frm'"):
        getattr(client, method)(frm="2024-01-02", **extra)


def test_remove_rest_period_id_is_rest_period_id(client, server):
    client.remove_rest_period(4)
    assert sent(server, "RemoveRestPeriod").id == 4
    client.remove_rest_period(rest_period_id=5)
    assert sent(server, "RemoveRestPeriod").id == 5
    with pytest.warns(DeprecationWarning, match="'id' is deprecated, use rest_period_id=") as caught:
        client.remove_rest_period(id=6)
    assert [Path(w.filename).name for w in caught] == ["test_pythonic.py"]
    assert sent(server, "RemoveRestPeriod").id == 6
    with pytest.raises(TypeError, match="both"), pytest.warns(DeprecationWarning):
        client.remove_rest_period(5, id=6)


def test_keyword_defaults_do_not_clash_with_a_request_message(client, server):
    # Boolean keywords (accessibility_labels, include_total...) default to "not given".
    request = S.GetHeatmapRequest(as_of=pbd(2024, 3, 5), accessibility_labels=True)
    client.get_heatmap(request=request)
    assert sent(server, "GetHeatmap") == request
    with pytest.raises(TypeError, match="not both"):
        client.get_heatmap(start="2024-01-01", request=request)


def test_update_settings_implies_set_day_start(client, server):
    client.update_settings(day_start_minutes=0)
    request = sent(server, "UpdateSettings")
    assert request.set_day_start and request.day_start_minutes == 0
    client.update_settings(week_start=Weekday.SUNDAY, min_percent=40)
    request = sent(server, "UpdateSettings")
    assert (request.week_start, request.min_percent, request.set_day_start) == (1, 40, False)


# == datetime.date in ============================================================================

# (name, call with a date, rpc, the request field that carries it)
DATE_ARGUMENTS = [
    ("create_habit", lambda c, d: c.create_habit("Read", d), "CreateHabit", lambda r: r.created_on),
    ("set_habit_schedule", lambda c, d: c.set_habit_schedule(7, [2], d), "SetHabitSchedule",
     lambda r: r.effective_from),
    ("archive_habit", lambda c, d: c.archive_habit(7, d), "ArchiveHabit", lambda r: r.archived_on),
    ("record_completion.date", lambda c, d: c.record_completion(7, d), "RecordCompletion", lambda r: r.date),
    ("record_completion.as_of", lambda c, d: c.record_completion(7, as_of=d), "RecordCompletion", lambda r: r.as_of),
    ("remove_completion.date", lambda c, d: c.remove_completion(7, d), "RemoveCompletion", lambda r: r.date),
    ("remove_completion.as_of", lambda c, d: c.remove_completion(7, as_of=d), "RemoveCompletion", lambda r: r.as_of),
    ("batch_completions.record", lambda c, d: c.batch_completions([(7, d)]), "BatchCompletions",
     lambda r: r.record[0].date),
    ("batch_completions.remove", lambda c, d: c.batch_completions(remove=[Completion(7, d)]), "BatchCompletions",
     lambda r: r.remove[0].date),
    ("batch_completions.as_of", lambda c, d: c.batch_completions(as_of=d), "BatchCompletions", lambda r: r.as_of),
    ("skip_habit.date", lambda c, d: c.skip_habit(7, d), "SkipHabit", lambda r: r.date),
    ("skip_habit.as_of", lambda c, d: c.skip_habit(7, as_of=d), "SkipHabit", lambda r: r.as_of),
    ("unskip_habit.date", lambda c, d: c.unskip_habit(7, d), "UnskipHabit", lambda r: r.date),
    ("unskip_habit.as_of", lambda c, d: c.unskip_habit(7, as_of=d), "UnskipHabit", lambda r: r.as_of),
    ("add_rest_period.start", lambda c, d: c.add_rest_period(d), "AddRestPeriod", lambda r: getattr(r, "from")),
    ("add_rest_period.end", lambda c, d: c.add_rest_period(end=d), "AddRestPeriod", lambda r: r.to),
    ("add_rest_period.from_", lambda c, d: c.add_rest_period(from_=d), "AddRestPeriod",
     lambda r: getattr(r, "from")),
    ("add_rest_period.to", lambda c, d: c.add_rest_period(to=d), "AddRestPeriod", lambda r: r.to),
    ("add_rest_period.as_of", lambda c, d: c.add_rest_period(as_of=d), "AddRestPeriod", lambda r: r.as_of),
    ("remove_rest_period.as_of", lambda c, d: c.remove_rest_period(1, d), "RemoveRestPeriod", lambda r: r.as_of),
    ("get_day", lambda c, d: c.get_day(d), "GetDay", lambda r: r.date),
    ("get_heatmap.start", lambda c, d: c.get_heatmap(d), "GetHeatmap", lambda r: getattr(r, "from")),
    ("get_heatmap.end", lambda c, d: c.get_heatmap(end=d), "GetHeatmap", lambda r: r.to),
    ("get_heatmap.from_", lambda c, d: c.get_heatmap(from_=d), "GetHeatmap", lambda r: getattr(r, "from")),
    ("get_heatmap.to", lambda c, d: c.get_heatmap(to=d), "GetHeatmap", lambda r: r.to),
    ("get_heatmap.as_of", lambda c, d: c.get_heatmap(as_of=d), "GetHeatmap", lambda r: r.as_of),
    ("get_streak", lambda c, d: c.get_streak(d), "GetStreak", lambda r: r.as_of),
    ("get_weekday_chart.start", lambda c, d: c.get_weekday_chart(d), "GetWeekdayChart",
     lambda r: getattr(r, "from")),
    ("get_weekday_chart.end", lambda c, d: c.get_weekday_chart(end=d), "GetWeekdayChart", lambda r: r.to),
    ("get_weekday_chart.from_", lambda c, d: c.get_weekday_chart(from_=d), "GetWeekdayChart",
     lambda r: getattr(r, "from")),
    ("get_weekday_chart.to", lambda c, d: c.get_weekday_chart(to=d), "GetWeekdayChart", lambda r: r.to),
    ("get_weekday_chart.as_of", lambda c, d: c.get_weekday_chart(as_of=d), "GetWeekdayChart", lambda r: r.as_of),
    ("get_month_page.selected", lambda c, d: c.get_month_page(selected=d), "GetMonthPage", lambda r: r.selected),
    ("get_month_page.as_of", lambda c, d: c.get_month_page(as_of=d), "GetMonthPage", lambda r: r.as_of),
    ("build_month_labels", lambda c, d: c.build_month_labels([d]), "BuildMonthLabels", lambda r: r.week_starts[0]),
    ("build_heatmap.as_of", lambda c, d: c.build_heatmap(as_of=d), "BuildHeatmap", lambda r: r.as_of),
    ("build_heatmap.start", lambda c, d: c.build_heatmap(start=d), "BuildHeatmap", lambda r: getattr(r, "from")),
    ("build_heatmap.end", lambda c, d: c.build_heatmap(end=d), "BuildHeatmap", lambda r: r.to),
    ("build_heatmap.from_", lambda c, d: c.build_heatmap(from_=d), "BuildHeatmap", lambda r: getattr(r, "from")),
    ("build_heatmap.to", lambda c, d: c.build_heatmap(to=d), "BuildHeatmap", lambda r: r.to),
    ("build_heatmap.completions", lambda c, d: c.build_heatmap(completions=[(7, d)]), "BuildHeatmap",
     lambda r: r.completions[0].date),
    ("build_heatmap.skips", lambda c, d: c.build_heatmap(skips=[(7, d)]), "BuildHeatmap", lambda r: r.skips[0].date),
    ("build_heatmap.rest_periods", lambda c, d: c.build_heatmap(rest_periods=[(d, d)]), "BuildHeatmap",
     lambda r: getattr(r.rest_periods[0], "from")),
    ("build_heatmap.habits", lambda c, d: c.build_heatmap([Habit(1, "A", d)]), "BuildHeatmap",
     lambda r: r.habits[0].created_on),
    ("build_month_page.as_of", lambda c, d: c.build_month_page(2024, 3, as_of=d), "BuildMonthPage",
     lambda r: r.as_of),
    ("build_month_page.selected", lambda c, d: c.build_month_page(2024, 3, selected=d), "BuildMonthPage",
     lambda r: r.selected),
    ("build_month_page.highlighted", lambda c, d: c.build_month_page(2024, 3, highlighted=[d]), "BuildMonthPage",
     lambda r: r.highlighted[0]),
    ("watch", lambda c, d: list(c.watch(d)), "Watch", lambda r: r.as_of),
    ("import_data.habits.created_on", lambda c, d: c.import_data([ImportHabit("A", created_on=d)]), "ImportData",
     lambda r: r.habits[0].created_on),
    ("import_data.habits.archived_on", lambda c, d: c.import_data([ImportHabit("A", archived_on=d)]), "ImportData",
     lambda r: r.habits[0].archived_on),
    ("import_data.habits.completions", lambda c, d: c.import_data([ImportHabit("A", completions=[d])]), "ImportData",
     lambda r: r.habits[0].completions[0]),
    ("import_data.habits.skips", lambda c, d: c.import_data([ImportHabit("A", skips=[d])]), "ImportData",
     lambda r: r.habits[0].skips[0]),
    ("import_data.habits.habit", lambda c, d: c.import_data([Habit(1, "A", to_date(d))]), "ImportData",
     lambda r: r.habits[0].created_on),
    ("import_data.rest_periods", lambda c, d: c.import_data(rest_periods=[(d, d)]), "ImportData",
     lambda r: getattr(r.rest_periods[0], "from")),
]

DATE_FORMS = [DAY, datetime.datetime(2024, 3, 5, 23, 59), "2024-03-05", (2024, 3, 5), pbd(2024, 3, 5)]


@pytest.mark.parametrize("name,call,rpc,field", DATE_ARGUMENTS, ids=[a[0] for a in DATE_ARGUMENTS])
def test_every_date_argument_takes_a_datetime_date(client, server, name, call, rpc, field):
    for form in DATE_FORMS:
        call(client, form)
        assert field(sent(server, rpc)) == pbd(2024, 3, 5), f"{name} with {form!r}"


def test_watch_lifecycle_events_flag(client, server):
    list(client.watch())
    assert not sent(server, "Watch").lifecycle_events
    list(client.watch(lifecycle_events=True))
    assert sent(server, "Watch").lifecycle_events


@pytest.mark.parametrize("kind,expected", [
    (S.WatchEvent.DAY_CHANGED, streakd_client.WatchEventKind.DAY_CHANGED),
    (S.WatchEvent.SUBSCRIBED, streakd_client.WatchEventKind.SUBSCRIBED),
    (S.WatchEvent.DAY_STARTED, streakd_client.WatchEventKind.DAY_STARTED),
    (S.WatchEvent.SETTINGS_CHANGED, streakd_client.WatchEventKind.SETTINGS_CHANGED),
    (9, 9),  # a kind this version does not know stays a number
])
def test_watch_event_kind(kind, expected):
    with_day = models.WatchEvent.from_pb(S.WatchEvent(day=DAY_RECORD, streak=STREAK, kind=kind))
    assert with_day.kind == expected and with_day.day is not None and with_day.day.date == DAY
    without_day = models.WatchEvent.from_pb(S.WatchEvent(streak=STREAK, kind=kind))
    assert without_day.kind == expected and without_day.day is None


def test_the_table_names_every_date_parameter():
    """Every parameter annotated DateLike (or a collection of them) appears in DATE_ARGUMENTS."""
    covered = {name.split(".")[0] + "." + name.split(".")[1] if "." in name else name for name, *_ in DATE_ARGUMENTS}
    missing = []
    for qualified, function in public_callables():
        method = qualified.split(".")[1]
        for parameter in inspect.signature(function).parameters.values():
            annotation = str(parameter.annotation)
            if any(t in annotation for t in ("DateLike", "CompletionLike", "SkipLike", "RestPeriodLike", "HabitLike")):
                if f"{method}.{parameter.name}" not in covered and method not in covered:
                    missing.append(f"{method}.{parameter.name}")
    assert missing == []


def test_a_bad_date_is_a_clear_local_error(client):
    with pytest.raises(ValueError, match="not a YYYY-MM-DD date: '5 March'"):
        client.get_streak("5 March")
    with pytest.raises(TypeError, match="cannot make a Date from float"):
        client.get_streak(2024.0305)  # type: ignore[arg-type]
    for loose in ("2024-3-1", "99999-01-01", "24-03-01", "2024-03-01 ", "２０２４-03-01"):
        with pytest.raises(ValueError, match="not a YYYY-MM-DD date"):
            client.get_streak(loose)


# == datetime.date out ===========================================================================

def walk(value, path="result"):
    """(path, value) for every leaf of a result: dataclasses, tuples and lists are opened."""
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from walk(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")
    else:
        yield path, value


RESULTS = [
    ("create_habit", lambda c: c.create_habit("Read"), models.Habit),
    ("set_habit_schedule", lambda c: c.set_habit_schedule(7, [2]), models.Habit),
    ("list_habits", lambda c: c.list_habits(), list),
    ("rename_habit", lambda c: c.rename_habit(7, "x"), models.Habit),
    ("archive_habit", lambda c: c.archive_habit(7), models.Habit),
    ("record_completion", lambda c: c.record_completion(7), models.CompletionResult),
    ("remove_completion", lambda c: c.remove_completion(7), models.CompletionResult),
    ("batch_completions", lambda c: c.batch_completions([(7, DAY)]), models.BatchResult),
    ("skip_habit", lambda c: c.skip_habit(7), models.CompletionResult),
    ("unskip_habit", lambda c: c.unskip_habit(7), models.CompletionResult),
    ("add_rest_period", lambda c: c.add_rest_period(DAY, DAY), models.RestPeriodResult),
    ("list_rest_periods", lambda c: c.list_rest_periods(), list),
    ("remove_rest_period", lambda c: c.remove_rest_period(1), models.RestPeriodResult),
    ("get_day", lambda c: c.get_day(DAY), models.DayDetail),
    ("get_heatmap", lambda c: c.get_heatmap(), models.Heatmap),
    ("get_streak", lambda c: c.get_streak(), models.Streak),
    ("get_weekday_chart", lambda c: c.get_weekday_chart(), models.WeekdayChart),
    ("get_month_page", lambda c: c.get_month_page(), models.MonthPage),
    ("get_settings", lambda c: c.get_settings(), models.Settings),
    ("update_settings", lambda c: c.update_settings(locale="en_US"), models.Settings),
    ("build_month_labels", lambda c: c.build_month_labels([DAY]), list),
    ("build_heatmap", lambda c: c.build_heatmap(as_of=DAY), models.HeatmapResult),
    ("build_month_page", lambda c: c.build_month_page(2024, 3, as_of=DAY), models.MonthPage),
    ("ping", lambda c: c.ping(b"hi"), models.Pong),
    ("get_server_info", lambda c: c.get_server_info(), models.ServerInfo),
    ("watch", lambda c: list(c.watch()), list),
    ("delete_habit", lambda c: c.delete_habit(7), models.DeletedHabit),
    ("unarchive_habit", lambda c: c.unarchive_habit(8), models.Habit),
    ("import_data", lambda c: c.import_data([ImportHabit("Read", completions=[DAY])]), models.ImportResult),
    ("export_data", lambda c: list(c.export_data()), list),
    ("export_all", lambda c: c.export_all(), models.Export),
]


@pytest.mark.parametrize("name,call,kind", RESULTS, ids=[r[0] for r in RESULTS])
def test_results_are_frozen_dataclasses_with_datetime_dates(client, name, call, kind):
    result = call(client)
    assert isinstance(result, kind)
    leaves = list(walk(result))
    messages = [path for path, value in leaves if isinstance(value, Message)]
    assert messages == [], f"protobuf messages left in the result: {messages}"
    dates = [path for path, value in leaves if isinstance(value, datetime.date)]
    date_named = [path for path, value in leaves
                  if path.rsplit(".", 1)[-1].split("[")[0] in {"date", "as_of", "start", "end", "created_on",
                                                                "archived_on", "effective_from", "current_start",
                                                                "longest_start", "longest_end"}]
    assert all(value is None or isinstance(value, datetime.date) for path, value in leaves if path in date_named)
    if name not in {"get_settings", "update_settings", "build_month_labels", "ping", "get_server_info"}:
        assert dates, f"{name}: no datetime.date in the result"
    for container in [result] + [value for _, value in leaves]:
        if dataclasses.is_dataclass(container):
            field = dataclasses.fields(container)[0].name
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(container, field, None)


def test_result_values(client):
    habit = client.create_habit("Read")
    assert habit == Habit(7, "Read", datetime.date(2024, 1, 1), None,
                          (ScheduleEntry(datetime.date(2024, 1, 1), (Weekday.MONDAY, Weekday.WEDNESDAY,
                                                                     Weekday.FRIDAY)),))
    assert habit.to_pb() == HABIT and Habit.from_pb(habit.to_pb()) == habit
    archived = client.archive_habit(8)
    assert archived.archived_on == datetime.date(2024, 2, 1) and archived.archived
    assert archived.to_pb() == ARCHIVED
    streak = client.get_streak()
    assert (streak.as_of, streak.current_start, streak.longest_end) == (DAY, datetime.date(2024, 3, 4), DAY)
    heatmap = client.get_heatmap()
    assert (heatmap.start, heatmap.end, heatmap.week_start) == (datetime.date(2024, 3, 4), datetime.date(2024, 3, 9),
                                                                Weekday.MONDAY)
    assert heatmap.weeks[0].cells[0].date is None and not heatmap.weeks[0].cells[0].present
    assert [cell.date.day for cell in heatmap.days()] == [4, 5, 6, 7, 8, 9]
    assert heatmap.cell(datetime.date(2024, 3, 6)).level == 3 and heatmap.cell(datetime.date(2024, 3, 10)) is None
    rest = client.list_rest_periods()[0]
    assert rest == RestPeriod(1, datetime.date(2024, 7, 1), datetime.date(2024, 7, 14), "holiday")
    assert rest.to_pb() == REST
    assert client.get_settings().min_percent is None  # 0 on the wire: unset
    chart = client.get_weekday_chart()
    assert chart.start is None and chart.end == DAY and chart.series[0].counts[0].weekday == Weekday.SUNDAY


def test_a_response_without_a_required_date_is_internal(client, server):
    server.broken.set()
    try:
        with pytest.raises(StreakError) as info:
            client.get_streak()
    finally:
        server.broken.clear()
    assert info.value.code == StatusCode.INTERNAL
    assert "GetStreak: bad response: StreakSummary.as_of is absent" in info.value.message


def test_call_still_returns_the_message(client):
    response = client.call("GetStreak", as_of=DAY)
    assert isinstance(response, S.GetStreakResponse) and response.streak.as_of == pbd(2024, 3, 5)


def test_date_helpers():
    assert to_date("2024-03-05") == to_date((2024, 3, 5)) == to_date(pbd(2024, 3, 5)) == DAY
    assert to_date(datetime.datetime(2024, 3, 5, 12)) == DAY and type(to_date(DAY)) is datetime.date
    with pytest.raises(ValueError, match="2024-02-30 is not a real day"):
        to_date("2024-02-30")
    with pytest.raises(ValueError, match="2023-02-29 is not a real day"):
        ImportHabit("A", completions=["2024-01-01", "2023-02-29"])
    assert [Weekday.of(datetime.date(2024, 3, d)) for d in (3, 4, 9)] == [Weekday.SUNDAY, Weekday.MONDAY,
                                                                           Weekday.SATURDAY]
    assert Habit(1, "a", DAY, datetime.date(2024, 3, 6)).active_on(DAY)
    assert not Habit(1, "a", DAY, datetime.date(2024, 3, 6)).active_on(datetime.date(2024, 3, 6))


# == The token file ==============================================================================

def unused_port() -> int:
    server = FakeServer(canned)
    port = server.port
    server.close()
    return port


def test_missing_token_file_is_a_clear_error(tmp_path):
    path = tmp_path / "data" / "token"
    with pytest.raises(TokenFileError) as info:
        Client("127.0.0.1", unused_port(), token_file=path)  # raised before connecting: not UNAVAILABLE
    error = info.value
    assert isinstance(error, StreakError) and error.code == StatusCode.UNAUTHENTICATED
    assert error.path == str(path) and error.reason == "it does not exist"
    assert f"cannot read the token file {path}: it does not exist" in error.message
    assert "start streakd once" in error.message and "STREAK_TOKEN" in error.message
    # No chained traceback from inside pathlib: the error is the whole story.
    assert error.__cause__ is None and error.__suppress_context__


def test_other_unreadable_token_files(tmp_path, monkeypatch):
    (tmp_path / "empty").write_text(" \n")
    (tmp_path / "binary").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "dir").mkdir()
    for name, reason in [("empty", "it is empty"), ("binary", "it is not UTF-8 text"),
                         ("dir", "it is a directory")]:
        with pytest.raises(TokenFileError, match=reason) as info:
            read_token(tmp_path / name)
        assert info.value.path == str(tmp_path / name)
    locked = tmp_path / "locked"
    locked.write_text("stk_x")
    if os.geteuid() != 0:  # root reads any file: simulate the denial instead
        locked.chmod(0)
    else:
        def denied(self, *args, **kwargs):
            raise PermissionError(13, "Permission denied", str(self))
        monkeypatch.setattr(Path, "read_text", denied)
    with pytest.raises(TokenFileError, match="permission denied") as info:
        read_token(locked)
    assert "mode 0600" in info.value.message


def test_token_file_is_read_and_stripped(tmp_path, server):
    (tmp_path / "token").write_text("good\n")
    with Client("127.0.0.1", server.port, token_file=tmp_path / "token", timeout=5) as client:
        assert client.token == "good"
        assert client.get_streak().current == 2
    with pytest.raises(TypeError, match="not both"):
        Client("127.0.0.1", server.port, token="a", token_file=tmp_path / "token")


def test_from_env_finds_the_token_like_the_cli(tmp_path, monkeypatch, server):
    monkeypatch.setenv("STREAK_SERVER", f"127.0.0.1:{server.port}")
    monkeypatch.delenv("STREAK_TOKEN", raising=False)
    monkeypatch.setenv("STREAKD_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(TokenFileError) as info:
        Client.from_env()
    assert info.value.path == str(tmp_path / "data" / "token")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "token").write_text("from-file\n")
    with Client.from_env() as client:
        assert client.token == "from-file"
    monkeypatch.setenv("STREAK_TOKEN", "from-env")
    with Client.from_env() as client:
        assert client.token == "from-env"
    with Client.from_env(token="given") as client:
        assert client.token == "given"
    monkeypatch.delenv("STREAKD_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert streakd_client.default_token_file() == tmp_path / "xdg" / "streakd" / "token"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert streakd_client.default_token_file() == tmp_path / "home" / ".local" / "share" / "streakd" / "token"


ADDRESSES, LOOPBACK = vectors.server_addresses()


@pytest.mark.parametrize("host,loopback", LOOPBACK, ids=[repr(host) for host, _ in LOOPBACK])
def test_is_loopback_as_written(host, loopback):
    """docs/vectors/server-addresses.json, which the Swift and C tests read too."""
    assert streakd_client.is_loopback(host) is loopback


@pytest.mark.parametrize("case", ADDRESSES, ids=[repr(case["text"]) for case in ADDRESSES])
def test_parse_address_as_the_shared_cases_say(case):
    """docs/vectors/server-addresses.json: `streak --server`'s rule."""
    if case.get("error") is not None:
        with pytest.raises(ValueError, match=re.escape(case["error"])):
            streakd_client.parse_address(case["text"])
        return
    host, port = streakd_client.parse_address(case["text"])
    assert (host, port) == (case["host"], case["port"])
    assert streakd_client.is_loopback(host) is case["loopback"]


def test_from_env_keeps_the_local_token_on_this_machine(tmp_path, monkeypatch):
    """The local token file is never sent to another machine, and no token goes there in clear."""
    monkeypatch.delenv("STREAK_TOKEN", raising=False)
    monkeypatch.delenv("STREAK_TLS", raising=False)
    monkeypatch.setenv("STREAKD_DATA_DIR", str(tmp_path))
    (tmp_path / "token").write_text("local-secret\n")
    # Refused before connecting: nothing listens on these documentation addresses' ports.
    with pytest.raises(StreakError) as info:
        Client.from_env("192.0.2.2:9")
    assert info.value.code == StatusCode.UNAUTHENTICATED
    assert "used only for a server on this machine" in info.value.message
    with pytest.raises(StreakError) as info:
        Client.from_env("192.0.2.2:9", token="given")
    assert info.value.code == StatusCode.FAILED_PRECONDITION
    assert "refusing to send the token in clear to 192.0.2.2:9" in info.value.message
    with pytest.raises(StreakError) as info:
        Client.from_env("[2001:db8::1]:9", token="given")
    assert info.value.code == StatusCode.FAILED_PRECONDITION


def test_from_env_insecure_plaintext_sends_the_token_anyway():
    seen = []

    def answer(conn, frame, server):
        if frame.kind == FrameKind.REQUEST:
            seen.append(frame)
            conn.respond(frame.request_id, StatusCode.UNAUTHENTICATED, "no")
    server = FakeServer(answer)
    try:
        # A loopback server reached by a name that is not loopback as written.
        with Client.from_env(f"127.1:{server.port}", token="given", insecure_plaintext=True, timeout=5) as client:
            with pytest.raises(StreakError):
                client.get_settings()
        assert seen
    finally:
        server.close()


def test_a_missing_token_says_so_on_unauthenticated():
    def refuse(conn, frame, server):
        if frame.kind == FrameKind.REQUEST:
            conn.respond(frame.request_id, StatusCode.UNAUTHENTICATED, "missing bearer token")
    server = FakeServer(refuse)
    try:
        with Client("127.0.0.1", server.port, timeout=5) as client:
            with pytest.raises(StreakError) as info:
                client.list_habits()
        assert info.value.message.startswith("missing bearer token (this client has no token: pass token=")
    finally:
        server.close()


def test_warnings_are_not_raised_by_the_current_api(client):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client.get_heatmap("2024-01-01", "2024-01-31")
        client.remove_rest_period(1)


def test_server_info_carries_failing_storage_upkeep():
    S = streakd_client.service_pb2
    message = S.GetServerInfoResponse(version="1.0", protocol_version=1, storage="postgres")
    message.storage_upkeep_failing.add(job="prune_change_log", description="pruning the change log",
                                       failing_since_unix_seconds=1_795_000_000, error="io",
                                       detail="PostgreSQL query failed (P0001)", engine_code="P0001")
    message.storage_upkeep_failing.add(job="something_new")
    info = streakd_client.ServerInfo.from_pb(message)
    first, second = info.storage_upkeep_failing
    assert first == streakd_client.StorageUpkeepFailure(
        "prune_change_log", "pruning the change log",
        datetime.datetime(2026, 11, 18, 11, 6, 40, tzinfo=datetime.timezone.utc), "io",
        "PostgreSQL query failed (P0001)", "P0001")
    # A job this client does not know is kept as it is; a missing time is None.
    assert second.job == "something_new" and second.failing_since is None and second.engine_code == ""
    assert streakd_client.ServerInfo.from_pb(S.GetServerInfoResponse()).storage_upkeep_failing == ()


@pytest.mark.parametrize("weekday", ["monday", 2.0, True, None])
def test_a_weekday_that_is_not_one_is_refused_before_sending(client, server, weekday):
    sent = len(server.requests)
    with pytest.raises(TypeError, match=r"weekdays: .* is not a weekday; give Weekday members"):
        client.set_habit_schedule(7, [Weekday.MONDAY, weekday])
    assert len(server.requests) == sent


def test_weekday_members_and_numbers_are_taken(client, server):
    client.set_habit_schedule(7, [Weekday.MONDAY, 6])
    sent = streakd_client.service_pb2.SetHabitScheduleRequest.FromString(server.requests[-1][1].message)
    assert list(sent.weekdays.weekdays) == [2, 6]


def test_an_empty_week_start_is_not_given(client, server):
    # The server refuses a WeekStart whose locale is set to "" ("the week start's locale is empty");
    # one with neither field set is the request's default, as weekday 0 is.
    assert streakd_client.to_week_start("") == types_pb2.WeekStart()
    assert streakd_client.to_week_start("").WhichOneof("kind") is None
    assert streakd_client.to_week_start("en_US").locale == "en_US"
    client.get_heatmap(week_start="")
    assert sent(server, "GetHeatmap").week_start.WhichOneof("kind") is None
    client.get_month_page(week_start="")
    assert sent(server, "GetMonthPage").week_start.WhichOneof("kind") is None
    client.build_heatmap(as_of=DAY, week_start="")
    assert sent(server, "BuildHeatmap").week_start.WhichOneof("kind") is None
    client.build_month_page(2024, 3, as_of=DAY, week_start="")
    assert sent(server, "BuildMonthPage").week_start.WhichOneof("kind") is None
