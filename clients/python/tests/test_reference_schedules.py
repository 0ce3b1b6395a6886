"""Differential test of schedules, skips and rest periods: BuildHeatmap against an independent
reference of docs/RULES.md ("Schedules, skips, rest days, the day's start and per-habit views").

The reference below is a brute-force walk written from the rules alone: per habit and day it
decides active, scheduled, skipped, resting and done, sums the day's `due`, and walks the days
for the streaks. Each seeded case is rebuilt by `schedule_case(seed)`; a failure names its seed,
e.g. `pytest tests/test_reference_schedules.py -k seed17`.
"""

from __future__ import annotations

import random

import pytest

from rules_reference import (contributing, day_of, is_active, level, parse, pb_date, percent, weekday)
from streakd_client import types_pb2

pytestmark = pytest.mark.integration

SEEDS = list(range(300))


# == The reference =============================================================================

def scheduled(habit: dict, day: int) -> bool:
    """The entry with the latest effective date on or before `day` applies; before any, every day."""
    weekdays = None
    for start, days in sorted(habit["schedule"]):
        if start <= day:
            weekdays = days
    return weekdays is None or weekday(day) in weekdays


def day_counts(case: dict, day: int) -> tuple[int, int, int]:
    """(active, due, completed) of a day."""
    resting = any(a <= day <= b for a, b in case["rest"])
    active = due = completed = 0
    for habit in case["habits"]:
        if not is_active(habit, day):
            continue
        active += 1
        done = (habit["id"], day) in case["done"]
        skipped = (habit["id"], day) in case["skipped"]
        if done:
            due += 1
            completed += 1
        elif scheduled(habit, day) and not skipped and not resting:
            due += 1
    return active, due, completed


def classify(case: dict, day: int) -> str:
    """'contributing', 'rest' or 'breaking'."""
    active, due, completed = day_counts(case, day)
    if active > 0 and due == 0:
        return "rest"
    return "contributing" if contributing(completed, due, case["min_percent"]) else "breaking"


def streak(case: dict, as_of: int) -> tuple[int, int | None, int, int | None, int | None]:
    """(current, current_start, longest, longest_start, longest_end) by walking every day."""
    first = min([d for _, d in case["done"]], default=as_of)
    runs, run = [], None  # run = [start, end, length]
    for day in range(min(first, as_of), as_of + 1):
        kind = classify(case, day)
        if kind == "contributing":
            if run is None:
                run = [day, day, 1]
            else:
                run[1], run[2] = day, run[2] + 1
        elif kind == "breaking" and run is not None:
            runs.append(run)
            run = None
    if run is not None:
        runs.append(run)
    current = (0, None)
    if runs:
        last = runs[-1]
        between = range(last[1] + 1, as_of)
        if all(classify(case, d) == "rest" for d in between):
            current = (last[2], last[0])
    longest = (0, None, None)
    for start, end, length in runs:
        if length >= longest[0]:  # ties: the most recent run
            longest = (length, start, end)
    return current[0], current[1], longest[0], longest[1], longest[2]


# == Cases =====================================================================================

def schedule_case(seed: int) -> dict:
    rng = random.Random(7_000 + seed)
    first = parse("2024-01-01") + rng.randint(0, 400)
    last = first + rng.randint(20, 120)
    habits = []
    for i in range(rng.randint(1, 4)):
        created = first - rng.randint(0, 30) if rng.random() < 0.8 else rng.randint(first, last)
        archived = created + rng.randint(5, 200) if rng.random() < 0.2 else None
        schedule = []
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            days = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
            schedule.append((rng.randint(created - 10, last), days))
        schedule = sorted(dict(schedule).items())  # one entry per date
        habits.append({"id": 10 * (i + 1), "created": created, "archived": archived, "schedule": schedule})
    done, skipped = set(), set()
    p_done, p_skip = rng.choice([0.3, 0.6, 0.9]), rng.choice([0.0, 0.1, 0.3])
    for day in range(first - 5, last + 1):
        for habit in habits:
            if not is_active(habit, day):
                continue
            roll = rng.random()
            if roll < p_done:
                done.add((habit["id"], day))
            elif roll < p_done + p_skip:
                skipped.add((habit["id"], day))
    rest = []
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        start = rng.randint(first - 5, last)
        rest.append((start, start + rng.randint(0, 12)))
    return {"seed": seed, "habits": habits, "done": done, "skipped": skipped, "rest": rest, "from": first,
            "to": last, "as_of": last + rng.choice([0, 0, 1, 3]), "min_percent": rng.choice([0, 0, 0, 50, 100])}


def request_fields(case: dict) -> dict:
    habits = []
    for habit in case["habits"]:
        message = types_pb2.Habit(id=habit["id"], name=f"h{habit['id']}", created_on=pb_date(habit["created"]))
        if habit["archived"] is not None:
            message.archived_on.CopyFrom(pb_date(habit["archived"]))
        for start, days in habit["schedule"]:
            message.schedule.add(effective_from=pb_date(start), weekdays=days)
        habits.append(message)
    return {
        "habits": habits,
        "completions": [types_pb2.Completion(habit_id=h, date=pb_date(d)) for h, d in sorted(case["done"])],
        "skips": [types_pb2.Skip(habit_id=h, date=pb_date(d)) for h, d in sorted(case["skipped"])],
        "rest_periods": [types_pb2.RestPeriod(**{"from": pb_date(a), "to": pb_date(b)}) for a, b in case["rest"]],
        "from": pb_date(case["from"]), "to": pb_date(case["to"]), "as_of": pb_date(case["as_of"]),
        "min_percent": case["min_percent"],
    }


# == Tests =====================================================================================

def test_reference_gives_the_worked_example():
    start = parse("2024-05-01")
    case = {"habits": [{"id": 1, "created": start, "archived": None, "schedule": []}],
            "done": {(1, start), (1, start + 1), (1, start + 4)}, "skipped": {(1, start + 2), (1, start + 3)},
            "rest": [], "min_percent": 0}
    assert streak(case, start + 5) == (3, start, 3, start, start + 4)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda seed: f"seed{seed}")
def test_build_heatmap_with_schedules_matches_reference(client, seed):
    case = schedule_case(seed)
    response = client.call("BuildHeatmap", **request_fields(case))  # the wire message
    problems = []
    for week in response.heatmap.weeks:
        for cell in week.cells:
            if not cell.present:
                continue
            day = day_of(cell.date)
            active, due, completed = day_counts(case, day)
            rest = active > 0 and due == 0
            expected = (active, due, completed, rest, 0 if rest else level(completed, due),
                        0 if rest else percent(completed, due))
            actual = (cell.active, cell.due, cell.completed, cell.rest, cell.level, cell.percent)
            if actual != expected:
                problems.append(f"{cell.date}: expected {expected}, got {actual}")
    s = response.streak
    actual_streak = (s.current, day_of(s.current_start) if s.HasField("current_start") else None, s.longest,
                     day_of(s.longest_start) if s.HasField("longest_start") else None,
                     day_of(s.longest_end) if s.HasField("longest_end") else None)
    expected_streak = streak(case, case["as_of"])
    if actual_streak != expected_streak:
        problems.append(f"streak: expected {expected_streak}, got {actual_streak}")
    assert not problems, f"seed={seed}: " + "; ".join(problems[:10])
