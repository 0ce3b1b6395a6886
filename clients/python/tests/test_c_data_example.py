"""Offline: the C library's ExportData, ImportData, DeleteHabit and UnarchiveHabit, through
clients/c's streak-data-example, against the fake server."""

from __future__ import annotations

import subprocess
import threading

import pytest

from fakeserver import FakeServer
from streakd_client import StatusCode, framing, service_pb2, types_pb2
from streakd_client.framing import FrameKind, RequestBody
from test_data import PAGE_AFTER_LAST, RUN, pages

S = service_pb2

ENDS_EARLY, STRAY_HABIT, UNIMPLEMENTED = 7, 8, 11


def d(year: int, month: int, day: int) -> types_pb2.Date:
    return types_pb2.Date(year=year, month=month, day=day)


@pytest.fixture(scope="module")
def example(c_build):
    return str(c_build / "streak-data-example")


def end_stream(conn, rid, code=0, message=""):
    conn.send_frame(FrameKind.END_STREAM, rid, framing.StatusHeader(code, message).encode())


def handler(conn, frame, server):
    if frame.kind != FrameKind.REQUEST:
        return
    body = RequestBody.decode(frame.body)
    name = body.method.rsplit("/", 1)[-1]
    rid = frame.request_id
    token = dict(body.metadata).get("authorization")
    if token not in ("Bearer tok", "Bearer other"):
        conn.respond(rid, StatusCode.UNAUTHENTICATED, "unknown token")
    elif name == "ExportData":
        size = S.ExportDataRequest.FromString(body.message).page_size
        if size == UNIMPLEMENTED:  # an older server: a RESPONSE, no stream
            conn.respond(rid, StatusCode.UNIMPLEMENTED, "unknown method /streak.v1.Streaks/ExportData")
            return
        stream = pages(2 if size in (ENDS_EARLY, STRAY_HABIT, PAGE_AFTER_LAST) else size)
        if size == ENDS_EARLY:
            stream = stream[:2]
        elif size == STRAY_HABIT:
            stream[1].skips.add(habit_id=99, date=d(2024, 1, 1))
        for page in stream:
            conn.send_frame(FrameKind.STREAM_MESSAGE, rid, page.SerializeToString())
        if size == PAGE_AFTER_LAST:
            conn.send_frame(FrameKind.STREAM_MESSAGE, rid, S.ExportDataPage(last=True).SerializeToString())
        if size == STRAY_HABIT:  # the example stops and cancels; the stream then ends CANCELLED
            def wait_for_cancel():  # (in a thread: this one must go on reading, for the CANCEL)
                server.cancel_seen.wait(5)
                end_stream(conn, rid, StatusCode.CANCELLED, "cancelled")
            threading.Thread(target=wait_for_cancel, daemon=True).start()
            return
        end_stream(conn, rid)
    elif name == "ImportData":
        request = S.ImportDataRequest.FromString(body.message)
        response = S.ImportDataResponse(
            habits_created=len(request.habits), completions_added=4, skips_added=2, rest_periods_added=1,
            schedules_set=1, settings_changed=True,
            errors=[S.ImportRecordError(habit_index=1, field="completions", date=d(2023, 12, 31),
                                        message="before the habit's first day 2024-01-01"),
                    S.ImportRecordError(habit_index=-1, field="settings", message="unknown time zone")],
            error_count=5)  # three more than it lists
        conn.respond(rid, payload=response.SerializeToString())
    elif name == "UnarchiveHabit":
        habit_id = S.UnarchiveHabitRequest.FromString(body.message).habit_id
        if habit_id != 5:
            conn.respond(rid, StatusCode.FAILED_PRECONDITION, f"habit {habit_id} is not archived")
            return
        live = types_pb2.Habit()
        live.CopyFrom(RUN)
        live.ClearField("archived_on")
        conn.respond(rid, payload=S.UnarchiveHabitResponse(habit=live).SerializeToString())
    elif name == "DeleteHabit":
        conn.respond(rid, payload=S.DeleteHabitResponse(habit=RUN, completions=1, skips=1).SerializeToString())
    else:
        conn.respond(rid, StatusCode.UNIMPLEMENTED, "unimplemented")


def run(example, *args, token="tok"):
    server = FakeServer(handler)
    try:
        out = subprocess.run([example, "--server", f"127.0.0.1:{server.port}", "--token", token, *args],
                             capture_output=True, text=True, timeout=30)
    finally:
        server.close()
    return out, server


def requests(server, method):
    return [(rid, body) for rid, body in server.requests if body.method.endswith("/" + method)]


EXPORT_OUT = """\
page 1: settings, habits 2, rest periods 1, completions 2, skips 0, of 6 records
page 2: completions 2, skips 0
page 3: completions 0, skips 2, last
habit "Read": completions 3, skips 1, created 2024-01-01, schedule entries 1
habit "Run": completions 1, skips 1, created 2024-01-01, archived 2024-02-01
total: pages 3, habits 2 (archived 1), rest periods 1, completions 4, skips 2
"""


