"""Schedules, skips, rest periods, the day start and per-habit views against a real streakd."""

import datetime
import warnings

import pytest

from streakd_client import RestPeriod, StatusCode, Weekday
from streakd_process import connected, expect_error, running_streakd

pytestmark = pytest.mark.integration

D = datetime.date
MONDAY, WEDNESDAY, FRIDAY = Weekday.MONDAY, Weekday.WEDNESDAY, Weekday.FRIDAY


@pytest.fixture
def server():
    yield from running_streakd()


@pytest.fixture
def client(server):
    yield from connected(server)


def test_worked_example_skips_bridge_the_streak(client):
    walk = client.create_habit("Walk", created_on="2024-05-01")
    for day in ("2024-05-01", "2024-05-02", "2024-05-05"):
        client.record_completion(walk.id, day)
    for day in ("2024-05-03", "2024-05-04"):
        response = client.skip_habit(walk.id, day, as_of="2024-05-06")
        assert response.changed and response.day.rest and response.day.due == 0
        assert response.day.skipped_habit_ids == (walk.id,)
    streak = client.get_streak("2024-05-06")
    assert (streak.current, streak.current_start, streak.longest) == (3, D(2024, 5, 1), 3)
    assert streak.longest_end == D(2024, 5, 5) and streak.today_pending
    assert not client.skip_habit(walk.id, D(2024, 5, 3)).changed
    assert client.unskip_habit(walk.id, D(2024, 5, 3)).changed
    assert client.get_streak("2024-05-06").current == 1


def test_schedule_from_a_date(client):
    gym = client.create_habit("Gym", created_on="2024-01-01", schedule=[MONDAY, WEDNESDAY, FRIDAY])
    assert [entry.weekdays for entry in gym.schedule] == [(MONDAY, WEDNESDAY, FRIDAY)]
    assert gym.schedule[0].effective_from == D(2024, 1, 1)
    tuesday = client.get_day("2024-01-02")
    assert tuesday.rest and tuesday.due == 0 and tuesday.accessibility_label == "January 2: rest day"
    changed = client.set_habit_schedule(gym.id, list(range(1, 8)), D(2024, 1, 8))
    assert [entry.effective_from for entry in changed.schedule] == [D(2024, 1, 1), D(2024, 1, 8)]
    assert client.get_day("2024-01-09").due == 1
    assert client.get_day("2024-01-02").due == 0
    expect_error(StatusCode.INVALID_ARGUMENT, client.create_habit, "x", schedule=[])
    expect_error(StatusCode.INVALID_ARGUMENT, client.set_habit_schedule, gym.id)
    expect_error(StatusCode.NOT_FOUND, client.set_habit_schedule, 999, [MONDAY])


def test_rest_periods_and_their_errors(client):
    swim = client.create_habit("Swim", created_on="2024-06-01")
    for day in ("2024-06-01", "2024-06-02", "2024-06-08"):
        client.record_completion(swim.id, day)
    added = client.add_rest_period("2024-06-03", D(2024, 6, 7), note="pool closed", as_of="2024-06-08")
    assert added.rest_period.id > 0 and added.streak.current == 3
    assert added.rest_period == RestPeriod(added.rest_period.id, D(2024, 6, 3), D(2024, 6, 7), "pool closed")
    assert client.list_rest_periods() == [added.rest_period]
    heatmap = client.get_heatmap(start="2024-06-01", end="2024-06-08", as_of="2024-06-08")
    rest = [cell.date.day for cell in heatmap.days() if cell.rest]
    assert rest == [3, 4, 5, 6, 7]
    removed = client.remove_rest_period(added.rest_period.id, as_of="2024-06-08")
    assert removed.rest_period == added.rest_period and removed.streak.current == 1
    expect_error(StatusCode.NOT_FOUND, client.remove_rest_period, added.rest_period.id)
    # The other spellings: start=/end=, from_=/to=, and (deprecated) id=.
    second = client.add_rest_period(start=D(2024, 6, 10), end=D(2024, 6, 11)).rest_period
    third = client.add_rest_period(from_="2024-06-20", to="2024-06-21").rest_period
    assert [(p.start, p.end) for p in client.list_rest_periods()] == [(D(2024, 6, 10), D(2024, 6, 11)),
                                                                      (D(2024, 6, 20), D(2024, 6, 21))]
    assert client.remove_rest_period(rest_period_id=second.id).rest_period == second
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert client.remove_rest_period(id=third.id).rest_period == third
    assert [w.category for w in caught] == [DeprecationWarning]
    error = expect_error(StatusCode.INVALID_ARGUMENT, client.add_rest_period, "2024-03-05", "2024-03-01")
    assert "before" in error.message
    expect_error(StatusCode.INVALID_ARGUMENT, client.add_rest_period, "2000-01-01", "2030-01-01")
    expect_error(StatusCode.INVALID_ARGUMENT, client.add_rest_period, "2024-01-01", "2024-01-01", note="n" * 201)
    assert client.list_rest_periods() == []


def test_day_start_and_per_habit_views(client):
    settings = client.update_settings(day_start_minutes=180)  # set_day_start is implied
    assert settings.day_start_minutes == 180
    assert client.update_settings(locale="de_DE").day_start_minutes == 180
    assert client.update_settings(set_day_start=True, day_start_minutes=0).day_start_minutes == 0
    assert client.update_settings(day_start_minutes=180).day_start_minutes == 180
    error = expect_error(StatusCode.INVALID_ARGUMENT, client.update_settings, set_day_start=True,
                         day_start_minutes=721)
    assert "day_start_minutes" in error.message
    read = client.create_habit("Read", created_on="2024-01-01")
    run = client.create_habit("Run", created_on="2024-01-01")
    for day in ("2024-01-01", "2024-01-02", "2024-01-03"):
        client.record_completion(read.id, day)
    client.record_completion(run.id, "2024-01-03")
    assert client.get_streak("2024-01-03").current == 3
    assert client.get_streak("2024-01-03", habit_ids=[run.id]).current == 1
    day = client.get_day("2024-01-02", habit_ids=[run.id])
    assert (day.active, day.completed) == (1, 0) and [h.id for h in day.open_habits] == [run.id]
    error = expect_error(StatusCode.NOT_FOUND, client.get_heatmap, habit_ids=[read.id, 999])
    assert "999" in error.message
