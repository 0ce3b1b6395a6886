"""The synchronous Streakd client: one method per rpc of proto/streak/v1/service.proto."""

from __future__ import annotations

import os
import time
from typing import Any, Iterator

from google.protobuf.message import DecodeError, Message

from . import framing
from .connection import Connection
from .dates import to_pb_date, to_week_start
from .errors import StatusCode, StreakError
from .framing import FrameKind
from .pb import service_pb2, types_pb2

SERVICE = "streak.v1.Streaks"
_SERVICE_DESCRIPTOR = service_pb2.DESCRIPTOR.services_by_name["Streaks"]
_STREAMING = {"Watch"}
_NO_TOKEN = {"Ping"}


def method_path(name: str) -> str:
    """`/streak.v1.Streaks/<Name>` for a method name (a full path passes through)."""
    return name if name.startswith("/") else f"/{SERVICE}/{name}"


def _method(name: str):
    try:
        return _SERVICE_DESCRIPTOR.methods_by_name[name]
    except KeyError:
        raise ValueError(f"{SERVICE} has no method {name!r}") from None


def _response_type(name: str) -> type[Message]:
    method = _method(name)
    return getattr(service_pb2, method.output_type.name)


def _request_type(name: str) -> type[Message]:
    method = _method(name)
    return getattr(service_pb2, method.input_type.name)


def _build(name: str, request: Message | None, fields: dict[str, Any]) -> Message:
    """A request message from a given message or keyword fields (dates and week starts converted).

    A field given as None counts as not given: the typed methods pass every named parameter,
    so `request=` combines with their defaults but not with a field that has a value.
    """
    cls = _request_type(name)
    fields = {key: value for key, value in fields.items() if value is not None}
    if request is not None:
        if fields:
            raise TypeError(f"pass either a request message or keyword fields, not both (got {sorted(fields)})")
        if not isinstance(request, cls):
            raise TypeError(f"{name} takes a {cls.__name__}, not a {type(request).__name__}")
        return request
    descriptor = cls.DESCRIPTOR
    converted = {}
    for key, value in fields.items():
        field = descriptor.fields_by_name.get(key)
        if field is None:
            raise TypeError(f"{cls.__name__} has no field {key!r}")
        message_type = field.message_type.full_name if field.message_type else None
        repeated = field.label == field.LABEL_REPEATED
        if message_type == "streak.v1.Date":
            value = [to_pb_date(v) for v in value] if repeated else to_pb_date(value)
        elif message_type == "streak.v1.WeekStart":
            value = to_week_start(value)
        elif message_type == "streak.v1.WeekdaySet" and not isinstance(value, types_pb2.WeekdaySet):
            value = types_pb2.WeekdaySet(weekdays=list(value))
        converted[key] = value
    return cls(**converted)


