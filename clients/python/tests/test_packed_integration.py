"""Integration: the packed heatmap and the compact BuildHeatmap input against a real streakd.

On seeded random histories (schedules, skips, rest periods, an archived habit), random ranges,
"today"s, week starts and habit subsets, the packed answer decodes to exactly the classic one."""

from __future__ import annotations

import datetime
import random

import pytest

from streakd_client import (Client, Completion, Habit, Skip, StatusCode, StreakError, Weekday, encode_day_deltas,
                            service_pb2, types_pb2)
from streakd_process import connected, running_streakd

pytestmark = pytest.mark.integration

day = datetime.date
START = day(2023, 6, 1)


@pytest.fixture
def server():
    yield from running_streakd()


@pytest.fixture
def client(server):
    yield from connected(server, timeout=30)


def fill(client: Client, rng: random.Random) -> tuple[list[Habit], list[Completion], list[Skip], list]:
    habits = []
    for index in range(rng.randint(1, 4)):
        schedule = None
        if rng.random() < 0.5:
            schedule = sorted({Weekday.FRIDAY, *[w for w in Weekday if rng.random() < 0.5]})
        habits.append(client.create_habit(f"h{index}", START + datetime.timedelta(days=rng.randrange(200)),
                                          schedule=schedule))
    completions, skips = [], []
    for offset in range(420):
        date = START + datetime.timedelta(days=offset)
        for habit in habits:
            if habit.created_on > date:
                continue
            roll = rng.random()
            if roll < 0.55:
                completions.append(Completion(habit.id, date))
            elif roll < 0.6:
                skips.append(Skip(habit.id, date))
    client.batch_completions(record=completions)
    for skip in skips:
        client.skip_habit(skip.habit_id, skip.date)
    if len(habits) > 1 and rng.random() < 0.5:
        end = START + datetime.timedelta(days=300 + rng.randrange(100))
        habits[0] = client.archive_habit(habits[0].id, end)
        # BuildHeatmap refuses a skip on a day its habit is not active.
        skips = [s for s in skips if not (s.habit_id == habits[0].id and s.date >= end)]
    periods = []
    for _ in range(rng.randint(1, 3)):
        first = START + datetime.timedelta(days=rng.randrange(400))
        periods.append(client.add_rest_period(first, first + datetime.timedelta(days=rng.randrange(15))).rest_period)
    return habits, completions, skips, periods


@pytest.mark.parametrize("seed", [41, 42, 43])
def test_packed_get_heatmap_decodes_to_the_classic_answer(client, seed):
    rng = random.Random(seed)
    habits, _, _, _ = fill(client, rng)
    for _ in range(25):
        first = START + datetime.timedelta(days=rng.randrange(420) - 20)
        options = dict(
            start=None if rng.random() < 0.15 else first,
            end=None if rng.random() < 0.15 else first + datetime.timedelta(days=rng.randrange(400)),
            as_of=first + datetime.timedelta(days=rng.randrange(450) - 20),
            week_start=rng.choice([None, "en_US", "de_DE", *Weekday]),
            locale=rng.choice([None, "fr_FR", "en_GB"]),
            accessibility_labels=rng.random() < 0.5,
            habit_ids=[h.id for h in habits if rng.random() < 0.5] if rng.random() < 0.3 else None,
        )
        try:
            classic = client.get_heatmap(**options)
        except StreakError as error:
            with pytest.raises(StreakError) as packed_error:
                client.get_heatmap(packed=True, **options)
            assert (packed_error.value.code, packed_error.value.message) == (error.code, error.message)
            continue
        assert client.get_heatmap(packed=True, **options) == classic, options
        bare = client.get_heatmap(packed=True, month_labels=False, **options)
        assert bare.month_labels == () and bare.weeks == classic.weeks


def test_the_packed_answer_is_small(client):
    habits = [client.create_habit(f"h{i}", "2023-07-01") for i in range(5)]
    rng = random.Random(7)
    client.batch_completions(record=[
        (h.id, day(2023, 7, 1) + datetime.timedelta(days=offset))
        for offset in range(366) for h in habits if rng.random() < 0.6])
    request = service_pb2.GetHeatmapRequest(as_of=types_pb2.Date(year=2024, month=6, day=30))
    classic = client.call("GetHeatmap", request)
    request.packed = True
    packed = client.call("GetHeatmap", request)
    assert packed.packed.days == 366 and not packed.HasField("heatmap")
    assert packed.ByteSize() <= 600 < 8000 < classic.ByteSize()


@pytest.mark.parametrize("seed", [51, 52])
def test_packed_build_heatmap_with_compact_input_equals_the_classic_answer(client, seed):
    rng = random.Random(seed)
    habits, completions, skips, periods = fill(client, rng)
    for _ in range(8):
        first = START + datetime.timedelta(days=rng.randrange(400))
        options = dict(start=first, end=first + datetime.timedelta(days=rng.randrange(380)),
                       as_of=first + datetime.timedelta(days=rng.randrange(400)),
                       week_start=rng.choice(list(Weekday)), min_percent=rng.choice([None, 50, 100]),
                       accessibility_labels=rng.random() < 0.5, skips=skips, rest_periods=periods)
        classic = client.build_heatmap(habits, completions, **options)
        assert client.build_heatmap(habits, completions, packed=True, compact=True, **options) == classic
        assert client.build_heatmap(habits, completions, compact=True, **options) == classic


def test_bad_day_deltas_are_invalid_argument(client):
    deltas = encode_day_deltas([day(2024, 3, 1)]) + b"\x00"  # a repeated day: a gap of 0 after 3 bytes
    request = service_pb2.BuildHeatmapRequest(
        habits=[Habit(1, "Read", day(2024, 1, 1)).to_pb()], as_of=types_pb2.Date(year=2024, month=3, day=31),
        completion_days=[types_pb2.HabitDays(habit_id=1, day_deltas=deltas)])
    with pytest.raises(StreakError) as info:
        client.call("BuildHeatmap", request)
    assert info.value.code == StatusCode.INVALID_ARGUMENT
    assert info.value.message == "completion_days[0] (habit 1): day_deltas: a gap of 0 at byte 3 (days must ascend)"


@pytest.mark.parametrize("start, end, week_start", [
    ("9999-12-25", "9999-12-31", Weekday.MONDAY),  # the last column ends after 9999-12-31
    ("9999-12-31", "9999-12-31", Weekday.SUNDAY),
    ("0001-01-01", "0001-01-07", Weekday.SUNDAY),  # the first column starts before 0001-01-01
    ("0001-01-01", "0001-01-01", Weekday.SATURDAY),
])
def test_packed_equals_classic_at_the_ends_of_the_date_range(client, start, end, week_start):
    """The packed answer decodes to the classic one where the week columns reach past
    0001-01-01 or 9999-12-31 (it raised OverflowError there)."""
    habit = client.create_habit("Ends", "0001-01-01")
    client.record_completion(habit.id, end)
    classic = client.get_heatmap(start, end, as_of=end, week_start=week_start)
    assert client.get_heatmap(start, end, as_of=end, week_start=week_start, packed=True) == classic
    built = client.build_heatmap([habit], [(habit.id, end)], start=start, end=end, as_of=end, week_start=week_start)
    assert client.build_heatmap([habit], [(habit.id, end)], start=start, end=end, as_of=end, week_start=week_start,
                                packed=True) == built
