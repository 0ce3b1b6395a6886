"""Differential: the stateless builders of a real streakd ($STREAKD_BIN) against a reference.

The reference below is a small pure-Python model of the domain rules (docs/RULES.md), written from the
rules and the proto comments only (not from Sources/StreakCore), so that a wrong reading of
the rules on either side shows up as a disagreement. Inputs are drawn from `random.Random(seed)`
with fixed seeds: every failure names its seed (the case is `heatmap_case(seed)` /
`labels_case(seed)`) and the inputs, so it reproduces with e.g.
`pytest tests/test_reference_maths.py -k 'heatmap and seed17'`.
"""

from __future__ import annotations

import datetime
import random

import pytest

from streakd_client import service_pb2, types_pb2
from rules_reference import (LOCALE_FIRST_WEEKDAY, MAX_DAY, MIN_DAY, MONDAY, civil_from_days, contributing,
                            days_from_civil, days_in_month, fmt, is_active, level, opt_date, parse,
                            pb_date, percent, weekday)

pytestmark = pytest.mark.integration

HEATMAP_SEEDS = range(120)
LABEL_SEEDS = range(30)


# == The reference (docs/RULES.md) ====================================================================
#
# The civil-date helpers and the day-record formulas live in rules_reference.py (shared with
# test_reference_calendar.py); what follows is the heatmap and month-label part.

MONTH_ABBREVIATIONS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


class Model:
    """The day records of one BuildHeatmap request's habits and completions."""

    def __init__(self, habits: list[dict], completions: list[tuple[int, int]], min_percent: int) -> None:
        self.habits = habits
        self.min_percent = min_percent
        self.done: dict[int, set[int]] = {}
        for habit_id, day in completions:  # recording twice counts once
            self.done.setdefault(day, set()).add(habit_id)

    def counts(self, day: int) -> tuple[int, int]:
        active = [h for h in self.habits if is_active(h, day)]
        done = self.done.get(day, set())
        return sum(1 for h in active if h["id"] in done), len(active)

    def contributes(self, day: int) -> bool:
        return contributing(*self.counts(day), self.min_percent)

    def streak(self, as_of: int) -> dict:
        # Only days with a completion can contribute, so the runs are found among those.
        days = sorted(d for d in self.done if d <= as_of and self.contributes(d))
        contributing_days = set(days)
        longest, longest_start, longest_end = 0, None, None
        run_start = None
        for i, day in enumerate(days):
            if i == 0 or days[i - 1] != day - 1:
                run_start = day
            length = day - run_start + 1
            if length >= longest:  # ">=": on a tie the most recent run wins
                longest, longest_start, longest_end = length, run_start, day
        if as_of in contributing_days:
            end = as_of
        elif as_of - 1 in contributing_days:
            end = as_of - 1
        else:
            end = None
        current, current_start = 0, None
        if end is not None:
            start = end
            while start - 1 in contributing_days:
                start -= 1
            current, current_start = end - start + 1, start
        return {"as_of": as_of, "current": current, "current_start": current_start, "longest": longest,
                "longest_start": longest_start, "longest_end": longest_end,
                "today_pending": as_of not in contributing_days and current > 0}


def resolve_week_start(week_start: tuple | None) -> int:
    """Stateless default Monday; or an explicit weekday; or the locale's first weekday."""
    if week_start is None:
        return MONDAY
    kind, value = week_start
    return value if kind == "weekday" else LOCALE_FIRST_WEEKDAY[value]


def heatmap_weeks(model: Model, first: int, last: int, as_of: int, week_start: int) -> list[tuple]:
    """One column per week, from the week holding `first` to the week holding `last`; each column's
    start is its first in-range day; 7 cells; absent (None) before first, after last or after as_of."""
    column = first - (weekday(first) - week_start) % 7
    final = last - (weekday(last) - week_start) % 7
    weeks = []
    while column <= final:
        cells = []
        for day in range(column, column + 7):
            if first <= day <= last and day <= as_of:
                completed, active = model.counts(day)
                cells.append((fmt(day), completed, active, level(completed, active), percent(completed, active)))
            else:
                cells.append(None)
        weeks.append((fmt(max(column, first)), cells))
        column += 7
    return weeks


def month_labels(starts: list[int]) -> list[tuple[str, int]]:
    """Week 0 always; week i > 0 when its start's month differs from week i-1's and it is at least
    3 weeks after the last placed label (a change that comes too soon is skipped, not moved)."""
    labels: list[tuple[str, int]] = []
    last = None
    for i, start in enumerate(starts):
        y, m, _ = civil_from_days(start)
        if i == 0 or ((y, m) != civil_from_days(starts[i - 1])[:2] and i - last >= 3):
            labels.append((MONTH_ABBREVIATIONS[m - 1], i))
            last = i
    return labels


