"""Conversions between Python values and the protocol's `Date` and `WeekStart` messages."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Union, cast

from .pb import types_pb2

DateLike = Union[_dt.date, str, tuple[int, int, int], types_pb2.Date]
"""What every date argument accepts: a `datetime.date` (a `datetime.datetime` counts as its
date), an ISO `"YYYY-MM-DD"` string, a `(year, month, day)` tuple or a `types_pb2.Date`."""

WeekStartLike = Union[int, str, types_pb2.WeekStart]
"""A week start: a weekday number (1 = Sunday ... 7 = Saturday, or a `Weekday`), a locale
such as `"en_US"` (that locale's first weekday) or a `types_pb2.WeekStart`. An empty string,
like 0, is "not given": the request's default week start."""


def to_pb_date(value: DateLike) -> types_pb2.Date:
    """A `streak.v1.Date` from a `datetime.date`, `"YYYY-MM-DD"`, `(y, m, d)` or a Date.

    A Date message passes through unchecked, so that invalid days (2024-02-30) can be sent.
    """
    if isinstance(value, types_pb2.Date):
        return value
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, _dt.date):
        return types_pb2.Date(year=value.year, month=value.month, day=value.day)
    if isinstance(value, str):
        parts = value.split("-")
        if [len(p) for p in parts] != [4, 2, 2] or not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"not a YYYY-MM-DD date: {value!r}")
        year, month, day = (int(p) for p in parts)
        return types_pb2.Date(year=year, month=month, day=day)
    if isinstance(value, tuple) and len(value) == 3:
        return types_pb2.Date(year=value[0], month=value[1], day=value[2])
    raise TypeError(f"cannot make a Date from {type(value).__name__}")


def from_pb_date(value: types_pb2.Date) -> _dt.date:
    """A `datetime.date` from a Date message (raises ValueError naming the date for an invalid day)."""
    try:
        return _dt.date(value.year, value.month, value.day)
    except ValueError as error:
        raise ValueError(f"{format_date(value)} is not a real day: {error}") from None


def to_date(value: DateLike) -> _dt.date:
    """A `datetime.date` from anything a date argument accepts (see `DateLike`).

    Raises ValueError for a day that does not exist (2024-02-30) or is outside 1...9999.
    """
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    return from_pb_date(to_pb_date(value))


def optional_date(message: object, field: str) -> _dt.date | None:
    """The `datetime.date` in a message's Date `field`, or None when the field is absent."""
    if not message.HasField(field):  # type: ignore[attr-defined]
        return None
    return from_pb_date(getattr(message, field))


def format_date(value: types_pb2.Date) -> str:
    """`YYYY-MM-DD` for a Date message (no validation)."""
    return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"


def to_week_start(value: WeekStartLike) -> types_pb2.WeekStart:
    """A `WeekStart` from a Weekday number (1 = Sunday ... 7 = Saturday), a locale string or a WeekStart.

    An empty string gives a WeekStart with neither field set, which the server reads as "not
    given" (the request's default), as it reads weekday 0; a WeekStart whose `locale` is set to
    the empty string would be refused (INVALID_ARGUMENT, "the week start's locale is empty").
    """
    if isinstance(value, types_pb2.WeekStart):
        return value
    if isinstance(value, str):
        return types_pb2.WeekStart(locale=value) if value else types_pb2.WeekStart()
    if isinstance(value, int):
        return types_pb2.WeekStart(weekday=cast(Any, int(value)))
    raise TypeError(f"cannot make a WeekStart from {type(value).__name__}")