def default_address() -> tuple[str, int]:
    """From $STREAK_SERVER (`HOST:PORT`), else 127.0.0.1:7411."""
    return parse_address(os.environ.get("STREAK_SERVER", f"127.0.0.1:{framing.DEFAULT_PORT}"))


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` (or `[v6]:PORT`) into (host, port)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"not HOST:PORT: {address!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


class WatchStream:
    """The server stream of `Client.watch`: iterate for `WatchEvent`s.

    Iteration ends when the server ends the stream with OK and raises `StreakError` for any
    other status (CANCELLED after `cancel()` ends iteration quietly). `read(timeout)` waits
    at most `timeout` seconds and returns None when nothing came.
    """

    def __init__(self, connection: Connection, request_id: int, deadline: float | None) -> None:
        self._connection = connection
        self._request_id = request_id
        self._deadline = deadline
        self._cancelled = False
        self.status: framing.StatusHeader | None = None
        """The END_STREAM status once the stream is over."""

    @property
    def done(self) -> bool:
        return self.status is not None

    def __iter__(self) -> Iterator[service_pb2.WatchEvent]:
        return self

    def __next__(self) -> service_pb2.WatchEvent:
        event = self._read(self._deadline)
        if event is None:
            raise StopIteration
        return event

    def read(self, timeout: float | None = None) -> service_pb2.WatchEvent | None:
        """The next event; None when `timeout` passed first or the stream ended (see `done`).

        Raises StreakError when the stream ends with an error or its own deadline passes.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        if self._deadline is not None:
            deadline = self._deadline if deadline is None else min(deadline, self._deadline)
        return self._read(deadline)

    def _read(self, deadline: float | None) -> service_pb2.WatchEvent | None:
        if self.status is not None:
            return None
        frame = self._connection.wait(self._request_id, deadline)
        if frame is None:
            if self._deadline is not None and time.monotonic() >= self._deadline:
                self._connection.cancel(self._request_id)
                self._finish(framing.StatusHeader(StatusCode.DEADLINE_EXCEEDED, "deadline exceeded (client)"))
                raise StreakError(StatusCode.DEADLINE_EXCEEDED, "deadline exceeded (client)")
            return None
        if frame.kind == FrameKind.STREAM_MESSAGE:
            event = service_pb2.WatchEvent()
            try:
                event.ParseFromString(frame.body)
            except DecodeError as exc:
                raise StreakError(StatusCode.INTERNAL, f"bad WatchEvent: {exc}") from exc
            return event
        status, _ = framing.decode_status(frame.body)
        self._finish(status)
        if status.code == StatusCode.OK or (status.code == StatusCode.CANCELLED and self._cancelled):
            return None
        raise StreakError(status.code, status.message)

    def _finish(self, status: framing.StatusHeader) -> None:
        self.status = status
        self._connection.forget(self._request_id)

    def cancel(self, wait: float = 2.0) -> None:
        """Sends CANCEL and waits up to `wait` seconds for the END_STREAM; idempotent."""
        if self.status is not None:
            return
        self._cancelled = True
        self._connection.cancel(self._request_id)
        deadline = time.monotonic() + wait
        try:
            while self.status is None and time.monotonic() < deadline:
                if self._read(deadline) is None and self.status is None:
                    break
        except StreakError:
            pass
        if self.status is None:
            self._finish(framing.StatusHeader(StatusCode.CANCELLED, "cancelled by the client"))

    close = cancel

    def __enter__(self) -> "WatchStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


class Client:
    """A synchronous client for one streakd server over one connection.

    `timeout` (seconds) is the default deadline of every call: sent as `deadline-ms` and
    enforced locally (the call then raises DEADLINE_EXCEEDED and sends CANCEL). Every method
    takes either a request message or the request's fields as keyword arguments; dates may be
    `datetime.date`, `"YYYY-MM-DD"`, `(y, m, d)` or `types_pb2.Date`, week starts a weekday
    number or a locale. Methods return the response message; failures raise `StreakError`.
    """

    def __init__(self, host: str | None = None, port: int | None = None, *, token: str | None = None,
                 timeout: float | None = 10.0, connect_timeout: float = 5.0) -> None:
        if host is None or port is None:
            default_host, default_port = default_address()
            host = default_host if host is None else host
            port = default_port if port is None else port
        self.token = token
        self.timeout = timeout
        self._connection = Connection(host, port, connect_timeout=connect_timeout)

    @classmethod
    def connect(cls, address: str, **kwargs: Any) -> "Client":
        """A client for `HOST:PORT`."""
        host, port = parse_address(address)
        return cls(host, port, **kwargs)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> Connection:
        return self._connection

    # -- generic ---------------------------------------------------------------------------

    _DEFAULT = object()

    def call(self, method: str, request: Message | None = None, /, *, timeout: Any = _DEFAULT,
             metadata: list[tuple[str, str]] | None = None, **fields: Any) -> Message:
        """Calls a unary method by name (e.g. `"GetStreak"`) and returns its response message."""
        if method in _STREAMING:
            raise ValueError(f"{method} is server-streaming: use watch()")
        message = _build(method, request, fields)
        timeout = self.timeout if timeout is Client._DEFAULT else timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        token = None if method in _NO_TOKEN else self.token
        conn = self._connection
        request_id = conn.start_request(method_path(method), message.SerializeToString(),
                                        token=token, timeout=timeout, metadata=metadata)
        try:
            frame = conn.wait(request_id, deadline)
            if frame is None:
                conn.cancel(request_id)
                raise StreakError(StatusCode.DEADLINE_EXCEEDED, f"{method}: deadline exceeded (client)")
            try:
                status, payload = framing.decode_status(frame.body)
            except framing.FramingError as exc:
                raise StreakError(StatusCode.INTERNAL, f"{method}: bad status header: {exc}") from exc
            if frame.kind != FrameKind.RESPONSE and status.code == StatusCode.OK:
                raise StreakError(StatusCode.INTERNAL, f"{method}: unexpected frame kind {frame.kind}")
            if status.code != StatusCode.OK:
                raise StreakError(status.code, status.message)
            response = _response_type(method)()
            try:
                response.ParseFromString(payload)
            except DecodeError as exc:
                raise StreakError(StatusCode.INTERNAL, f"{method}: bad response message: {exc}") from exc
            return response
        finally:
            conn.forget(request_id)

    def watch(self, request: service_pb2.WatchRequest | None = None, *, timeout: float | None = None,
              as_of: Any = None) -> WatchStream:
        """Opens the Watch stream: a `WatchEvent` each time one of the user's completions changes.

        No deadline by default (a stream lives until cancelled); `timeout` sets one.
        """
        message = _build("Watch", request, {"as_of": as_of})
        deadline = None if timeout is None else time.monotonic() + timeout
        request_id = self._connection.start_request(method_path("Watch"), message.SerializeToString(),
                                                    token=self.token, timeout=timeout)
        return WatchStream(self._connection, request_id, deadline)

    def ping_frame(self, payload: bytes | None = None, timeout: float = 5.0) -> float:
        """A PING frame (no rpc, no token): returns the round trip to the PONG in seconds."""
        return self._connection.ping(payload, timeout)

    # -- habits ----------------------------------------------------------------------------

    def create_habit(self, name: str | None = None, created_on: Any = None, *, schedule: Any = None,
                     request: service_pb2.CreateHabitRequest | None = None,
                     timeout: Any = _DEFAULT) -> service_pb2.CreateHabitResponse:
        """CreateHabit: a new habit (created today in the user's zone unless `created_on`), expected
        on the weekday numbers in `schedule` (1 = Sunday ... 7 = Saturday; None: every day)."""
        return self.call("CreateHabit", request, timeout=timeout, name=name, created_on=created_on,
                         schedule=schedule)

    def set_habit_schedule(self, habit_id: int | None = None, weekdays: Any = None, effective_from: Any = None, *,
                           request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.SetHabitScheduleResponse:
        """SetHabitSchedule: expected on `weekdays` (numbers, 1 = Sunday) from `effective_from` (default today)."""
        return self.call("SetHabitSchedule", request, timeout=timeout, habit_id=habit_id, weekdays=weekdays,
                         effective_from=effective_from)

    def list_habits(self, include_archived: bool = False, *, request: Any = None,
                    timeout: Any = _DEFAULT) -> service_pb2.ListHabitsResponse:
        """ListHabits: the user's habits (live ones unless `include_archived`)."""
        return self.call("ListHabits", request, timeout=timeout, include_archived=include_archived or None)

    def rename_habit(self, habit_id: int | None = None, name: str | None = None, *, request: Any = None,
                     timeout: Any = _DEFAULT) -> service_pb2.RenameHabitResponse:
        """RenameHabit."""
        return self.call("RenameHabit", request, timeout=timeout, habit_id=habit_id, name=name)

    def archive_habit(self, habit_id: int | None = None, archived_on: Any = None, *, request: Any = None,
                      timeout: Any = _DEFAULT) -> service_pb2.ArchiveHabitResponse:
        """ArchiveHabit: inactive from `archived_on` (default today)."""
        return self.call("ArchiveHabit", request, timeout=timeout, habit_id=habit_id, archived_on=archived_on)

    # -- completions -----------------------------------------------------------------------

    def record_completion(self, habit_id: int | None = None, date: Any = None, as_of: Any = None, *,
                          request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.CompletionResponse:
        """RecordCompletion (idempotent): the new day record and streak."""
        return self.call("RecordCompletion", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)

    def remove_completion(self, habit_id: int | None = None, date: Any = None, as_of: Any = None, *,
                          request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.CompletionResponse:
        """RemoveCompletion (idempotent)."""
        return self.call("RemoveCompletion", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)

    def batch_completions(self, record: Any = None, remove: Any = None, as_of: Any = None, *,
                          request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.BatchCompletionsResponse:
        """BatchCompletions: `record`/`remove` are lists of Completion or (habit_id, date) pairs."""
        def completions(items: Any) -> list[types_pb2.Completion] | None:
            if items is None:
                return None
            return [c if isinstance(c, types_pb2.Completion)
                    else types_pb2.Completion(habit_id=c[0], date=to_pb_date(c[1])) for c in items]
        return self.call("BatchCompletions", request, timeout=timeout, record=completions(record),
                         remove=completions(remove), as_of=as_of)

    def skip_habit(self, habit_id: int | None = None, date: Any = None, as_of: Any = None, *,
                   request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.CompletionResponse:
        """SkipHabit (idempotent): the habit is excused on `date` (default today)."""
        return self.call("SkipHabit", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)

    def unskip_habit(self, habit_id: int | None = None, date: Any = None, as_of: Any = None, *,
                     request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.CompletionResponse:
        """UnskipHabit (idempotent): the skip is taken back."""
        return self.call("UnskipHabit", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)

    # -- rest periods ----------------------------------------------------------------------

    def add_rest_period(self, from_: Any = None, to: Any = None, note: str | None = None, as_of: Any = None, *,
                        request: Any = None, timeout: Any = _DEFAULT) -> service_pb2.AddRestPeriodResponse:
        """AddRestPeriod: no habit is expected from `from_` through `to` (both included)."""
        return self.call("AddRestPeriod", request, timeout=timeout, to=to, note=note, as_of=as_of,
                         **{"from": from_})

    def list_rest_periods(self, *, timeout: Any = _DEFAULT) -> service_pb2.ListRestPeriodsResponse:
        """ListRestPeriods: every rest period, ascending by start."""
        return self.call("ListRestPeriods", None, timeout=timeout)

    def remove_rest_period(self, id: int | None = None, as_of: Any = None, *, request: Any = None,
                           timeout: Any = _DEFAULT) -> service_pb2.RemoveRestPeriodResponse:
        """RemoveRestPeriod: the removed period and the streak after it."""
        return self.call("RemoveRestPeriod", request, timeout=timeout, id=id, as_of=as_of)

    # -- queries ---------------------------------------------------------------------------

    def get_day(self, date: Any = None, *, habit_ids: Any = None, request: Any = None,
                timeout: Any = _DEFAULT) -> service_pb2.GetDayResponse:
        """GetDay: the day detail (completed, skipped and open habits, percent, label), over
        `habit_ids` alone when given."""
        return self.call("GetDay", request, timeout=timeout, date=date, habit_ids=habit_ids)

    def get_heatmap(self, *, request: Any = None, timeout: Any = _DEFAULT,
                    **fields: Any) -> service_pb2.GetHeatmapResponse:
        """GetHeatmap: fields from, to, as_of, week_start, locale, accessibility_labels, habit_ids."""
        return self.call("GetHeatmap", request, timeout=timeout, **fields)

    def get_streak(self, as_of: Any = None, *, habit_ids: Any = None, request: Any = None,
                   timeout: Any = _DEFAULT) -> service_pb2.GetStreakResponse:
        """GetStreak: the streak summary as of a day (default today), over `habit_ids` alone when given."""
        return self.call("GetStreak", request, timeout=timeout, as_of=as_of, habit_ids=habit_ids)

    def get_weekday_chart(self, *, request: Any = None, timeout: Any = _DEFAULT,
                          **fields: Any) -> service_pb2.GetWeekdayChartResponse:
        """GetWeekdayChart: fields from, to, as_of, locale, include_total, habit_ids."""
        return self.call("GetWeekdayChart", request, timeout=timeout, **fields)

    def get_month_page(self, *, request: Any = None, timeout: Any = _DEFAULT,
                       **fields: Any) -> service_pb2.GetMonthPageResponse:
        """GetMonthPage: fields year, month, selected, as_of, week_start, locale, habit_ids."""
        return self.call("GetMonthPage", request, timeout=timeout, **fields)

    # -- settings --------------------------------------------------------------------------

    def get_settings(self, *, timeout: Any = _DEFAULT) -> service_pb2.GetSettingsResponse:
        """GetSettings."""
        return self.call("GetSettings", None, timeout=timeout)

    def update_settings(self, *, request: Any = None, timeout: Any = _DEFAULT,
                        **fields: Any) -> service_pb2.UpdateSettingsResponse:
        """UpdateSettings: fields time_zone, locale, week_start, min_percent, clear_min_percent,
        set_day_start with day_start_minutes (0...720)."""
        return self.call("UpdateSettings", request, timeout=timeout, **fields)

    # -- stateless builders ----------------------------------------------------------------

    def build_month_labels(self, week_starts: Any = None, locale: str | None = None, *, request: Any = None,
                           timeout: Any = _DEFAULT) -> service_pb2.BuildMonthLabelsResponse:
        """BuildMonthLabels: labels for columns starting on `week_starts`."""
        return self.call("BuildMonthLabels", request, timeout=timeout, week_starts=week_starts, locale=locale)

    def build_heatmap(self, *, request: Any = None, timeout: Any = _DEFAULT,
                      **fields: Any) -> service_pb2.BuildHeatmapResponse:
        """BuildHeatmap: fields habits (with schedules), completions, skips, rest_periods, from, to,
        as_of (required), week_start, ..."""
        return self.call("BuildHeatmap", request, timeout=timeout, **fields)

    def build_month_page(self, *, request: Any = None, timeout: Any = _DEFAULT,
                         **fields: Any) -> service_pb2.BuildMonthPageResponse:
        """BuildMonthPage: fields year, month, as_of (required), selected, week_start, locale, highlighted."""
        return self.call("BuildMonthPage", request, timeout=timeout, **fields)

    # -- operational -----------------------------------------------------------------------

    def ping(self, payload: bytes = b"", *, timeout: Any = _DEFAULT) -> service_pb2.PingResponse:
        """Ping (no token needed): echoes `payload`; `serving` is false while shutting down."""
        return self.call("Ping", None, timeout=timeout, payload=payload or None)

    def get_server_info(self, *, timeout: Any = _DEFAULT) -> service_pb2.GetServerInfoResponse:
        """GetServerInfo: version, uptime, counters."""
        return self.call("GetServerInfo", None, timeout=timeout)
