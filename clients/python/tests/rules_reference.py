"""The parts of the docs/RULES.md reference shared by the differential tests (test_reference_*.py).

Written from the domain rules (docs/RULES.md) and the proto comments only, never from Sources/StreakCore: civil
dates as day numbers, Foundation weekday numbering, the locales' first weekdays, the day-record
formulas (active, percentage, level, contributing) and conversions to and from `streak.v1.Date`.
"""

from __future__ import annotations

from streakd_client import types_pb2

# Civil dates are day numbers (0 = 1970-01-01) in the proleptic Gregorian calendar, so day
# arithmetic is integer arithmetic. (Howard Hinnant's days_from_civil / civil_from_days.)

def days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


def is_leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def days_in_month(y: int, m: int) -> int:
    return [31, 29 if is_leap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]


def weekday(day: int) -> int:
    """Foundation numbering: 1 = Sunday ... 7 = Saturday (1970-01-01 was a Thursday, 5)."""
    return (day + 4) % 7 + 1


def fmt(day: int) -> str:
    y, m, d = civil_from_days(day)
    return f"{y:04d}-{m:02d}-{d:02d}"


def parse(text: str) -> int:
    y, m, d = (int(p) for p in text.split("-"))
    return days_from_civil(y, m, d)


MIN_DAY, MAX_DAY = days_from_civil(1, 1, 1), days_from_civil(9999, 12, 31)
# First weekday of the locales docs/RULES.md names (Locales): en_US starts Sunday, en_GB and de_DE Monday, ar_EG Saturday.
LOCALE_FIRST_WEEKDAY = {"en_US": 1, "en_GB": 2, "de_DE": 2, "ar_EG": 7}
MONDAY = 2


def is_active(habit: dict, day: int) -> bool:
    """created_on <= d and (archived_on unset or d < archived_on)."""
    return habit["created"] <= day and (habit["archived"] is None or day < habit["archived"])


def percent(completed: int, active: int) -> int:
    """completed*100/active rounded half up; never 100 unless completed == active, never 0 when completed > 0."""
    if active == 0:
        return 0
    value = (200 * completed + active) // (2 * active)  # floor(completed*100/active + 1/2), exactly
    if value == 100 and completed != active:
        return 99
    if value == 0 and completed > 0:
        return 1
    return value


def level(completed: int, active: int) -> int:
    if completed == 0:
        return 0
    if completed == active:  # > 0 here
        return 3
    return 1 if 2 * completed < active else 2


def contributing(completed: int, active: int, min_percent: int) -> bool:
    """completed >= 1 and, with a threshold (1...100; 0 = unset), completed*100 >= min_percent*active."""
    return completed >= 1 and (min_percent == 0 or completed * 100 >= min_percent * active)


# == Conversions to and from the wire ====================================================

def pb_date(day: int) -> types_pb2.Date:
    y, m, d = civil_from_days(day)
    return types_pb2.Date(year=y, month=m, day=d)


def day_of(date: types_pb2.Date) -> int:
    return days_from_civil(date.year, date.month, date.day)


def opt_date(message, field: str) -> str | None:
    return fmt(day_of(getattr(message, field))) if message.HasField(field) else None
