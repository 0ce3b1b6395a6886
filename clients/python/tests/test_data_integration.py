"""Integration: export, import, delete and unarchive against a real streakd ($STREAKD_BIN)."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from streakd_client import Client, Export, ImportHabit, StatusCode, StreakError, Weekday, service_pb2, types_pb2
from streakd_process import StreakdProcess, connected, expect_error, running_streakd, streakd_binary

pytestmark = pytest.mark.integration

day = datetime.date


@pytest.fixture
def server():
    yield from running_streakd()


@pytest.fixture
def client(server):
    yield from connected(server)


def fill(client: Client) -> None:
    """An account with a bit of everything: schedules, completions, skips, an archived habit with
    records, rest periods and settings that are not the defaults."""
    gym = client.create_habit("Gym", "2024-01-01", schedule=[Weekday.MONDAY, Weekday.WEDNESDAY, Weekday.FRIDAY])
    client.set_habit_schedule(gym.id, [Weekday.TUESDAY, Weekday.THURSDAY], effective_from="2024-02-01")
    read = client.create_habit("Read", "2024-01-03")
    run = client.create_habit("Run", "2024-01-02")
    client.batch_completions(record=[(gym.id, "2024-01-01"), (gym.id, "2024-01-03"), (gym.id, "2024-02-06"),
                                     (read.id, "2024-01-03"), (read.id, "2024-01-04"), (read.id, "2024-01-05"),
                                     (run.id, "2024-01-02"), (run.id, "2024-01-09")])
    client.skip_habit(gym.id, "2024-01-05")
    client.skip_habit(read.id, "2024-01-06")
    client.archive_habit(run.id, "2024-01-10")
    client.add_rest_period("2024-03-01", "2024-03-10", note="Holiday")
    client.add_rest_period("2024-04-01", "2024-04-01")
    client.update_settings(time_zone="Europe/Berlin", locale="de_DE", week_start=Weekday.SUNDAY, min_percent=50,
                           day_start_minutes=180)


def without_ids(export: Export) -> object:
    """The export as an account-neutral value: ids belong to the account the data is in."""
    return (export.settings,
            [(dataclasses.replace(h.habit, id=0), h.completions, h.skips) for h in export.habits],
            [dataclasses.replace(p, id=0) for p in export.rest_periods],
            export.total_records)


def import_export(client: Client, export: Export):
    return client.import_data(export.habits, export.rest_periods, export.settings)


# -- export ----------------------------------------------------------------------------------

def test_export_of_an_empty_account_is_one_page(client):
    pages = list(client.export_data())
    assert len(pages) == 1 and pages[0].last and pages[0].habits == () and pages[0].total_records == 0
    assert pages[0].settings is not None and pages[0].settings.time_zone == "UTC"


def test_export_pages_of_two(client):
    fill(client)
    stream = client.export_data(page_size=2)
    pages = list(stream)
    assert stream.done and stream.status.code == StatusCode.OK
    records = sum(len(p.completions) + len(p.skips) for p in pages)
    assert records == 10 == pages[0].total_records == stream.total_records
    assert len(pages) == 5
    assert [p.last for p in pages] == [False] * (len(pages) - 1) + [True]
    assert all(len(p.completions) + len(p.skips) <= 2 for p in pages)
    first, rest = pages[0], pages[1:]
    assert first.settings is not None and [h.name for h in first.habits] == ["Gym", "Read", "Run"]
    assert len(first.rest_periods) == 2
    assert all(p.settings is None and p.habits == () and p.rest_periods == () and p.total_records == 0
               for p in rest)
    # Completions first, then skips; each ascending by habit id, then date.
    completions = [(c.habit_id, c.date) for p in pages for c in p.completions]
    skips = [(s.habit_id, s.date) for p in pages for s in p.skips]
    assert completions == sorted(completions) and len(completions) == 8
    assert skips == sorted(skips) and len(skips) == 2
    last_completion = max(i for i, p in enumerate(pages) if p.completions)
    first_skip = min(i for i, p in enumerate(pages) if p.skips)
    assert last_completion <= first_skip


def test_export_all(client):
    fill(client)
    export = client.export_all()
    assert export == client.export_all(page_size=1) == client.export_all(page_size=3)
    gym, read, run = export.habits
    assert gym.habit.schedule[0].weekdays == (Weekday.MONDAY, Weekday.WEDNESDAY, Weekday.FRIDAY)
    assert gym.habit.schedule[1].effective_from == day(2024, 2, 1)
    assert gym.completions == (day(2024, 1, 1), day(2024, 1, 3), day(2024, 2, 6)) and gym.skips == (day(2024, 1, 5),)
    assert read.completions == (day(2024, 1, 3), day(2024, 1, 4), day(2024, 1, 5))
    assert run.habit.archived_on == day(2024, 1, 10) and run.completions == (day(2024, 1, 2), day(2024, 1, 9))
    assert export.settings is not None
    assert (export.settings.time_zone, export.settings.locale, export.settings.week_start,
            export.settings.min_percent, export.settings.day_start_minutes) == (
        "Europe/Berlin", "de_DE", Weekday.SUNDAY, 50, 180)
    assert [(p.start, p.end, p.note) for p in export.rest_periods] == [
        (day(2024, 3, 1), day(2024, 3, 10), "Holiday"), (day(2024, 4, 1), day(2024, 4, 1), "")]


@pytest.mark.parametrize("page_size", [-1, 65537])
def test_export_page_size_out_of_range(client, page_size):
    stream = client.export_data(page_size=page_size)
    error = expect_error(StatusCode.INVALID_ARGUMENT, next, stream)
    assert "page_size" in error.message
    assert client.ping().serving


def test_export_cancel_leaves_the_connection_usable(client):
    habit = client.create_habit("Read", "2020-01-01").id
    client.batch_completions(record=[(habit, day(2020, 1, 1) + datetime.timedelta(days=n)) for n in range(1500)])
    with client.export_data(page_size=1) as stream:
        assert stream.read(10) is not None
    assert stream.done and stream.status.code in (StatusCode.CANCELLED, StatusCode.OK)
    assert [h.id for h in client.list_habits()] == [habit]


def test_export_needs_a_token(server):
    with Client(server.host, server.port, token=None, timeout=10) as anonymous:
        expect_error(StatusCode.UNAUTHENTICATED, anonymous.export_all)


# -- import ----------------------------------------------------------------------------------

def test_round_trip_into_a_second_user(server, client):
    fill(client)
    original = client.export_all()
    with Client(server.host, server.port, token=server.add_user("bob"), timeout=10) as bob:
        result = import_export(bob, original)
        assert (result.habits_created, result.habits_matched) == (3, 0)
        assert (result.completions_added, result.skips_added, result.rest_periods_added) == (8, 2, 2)
        assert result.schedules_set >= 2 and result.settings_changed and result.errors == ()
        assert [h.name for h in result.habits if h is not None] == ["Gym", "Read", "Run"]
        copy = bob.export_all(page_size=2)
        assert without_ids(copy) == without_ids(original)

        again = import_export(bob, original)  # the same import twice: nothing changes
        assert (again.habits_created, again.habits_matched) == (0, 3)
        assert (again.completions_added, again.skips_added, again.rest_periods_added, again.schedules_set,
                again.settings_changed) == (0, 0, 0, 0, False)
        assert again.errors == () and again.habits == result.habits
        assert bob.export_all() == copy
    assert client.export_all() == original  # the first user is untouched


def test_round_trip_into_a_second_server(client):
    binary = streakd_binary()
    assert binary is not None
    fill(client)
    original = client.export_all(page_size=3)
    other = StreakdProcess(binary)
    try:
        with Client(other.host, other.port, token=other.token, timeout=10) as fresh:
            assert import_export(fresh, original).errors == ()
            copy = fresh.export_all()
            assert without_ids(copy) == without_ids(original)
            assert copy == original  # a fresh server hands out the same ids in the same order
            second = import_export(fresh, copy)
            assert second.completions_added == second.skips_added == second.habits_created == 0
            assert fresh.export_all() == copy
    finally:
        other.stop()


def test_import_matches_by_name_and_adds_what_is_missing(client):
    read = client.create_habit("Read", "2024-01-01")
    client.record_completion(read.id, "2024-01-02")
    result = client.import_data([ImportHabit("Read", completions=["2024-01-02", "2024-01-03"], skips=["2024-01-04"]),
                                 ImportHabit("Walk", completions=[day(2024, 2, 5), day(2024, 2, 3)])],
                                rest_periods=[("2024-05-01", "2024-05-02", "away")])
    assert (result.habits_matched, result.habits_created) == (1, 1)
    assert (result.completions_added, result.skips_added, result.rest_periods_added) == (3, 1, 1)
    matched, created = result.habits
    assert matched is not None and matched.id == read.id
    assert created is not None and created.created_on == day(2024, 2, 3)  # its earliest record
    periods = client.list_rest_periods()
    assert [(p.start, p.end, p.note) for p in periods] == [(day(2024, 5, 1), day(2024, 5, 2), "away")]
    export = client.export_all()
    assert export.habit("Read").completions == (day(2024, 1, 2), day(2024, 1, 3))
    assert export.habit("Walk").completions == (day(2024, 2, 3), day(2024, 2, 5))


def test_import_reports_the_records_it_did_not_apply(client):
    result = client.import_data(
        [ImportHabit("Read", created_on="2024-01-10", completions=["2024-01-05", "2024-01-11"],
                     skips=["2024-01-11", "2024-01-12"]),
         ImportHabit("   ", completions=["2024-01-11"])],
        settings=types_pb2.Settings(time_zone="Mars/Olympus_Mons", locale="en_US", week_start=2))
    fields = sorted((e.habit_index, e.field, e.date) for e in result.errors)
    assert fields == [(-1, "settings", None), (0, "completions", day(2024, 1, 5)), (0, "skips", day(2024, 1, 11)),
                      (1, "name", None)]
    assert all(e.message for e in result.errors)
    assert (result.completions_added, result.skips_added) == (1, 1)  # the rest was applied
    assert result.habits[0] is not None and result.habits[1] is None
    assert client.get_settings().time_zone == "UTC"


def test_import_archives_a_live_habit(client):
    walk = client.create_habit("Walk", "2024-01-01")
    result = client.import_data([ImportHabit("Walk", archived_on="2024-03-01")])
    assert result.habits[0] is not None and result.habits[0].archived_on == day(2024, 3, 1)
    assert client.list_habits(include_archived=True)[0].archived_on == day(2024, 3, 1)
    assert walk.archived_on is None


def test_import_takes_a_request_message(client):
    request = service_pb2.ImportDataRequest(habits=[service_pb2.ImportHabit(
        name="Read", created_on=types_pb2.Date(year=2024, month=1, day=1),
        completions=[types_pb2.Date(year=2024, month=1, day=2)])])
    assert client.import_data(request=request).completions_added == 1


# -- delete and unarchive ----------------------------------------------------------------------

def test_delete_removes_the_habit_and_its_history(client):
    fill(client)
    gym = client.export_all().habit("Gym").habit
    deleted = client.delete_habit(gym.id)
    assert deleted.habit == gym and (deleted.completions, deleted.skips) == (3, 1)
    assert gym.id not in [h.id for h in client.list_habits(include_archived=True)]
    export = client.export_all()
    assert [h.habit.name for h in export.habits] == ["Read", "Run"]
    assert export.total_records == 6
    for date in ("2024-01-01", "2024-01-05"):
        detail = client.get_day(date)
        assert gym.id not in [h.id for h in detail.completed_habits + detail.skipped_habits + detail.open_habits]
    assert client.get_day("2024-01-01").active == 0  # Gym was the only habit that day
    expect_error(StatusCode.NOT_FOUND, client.delete_habit, gym.id)
    expect_error(StatusCode.NOT_FOUND, client.record_completion, gym.id, "2024-01-08")


def test_unarchive(client):
    run = client.create_habit("Run", "2024-01-01")
    archived = client.archive_habit(run.id, "2024-02-01")
    assert archived.archived_on == day(2024, 2, 1)
    live = client.unarchive_habit(run.id)
    assert live.id == run.id and live.archived_on is None
    assert [h.id for h in client.list_habits()] == [run.id]
    error = expect_error(StatusCode.FAILED_PRECONDITION, client.unarchive_habit, run.id)
    assert error.code == 9 and error.code_name == "FAILED_PRECONDITION"
    assert error.message == f"habit {run.id} is not archived"
    expect_error(StatusCode.NOT_FOUND, client.unarchive_habit, 999999)


def test_an_import_over_the_frame_limit_is_refused_unsent_and_the_connection_stays(client):
    """500,000 dates do not fit a 4 MiB frame: RESOURCE_EXHAUSTED before sending (the server would
    answer GOAWAY and close the connection), and the next call works."""
    days = [datetime.date(1000, 1, 1) + datetime.timedelta(days=i) for i in range(500_000)]
    with pytest.raises(StreakError) as info:
        client.import_data([ImportHabit("Big", completions=days)])
    assert info.value.code == StatusCode.RESOURCE_EXHAUSTED and "request too large" in str(info.value)
    assert client.ping().serving
    assert [h.name for h in client.list_habits() if h.name == "Big"] == []
