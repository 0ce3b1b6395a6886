"""The compact encodings of docs/PROTOCOL.md section 9.

`decode_packed_heatmap(message)` turns a `PackedHeatmap` (what GetHeatmap and BuildHeatmap answer
with `packed=True`) into the same `Heatmap` as the classic answer; `packed_cells(message)` gives
just the present days (level, percent and counts), for a client that draws them itself.
`encode_day_deltas(days)` and `decode_day_deltas(data)` are BuildHeatmap's compact completion days
(`HabitDays.day_deltas`).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Iterable, Sequence

from .dates import DateLike, to_date
from .models import Heatmap, HeatmapCell, HeatmapWeek, LegendEntry, MonthLabel, Weekday
from .pb import types_pb2

__all__ = [
    "PackedCell", "PackedHeatmapError", "accessibility_label", "decode_day_deltas", "decode_packed_heatmap",
    "encode_day_deltas", "packed_cells", "read_varint",
]

_EPOCH = _dt.date(1970, 1, 1)
_FIRST_DAY = (_dt.date.min - _EPOCH).days  # 0001-01-01
_LAST_DAY = (_dt.date.max - _EPOCH).days  # 9999-12-31
_MAXIMUM_DAYS = 20 * 366  # the longest heatmap range
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_LEGEND = (LegendEntry(0, 0, 0, "0%"), LegendEntry(1, 1, 49, "1-49%"), LegendEntry(2, 50, 99, "50-99%"),
           LegendEntry(3, 100, 100, "100%"))


class PackedHeatmapError(ValueError):
    """Bytes that are not a valid compact encoding; the message names the field and what is wrong."""


@dataclass(frozen=True)
class PackedCell:
    """One present day of a packed heatmap: `index` days after its `from`, in `row` (0 = the week start)."""

    index: int
    date: _dt.date
    row: int
    level: int
    percent: int
    active: int
    due: int
    completed: int

    @property
    def rest(self) -> bool:
        """A rest day: habits were active and every one was excused."""
        return self.active > 0 and self.due == 0


def read_varint(data: bytes, offset: int) -> tuple[int, int]:
    """The varint at `offset` and the offset after it. Varints are at most five bytes and below 2**32."""
    value = 0
    for index in range(5):
        if offset + index >= len(data):
            raise PackedHeatmapError(f"truncated varint at byte {offset}")
        byte = data[offset + index]
        if index == 4 and byte > 0x0F:
            raise PackedHeatmapError(f"overlong varint at byte {offset}")
        value |= (byte & 0x7F) << (7 * index)
        if byte < 0x80:
            return value, offset + index + 1
    raise PackedHeatmapError(f"overlong varint at byte {offset}")


def _append_varint(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def encode_day_deltas(days: Iterable[DateLike]) -> bytes:
    """`HabitDays.day_deltas` for `days` (any order; repeats count once): the zig-zag day number of
    the first day (days since 1970-01-01), then the gap to each next day."""
    numbers = sorted({(to_date(day) - _EPOCH).days for day in days})
    out = bytearray()
    previous: int | None = None
    for number in numbers:
        if previous is None:
            _append_varint(out, number << 1 if number >= 0 else ((-number) << 1) - 1)  # zig-zag
        else:
            _append_varint(out, number - previous)
        previous = number
    return bytes(out)


def decode_day_deltas(data: bytes) -> list[_dt.date]:
    """The days `HabitDays.day_deltas` encodes, ascending (PackedHeatmapError for bad bytes)."""
    days: list[_dt.date] = []
    offset = 0
    day: int | None = None
    while offset < len(data):
        start = offset
        value, offset = read_varint(data, offset)
        if day is None:
            day = (value >> 1) ^ -(value & 1)
        elif value == 0:
            raise PackedHeatmapError(f"a gap of 0 at byte {start} (days must ascend)")
        else:
            day += value
        if not _FIRST_DAY <= day <= _LAST_DAY:
            raise PackedHeatmapError(f"day number {day} at byte {start} is outside 0001-01-01...9999-12-31")
        days.append(_EPOCH + _dt.timedelta(days=day))
    return days


def _row_order(days: int, lead: int) -> list[int]:
    """Present cell indexes in row order: the cells of row 0 (the week start) by date, then row 1's, ..."""
    order: list[int] = []
    for row in range(7):
        order.extend(range((row - lead) % 7, days, 7))
    return order


def _runs(data: bytes, order: Sequence[int], field: str) -> list[int]:
    """Each cell's value (by date-order index) from runs over `order`: one varint a run, length * 8 +
    value, or length * 8 + 7 and then the value as a second varint."""
    values = [0] * len(order)
    position = 0
    offset = 0
    while offset < len(data):
        try:
            run, offset = read_varint(data, offset)
            length, value = run >> 3, run & 7
            if value == 7:
                value, offset = read_varint(data, offset)
        except PackedHeatmapError as error:
            raise PackedHeatmapError(f"{field}: {error}") from None
        if length == 0:
            raise PackedHeatmapError(f"{field}: a run of length 0")
        if length > len(order) - position:
            raise PackedHeatmapError(f"{field}: the runs cover more than {len(order)} cells")
        for index in order[position:position + length]:
            values[index] = value
        position += length
    if position != len(order):
        raise PackedHeatmapError(f"{field}: the runs cover {position} of {len(order)} cells")
    return values


