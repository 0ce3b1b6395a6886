from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
WEEKDAY_FRIDAY: Weekday
WEEKDAY_MONDAY: Weekday
WEEKDAY_SATURDAY: Weekday
WEEKDAY_SUNDAY: Weekday
WEEKDAY_THURSDAY: Weekday
WEEKDAY_TUESDAY: Weekday
WEEKDAY_UNSPECIFIED: Weekday
WEEKDAY_WEDNESDAY: Weekday

class Completion(_message.Message):
    __slots__ = ["date", "habit_id"]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    date: Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[Date, _Mapping]] = ...) -> None: ...

class Date(_message.Message):
    __slots__ = ["day", "month", "year"]
    DAY_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    day: int
    month: int
    year: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ..., day: _Optional[int] = ...) -> None: ...

class DayDetail(_message.Message):
    __slots__ = ["accessibility_label", "active", "completed", "completed_habits", "contributing", "date", "due", "level", "open_habits", "percent", "rest", "skipped_habits"]
    ACCESSIBILITY_LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_HABITS_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTING_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    DUE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    OPEN_HABITS_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    REST_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_HABITS_FIELD_NUMBER: _ClassVar[int]
    accessibility_label: str
    active: int
    completed: int
    completed_habits: _containers.RepeatedCompositeFieldContainer[Habit]
    contributing: bool
    date: Date
    due: int
    level: int
    open_habits: _containers.RepeatedCompositeFieldContainer[Habit]
    percent: int
    rest: bool
    skipped_habits: _containers.RepeatedCompositeFieldContainer[Habit]
    def __init__(self, date: _Optional[_Union[Date, _Mapping]] = ..., completed_habits: _Optional[_Iterable[_Union[Habit, _Mapping]]] = ..., completed: _Optional[int] = ..., active: _Optional[int] = ..., percent: _Optional[int] = ..., level: _Optional[int] = ..., contributing: bool = ..., accessibility_label: _Optional[str] = ..., due: _Optional[int] = ..., rest: bool = ..., skipped_habits: _Optional[_Iterable[_Union[Habit, _Mapping]]] = ..., open_habits: _Optional[_Iterable[_Union[Habit, _Mapping]]] = ...) -> None: ...

class DayRecord(_message.Message):
    __slots__ = ["active", "completed", "completed_habit_ids", "contributing", "date", "due", "level", "percent", "rest", "skipped_habit_ids"]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTING_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    DUE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    REST_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    active: int
    completed: int
    completed_habit_ids: _containers.RepeatedScalarFieldContainer[int]
    contributing: bool
    date: Date
    due: int
    level: int
    percent: int
    rest: bool
    skipped_habit_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, date: _Optional[_Union[Date, _Mapping]] = ..., completed_habit_ids: _Optional[_Iterable[int]] = ..., completed: _Optional[int] = ..., active: _Optional[int] = ..., percent: _Optional[int] = ..., level: _Optional[int] = ..., contributing: bool = ..., due: _Optional[int] = ..., rest: bool = ..., skipped_habit_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class Habit(_message.Message):
    __slots__ = ["archived_on", "created_on", "id", "name", "schedule"]
    ARCHIVED_ON_FIELD_NUMBER: _ClassVar[int]
    CREATED_ON_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    archived_on: Date
    created_on: Date
    id: int
    name: str
    schedule: _containers.RepeatedCompositeFieldContainer[ScheduleEntry]
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., created_on: _Optional[_Union[Date, _Mapping]] = ..., archived_on: _Optional[_Union[Date, _Mapping]] = ..., schedule: _Optional[_Iterable[_Union[ScheduleEntry, _Mapping]]] = ...) -> None: ...

class HabitDays(_message.Message):
    __slots__ = ["day_deltas", "habit_id"]
    DAY_DELTAS_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    day_deltas: bytes
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., day_deltas: _Optional[bytes] = ...) -> None: ...

