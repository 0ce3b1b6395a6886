"""The values the typed `Client` methods return: small frozen dataclasses with `datetime.date`s.

Each mirrors one protocol message (proto/streak/v1/types.proto) with Python types: every Date
is a `datetime.date` (None where the protocol leaves it absent), weekdays are `Weekday`s,
repeated fields are tuples, and the protocol's `from`/`to` (Python keyword and its partner)
are `start`/`end`. `X.from_pb(message)` makes one from its message; the types a request can
carry (`Habit`, `ScheduleEntry`, `Completion`, `Skip`, `RestPeriod`, `Settings`, `ImportHabit`)
also have `to_pb()`.
"""

from __future__ import annotations

import datetime as _dt
import enum
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence, cast

from .dates import DateLike, from_pb_date, optional_date, to_date, to_pb_date
from .pb import service_pb2, types_pb2

__all__ = [
    "BatchResult", "Completion", "CompletionResult", "DayDetail", "DayRecord", "DeletedHabit", "Export",
    "ExportPage", "ExportedHabit", "Habit", "Heatmap", "HeatmapCell", "HeatmapResult", "HeatmapWeek", "ImportHabit",
    "ImportRecordError", "ImportResult", "LegendEntry", "MonthDay", "MonthLabel", "MonthPage", "Pong", "RestPeriod",
    "RestPeriodResult", "ScheduleEntry", "ServerInfo", "Settings", "Skip", "StorageUpkeepFailure", "Streak",
    "WatchEvent", "WatchEventKind", "Weekday",
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

    def to_pb(self) -> types_pb2.Settings:
        return types_pb2.Settings(time_zone=self.time_zone, locale=self.locale,
                                  week_start=cast(Any, int(self.week_start)), min_percent=self.min_percent or 0,
                                  day_start_minutes=self.day_start_minutes)


@dataclass(frozen=True)
class Pong:
    """Ping's answer: the echoed payload; `serving` is False while the server shuts down."""

    payload: bytes
    serving: bool

    @classmethod
    def from_pb(cls, message: service_pb2.PingResponse) -> "Pong":
        return cls(message.payload, message.serving)


@dataclass(frozen=True)
class StorageUpkeepFailure:
    """Storage work no request waits for that is failing now (PROTOCOL.md section 5, GetServerInfo)."""

    job: str  # "listen_for_changes", "read_change_log", "prune_change_log", "announce_commits", "checkpoint_log"
    description: str  # the job in words, as the server's log names it
    failing_since: _dt.datetime | None  # UTC; None when the server did not say
    error: str  # the failure's kind ("io", "internalFailure", ...)
    detail: str  # the failure in words (never user data)
    engine_code: str  # the database's own code (PostgreSQL's SQLSTATE), "" when none

    @classmethod
    def from_pb(cls, message: service_pb2.StorageUpkeepFailure) -> "StorageUpkeepFailure":
        since = (_dt.datetime.fromtimestamp(message.failing_since_unix_seconds, _dt.timezone.utc)
                 if message.failing_since_unix_seconds else None)
        return cls(message.job, message.description, since, message.error, message.detail, message.engine_code)


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
    # Users in memory (0 from servers older than these fields; PROTOCOL.md section 5).
    users_held: int = 0
    users_evicted: int = 0
    user_memory_bytes: int = 0
    user_memory_budget_bytes: int = 0  # 0: no budget
    users_dropped: int = 0
    change_notices_total: int = 0
    # Storage upkeep failing now (empty: all of it works).
    storage_upkeep_failing: tuple[StorageUpkeepFailure, ...] = ()

    @classmethod
    def from_pb(cls, message: service_pb2.GetServerInfoResponse) -> "ServerInfo":
        return cls(message.version, message.uptime_seconds, message.storage, message.requests_total,
                   message.errors_total, message.connections_current, message.connections_total,
                   message.protocol_version, message.users_held, message.users_evicted,
                   message.user_memory_bytes, message.user_memory_budget_bytes, message.users_dropped,
                   message.change_notices_total,
                   tuple(StorageUpkeepFailure.from_pb(f) for f in message.storage_upkeep_failing))


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


class WatchEventKind(enum.IntEnum):
    """What a Watch event says. Kinds other than DAY_CHANGED come only to a stream opened with
    `lifecycle_events=True`."""

    DAY_CHANGED = 0
    """`day` changed: replace that day's record."""
    SUBSCRIBED = 1
    """The stream's first event: every change committed after it comes as an event; read the state now."""
    DAY_STARTED = 2
    """The user's day began (streams without `as_of`): `day` is the new today."""
    SETTINGS_CHANGED = 3
    """The user's settings changed: re-read what you show."""


@dataclass(frozen=True)
class WatchEvent:
    """One Watch event: a day whose record changed, and the streak after it (`kind` DAY_CHANGED);
    on a stream opened with `lifecycle_events=True` also SUBSCRIBED, DAY_STARTED and
    SETTINGS_CHANGED events. `day` is None for SUBSCRIBED and SETTINGS_CHANGED, set otherwise.
    `kind` is a plain `int` for a kind this version does not know."""

    day: DayRecord | None
    streak: Streak
    kind: WatchEventKind | int = WatchEventKind.DAY_CHANGED

    @classmethod
    def from_pb(cls, message: service_pb2.WatchEvent) -> "WatchEvent":
        try:
            kind: WatchEventKind | int = WatchEventKind(message.kind)
        except ValueError:
            kind = int(message.kind)
        day = DayRecord.from_pb(message.day) if message.HasField("day") else None
        return cls(day, Streak.from_pb(message.streak), kind)


# -- your data: delete, export, import ---------------------------------------------------------

@dataclass(frozen=True)
class DeletedHabit:
    """DeleteHabit: the habit as it was, and how many completions and skips went with it."""

    habit: Habit
    completions: int
    skips: int

    @classmethod
    def from_pb(cls, message: service_pb2.DeleteHabitResponse) -> "DeletedHabit":
        return cls(Habit.from_pb(message.habit), message.completions, message.skips)


@dataclass(frozen=True)
class ExportPage:
    """One page of ExportData. The first carries `settings`, every habit (archived ones included,
    ascending by id), every rest period and `total_records`; every page carries up to the page size
    of completions and skips (by habit id, then date; `habit_id` refers to the first page's habits);
    the last has `last` True."""

    settings: Settings | None
    habits: tuple[Habit, ...]
    rest_periods: tuple[RestPeriod, ...]
    completions: tuple[Completion, ...]
    skips: tuple[Skip, ...]
    last: bool
    total_records: int
    """First page: completions plus skips in the whole export (0 on the other pages)."""

    @classmethod
    def from_pb(cls, message: service_pb2.ExportDataPage) -> "ExportPage":
        settings = Settings.from_pb(message.settings) if message.HasField("settings") else None
        return cls(settings, tuple(Habit.from_pb(h) for h in message.habits),
                   tuple(RestPeriod.from_pb(p) for p in message.rest_periods),
                   tuple(Completion.from_pb(c) for c in message.completions),
                   tuple(Skip.from_pb(s) for s in message.skips), message.last, message.total_records)


def _dates(values: Iterable[DateLike]) -> tuple[_dt.date, ...]:
    return tuple(to_date(value) for value in values)


@dataclass(frozen=True)
class ImportHabit:
    """One habit of an import: matched by exact name with the account's habits (archived ones
    included) or created, from `created_on` (None: its earliest record, else today).

    `archived_on` archives a live habit from that day (None: left as it is); `schedule` entries
    are set from their `effective_from`; `completions` and `skips` are added where missing. Lists
    are accepted and kept as tuples; dates may be anything `to_date` takes (an impossible day
    raises ValueError here).
    """

    name: str
    created_on: _dt.date | None = None
    archived_on: _dt.date | None = None
    schedule: Sequence[ScheduleEntry] = ()
    completions: Sequence[_dt.date] = ()
    skips: Sequence[_dt.date] = ()

    def __post_init__(self) -> None:
        if self.created_on is not None:
            object.__setattr__(self, "created_on", to_date(self.created_on))
        if self.archived_on is not None:
            object.__setattr__(self, "archived_on", to_date(self.archived_on))
        object.__setattr__(self, "schedule", tuple(self.schedule))
        object.__setattr__(self, "completions", _dates(self.completions))
        object.__setattr__(self, "skips", _dates(self.skips))

    @classmethod
    def from_pb(cls, message: service_pb2.ImportHabit) -> "ImportHabit":
        return cls(message.name, optional_date(message, "created_on"), optional_date(message, "archived_on"),
                   tuple(ScheduleEntry.from_pb(entry) for entry in message.schedule),
                   tuple(from_pb_date(d) for d in message.completions), tuple(from_pb_date(d) for d in message.skips))

    def to_pb(self) -> service_pb2.ImportHabit:
        message = service_pb2.ImportHabit(name=self.name, schedule=[entry.to_pb() for entry in self.schedule],
                                          completions=[to_pb_date(d) for d in self.completions],
                                          skips=[to_pb_date(d) for d in self.skips])
        if self.created_on is not None:
            message.created_on.CopyFrom(to_pb_date(self.created_on))
        if self.archived_on is not None:
            message.archived_on.CopyFrom(to_pb_date(self.archived_on))
        return message

    @property
    def records(self) -> int:
        """Completions plus skips."""
        return len(self.completions) + len(self.skips)


@dataclass(frozen=True)
class ExportedHabit:
    """A habit of an export with its history: the days done and the days skipped, ascending."""

    habit: Habit
    completions: tuple[_dt.date, ...] = ()
    skips: tuple[_dt.date, ...] = ()

    @property
    def name(self) -> str:
        return self.habit.name

    def to_import(self) -> ImportHabit:
        """The same habit as an import brings it in (the id stays behind: ids belong to an account)."""
        return ImportHabit(self.habit.name, self.habit.created_on, self.habit.archived_on, self.habit.schedule,
                           self.completions, self.skips)


@dataclass(frozen=True)
class Export:
    """Everything of an account (`Client.export_all`): the settings, every habit with its history
    (ascending by id: the order they were created in) and every rest period. `import_data` takes
    the three back: `import_data(export.habits, export.rest_periods, export.settings)`."""

    settings: Settings | None
    habits: tuple[ExportedHabit, ...]
    rest_periods: tuple[RestPeriod, ...]
    total_records: int
    """Completions plus skips, as the server counted them for the export."""

    def habit(self, name: str) -> ExportedHabit | None:
        """The first habit of that exact name, or None."""
        return next((h for h in self.habits if h.habit.name == name), None)

    @classmethod
    def from_pages(cls, pages: Iterable[ExportPage]) -> "Export":
        """Assembles the pages of one ExportData stream (which must end with its last page).

        Raises ValueError when the pages are not one whole export: no first page, a record of a
        habit the first page does not have, or no last page.
        """
        settings: Settings | None = None
        habits: list[Habit] = []
        rest_periods: tuple[RestPeriod, ...] = ()
        total = 0
        completions: dict[int, list[_dt.date]] = {}
        skips: dict[int, list[_dt.date]] = {}
        first = True
        last = False
        for page in pages:
            if last:
                raise ValueError("a page after the last one")
            if first:
                first = False
                settings, habits, rest_periods, total = page.settings, list(page.habits), page.rest_periods, \
                    page.total_records
                completions = {h.id: [] for h in habits}
                skips = {h.id: [] for h in habits}
            for completion in page.completions:
                if completion.habit_id not in completions:
                    raise ValueError(f"a completion of habit {completion.habit_id}, which the export does not have")
                completions[completion.habit_id].append(completion.date)
            for skip in page.skips:
                if skip.habit_id not in skips:
                    raise ValueError(f"a skip of habit {skip.habit_id}, which the export does not have")
                skips[skip.habit_id].append(skip.date)
            last = page.last
        if first:
            raise ValueError("no page")
        if not last:
            raise ValueError("the export ended before its last page")
        return cls(settings, tuple(ExportedHabit(h, tuple(completions[h.id]), tuple(skips[h.id])) for h in habits),
                   rest_periods, total)


@dataclass(frozen=True)
class ImportRecordError:
    """A record an import did not apply (the rest of the request was): `habit_index` into the
    request's habits (-1 for a rest period or the settings), the `field` ("name", "completions",
    "skips", "schedule", "archived_on", "rest_periods", "settings"), the record's `date` when it
    has one, and the server's `message`."""

    habit_index: int
    field: str
    date: _dt.date | None
    message: str

    @classmethod
    def from_pb(cls, message: service_pb2.ImportRecordError) -> "ImportRecordError":
        return cls(message.habit_index, message.field, optional_date(message, "date"), message.message)


@dataclass(frozen=True)
class ImportResult:
    """ImportData: what was added, the records that were not applied (`errors`: the first 1,000
    in request order; `error_count`: how many there were in all, listed or not), and the habit
    each `ImportHabit` landed in (request order; None where its name or the limit of 1,000
    habits a user may have refused it)."""

    habits_created: int
    habits_matched: int
    completions_added: int
    skips_added: int
    rest_periods_added: int
    schedules_set: int
    settings_changed: bool
    errors: tuple[ImportRecordError, ...]
    habits: tuple[Habit | None, ...]
    error_count: int = 0

    @property
    def errors_omitted(self) -> int:
        """The records not applied that `errors` does not list (the server lists at most 1,000)."""
        return self.error_count - len(self.errors)

    @classmethod
    def from_pb(cls, message: service_pb2.ImportDataResponse) -> "ImportResult":
        # A server older than error_count lists every error and sends 0.
        return cls(message.habits_created, message.habits_matched, message.completions_added, message.skips_added,
                   message.rest_periods_added, message.schedules_set, message.settings_changed,
                   tuple(ImportRecordError.from_pb(e) for e in message.errors),
                   tuple(Habit.from_pb(h) if h.id != 0 else None for h in message.habits),
                   max(message.error_count, len(message.errors)))