def _exceptions(data: bytes, days: int) -> dict[int, int]:
    exceptions: dict[int, int] = {}
    offset = 0
    previous = -1
    while offset < len(data):
        try:
            index, offset = read_varint(data, offset)
            completed, offset = read_varint(data, offset)
        except PackedHeatmapError as error:
            raise PackedHeatmapError(f"completed_exceptions: {error}") from None
        if index <= previous or index >= days:
            raise PackedHeatmapError(f"completed_exceptions: cell {index} is out of order or past the last")
        exceptions[index] = completed
        previous = index
    return exceptions


def _range(message: types_pb2.PackedHeatmap) -> tuple[_dt.date, _dt.date, Weekday, int]:
    """(from, to, week start, lead): the checked range and the offset of `from` from the week start."""
    if not message.HasField("from") or not message.HasField("to"):
        raise PackedHeatmapError("from and to are required")
    first_pb, last_pb = getattr(message, "from"), message.to
    try:
        first = _dt.date(first_pb.year, first_pb.month, first_pb.day)
        last = _dt.date(last_pb.year, last_pb.month, last_pb.day)
    except ValueError as error:
        raise PackedHeatmapError(f"from or to is not a day: {error}") from None
    if not 1 <= message.week_start <= 7:
        raise PackedHeatmapError("week_start is required")
    week_start = Weekday(message.week_start)
    if not first <= last or (last - first).days >= _MAXIMUM_DAYS:
        raise PackedHeatmapError(f"the range {first} to {last} is not 1...{_MAXIMUM_DAYS} days")
    lead = (Weekday.of(first) - week_start) % 7
    return first, last, week_start, lead


def packed_cells(message: types_pb2.PackedHeatmap) -> list[PackedCell]:
    """The present days of a packed heatmap, in date order (PackedHeatmapError when it does not decode)."""
    first, last, _, lead = _range(message)
    days = message.days
    if days > (last - first).days + 1:
        raise PackedHeatmapError(f"days {days} is more than the range holds")
    levels, percents = bytes(message.levels), bytes(message.percents)
    if len(levels) != (days + 3) // 4:
        raise PackedHeatmapError(f"levels has {len(levels)} bytes, not {(days + 3) // 4}")
    if days % 4 and levels[-1] >> (2 * (days % 4)):
        raise PackedHeatmapError("levels: the unused bits of the last byte are not 0")
    if len(percents) != days:
        raise PackedHeatmapError(f"percents has {len(percents)} bytes, not {days}")
    order = _row_order(days, lead)
    active = _runs(bytes(message.active), order, "active")
    excused = _runs(bytes(message.excused), order, "excused")
    exceptions = _exceptions(bytes(message.completed_exceptions), days)
    cells = []
    for index in range(days):
        date = first + _dt.timedelta(days=index)
        percent = percents[index]
        if percent > 100:
            raise PackedHeatmapError(f"percents: {percent} for {date}")
        if excused[index] > active[index]:
            raise PackedHeatmapError(f"excused: more than active on {date}")
        due = active[index] - excused[index]
        completed = exceptions.get(index, (percent * due + 50) // 100)
        if completed > due:
            raise PackedHeatmapError(f"completed: more than due on {date}")
        level = (levels[index >> 2] >> (2 * (index & 3))) & 3
        cells.append(PackedCell(index, date, (lead + index) % 7, level, percent, active[index], due, completed))
    return cells


def accessibility_label(cell: PackedCell) -> str:
    """The server's English label of a day: `March 5: 80% completed, 4 of 5 habits` or `March 5: rest day`."""
    name = f"{_MONTHS[cell.date.month - 1]} {cell.date.day}"
    if cell.rest:
        return f"{name}: rest day"
    noun = "habit" if cell.due == 1 else "habits"
    return f"{name}: {cell.percent}% completed, {cell.completed} of {cell.due} {noun}"


def decode_packed_heatmap(message: types_pb2.PackedHeatmap, *, accessibility_labels: bool = False) -> Heatmap:
    """The classic `Heatmap` a packed one encodes: the same weeks and cells, the standard legend, the
    month labels it carries (none unless they were asked for) and, when `accessibility_labels`, the
    labels the server would have sent (PackedHeatmapError when it does not decode)."""
    first, last, week_start, lead = _range(message)
    cells = packed_cells(message)
    absent = HeatmapCell(False, None, 0, 0, 0, 0, "", 0, False)
    weeks = []
    # Day numbers, not dates: the first column may start before 0001-01-01 and the last end after
    # 9999-12-31, where datetime.date cannot go.
    first_number, last_number = first.toordinal(), last.toordinal()
    column = first_number - lead
    while column <= last_number:
        row_cells = []
        for offset in range(7):
            index = column - first_number + offset
            if 0 <= index < len(cells):
                cell = cells[index]
                label = accessibility_label(cell) if accessibility_labels else ""
                row_cells.append(HeatmapCell(True, cell.date, cell.completed, cell.active, cell.level, cell.percent,
                                             label, cell.due, cell.rest))
            else:
                row_cells.append(absent)
        weeks.append(HeatmapWeek(_dt.date.fromordinal(max(column, first_number)), tuple(row_cells)))
        column += 7
    labels = tuple(MonthLabel.from_pb(label) for label in message.month_labels)
    return Heatmap(first, last, week_start, tuple(weeks), labels, _LEGEND)
