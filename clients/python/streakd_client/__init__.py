"""A synchronous Python client for Streakd (docs/PROTOCOL.md, proto/streak/v1).

`Client` has one method per rpc; results are the frozen dataclasses of `streakd_client.models`
(dates as `datetime.date`), failures raise `StreakError` (`TokenFileError` for a token file
that cannot be read).
"""

from .client import (DEFAULT_TIMEOUT, Client, ExportStream, ImportHabitLike, ServerStream, SettingsLike, Timeout,
                     WatchStream, method_path, parse_address)
from .config import default_data_dir, default_token_file, is_loopback, read_token, resolve_token
from .connection import Connection
from .dates import DateLike, WeekStartLike, format_date, from_pb_date, to_date, to_pb_date, to_week_start
from .errors import StatusCode, StreakError, TokenFileError, code_name
from .tls import ALPN_PROTOCOL, SYSTEM_CA_FILE, make_context
from .models import (BatchResult, Completion, CompletionResult, DayDetail, DayRecord, DeletedHabit, Export,
                     ExportedHabit, ExportPage, Habit, Heatmap, HeatmapCell, HeatmapResult, HeatmapWeek, ImportHabit,
                     ImportRecordError, ImportResult, LegendEntry, MonthDay, MonthLabel, MonthPage, Pong, RestPeriod,
                     RestPeriodResult, ScheduleEntry, ServerInfo, Settings, Skip, StorageUpkeepFailure, Streak,
                     WatchEvent, WatchEventKind, Weekday, WeekdayChart, WeekdayCount, WeekdaySeries)
from .names import MAX_HABIT_NAME_LENGTH, check_habit_name
from .packed import (PackedCell, PackedHeatmapError, accessibility_label, decode_day_deltas, decode_packed_heatmap,
                     encode_day_deltas, packed_cells)
from .pb import service_pb2, types_pb2

__all__ = [
    # the client
    "Client", "Connection", "DEFAULT_TIMEOUT", "ExportStream", "ServerStream", "Timeout", "WatchStream", "method_path",
    "parse_address",
    # TLS
    "ALPN_PROTOCOL", "SYSTEM_CA_FILE", "make_context",
    # errors
    "StatusCode", "StreakError", "TokenFileError", "code_name",
    # the token and the data directory
    "default_data_dir", "default_token_file", "is_loopback", "read_token", "resolve_token",
    # dates
    "DateLike", "WeekStartLike", "format_date", "from_pb_date", "to_date", "to_pb_date", "to_week_start",
    # what import_data takes
    "ImportHabitLike", "SettingsLike",
    # results
    "BatchResult", "Completion", "CompletionResult", "DayDetail", "DayRecord", "DeletedHabit", "Export",
    "ExportedHabit", "ExportPage", "Habit", "Heatmap", "HeatmapCell", "HeatmapResult", "HeatmapWeek", "ImportHabit",
    "ImportRecordError", "ImportResult", "LegendEntry", "MonthDay", "MonthLabel", "MonthPage", "Pong", "RestPeriod",
    "RestPeriodResult", "ScheduleEntry", "ServerInfo", "Settings", "Skip", "StorageUpkeepFailure", "Streak",
    "WatchEvent", "WatchEventKind", "Weekday", "WeekdayChart", "WeekdayCount", "WeekdaySeries",
    # the habit name rule, checked before sending
    "MAX_HABIT_NAME_LENGTH", "check_habit_name",
    # the compact encodings (PROTOCOL.md section 9)
    "PackedCell", "PackedHeatmapError", "accessibility_label", "decode_day_deltas", "decode_packed_heatmap",
    "encode_day_deltas", "packed_cells",
    # the generated messages
    "service_pb2", "types_pb2",
]
__version__ = "0.2.0"