def default_from(as_of: int) -> int:
    """The first day of the month eleven months before as_of's month."""
    y, m, _ = civil_from_days(as_of)
    index = y * 12 + (m - 1) - 11
    return days_from_civil(index // 12, index % 12 + 1, 1)


# == The reference checks itself against docs/RULES.md's own examples (no server) ================

def test_reference_against_rules_examples():
    for day in list(range(MIN_DAY, MIN_DAY + 800)) + list(range(MIN_DAY, MAX_DAY, 997)) + \
            list(range(MAX_DAY - 800, MAX_DAY + 1)):
        y, m, d = civil_from_days(day)
        assert datetime.date(y, m, d).toordinal() - datetime.date(1970, 1, 1).toordinal() == day
        assert days_from_civil(y, m, d) == day and 1 <= d <= days_in_month(y, m)
        assert weekday(day) == datetime.date(y, m, d).isoweekday() % 7 + 1
    assert fmt(parse("2024-02-28") + 1) == "2024-02-29" and fmt(parse("2024-02-29") + 1) == "2024-03-01"
    assert fmt(parse("2023-12-31") + 1) == "2024-01-01" and fmt(parse("1900-02-28") + 1) == "1900-03-01"
    assert percent(4, 5) == 80 and percent(1, 8) == 13 and percent(1, 3) == 33 and percent(2, 3) == 67
    assert percent(199, 200) == 99 and percent(1, 201) == 1 and percent(0, 0) == 0 and percent(3, 3) == 100
    assert [level(c, 4) for c in range(5)] == [0, 1, 2, 2, 3] and level(0, 0) == 0
    assert contributing(1, 3, 33) and not contributing(1, 3, 34) and not contributing(0, 0, 0)
    seed_a = [parse(s) for s in ("2024-01-01", "2024-01-08", "2024-01-15", "2024-02-05")]
    seed_b = [parse(s) for s in ("2024-01-01", "2024-01-08", "2024-02-01", "2024-03-01")]
    assert month_labels(seed_a) == [("Jan", 0), ("Feb", 3)]
    assert month_labels(seed_b) == [("Jan", 0), ("Mar", 3)]
    assert fmt(default_from(parse("2025-06-15"))) == "2024-07-01"
    # 2024-01-01 is a Monday: Jan 2024 with Monday weeks is 5 columns.
    january = parse("2024-01-01"), parse("2024-01-31")
    assert len(heatmap_weeks(Model([], [], 0), *january, january[1], MONDAY)) == 5


# == Random cases =============================================================================

def _crowd_case(rng: random.Random, first: int, last: int) -> tuple[list[dict], list[tuple[int, int]]]:
    """Hundreds of habits, so that the 99 and 1 clamps and exact .5 roundings happen."""
    count = rng.choice([200, 201, 250, 399, 400, 401])
    habits = []
    for i in range(count):
        created = first - rng.randint(1, 30) if rng.random() < 0.9 else rng.randint(first, last)
        archived = None
        if rng.random() < 0.05:
            archived = rng.randint(created + 1, last + 3)
        habits.append({"id": i + 1, "created": created, "archived": archived})
    completions = []
    for day in range(first - 3, last + 2):
        active = [h["id"] for h in habits if is_active(h, day)]
        n = len(active)
        # completed/active exactly n + 1/2 percent (rounds up), when this day's active count allows it.
        halves = [k for k in range(n + 1) if (200 * k) % n == 0 and (200 * k // n) % 2 == 1] if n else []
        k = rng.choice([0, 1, 2, n - 1, n, n - 2, n // 2, (n + 1) // 2, rng.randint(0, n)] +
                       ([rng.choice(halves)] * 3 if halves else []))
        completions += [(h, day) for h in rng.sample(active, max(0, min(n, k)))]
    return habits, completions


def _usual_case(rng: random.Random, first: int, last: int) -> tuple[list[dict], list[tuple[int, int]]]:
    habits = []
    for i in range(rng.choice([0, 1, 1, 2, 3, 3, 4, 5, 8])):
        created = rng.randint(first - 60, last) if rng.random() < 0.6 else first - rng.randint(0, 3)
        archived = None
        if rng.random() < 0.35:
            archived = created + rng.randint(1, max(1, last - created + 20))
        habits.append({"id": rng.randint(1, 3) * 100 + i + 1, "created": created, "archived": archived})
    completions = []
    if habits and rng.random() > 0.1:  # sometimes no completions at all
        # Runs of "on" days and gaps, so that streaks (and ties between them) happen.
        max_run, p = rng.choice([2, 3, 5, 10, 40]), rng.choice([0.3, 0.6, 0.9, 1.0])
        day = first - rng.randint(0, 70)
        while day <= last + 5:
            run = rng.randint(1, max_run)
            for d in range(day, day + run):
                for h in habits:
                    # Completions on days a habit is not active are sent too; they must not count.
                    if rng.random() < p and (is_active(h, d) or rng.random() < 0.05):
                        completions.append((h["id"], d))
            day += run + rng.choice([1, 1, 1, 2, 3, 7])
        completions += rng.sample(completions, min(len(completions), rng.randint(0, 5)))  # duplicates
        rng.shuffle(completions)
    return habits, completions


def heatmap_case(seed: int) -> dict:
    rng = random.Random(seed)
    kind = ["leap", "year_end", "year", "random", "random", "single_day", "extreme", "crowd",
            "random", "leap"][seed % 10]
    if kind == "leap":
        leap_day = parse(rng.choice(["2024-02-29", "2024-02-29", "2000-02-29", "2028-02-29"]))
        first = leap_day - rng.randint(0, 70)
        last = leap_day + rng.randint(0, 60)
    elif kind == "year_end":
        first = days_from_civil(rng.randint(1995, 2040), rng.choice([10, 11, 12]), rng.randint(1, 28))
        last = first + rng.randint(20, 150)
    elif kind == "year":
        last = days_from_civil(rng.randint(1999, 2031), rng.randint(1, 12), rng.randint(1, 28))
        first = default_from(last)
    elif kind == "single_day":
        first = last = days_from_civil(rng.randint(2000, 2030), rng.randint(1, 12), rng.randint(1, 28))
    elif kind == "extreme":
        where = rng.choice(["start", "end", "1582", "1900"])
        if where == "start":
            first = MIN_DAY + rng.randint(0, 20)
            last = first + rng.randint(0, 90)
        elif where == "end":
            last = MAX_DAY - rng.randint(0, 20)
            first = last - rng.randint(0, 90)
        elif where == "1582":  # the Julian-to-Gregorian cutover of some calendars: irrelevant here
            first = parse("1582-10-01") - rng.randint(0, 40)
            last = parse("1582-10-20") + rng.randint(0, 40)
        else:  # 1900 is not a leap year
            first = parse("1900-02-10") + rng.randint(0, 15)
            last = first + rng.randint(15, 60)
    elif kind == "crowd":
        first = days_from_civil(rng.randint(2010, 2030), rng.randint(1, 12), rng.randint(1, 28))
        last = first + rng.randint(3, 24)
    else:
        first = days_from_civil(rng.randint(1970, 2100), rng.randint(1, 12), 1) + rng.randint(0, 30)
        last = first + rng.randint(0, 420)
    last = min(last, MAX_DAY)

    r = rng.random()
    if r < 0.35:
        as_of = last
    elif r < 0.85:
        as_of = rng.randint(first, last)
    elif r < 0.95:
        as_of = last + rng.randint(1, 30)
    else:
        as_of = first - rng.randint(1, 5)
    as_of = max(MIN_DAY, min(as_of, MAX_DAY))

    habits, completions = (_crowd_case if kind == "crowd" else _usual_case)(rng, first, last)
    # The server validates every date; keep the generated ones inside 0001-01-01...9999-12-31.
    for h in habits:
        h["created"] = max(MIN_DAY, min(h["created"], MAX_DAY))
        if h["archived"] is not None:
            h["archived"] = min(h["archived"], MAX_DAY)
            if h["archived"] <= h["created"]:
                h["archived"] = None
    completions = [(h, d) for h, d in completions if MIN_DAY <= d <= MAX_DAY]

    r = rng.random()
    if r < 0.25:
        week_start = None
    elif r < 0.7:
        week_start = ("weekday", rng.randint(1, 7))
    else:
        week_start = ("locale", rng.choice(sorted(LOCALE_FIRST_WEEKDAY)))
    min_percent = 0 if rng.random() < 0.45 else rng.choice([1, 25, 33, 34, 50, 66, 67, 75, 99, 100,
                                                          rng.randint(1, 100)])
    # Omitted from/to take the defaults of docs/RULES.md (from: 1st of the month 11 months before as_of's; to: as_of).
    omit = None
    if kind not in ("extreme", "crowd") and rng.random() < 0.1:
        omit = rng.choice(["both", "to"]) if first <= as_of else "both"
    return {"seed": seed, "kind": kind, "habits": habits, "completions": completions, "from": first,
            "to": last, "as_of": as_of, "week_start": week_start, "min_percent": min_percent,
            "locale": rng.choice(["", "", "en_US"]), "omit": omit}


def describe(case: dict) -> str:
    """The inputs in a compact, readable form (completions as runs of days per habit)."""
    habits = ", ".join(f"{h['id']}:{fmt(h['created'])}..{fmt(h['archived']) if h['archived'] is not None else ''}"
                       for h in case["habits"])
    if len(case["habits"]) > 12:
        habits = f"{len(case['habits'])} habits: " + habits
    per_habit: dict[int, list[int]] = {}
    for habit_id, day in case["completions"]:
        per_habit.setdefault(habit_id, []).append(day)
    parts = []
    for habit_id in sorted(per_habit):
        days = sorted(set(per_habit[habit_id]))
        runs, start = [], days[0]
        for prev, day in zip(days, days[1:] + [None]):
            if day != prev + 1:
                runs.append(fmt(start) if start == prev else f"{fmt(start)}..{fmt(prev)}")
                start = day
        parts.append(f"{habit_id}: {' '.join(runs)}")
    omit = case.get("omit")
    text = (f"seed={case['seed']} ({case['kind']}) from={'(absent)' if omit == 'both' else fmt(case['from'])} "
            f"to={'(absent)' if omit else fmt(case['to'])} as_of={fmt(case['as_of'])} "
            f"week_start={case['week_start']} min_percent={case['min_percent']} locale={case['locale']!r}\n"
            f"  habits (id:created..archived) [{habits}]\n  completions {{{'; '.join(parts)}}} "
            f"({len(case['completions'])} sent, duplicates and inactive days included)")
    if len(text) > 4000:
        text = text[:4000] + f"... (cut; heatmap_case({case['seed']}) rebuilds all the inputs)"
    return text



def request_for(case: dict) -> service_pb2.BuildHeatmapRequest:
    request = service_pb2.BuildHeatmapRequest(
        habits=[types_pb2.Habit(id=h["id"], name=f"habit {h['id']}", created_on=pb_date(h["created"]),
                                archived_on=pb_date(h["archived"]) if h["archived"] is not None else None)
                for h in case["habits"]],
        completions=[types_pb2.Completion(habit_id=h, date=pb_date(d)) for h, d in case["completions"]],
        as_of=pb_date(case["as_of"]), min_percent=case["min_percent"], locale=case["locale"])
    if case["omit"] != "both":
        getattr(request, "from").CopyFrom(pb_date(case["from"]))
    if case["omit"] is None:
        request.to.CopyFrom(pb_date(case["to"]))
    if case["week_start"] is not None:
        kind, value = case["week_start"]
        request.week_start.CopyFrom(types_pb2.WeekStart(**{kind: value}))
    return request


def expected_heatmap(case: dict) -> dict:
    first = default_from(case["as_of"]) if case["omit"] == "both" else case["from"]
    last = case["as_of"] if case["omit"] else case["to"]
    model = Model(case["habits"], case["completions"], case["min_percent"])
    week_start = resolve_week_start(case["week_start"])
    weeks = heatmap_weeks(model, first, last, case["as_of"], week_start)
    streak = model.streak(case["as_of"])
    return {"from": fmt(first), "to": fmt(last), "week_start": week_start, "weeks": weeks,
            "labels": month_labels([parse(start) for start, _ in weeks]),
            "streak": {k: fmt(v) if k.endswith(("as_of", "start", "end")) and v is not None else v
                       for k, v in streak.items()},
            "model": model}


def actual_heatmap(response: service_pb2.BuildHeatmapResponse) -> dict:
    heatmap, streak = response.heatmap, response.streak
    weeks = []
    for week in heatmap.weeks:
        cells = []
        for cell in week.cells:
            if cell.present:
                cells.append((opt_date(cell, "date"), cell.completed, cell.active, cell.level, cell.percent))
            else:
                # An absent cell carries no other field.
                cells.append(None if cell == types_pb2.HeatmapCell() else ("absent but set", str(cell)))
        weeks.append((opt_date(week, "start"), cells))
    return {"from": opt_date(heatmap, "from"), "to": opt_date(heatmap, "to"), "week_start": heatmap.week_start,
            "weeks": weeks, "labels": [(label.label, label.week_index) for label in heatmap.month_labels],
            "streak": {"as_of": opt_date(streak, "as_of"), "current": streak.current,
                       "current_start": opt_date(streak, "current_start"), "longest": streak.longest,
                       "longest_start": opt_date(streak, "longest_start"),
                       "longest_end": opt_date(streak, "longest_end"), "today_pending": streak.today_pending}}


def first_difference(expected: dict, actual: dict, model: Model) -> str | None:
    """The first thing that differs, described with enough context to judge it."""
    for key in ("from", "to", "week_start"):
        if expected[key] != actual[key]:
            return f"heatmap.{key}: expected {expected[key]!r}, got {actual[key]!r}"
    exp_weeks, act_weeks = expected["weeks"], actual["weeks"]
    if len(exp_weeks) != len(act_weeks):
        return (f"number of weeks: expected {len(exp_weeks)} (starts {[s for s, _ in exp_weeks]}), "
                f"got {len(act_weeks)} (starts {[s for s, _ in act_weeks]})")
    for i, ((exp_start, exp_cells), (act_start, act_cells)) in enumerate(zip(exp_weeks, act_weeks)):
        if exp_start != act_start:
            return f"weeks[{i}].start: expected {exp_start}, got {act_start}"
        if len(act_cells) != 7:
            return f"weeks[{i}] has {len(act_cells)} cells, not 7"
        for j, (exp, act) in enumerate(zip(exp_cells, act_cells)):
            if exp != act:
                detail = ""
                if exp is not None:
                    day = parse(exp[0])
                    active = [h["id"] for h in model.habits if is_active(h, day)]
                    done = sorted(model.done.get(day, set()))
                    detail = (f"; active habits that day {active if len(active) <= 20 else f'{len(active)} habits'}, "
                              f"completions sent {done if len(done) <= 20 else f'for {len(done)} habits'}")
                return (f"weeks[{i}].cells[{j}] (week starting {exp_start}): expected "
                        f"{exp if exp else 'absent'}, got {act if act else 'absent'} "
                        f"(date, completed, active, level, percent){detail}")
    if expected["labels"] != actual["labels"]:
        return (f"month_labels: expected {expected['labels']}, got {actual['labels']} "
                f"(week starts {[s for s, _ in exp_weeks]})")
    if expected["streak"] != actual["streak"]:
        diff = {k: (v, actual["streak"][k]) for k, v in expected["streak"].items() if actual["streak"][k] != v}
        return f"streak (field: (expected, got)): {diff}; expected {expected['streak']}"
    return None


# == Against the server =======================================================================

@pytest.mark.parametrize("seed", HEATMAP_SEEDS, ids=lambda seed: f"seed{seed}")
def test_build_heatmap_matches_reference(client, seed):
    case = heatmap_case(seed)
    expected = expected_heatmap(case)
    response = client.call("BuildHeatmap", request_for(case))  # the wire message
    difference = first_difference(expected, actual_heatmap(response), expected["model"])
    assert difference is None, f"BuildHeatmap differs from the docs/RULES.md reference: {difference}\n{describe(case)}"


def labels_case(seed: int) -> list[int]:
    """Column starts: real heatmap columns (a partial first one) or any ascending days (gaps 1...40)."""
    rng = random.Random(10_000 + seed)
    first = days_from_civil(rng.randint(1990, 2060), rng.randint(1, 12), rng.randint(1, 28))
    count = rng.choice([0, 1, 2, 3, 4, 5, 8, 13, 30, 53, 60])
    if seed % 2 == 0:
        week_start = rng.randint(1, 7)
        column = first - (weekday(first) - week_start) % 7
        return [first] + [column + 7 * i for i in range(1, count)] if count else []
    starts, day = [], first
    for _ in range(count):
        starts.append(day)
        day += rng.choice([1, 3, 7, 7, 7, 14, 20, 24, 31, 40, rng.randint(1, 40)])
    return starts


@pytest.mark.parametrize("seed", LABEL_SEEDS, ids=lambda seed: f"seed{seed}")
def test_build_month_labels_matches_reference(client, seed):
    starts = labels_case(seed)
    locale = ["", "en_US"][seed % 2]
    response = client.call("BuildMonthLabels", service_pb2.BuildMonthLabelsRequest(
        week_starts=[pb_date(day) for day in starts], locale=locale))
    actual = [(label.label, label.week_index) for label in response.labels]
    expected = month_labels(starts)
    assert actual == expected, (f"BuildMonthLabels differs from the docs/RULES.md reference: expected {expected}, "
                                f"got {actual}\n  seed={seed} locale={locale!r} week_starts={[fmt(d) for d in starts]}")
