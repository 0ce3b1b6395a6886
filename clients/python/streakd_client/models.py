"""The values the typed `Client` methods return: small frozen dataclasses with `datetime.date`s.

Each mirrors one protocol message (proto/streak/v1/types.proto) with Python types: every Date
is a `datetime.date` (None where the protocol leaves it absent), weekdays are `Weekday`s,
repeated fields are tuples, and the protocol's `from`/`to` (Python keyword and its partner)
are `start`/`end`. `X.from_pb(message)` makes one from its message; the types a request can
carry (`Habit`, `ScheduleEntry`, `Completion`, `Skip`, `RestPeriod`) also have `to_pb()`.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass
from typing import Any, Iterator, cast

from .dates import from_pb_date, optional_date, to_pb_date
from .pb import service_pb2, types_pb2

__all__ = [
    "BatchResult", "Completion", "CompletionResult", "DayDetail", "DayRecord", "Habit", "Heatmap", "HeatmapCell",
    "HeatmapResult", "HeatmapWeek", "LegendEntry", "MonthDay", "MonthLabel", "MonthPage", "Pong", "RestPeriod",
    "RestPeriodResult", "ScheduleEntry", "ServerInfo", "Settings", "Skip", "Streak", "WatchEvent", "Weekday",
    "WeekdayChart", "WeekdayCount", "WeekdaySeries",
]


class Weekday(enum.IntEnum):
    """A day of the week, numbered like the protocol (and Foundation): 1 = Sunday ... 7 = Saturday."""

    SUNDAY = 1
    MONDAY = 2
    TUESDAY = 3
    WEDNESDAY = 4
    THURSDAY = 5
    FRIDAY = 6
    SATURDAY = 7

    @classmethod
    def of(cls, day: _dt.date) -> "Weekday":
        """The weekday of a date."""
        return cls(day.isoweekday() % 7 + 1)


def _weekday(value: int) -> Weekday:
    if not 1 <= value <= 7:
        raise ValueError(f"weekday {value} is not 1...7")
    return Weekday(value)


def _required(message: object, field: str) -> _dt.date:
    value = optional_date(message, field)
    if value is None:
        raise ValueError(f"{type(message).__name__}.{field} is absent")
    return value


# -- habits ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScheduleEntry:
    """From `effective_from` on (until a later entry), the habit is expected on `weekdays`."""

    effective_from: _dt.date
    weekdays: tuple[Weekday, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.ScheduleEntry) -> "ScheduleEntry":
        return cls(_required(message, "effective_from"), tuple(_weekday(w) for w in message.weekdays))

    def to_pb(self) -> types_pb2.ScheduleEntry:
        return types_pb2.ScheduleEntry(effective_from=to_pb_date(self.effective_from),
                                       weekdays=[cast(Any, int(w)) for w in self.weekdays])


@dataclass(frozen=True)
class Habit:
    """A habit: active on day d when `created_on <= d` and (`archived_on` is None or `d < archived_on`)."""

    id: int
    name: str
    created_on: _dt.date
    archived_on: _dt.date | None = None
    schedule: tuple[ScheduleEntry, ...] = ()
    """Ascending by `effective_from`; before the first entry (or with none) every day."""

    @property
    def archived(self) -> bool:
        return self.archived_on is not None

    def active_on(self, day: _dt.date) -> bool:
        """Whether the habit exists on `day` (created, not yet archived); its schedule aside."""
        return self.created_on <= day and (self.archived_on is None or day < self.archived_on)

    @classmethod
    def from_pb(cls, message: types_pb2.Habit) -> "Habit":
        return cls(message.id, message.name, _required(message, "created_on"),
                   optional_date(message, "archived_on"),
                   tuple(ScheduleEntry.from_pb(entry) for entry in message.schedule))

    def to_pb(self) -> types_pb2.Habit:
        message = types_pb2.Habit(id=self.id, name=self.name, created_on=to_pb_date(self.created_on),
                                  schedule=[entry.to_pb() for entry in self.schedule])
        if self.archived_on is not None:
            message.archived_on.CopyFrom(to_pb_date(self.archived_on))
        return message


@dataclass(frozen=True)
class Completion:
    """One habit done on one day."""

    habit_id: int
    date: _dt.date

    @classmethod
    def from_pb(cls, message: types_pb2.Completion) -> "Completion":
        return cls(message.habit_id, _required(message, "date"))

    def to_pb(self) -> types_pb2.Completion:
        return types_pb2.Completion(habit_id=self.habit_id, date=to_pb_date(self.date))


@dataclass(frozen=True)
class Skip:
    """One habit excused on one day."""

    habit_id: int
    date: _dt.date

    @classmethod
    def from_pb(cls, message: types_pb2.Skip) -> "Skip":
        return cls(message.habit_id, _required(message, "date"))

    def to_pb(self) -> types_pb2.Skip:
        return types_pb2.Skip(habit_id=self.habit_id, date=to_pb_date(self.date))


@dataclass(frozen=True)
class RestPeriod:
    """Days `start` through `end` (both included; the protocol's `from`/`to`) on which no habit is expected."""

    id: int
    start: _dt.date
    end: _dt.date
    note: str = ""

    @classmethod
    def from_pb(cls, message: types_pb2.RestPeriod) -> "RestPeriod":
        return cls(message.id, _required(message, "from"), _required(message, "to"), message.note)

    def to_pb(self) -> types_pb2.RestPeriod:
        return types_pb2.RestPeriod(id=self.id, note=self.note,
                                    **{"from": to_pb_date(self.start), "to": to_pb_date(self.end)})


# -- days and streaks --------------------------------------------------------------------------

@dataclass(frozen=True)
class DayRecord:
    """Everything about one day: counts, percent (of `due`), level 0...3, rest and contribution."""

    date: _dt.date
    completed_habit_ids: tuple[int, ...]
    completed: int
    active: int
    percent: int
    level: int
    contributing: bool
    due: int
    rest: bool
    skipped_habit_ids: tuple[int, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.DayRecord) -> "DayRecord":
        return cls(_required(message, "date"), tuple(message.completed_habit_ids), message.completed,
                   message.active, message.percent, message.level, message.contributing, message.due,
                   message.rest, tuple(message.skipped_habit_ids))


@dataclass(frozen=True)
class Streak:
    """The streak counter as of `as_of`; the `*_start`/`*_end` dates are None when the count is 0."""

    as_of: _dt.date
    current: int
    current_start: _dt.date | None
    longest: int
    longest_start: _dt.date | None
    longest_end: _dt.date | None
    today_pending: bool
    """`as_of` does not contribute (yet), but the streak is kept."""

    @classmethod
    def from_pb(cls, message: types_pb2.StreakSummary) -> "Streak":
        return cls(_required(message, "as_of"), message.current, optional_date(message, "current_start"),
                   message.longest, optional_date(message, "longest_start"), optional_date(message, "longest_end"),
                   message.today_pending)


@dataclass(frozen=True)
class DayDetail:
    """One day with its habits: done, skipped and still open (GetDay)."""

    date: _dt.date
    completed_habits: tuple[Habit, ...]
    completed: int
    active: int
    percent: int
    level: int
    contributing: bool
    accessibility_label: str
    due: int
    rest: bool
    skipped_habits: tuple[Habit, ...]
    open_habits: tuple[Habit, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.DayDetail) -> "DayDetail":
        def habits(items: object) -> tuple[Habit, ...]:
            return tuple(Habit.from_pb(h) for h in items)  # type: ignore[attr-defined]
        return cls(_required(message, "date"), habits(message.completed_habits), message.completed,
                   message.active, message.percent, message.level, message.contributing,
                   message.accessibility_label, message.due, message.rest, habits(message.skipped_habits),
                   habits(message.open_habits))


# -- heatmaps ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HeatmapCell:
    """One cell; `present` is False (and `date` None) outside the range or in the future."""

    present: bool
    date: _dt.date | None
    completed: int
    active: int
    level: int
    percent: int
    accessibility_label: str
    due: int
    rest: bool

    @classmethod
    def from_pb(cls, message: types_pb2.HeatmapCell) -> "HeatmapCell":
        return cls(message.present, optional_date(message, "date"), message.completed, message.active,
                   message.level, message.percent, message.accessibility_label, message.due, message.rest)


@dataclass(frozen=True)
class HeatmapWeek:
    """A column: seven cells in week order; `start` is its first in-range day."""

    start: _dt.date
    cells: tuple[HeatmapCell, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.HeatmapWeek) -> "HeatmapWeek":
        return cls(_required(message, "start"), tuple(HeatmapCell.from_pb(c) for c in message.cells))


@dataclass(frozen=True)
class MonthLabel:
    """A month label (`"Jan"` or the locale's) above the column `week_index`."""

    label: str
    week_index: int

    @classmethod
    def from_pb(cls, message: types_pb2.MonthLabel) -> "MonthLabel":
        return cls(message.label, message.week_index)


@dataclass(frozen=True)
class LegendEntry:
    """One legend step: `level` covers `min_percent`...`max_percent`."""

    level: int
    min_percent: int
    max_percent: int
    description: str

    @classmethod
    def from_pb(cls, message: types_pb2.LegendEntry) -> "LegendEntry":
        return cls(message.level, message.min_percent, message.max_percent, message.description)


@dataclass(frozen=True)
class Heatmap:
    """Days `start` through `end` (the protocol's `from`/`to`) as week columns, with labels and legend."""

    start: _dt.date
    end: _dt.date
    week_start: Weekday
    weeks: tuple[HeatmapWeek, ...]
    month_labels: tuple[MonthLabel, ...]
    legend: tuple[LegendEntry, ...]

    def days(self) -> Iterator[HeatmapCell]:
        """The present cells in date order."""
        for week in self.weeks:
            for cell in week.cells:
                if cell.present:
                    yield cell

    def cell(self, day: _dt.date) -> HeatmapCell | None:
        """The present cell of `day`, or None."""
        return next((cell for cell in self.days() if cell.date == day), None)

    @classmethod
    def from_pb(cls, message: types_pb2.Heatmap) -> "Heatmap":
        return cls(_required(message, "from"), _required(message, "to"), _weekday(message.week_start),
                   tuple(HeatmapWeek.from_pb(w) for w in message.weeks),
                   tuple(MonthLabel.from_pb(m) for m in message.month_labels),
                   tuple(LegendEntry.from_pb(e) for e in message.legend))


# -- charts and pages --------------------------------------------------------------------------

@dataclass(frozen=True)
class WeekdayCount:
    weekday: Weekday
    short_name: str
    count: int

    @classmethod
    def from_pb(cls, message: types_pb2.WeekdayCount) -> "WeekdayCount":
        return cls(_weekday(message.weekday), message.short_name, message.count)


@dataclass(frozen=True)
class WeekdaySeries:
    """Completions per weekday of one habit, or of all (`total`, `habit_id` 0)."""

    habit_id: int
    name: str
    total: bool
    counts: tuple[WeekdayCount, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.WeekdaySeries) -> "WeekdaySeries":
        return cls(message.habit_id, message.name, message.total,
                   tuple(WeekdayCount.from_pb(c) for c in message.counts))


@dataclass(frozen=True)
class WeekdayChart:
    """Weekday counts over `start` (by default the first completion; None with no history) through `end`."""

    start: _dt.date | None
    end: _dt.date | None
    series: tuple[WeekdaySeries, ...]

    @classmethod
    def from_pb(cls, message: types_pb2.WeekdayChart) -> "WeekdayChart":
        return cls(optional_date(message, "from"), optional_date(message, "to"),
                   tuple(WeekdaySeries.from_pb(s) for s in message.series))


@dataclass(frozen=True)
class MonthDay:
    """One of a month page's 42 days (`date` is None only beyond year 1 or 9999)."""

    date: _dt.date | None
    day: int
    in_month: bool
    today: bool
    selected: bool
    highlighted: bool
    level: int
    due: int
    rest: bool

    @classmethod
    def from_pb(cls, message: types_pb2.MonthDay) -> "MonthDay":
        return cls(optional_date(message, "date"), message.day, message.in_month, message.today, message.selected,
                   message.highlighted, message.level, message.due, message.rest)


@dataclass(frozen=True)
class MonthPage:
    """A 42-day month page (6 rows of 7) with its title and the months before and after."""

    year: int
    month: int
    title: str
    weekday_symbols: tuple[str, ...]
    days: tuple[MonthDay, ...]
    previous_year: int
    previous_month: int
    next_year: int
    next_month: int
    week_start: Weekday

    @classmethod
    def from_pb(cls, message: types_pb2.MonthPage) -> "MonthPage":
        return cls(message.year, message.month, message.title, tuple(message.weekday_symbols),
                   tuple(MonthDay.from_pb(d) for d in message.days), message.previous_year,
                   message.previous_month, message.next_year, message.next_month, _weekday(message.week_start))


# -- settings and operational ------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Per-user settings; `min_percent` is None while unset (at least one habit)."""

    time_zone: str
    locale: str
    week_start: Weekday
    min_percent: int | None
    day_start_minutes: int

    @classmethod
    def from_pb(cls, message: types_pb2.Settings) -> "Settings":
        return cls(message.time_zone, message.locale, _weekday(message.week_start), message.min_percent or None,
                   message.day_start_minutes)


@dataclass(frozen=True)
class Pong:
    """Ping's answer: the echoed payload; `serving` is False while the server shuts down."""

    payload: bytes
    serving: bool

    @classmethod
    def from_pb(cls, message: service_pb2.PingResponse) -> "Pong":
        return cls(message.payload, message.serving)


@dataclass(frozen=True)
class ServerInfo:
    version: str
    uptime_seconds: int
    storage: str
    requests_total: int
    errors_total: int
    connections_current: int
    connections_total: int
    protocol_version: int

    @classmethod
    def from_pb(cls, message: service_pb2.GetServerInfoResponse) -> "ServerInfo":
        return cls(message.version, message.uptime_seconds, message.storage, message.requests_total,
                   message.errors_total, message.connections_current, message.connections_total,
                   message.protocol_version)


# -- results of writes -------------------------------------------------------------------------

@dataclass(frozen=True)
class CompletionResult:
    """A completion or skip written or taken back: the day after it, the streak, and whether anything changed."""

    day: DayRecord
    streak: Streak
    changed: bool

    @classmethod
    def from_pb(cls, message: service_pb2.CompletionResponse) -> "CompletionResult":
        return cls(DayRecord.from_pb(message.day), Streak.from_pb(message.streak), message.changed)


@dataclass(frozen=True)
class BatchResult:
    """BatchCompletions: every day touched (ascending), the streak, and how many completions changed."""

    days: tuple[DayRecord, ...]
    streak: Streak
    changed: int

    @classmethod
    def from_pb(cls, message: service_pb2.BatchCompletionsResponse) -> "BatchResult":
        return cls(tuple(DayRecord.from_pb(d) for d in message.days), Streak.from_pb(message.streak), message.changed)


@dataclass(frozen=True)
class RestPeriodResult:
    """A rest period added or removed, and the streak after it."""

    rest_period: RestPeriod
    streak: Streak

    @classmethod
    def from_pb(cls, message: object) -> "RestPeriodResult":
        return cls(RestPeriod.from_pb(message.rest_period),  # type: ignore[attr-defined]
                   Streak.from_pb(message.streak))  # type: ignore[attr-defined]


@dataclass(frozen=True)
class HeatmapResult:
    """BuildHeatmap: the heatmap and the streak of the data sent."""

    heatmap: Heatmap
    streak: Streak

    @classmethod
    def from_pb(cls, message: service_pb2.BuildHeatmapResponse) -> "HeatmapResult":
        return cls(Heatmap.from_pb(message.heatmap), Streak.from_pb(message.streak))


@dataclass(frozen=True)
class WatchEvent:
    """One Watch event: a day whose completions changed, and the streak after it."""

    day: DayRecord
    streak: Streak

    @classmethod
    def from_pb(cls, message: service_pb2.WatchEvent) -> "WatchEvent":
        return cls(DayRecord.from_pb(message.day), Streak.from_pb(message.streak))