def test_export_prints_every_page_and_the_totals(example):
    out, server = run(example, "export", "--page-size", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPORT_OUT
    (_, body), = requests(server, "ExportData")
    assert S.ExportDataRequest.FromString(body.message).page_size == 2
    assert "deadline-ms" not in dict(body.metadata)  # an export has no deadline unless given


def test_copy_imports_what_it_exported(example, tmp_path):
    (tmp_path / "other").write_text("other\n")
    out, server = run(example, "copy", "--to-token-file", str(tmp_path / "other"))
    assert out.returncode == 0, out.stderr
    assert out.stdout == """\
exported: pages 1, habits 2, rest periods 1, completions 4, skips 2
imported: habits created 2, matched 0, completions 4, skips 2, rest periods 1, schedules 1, errors 5
settings: changed
not imported: "Run" completions 2023-12-31: before the habit's first day 2024-01-01
not imported: "" settings -: unknown time zone
not imported: 3 more, not listed by the server
"""
    (_, export), = requests(server, "ExportData")
    assert dict(export.metadata)["authorization"] == "Bearer tok"
    (_, body), = requests(server, "ImportData")
    assert dict(body.metadata)["authorization"] == "Bearer other"
    request = S.ImportDataRequest.FromString(body.message)
    expected = S.ImportDataRequest(
        habits=[S.ImportHabit(name="Read", created_on=d(2024, 1, 1), schedule=[types_pb2.ScheduleEntry(
                    effective_from=d(2024, 1, 1), weekdays=[2, 4, 6])],
                    completions=[d(2024, 1, 1), d(2024, 1, 3), d(2024, 1, 5)], skips=[d(2024, 1, 8)]),
                S.ImportHabit(name="Run", created_on=d(2024, 1, 1), archived_on=d(2024, 2, 1),
                              completions=[d(2024, 1, 2)], skips=[d(2024, 1, 9)])],
        rest_periods=[types_pb2.RestPeriod(note="holiday", **{"from": d(2024, 7, 1), "to": d(2024, 7, 14)})],
        settings=types_pb2.Settings(time_zone="Europe/Berlin", locale="de_DE", week_start=2, min_percent=50,
                                    day_start_minutes=180))
    assert request == expected
    assert dict(body.metadata)["deadline-ms"] == "60000"


@pytest.mark.parametrize("page_size,message", [
    (ENDS_EARLY, "ExportData failed: INTERNAL (13): ExportData: the stream ended before its last page"),
    (PAGE_AFTER_LAST, "ExportData failed: INTERNAL (13): ExportData: a page after the last one"),
    (STRAY_HABIT, "ExportData: a skip of a habit the export does not have"),
    (UNIMPLEMENTED, "ExportData failed: UNIMPLEMENTED (12): unknown method /streak.v1.Streaks/ExportData"),
])
def test_a_broken_export_fails(example, page_size, message):
    out, server = run(example, "export", "--page-size", str(page_size))
    assert out.returncode == 1
    assert message in out.stderr, out.stderr
    if page_size == STRAY_HABIT:  # the page function stopped the stream: CANCEL was sent
        (rid, _), = requests(server, "ExportData")
        assert server.cancels == [rid]


def test_unarchive_and_delete(example):
    out, _ = run(example, "unarchive", "5")
    assert out.returncode == 0 and out.stdout == 'unarchived habit 5 "Run", live\n'
    out, _ = run(example, "unarchive", "3")
    assert out.returncode == 1
    assert "UnarchiveHabit failed: FAILED_PRECONDITION (9): habit 3 is not archived" in out.stderr
    out, server = run(example, "delete", "5")
    assert out.returncode == 0 and out.stdout == 'deleted habit 5 "Run" with completions 1, skips 1\n'
    (_, body), = requests(server, "DeleteHabit")
    assert S.DeleteHabitRequest.FromString(body.message).habit_id == 5


def test_a_wrong_token_is_unauthenticated(example):
    out, _ = run(example, "export", token="nope")
    assert out.returncode == 1 and "UNAUTHENTICATED (16)" in out.stderr


def test_copy_of_160000_records_goes_in_requests_of_20000_dates(example, server):
    """A habit with more dates than one ImportData request holds (about 120,000, the server's
    decoding budget; one request of 160,000 was RESOURCE_EXHAUSTED): copy sends 8 requests of
    20,000, the later ones matching the habit by name, and the copy is whole."""
    import datetime

    from streakd_client import Client, ImportHabit

    source, target = server.add_user("big-source"), server.add_user("big-target")
    start = datetime.date(1600, 1, 1)
    days = [start + datetime.timedelta(days=i) for i in range(160_000)]
    with Client(server.host, server.port, token=source, timeout=120) as client:
        for k in range(0, len(days), 20_000):
            client.import_data([ImportHabit("Long", created_on=start, completions=days[k:k + 20_000])])
    out = subprocess.run([example, "--server", server.address, "--token", source, "copy", "--to-token-file",
                          "/dev/stdin"], input=target, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1:3] == [
        "import requests: 8 of at most 20000 dates",
        "imported: habits created 1, matched 7, completions 160000, skips 0, rest periods 0, schedules 0, errors 0"]
