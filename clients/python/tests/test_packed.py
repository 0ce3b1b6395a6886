"""Offline: the compact encodings (PROTOCOL.md section 8) decoded from the documented bytes."""

from __future__ import annotations

import datetime

import pytest

from streakd_client import (PackedHeatmapError, decode_day_deltas, decode_packed_heatmap, encode_day_deltas,
                            packed_cells, service_pb2, types_pb2)

day = datetime.date

# The worked example of PROTOCOL.md section 8.5: a GetHeatmapResponse, byte for byte.
EXAMPLE = bytes.fromhex(
    "122d"
    "0a0708e80f10031801"
    "120708e80f1003180a"
    "1802"
    "2006"
    "2a02c308"
    "3206640000640032"
    "3a031a110a"
    "420408091809")


def example() -> types_pb2.PackedHeatmap:
    response = service_pb2.GetHeatmapResponse()
    response.ParseFromString(EXAMPLE)
    assert response.HasField("packed") and not response.HasField("heatmap")
    return response.packed


def test_the_documented_example_decodes():
    cells = packed_cells(example())
    assert [(c.date, c.row, c.level, c.percent, c.active, c.due, c.completed, c.rest) for c in cells] == [
        (day(2024, 3, 1), 4, 3, 100, 1, 1, 1, False),
        (day(2024, 3, 2), 5, 0, 0, 1, 1, 0, False),
        (day(2024, 3, 3), 6, 0, 0, 2, 1, 0, False),
        (day(2024, 3, 4), 0, 3, 100, 2, 2, 2, False),
        (day(2024, 3, 5), 1, 0, 0, 2, 1, 0, False),
        (day(2024, 3, 6), 2, 2, 50, 2, 2, 1, False),
    ]
    heatmap = decode_packed_heatmap(example(), accessibility_labels=True)
    assert heatmap.start == day(2024, 3, 1) and heatmap.end == day(2024, 3, 10)
    assert [week.start for week in heatmap.weeks] == [day(2024, 3, 1), day(2024, 3, 4)]
    first, second = heatmap.weeks
    # Monday 26 Feb to Thursday 29 Feb are before the range; Thursday 7 March on are after "today".
    assert [cell.present for cell in first.cells] == [False] * 4 + [True] * 3
    assert [cell.present for cell in second.cells] == [True] * 3 + [False] * 4
    assert second.cells[2].accessibility_label == "March 6: 50% completed, 1 of 2 habits"
    assert first.cells[6].accessibility_label == "March 3: 0% completed, 0 of 1 habit"
    assert [entry.description for entry in heatmap.legend] == ["0%", "1-49%", "50-99%", "100%"]
    assert heatmap.month_labels == ()


def changed(**fields: object) -> types_pb2.PackedHeatmap:
    message = types_pb2.PackedHeatmap()
    message.CopyFrom(example())
    for name, value in fields.items():
        setattr(message, name, value)
    return message


@pytest.mark.parametrize("fields, fragment", [
    ({"days": 11}, "more than the range holds"),
    ({"levels": b"\xc3"}, "levels has 1 bytes"),
    ({"levels": b"\xc3\x18"}, "unused bits"),
    ({"percents": b"\x64\x00\x65\x64\x00\x32"}, "percents: 101"),
    ({"active": b"\x1a\x11"}, "active: the runs cover 5 of 6"),
    ({"active": b"\x1a\x11\x12"}, "active: the runs cover more than 6"),
    ({"active": b"\x02\x32"}, "active: a run of length 0"),
    ({"active": b"\x1a\x82"}, "active: truncated varint at byte 1"),
    ({"excused": b"\x37\x80\x80\x80\x80\x10"}, "excused: overlong varint at byte 1"),
    ({"excused": b"\x33"}, "excused: more than active"),
    ({"completed_exceptions": b"\x02\x00\x01\x00"}, "out of order"),
    ({"completed_exceptions": b"\x05\x03"}, "completed: more than due"),
    ({"week_start": 0}, "week_start is required"),
])
def test_bad_packed_heatmaps_are_refused(fields, fragment):
    with pytest.raises(PackedHeatmapError, match=fragment):
        decode_packed_heatmap(changed(**fields))


def test_day_deltas_round_trip_and_match_the_documented_bytes():
    days = [day(2024, 3, 5), day(2024, 3, 1), day(2024, 3, 2), day(2024, 3, 5), day(1969, 12, 31)]
    data = encode_day_deltas(days)
    assert data == bytes([0x01, 0xC8, 0x9A, 0x01, 0x01, 0x03])
    assert decode_day_deltas(data) == sorted(set(days))
    assert decode_day_deltas(encode_day_deltas([datetime.date.min, datetime.date.max])) == [datetime.date.min,
                                                                                          datetime.date.max]
    assert encode_day_deltas(["1970-01-01", "1970-01-02"]) == b"\x00\x01"


@pytest.mark.parametrize("data, fragment", [
    (b"\x02\x00", "a gap of 0 at byte 1"),
    (b"\x02\x01\xff\xff\xff\xff\x7f", "overlong varint at byte 2"),
    (b"\x02\x81", "truncated varint at byte 1"),
    (b"\xf5\xe4\x57", "day number -719163 at byte 0 is outside"),
])
def test_bad_day_deltas_are_refused(data, fragment):
    with pytest.raises(PackedHeatmapError, match=fragment):
        decode_day_deltas(data)
