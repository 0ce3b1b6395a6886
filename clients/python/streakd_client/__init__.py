"""A synchronous Python client for Streakd (docs/PROTOCOL.md, proto/streak/v1)."""

from .client import Client, WatchStream, method_path, parse_address
from .connection import Connection
from .dates import format_date, from_pb_date, to_pb_date, to_week_start
from .errors import StatusCode, StreakError, code_name
from .pb import service_pb2, types_pb2

__all__ = [
    "Client", "Connection", "StatusCode", "StreakError", "WatchStream", "code_name", "format_date",
    "from_pb_date", "method_path", "parse_address", "service_pb2", "to_pb_date", "to_week_start", "types_pb2",
]
__version__ = "0.1.0"