class Heatmap(_message.Message):
    __slots__ = ["legend", "month_labels", "to", "week_start", "weeks"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    LEGEND_FIELD_NUMBER: _ClassVar[int]
    MONTH_LABELS_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    WEEKS_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    legend: _containers.RepeatedCompositeFieldContainer[LegendEntry]
    month_labels: _containers.RepeatedCompositeFieldContainer[MonthLabel]
    to: Date
    week_start: Weekday
    weeks: _containers.RepeatedCompositeFieldContainer[HeatmapWeek]
    def __init__(self, to: _Optional[_Union[Date, _Mapping]] = ..., week_start: _Optional[_Union[Weekday, str]] = ..., weeks: _Optional[_Iterable[_Union[HeatmapWeek, _Mapping]]] = ..., month_labels: _Optional[_Iterable[_Union[MonthLabel, _Mapping]]] = ..., legend: _Optional[_Iterable[_Union[LegendEntry, _Mapping]]] = ..., **kwargs) -> None: ...

class HeatmapCell(_message.Message):
    __slots__ = ["accessibility_label", "active", "completed", "date", "due", "level", "percent", "present", "rest"]
    ACCESSIBILITY_LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    DUE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    PERCENT_FIELD_NUMBER: _ClassVar[int]
    PRESENT_FIELD_NUMBER: _ClassVar[int]
    REST_FIELD_NUMBER: _ClassVar[int]
    accessibility_label: str
    active: int
    completed: int
    date: Date
    due: int
    level: int
    percent: int
    present: bool
    rest: bool
    def __init__(self, present: bool = ..., date: _Optional[_Union[Date, _Mapping]] = ..., completed: _Optional[int] = ..., active: _Optional[int] = ..., level: _Optional[int] = ..., percent: _Optional[int] = ..., accessibility_label: _Optional[str] = ..., due: _Optional[int] = ..., rest: bool = ...) -> None: ...

class HeatmapWeek(_message.Message):
    __slots__ = ["cells", "start"]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedCompositeFieldContainer[HeatmapCell]
    start: Date
    def __init__(self, start: _Optional[_Union[Date, _Mapping]] = ..., cells: _Optional[_Iterable[_Union[HeatmapCell, _Mapping]]] = ...) -> None: ...

class LegendEntry(_message.Message):
    __slots__ = ["description", "level", "max_percent", "min_percent"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    MAX_PERCENT_FIELD_NUMBER: _ClassVar[int]
    MIN_PERCENT_FIELD_NUMBER: _ClassVar[int]
    description: str
    level: int
    max_percent: int
    min_percent: int
    def __init__(self, level: _Optional[int] = ..., min_percent: _Optional[int] = ..., max_percent: _Optional[int] = ..., description: _Optional[str] = ...) -> None: ...

class MonthDay(_message.Message):
    __slots__ = ["date", "day", "due", "highlighted", "in_month", "level", "rest", "selected", "today"]
    DATE_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    DUE_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTED_FIELD_NUMBER: _ClassVar[int]
    IN_MONTH_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    REST_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    TODAY_FIELD_NUMBER: _ClassVar[int]
    date: Date
    day: int
    due: int
    highlighted: bool
    in_month: bool
    level: int
    rest: bool
    selected: bool
    today: bool
    def __init__(self, date: _Optional[_Union[Date, _Mapping]] = ..., day: _Optional[int] = ..., in_month: bool = ..., today: bool = ..., selected: bool = ..., highlighted: bool = ..., level: _Optional[int] = ..., due: _Optional[int] = ..., rest: bool = ...) -> None: ...

class MonthLabel(_message.Message):
    __slots__ = ["label", "week_index"]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    WEEK_INDEX_FIELD_NUMBER: _ClassVar[int]
    label: str
    week_index: int
    def __init__(self, label: _Optional[str] = ..., week_index: _Optional[int] = ...) -> None: ...

class MonthPage(_message.Message):
    __slots__ = ["days", "month", "next_month", "next_year", "previous_month", "previous_year", "title", "week_start", "weekday_symbols", "year"]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    NEXT_MONTH_FIELD_NUMBER: _ClassVar[int]
    NEXT_YEAR_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_MONTH_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_YEAR_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    WEEKDAY_SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    days: _containers.RepeatedCompositeFieldContainer[MonthDay]
    month: int
    next_month: int
    next_year: int
    previous_month: int
    previous_year: int
    title: str
    week_start: Weekday
    weekday_symbols: _containers.RepeatedScalarFieldContainer[str]
    year: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ..., title: _Optional[str] = ..., weekday_symbols: _Optional[_Iterable[str]] = ..., days: _Optional[_Iterable[_Union[MonthDay, _Mapping]]] = ..., previous_year: _Optional[int] = ..., previous_month: _Optional[int] = ..., next_year: _Optional[int] = ..., next_month: _Optional[int] = ..., week_start: _Optional[_Union[Weekday, str]] = ...) -> None: ...

class PackedHeatmap(_message.Message):
    __slots__ = ["active", "completed_exceptions", "days", "excused", "levels", "month_labels", "percents", "to", "week_start"]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_EXCEPTIONS_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    EXCUSED_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    MONTH_LABELS_FIELD_NUMBER: _ClassVar[int]
    PERCENTS_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    active: bytes
    completed_exceptions: bytes
    days: int
    excused: bytes
    levels: bytes
    month_labels: _containers.RepeatedCompositeFieldContainer[MonthLabel]
    percents: bytes
    to: Date
    week_start: Weekday
    def __init__(self, to: _Optional[_Union[Date, _Mapping]] = ..., week_start: _Optional[_Union[Weekday, str]] = ..., days: _Optional[int] = ..., levels: _Optional[bytes] = ..., percents: _Optional[bytes] = ..., active: _Optional[bytes] = ..., excused: _Optional[bytes] = ..., completed_exceptions: _Optional[bytes] = ..., month_labels: _Optional[_Iterable[_Union[MonthLabel, _Mapping]]] = ..., **kwargs) -> None: ...

class RestPeriod(_message.Message):
    __slots__ = ["id", "note", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    id: int
    note: str
    to: Date
    def __init__(self, id: _Optional[int] = ..., to: _Optional[_Union[Date, _Mapping]] = ..., note: _Optional[str] = ..., **kwargs) -> None: ...

class ScheduleEntry(_message.Message):
    __slots__ = ["effective_from", "weekdays"]
    EFFECTIVE_FROM_FIELD_NUMBER: _ClassVar[int]
    WEEKDAYS_FIELD_NUMBER: _ClassVar[int]
    effective_from: Date
    weekdays: _containers.RepeatedScalarFieldContainer[Weekday]
    def __init__(self, effective_from: _Optional[_Union[Date, _Mapping]] = ..., weekdays: _Optional[_Iterable[_Union[Weekday, str]]] = ...) -> None: ...

class Settings(_message.Message):
    __slots__ = ["day_start_minutes", "locale", "min_percent", "time_zone", "week_start"]
    DAY_START_MINUTES_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    MIN_PERCENT_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    day_start_minutes: int
    locale: str
    min_percent: int
    time_zone: str
    week_start: Weekday
    def __init__(self, time_zone: _Optional[str] = ..., locale: _Optional[str] = ..., week_start: _Optional[_Union[Weekday, str]] = ..., min_percent: _Optional[int] = ..., day_start_minutes: _Optional[int] = ...) -> None: ...

class Skip(_message.Message):
    __slots__ = ["date", "habit_id"]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    date: Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[Date, _Mapping]] = ...) -> None: ...

