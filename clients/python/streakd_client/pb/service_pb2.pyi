from . import types_pb2 as _types_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AddRestPeriodRequest(_message.Message):
    __slots__ = ["as_of", "note", "to"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    note: str
    to: _types_pb2.Date
    def __init__(self, to: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., note: _Optional[str] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., **kwargs) -> None: ...

class AddRestPeriodResponse(_message.Message):
    __slots__ = ["rest_period", "streak"]
    REST_PERIOD_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    rest_period: _types_pb2.RestPeriod
    streak: _types_pb2.StreakSummary
    def __init__(self, rest_period: _Optional[_Union[_types_pb2.RestPeriod, _Mapping]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ...) -> None: ...

class ArchiveHabitRequest(_message.Message):
    __slots__ = ["archived_on", "habit_id"]
    ARCHIVED_ON_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    archived_on: _types_pb2.Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., archived_on: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class ArchiveHabitResponse(_message.Message):
    __slots__ = ["habit"]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    habit: _types_pb2.Habit
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ...) -> None: ...

class BatchCompletionsRequest(_message.Message):
    __slots__ = ["as_of", "record", "remove"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    REMOVE_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    record: _containers.RepeatedCompositeFieldContainer[_types_pb2.Completion]
    remove: _containers.RepeatedCompositeFieldContainer[_types_pb2.Completion]
    def __init__(self, record: _Optional[_Iterable[_Union[_types_pb2.Completion, _Mapping]]] = ..., remove: _Optional[_Iterable[_Union[_types_pb2.Completion, _Mapping]]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class BatchCompletionsResponse(_message.Message):
    __slots__ = ["changed", "days", "streak"]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    DAYS_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    changed: int
    days: _containers.RepeatedCompositeFieldContainer[_types_pb2.DayRecord]
    streak: _types_pb2.StreakSummary
    def __init__(self, days: _Optional[_Iterable[_Union[_types_pb2.DayRecord, _Mapping]]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ..., changed: _Optional[int] = ...) -> None: ...

class BuildHeatmapRequest(_message.Message):
    __slots__ = ["accessibility_labels", "as_of", "completion_days", "completions", "habits", "locale", "min_percent", "packed", "packed_month_labels", "rest_periods", "skips", "to", "week_start"]
    ACCESSIBILITY_LABELS_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_DAYS_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    HABITS_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    MIN_PERCENT_FIELD_NUMBER: _ClassVar[int]
    PACKED_FIELD_NUMBER: _ClassVar[int]
    PACKED_MONTH_LABELS_FIELD_NUMBER: _ClassVar[int]
    REST_PERIODS_FIELD_NUMBER: _ClassVar[int]
    SKIPS_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    accessibility_labels: bool
    as_of: _types_pb2.Date
    completion_days: _containers.RepeatedCompositeFieldContainer[_types_pb2.HabitDays]
    completions: _containers.RepeatedCompositeFieldContainer[_types_pb2.Completion]
    habits: _containers.RepeatedCompositeFieldContainer[_types_pb2.Habit]
    locale: str
    min_percent: int
    packed: bool
    packed_month_labels: bool
    rest_periods: _containers.RepeatedCompositeFieldContainer[_types_pb2.RestPeriod]
    skips: _containers.RepeatedCompositeFieldContainer[_types_pb2.Skip]
    to: _types_pb2.Date
    week_start: _types_pb2.WeekStart
    def __init__(self, habits: _Optional[_Iterable[_Union[_types_pb2.Habit, _Mapping]]] = ..., completions: _Optional[_Iterable[_Union[_types_pb2.Completion, _Mapping]]] = ..., to: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., week_start: _Optional[_Union[_types_pb2.WeekStart, _Mapping]] = ..., locale: _Optional[str] = ..., min_percent: _Optional[int] = ..., accessibility_labels: bool = ..., skips: _Optional[_Iterable[_Union[_types_pb2.Skip, _Mapping]]] = ..., rest_periods: _Optional[_Iterable[_Union[_types_pb2.RestPeriod, _Mapping]]] = ..., packed: bool = ..., packed_month_labels: bool = ..., completion_days: _Optional[_Iterable[_Union[_types_pb2.HabitDays, _Mapping]]] = ..., **kwargs) -> None: ...

class BuildHeatmapResponse(_message.Message):
    __slots__ = ["heatmap", "packed", "streak"]
    HEATMAP_FIELD_NUMBER: _ClassVar[int]
    PACKED_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    heatmap: _types_pb2.Heatmap
    packed: _types_pb2.PackedHeatmap
    streak: _types_pb2.StreakSummary
    def __init__(self, heatmap: _Optional[_Union[_types_pb2.Heatmap, _Mapping]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ..., packed: _Optional[_Union[_types_pb2.PackedHeatmap, _Mapping]] = ...) -> None: ...

class BuildMonthLabelsRequest(_message.Message):
    __slots__ = ["locale", "week_starts"]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    WEEK_STARTS_FIELD_NUMBER: _ClassVar[int]
    locale: str
    week_starts: _containers.RepeatedCompositeFieldContainer[_types_pb2.Date]
    def __init__(self, week_starts: _Optional[_Iterable[_Union[_types_pb2.Date, _Mapping]]] = ..., locale: _Optional[str] = ...) -> None: ...

class BuildMonthLabelsResponse(_message.Message):
    __slots__ = ["labels"]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    labels: _containers.RepeatedCompositeFieldContainer[_types_pb2.MonthLabel]
    def __init__(self, labels: _Optional[_Iterable[_Union[_types_pb2.MonthLabel, _Mapping]]] = ...) -> None: ...

class BuildMonthPageRequest(_message.Message):
    __slots__ = ["as_of", "highlighted", "locale", "month", "selected", "week_start", "year"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    HIGHLIGHTED_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    highlighted: _containers.RepeatedCompositeFieldContainer[_types_pb2.Date]
    locale: str
    month: int
    selected: _types_pb2.Date
    week_start: _types_pb2.WeekStart
    year: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ..., selected: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., week_start: _Optional[_Union[_types_pb2.WeekStart, _Mapping]] = ..., locale: _Optional[str] = ..., highlighted: _Optional[_Iterable[_Union[_types_pb2.Date, _Mapping]]] = ...) -> None: ...

class BuildMonthPageResponse(_message.Message):
    __slots__ = ["page"]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    page: _types_pb2.MonthPage
    def __init__(self, page: _Optional[_Union[_types_pb2.MonthPage, _Mapping]] = ...) -> None: ...

class CompletionResponse(_message.Message):
    __slots__ = ["changed", "day", "streak"]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    changed: bool
    day: _types_pb2.DayRecord
    streak: _types_pb2.StreakSummary
    def __init__(self, day: _Optional[_Union[_types_pb2.DayRecord, _Mapping]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ..., changed: bool = ...) -> None: ...

class CreateHabitRequest(_message.Message):
    __slots__ = ["created_on", "name", "schedule"]
    CREATED_ON_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    created_on: _types_pb2.Date
    name: str
    schedule: _types_pb2.WeekdaySet
    def __init__(self, name: _Optional[str] = ..., created_on: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., schedule: _Optional[_Union[_types_pb2.WeekdaySet, _Mapping]] = ...) -> None: ...

class CreateHabitResponse(_message.Message):
    __slots__ = ["habit"]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    habit: _types_pb2.Habit
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ...) -> None: ...

class DeleteHabitRequest(_message.Message):
    __slots__ = ["habit_id"]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ...) -> None: ...

class DeleteHabitResponse(_message.Message):
    __slots__ = ["completions", "habit", "skips"]
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    SKIPS_FIELD_NUMBER: _ClassVar[int]
    completions: int
    habit: _types_pb2.Habit
    skips: int
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ..., completions: _Optional[int] = ..., skips: _Optional[int] = ...) -> None: ...

class ExportDataPage(_message.Message):
    __slots__ = ["completions", "habits", "last", "rest_periods", "settings", "skips", "total_records"]
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    HABITS_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    REST_PERIODS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SKIPS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_RECORDS_FIELD_NUMBER: _ClassVar[int]
    completions: _containers.RepeatedCompositeFieldContainer[_types_pb2.Completion]
    habits: _containers.RepeatedCompositeFieldContainer[_types_pb2.Habit]
    last: bool
    rest_periods: _containers.RepeatedCompositeFieldContainer[_types_pb2.RestPeriod]
    settings: _types_pb2.Settings
    skips: _containers.RepeatedCompositeFieldContainer[_types_pb2.Skip]
    total_records: int
    def __init__(self, settings: _Optional[_Union[_types_pb2.Settings, _Mapping]] = ..., habits: _Optional[_Iterable[_Union[_types_pb2.Habit, _Mapping]]] = ..., rest_periods: _Optional[_Iterable[_Union[_types_pb2.RestPeriod, _Mapping]]] = ..., completions: _Optional[_Iterable[_Union[_types_pb2.Completion, _Mapping]]] = ..., skips: _Optional[_Iterable[_Union[_types_pb2.Skip, _Mapping]]] = ..., last: bool = ..., total_records: _Optional[int] = ...) -> None: ...

class ExportDataRequest(_message.Message):
    __slots__ = ["page_size"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    def __init__(self, page_size: _Optional[int] = ...) -> None: ...

class GetDayRequest(_message.Message):
    __slots__ = ["date", "habit_ids"]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    date: _types_pb2.Date
    habit_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., habit_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class GetDayResponse(_message.Message):
    __slots__ = ["day"]
    DAY_FIELD_NUMBER: _ClassVar[int]
    day: _types_pb2.DayDetail
    def __init__(self, day: _Optional[_Union[_types_pb2.DayDetail, _Mapping]] = ...) -> None: ...

class GetHeatmapRequest(_message.Message):
    __slots__ = ["accessibility_labels", "as_of", "habit_ids", "locale", "packed", "packed_month_labels", "to", "week_start"]
    ACCESSIBILITY_LABELS_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PACKED_FIELD_NUMBER: _ClassVar[int]
    PACKED_MONTH_LABELS_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    accessibility_labels: bool
    as_of: _types_pb2.Date
    habit_ids: _containers.RepeatedScalarFieldContainer[int]
    locale: str
    packed: bool
    packed_month_labels: bool
    to: _types_pb2.Date
    week_start: _types_pb2.WeekStart
    def __init__(self, to: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., week_start: _Optional[_Union[_types_pb2.WeekStart, _Mapping]] = ..., locale: _Optional[str] = ..., accessibility_labels: bool = ..., habit_ids: _Optional[_Iterable[int]] = ..., packed: bool = ..., packed_month_labels: bool = ..., **kwargs) -> None: ...

class GetHeatmapResponse(_message.Message):
    __slots__ = ["heatmap", "packed"]
    HEATMAP_FIELD_NUMBER: _ClassVar[int]
    PACKED_FIELD_NUMBER: _ClassVar[int]
    heatmap: _types_pb2.Heatmap
    packed: _types_pb2.PackedHeatmap
    def __init__(self, heatmap: _Optional[_Union[_types_pb2.Heatmap, _Mapping]] = ..., packed: _Optional[_Union[_types_pb2.PackedHeatmap, _Mapping]] = ...) -> None: ...

class GetMonthPageRequest(_message.Message):
    __slots__ = ["as_of", "habit_ids", "locale", "month", "selected", "week_start", "year"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    MONTH_FIELD_NUMBER: _ClassVar[int]
    SELECTED_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    habit_ids: _containers.RepeatedScalarFieldContainer[int]
    locale: str
    month: int
    selected: _types_pb2.Date
    week_start: _types_pb2.WeekStart
    year: int
    def __init__(self, year: _Optional[int] = ..., month: _Optional[int] = ..., selected: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., week_start: _Optional[_Union[_types_pb2.WeekStart, _Mapping]] = ..., locale: _Optional[str] = ..., habit_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class GetMonthPageResponse(_message.Message):
    __slots__ = ["page"]
    PAGE_FIELD_NUMBER: _ClassVar[int]
    page: _types_pb2.MonthPage
    def __init__(self, page: _Optional[_Union[_types_pb2.MonthPage, _Mapping]] = ...) -> None: ...

class GetServerInfoRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetServerInfoResponse(_message.Message):
    __slots__ = ["change_notices_total", "connections_current", "connections_total", "errors_total", "protocol_version", "requests_total", "storage", "storage_upkeep_failing", "uptime_seconds", "user_memory_budget_bytes", "user_memory_bytes", "users_dropped", "users_evicted", "users_held", "version"]
    CHANGE_NOTICES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_CURRENT_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    ERRORS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUESTS_TOTAL_FIELD_NUMBER: _ClassVar[int]
    STORAGE_FIELD_NUMBER: _ClassVar[int]
    STORAGE_UPKEEP_FAILING_FIELD_NUMBER: _ClassVar[int]
    UPTIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    USERS_DROPPED_FIELD_NUMBER: _ClassVar[int]
    USERS_EVICTED_FIELD_NUMBER: _ClassVar[int]
    USERS_HELD_FIELD_NUMBER: _ClassVar[int]
    USER_MEMORY_BUDGET_BYTES_FIELD_NUMBER: _ClassVar[int]
    USER_MEMORY_BYTES_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    change_notices_total: int
    connections_current: int
    connections_total: int
    errors_total: int
    protocol_version: int
    requests_total: int
    storage: str
    storage_upkeep_failing: _containers.RepeatedCompositeFieldContainer[StorageUpkeepFailure]
    uptime_seconds: int
    user_memory_budget_bytes: int
    user_memory_bytes: int
    users_dropped: int
    users_evicted: int
    users_held: int
    version: str
    def __init__(self, version: _Optional[str] = ..., uptime_seconds: _Optional[int] = ..., storage: _Optional[str] = ..., requests_total: _Optional[int] = ..., errors_total: _Optional[int] = ..., connections_current: _Optional[int] = ..., connections_total: _Optional[int] = ..., protocol_version: _Optional[int] = ..., users_held: _Optional[int] = ..., users_evicted: _Optional[int] = ..., user_memory_bytes: _Optional[int] = ..., user_memory_budget_bytes: _Optional[int] = ..., users_dropped: _Optional[int] = ..., change_notices_total: _Optional[int] = ..., storage_upkeep_failing: _Optional[_Iterable[_Union[StorageUpkeepFailure, _Mapping]]] = ...) -> None: ...

class GetSettingsRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetSettingsResponse(_message.Message):
    __slots__ = ["settings"]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: _types_pb2.Settings
    def __init__(self, settings: _Optional[_Union[_types_pb2.Settings, _Mapping]] = ...) -> None: ...

class GetStreakRequest(_message.Message):
    __slots__ = ["as_of", "habit_ids"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    habit_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., habit_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class GetStreakResponse(_message.Message):
    __slots__ = ["streak"]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    streak: _types_pb2.StreakSummary
    def __init__(self, streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ...) -> None: ...

class GetWeekdayChartRequest(_message.Message):
    __slots__ = ["as_of", "habit_ids", "include_total", "locale", "to"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    HABIT_IDS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TOTAL_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    habit_ids: _containers.RepeatedScalarFieldContainer[int]
    include_total: bool
    locale: str
    to: _types_pb2.Date
    def __init__(self, to: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., locale: _Optional[str] = ..., include_total: bool = ..., habit_ids: _Optional[_Iterable[int]] = ..., **kwargs) -> None: ...

class GetWeekdayChartResponse(_message.Message):
    __slots__ = ["chart"]
    CHART_FIELD_NUMBER: _ClassVar[int]
    chart: _types_pb2.WeekdayChart
    def __init__(self, chart: _Optional[_Union[_types_pb2.WeekdayChart, _Mapping]] = ...) -> None: ...

class ImportDataRequest(_message.Message):
    __slots__ = ["habits", "rest_periods", "settings"]
    HABITS_FIELD_NUMBER: _ClassVar[int]
    REST_PERIODS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    habits: _containers.RepeatedCompositeFieldContainer[ImportHabit]
    rest_periods: _containers.RepeatedCompositeFieldContainer[_types_pb2.RestPeriod]
    settings: _types_pb2.Settings
    def __init__(self, habits: _Optional[_Iterable[_Union[ImportHabit, _Mapping]]] = ..., rest_periods: _Optional[_Iterable[_Union[_types_pb2.RestPeriod, _Mapping]]] = ..., settings: _Optional[_Union[_types_pb2.Settings, _Mapping]] = ...) -> None: ...

class ImportDataResponse(_message.Message):
    __slots__ = ["completions_added", "error_count", "errors", "habits", "habits_created", "habits_matched", "rest_periods_added", "schedules_set", "settings_changed", "skips_added"]
    COMPLETIONS_ADDED_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ERROR_COUNT_FIELD_NUMBER: _ClassVar[int]
    HABITS_CREATED_FIELD_NUMBER: _ClassVar[int]
    HABITS_FIELD_NUMBER: _ClassVar[int]
    HABITS_MATCHED_FIELD_NUMBER: _ClassVar[int]
    REST_PERIODS_ADDED_FIELD_NUMBER: _ClassVar[int]
    SCHEDULES_SET_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    SKIPS_ADDED_FIELD_NUMBER: _ClassVar[int]
    completions_added: int
    error_count: int
    errors: _containers.RepeatedCompositeFieldContainer[ImportRecordError]
    habits: _containers.RepeatedCompositeFieldContainer[_types_pb2.Habit]
    habits_created: int
    habits_matched: int
    rest_periods_added: int
    schedules_set: int
    settings_changed: bool
    skips_added: int
    def __init__(self, habits_created: _Optional[int] = ..., habits_matched: _Optional[int] = ..., completions_added: _Optional[int] = ..., skips_added: _Optional[int] = ..., rest_periods_added: _Optional[int] = ..., schedules_set: _Optional[int] = ..., settings_changed: bool = ..., errors: _Optional[_Iterable[_Union[ImportRecordError, _Mapping]]] = ..., habits: _Optional[_Iterable[_Union[_types_pb2.Habit, _Mapping]]] = ..., error_count: _Optional[int] = ...) -> None: ...

class ImportHabit(_message.Message):
    __slots__ = ["archived_on", "completions", "created_on", "name", "schedule", "skips"]
    ARCHIVED_ON_FIELD_NUMBER: _ClassVar[int]
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    CREATED_ON_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCHEDULE_FIELD_NUMBER: _ClassVar[int]
    SKIPS_FIELD_NUMBER: _ClassVar[int]
    archived_on: _types_pb2.Date
    completions: _containers.RepeatedCompositeFieldContainer[_types_pb2.Date]
    created_on: _types_pb2.Date
    name: str
    schedule: _containers.RepeatedCompositeFieldContainer[_types_pb2.ScheduleEntry]
    skips: _containers.RepeatedCompositeFieldContainer[_types_pb2.Date]
    def __init__(self, name: _Optional[str] = ..., created_on: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., archived_on: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., schedule: _Optional[_Iterable[_Union[_types_pb2.ScheduleEntry, _Mapping]]] = ..., completions: _Optional[_Iterable[_Union[_types_pb2.Date, _Mapping]]] = ..., skips: _Optional[_Iterable[_Union[_types_pb2.Date, _Mapping]]] = ...) -> None: ...

class ImportRecordError(_message.Message):
    __slots__ = ["date", "field", "habit_index", "message"]
    DATE_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    HABIT_INDEX_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    date: _types_pb2.Date
    field: str
    habit_index: int
    message: str
    def __init__(self, habit_index: _Optional[int] = ..., field: _Optional[str] = ..., date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., message: _Optional[str] = ...) -> None: ...

class ListHabitsRequest(_message.Message):
    __slots__ = ["include_archived"]
    INCLUDE_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    include_archived: bool
    def __init__(self, include_archived: bool = ...) -> None: ...

class ListHabitsResponse(_message.Message):
    __slots__ = ["habits"]
    HABITS_FIELD_NUMBER: _ClassVar[int]
    habits: _containers.RepeatedCompositeFieldContainer[_types_pb2.Habit]
    def __init__(self, habits: _Optional[_Iterable[_Union[_types_pb2.Habit, _Mapping]]] = ...) -> None: ...

class ListRestPeriodsRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListRestPeriodsResponse(_message.Message):
    __slots__ = ["rest_periods"]
    REST_PERIODS_FIELD_NUMBER: _ClassVar[int]
    rest_periods: _containers.RepeatedCompositeFieldContainer[_types_pb2.RestPeriod]
    def __init__(self, rest_periods: _Optional[_Iterable[_Union[_types_pb2.RestPeriod, _Mapping]]] = ...) -> None: ...

class PingRequest(_message.Message):
    __slots__ = ["payload"]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    payload: bytes
    def __init__(self, payload: _Optional[bytes] = ...) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ["payload", "serving"]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    SERVING_FIELD_NUMBER: _ClassVar[int]
    payload: bytes
    serving: bool
    def __init__(self, payload: _Optional[bytes] = ..., serving: bool = ...) -> None: ...

class RecordCompletionRequest(_message.Message):
    __slots__ = ["as_of", "date", "habit_id"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    date: _types_pb2.Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class RemoveCompletionRequest(_message.Message):
    __slots__ = ["as_of", "date", "habit_id"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    date: _types_pb2.Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class RemoveRestPeriodRequest(_message.Message):
    __slots__ = ["as_of", "id"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    id: int
    def __init__(self, id: _Optional[int] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class RemoveRestPeriodResponse(_message.Message):
    __slots__ = ["rest_period", "streak"]
    REST_PERIOD_FIELD_NUMBER: _ClassVar[int]
    STREAK_FIELD_NUMBER: _ClassVar[int]
    rest_period: _types_pb2.RestPeriod
    streak: _types_pb2.StreakSummary
    def __init__(self, rest_period: _Optional[_Union[_types_pb2.RestPeriod, _Mapping]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ...) -> None: ...

class RenameHabitRequest(_message.Message):
    __slots__ = ["habit_id", "name"]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    habit_id: int
    name: str
    def __init__(self, habit_id: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class RenameHabitResponse(_message.Message):
    __slots__ = ["habit"]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    habit: _types_pb2.Habit
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ...) -> None: ...

class SetHabitScheduleRequest(_message.Message):
    __slots__ = ["effective_from", "habit_id", "weekdays"]
    EFFECTIVE_FROM_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    WEEKDAYS_FIELD_NUMBER: _ClassVar[int]
    effective_from: _types_pb2.Date
    habit_id: int
    weekdays: _types_pb2.WeekdaySet
    def __init__(self, habit_id: _Optional[int] = ..., weekdays: _Optional[_Union[_types_pb2.WeekdaySet, _Mapping]] = ..., effective_from: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class SetHabitScheduleResponse(_message.Message):
    __slots__ = ["habit"]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    habit: _types_pb2.Habit
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ...) -> None: ...

class SkipHabitRequest(_message.Message):
    __slots__ = ["as_of", "date", "habit_id"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    date: _types_pb2.Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class StorageUpkeepFailure(_message.Message):
    __slots__ = ["description", "detail", "engine_code", "error", "failing_since_unix_seconds", "job"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    ENGINE_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FAILING_SINCE_UNIX_SECONDS_FIELD_NUMBER: _ClassVar[int]
    JOB_FIELD_NUMBER: _ClassVar[int]
    description: str
    detail: str
    engine_code: str
    error: str
    failing_since_unix_seconds: int
    job: str
    def __init__(self, job: _Optional[str] = ..., description: _Optional[str] = ..., failing_since_unix_seconds: _Optional[int] = ..., error: _Optional[str] = ..., detail: _Optional[str] = ..., engine_code: _Optional[str] = ...) -> None: ...

class UnarchiveHabitRequest(_message.Message):
    __slots__ = ["habit_id"]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ...) -> None: ...

class UnarchiveHabitResponse(_message.Message):
    __slots__ = ["habit"]
    HABIT_FIELD_NUMBER: _ClassVar[int]
    habit: _types_pb2.Habit
    def __init__(self, habit: _Optional[_Union[_types_pb2.Habit, _Mapping]] = ...) -> None: ...

class UnskipHabitRequest(_message.Message):
    __slots__ = ["as_of", "date", "habit_id"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    DATE_FIELD_NUMBER: _ClassVar[int]
    HABIT_ID_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    date: _types_pb2.Date
    habit_id: int
    def __init__(self, habit_id: _Optional[int] = ..., date: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ...) -> None: ...

class UpdateSettingsRequest(_message.Message):
    __slots__ = ["clear_min_percent", "day_start_minutes", "locale", "min_percent", "set_day_start", "time_zone", "week_start"]
    CLEAR_MIN_PERCENT_FIELD_NUMBER: _ClassVar[int]
    DAY_START_MINUTES_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    MIN_PERCENT_FIELD_NUMBER: _ClassVar[int]
    SET_DAY_START_FIELD_NUMBER: _ClassVar[int]
    TIME_ZONE_FIELD_NUMBER: _ClassVar[int]
    WEEK_START_FIELD_NUMBER: _ClassVar[int]
    clear_min_percent: bool
    day_start_minutes: int
    locale: str
    min_percent: int
    set_day_start: bool
    time_zone: str
    week_start: _types_pb2.Weekday
    def __init__(self, time_zone: _Optional[str] = ..., locale: _Optional[str] = ..., week_start: _Optional[_Union[_types_pb2.Weekday, str]] = ..., min_percent: _Optional[int] = ..., clear_min_percent: bool = ..., set_day_start: bool = ..., day_start_minutes: _Optional[int] = ...) -> None: ...

class UpdateSettingsResponse(_message.Message):
    __slots__ = ["settings"]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    settings: _types_pb2.Settings
    def __init__(self, settings: _Optional[_Union[_types_pb2.Settings, _Mapping]] = ...) -> None: ...

class WatchEvent(_message.Message):
    __slots__ = ["day", "kind", "streak"]
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    DAY_CHANGED: WatchEvent.Kind
    DAY_FIELD_NUMBER: _ClassVar[int]
    DAY_STARTED: WatchEvent.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_CHANGED: WatchEvent.Kind
    STREAK_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBED: WatchEvent.Kind
    day: _types_pb2.DayRecord
    kind: WatchEvent.Kind
    streak: _types_pb2.StreakSummary
    def __init__(self, day: _Optional[_Union[_types_pb2.DayRecord, _Mapping]] = ..., streak: _Optional[_Union[_types_pb2.StreakSummary, _Mapping]] = ..., kind: _Optional[_Union[WatchEvent.Kind, str]] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ["as_of", "lifecycle_events"]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    LIFECYCLE_EVENTS_FIELD_NUMBER: _ClassVar[int]
    as_of: _types_pb2.Date
    lifecycle_events: bool
    def __init__(self, as_of: _Optional[_Union[_types_pb2.Date, _Mapping]] = ..., lifecycle_events: bool = ...) -> None: ...