class StreakSummary(_message.Message):
    __slots__ = ["as_of", "current", "current_start", "longest", "longest_end", "longest_start", "today_pending"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_START_FIELD_NUMBER: _ClassVar[int]
    LONGEST_END_FIELD_NUMBER: _ClassVar[int]
    LONGEST_FIELD_NUMBER: _ClassVar[int]
    LONGEST_START_FIELD_NUMBER: _ClassVar[int]
    TODAY_PENDING_FIELD_NUMBER: _ClassVar[int]
    as_of: Date
    current: int
    current_start: Date
    longest: int
    longest_end: Date
    longest_start: Date
    today_pending: bool
    def __init__(self, as_of: _Optional[_Union[Date, _Mapping]] = ..., current: _Optional[int] = ..., current_start: _Optional[_Union[Date, _Mapping]] = ..., longest: _Optional[int] = ..., longest_start: _Optional[_Union[Date, _Mapping]] = ..., longest_end: _Optional[_Union[Date, _Mapping]] = ..., today_pending: bool = ...) -> None: ...

class WeekStart(_message.Message):
    __slots__ = ["locale", "weekday"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    WEEKDAY_FIELD_NUMBER: _ClassVar[int]
    locale: str
    weekday: Weekday
    def __init__(self, weekday: _Optional[_Union[Weekday, str]] = ..., locale: _Optional[str] = ...) -> None: ...

class WeekdayChart(_message.Message):
    __slots__ = ["series", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    SERIES_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    series: _containers.RepeatedCompositeFieldContainer[WeekdaySeries]
    to: Date
    def __init__(self, to: _Optional[_Union[Date, _Mapping]] = ..., series: _Optional[_Iterable[_Union[WeekdaySeries, _Mapping]]] = ..., **kwargs) -> None: ...

class WeekdayCount(_message.Message):
    __slots__ = ["count", "short_name", "weekday"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SHORT_NAME_FIELD_NUMBER: _ClassVar[int]
    WEEKDAY_FIELD_NUMBER: _ClassVar[int]
    count: int
    short_name: str
    weekday: Weekday
    def __init__(self, weekday: _Optional[_Union[Weekday, str]] = ..., short_name: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class WeekdaySeries(_message.Message):
    __slots__ = ["counts", "habit_id", "name", "total"]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    counts: _containers.RepeatedCompositeFieldContainer[WeekdayCount]
    habit_id: int
    name: str
    total: bool
    def __init__(self, habit_id: _Optional[int] = ..., name: _Optional[str] = ..., total: bool = ..., counts: _Optional[_Iterable[_Union[WeekdayCount, _Mapping]]] = ...) -> None: ...

class WeekdaySet(_message.Message):
    __slots__ = ["weekdays"]
    WEEKDAYS_FIELD_NUMBER: _ClassVar[int]
    weekdays: _containers.RepeatedScalarFieldContainer[Weekday]
    def __init__(self, weekdays: _Optional[_Iterable[_Union[Weekday, str]]] = ...) -> None: ...

class Weekday(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
