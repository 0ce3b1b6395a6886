"""The synchronous Streakd client: one method per rpc of proto/streak/v1/service.proto."""

from __future__ import annotations

import enum
import os
import re
import ssl
import time
import warnings
from typing import Any, Callable, Generic, Iterable, Iterator, Literal, TypeVar, Union, cast

from google.protobuf.message import DecodeError, Message

from . import framing
from . import tls as _tls
from .config import PathLike, is_loopback, read_token, resolve_token
from .connection import Connection
from .dates import DateLike, WeekStartLike, from_pb_date, to_pb_date, to_week_start
from .errors import StatusCode, StreakError
from .framing import FrameKind
from .models import (BatchResult, Completion, CompletionResult, DayDetail, DeletedHabit, Export, ExportedHabit,
                     ExportPage, Habit, Heatmap, HeatmapResult, ImportHabit, ImportResult, MonthLabel, MonthPage,
                     Pong, RestPeriod, RestPeriodResult, ServerInfo, Settings, Skip, Streak, WatchEvent, WeekdayChart)
from .names import _WHITE_SPACE, check_habit_name
from .packed import decode_packed_heatmap, encode_day_deltas
from .pb import service_pb2, types_pb2

T = TypeVar("T")


class _Default(enum.Enum):
    TIMEOUT = "the client's timeout"


DEFAULT_TIMEOUT = _Default.TIMEOUT
"""A method's `timeout` when not given: the client's `timeout`."""

Timeout = Union[float, None, Literal[_Default.TIMEOUT]]
"""A call's deadline in seconds: a number, None for none, or (not given) the client's."""

CompletionLike = Union[Completion, types_pb2.Completion, tuple[int, DateLike]]
SkipLike = Union[Skip, types_pb2.Skip, tuple[int, DateLike]]
HabitLike = Union[Habit, types_pb2.Habit]
RestPeriodLike = Union[RestPeriod, types_pb2.RestPeriod, tuple[DateLike, DateLike], tuple[DateLike, DateLike, str]]
ImportHabitLike = Union[ImportHabit, ExportedHabit, Habit, service_pb2.ImportHabit]
"""A habit to import: an `ImportHabit`, an `ExportedHabit` (from `export_all`), a `Habit` (no
history) or the protocol's `ImportHabit` message (sent unchecked)."""
SettingsLike = Union[Settings, types_pb2.Settings]

SERVICE = "streak.v1.Streaks"
_SERVICE_DESCRIPTOR = service_pb2.DESCRIPTOR.services_by_name["Streaks"]
_STREAMING = {"Watch", "ExportData"}
_NO_TOKEN = {"Ping"}
_NAMED = {"CreateHabit", "RenameHabit"}
"""The methods whose `name` is a habit name, checked before sending (`check_habit_name`)."""


def method_path(name: str) -> str:
    """`/streak.v1.Streaks/<Name>` for a method name (a full path passes through)."""
    return name if name.startswith("/") else f"/{SERVICE}/{name}"


def _method(name: str) -> Any:
    try:
        return _SERVICE_DESCRIPTOR.methods_by_name[name]
    except KeyError:
        raise ValueError(f"{SERVICE} has no method {name!r}") from None


def _response_type(name: str) -> type[Message]:
    method = _method(name)
    return cast("type[Message]", getattr(service_pb2, method.output_type.name))


def _request_type(name: str) -> type[Message]:
    method = _method(name)
    return cast("type[Message]", getattr(service_pb2, method.input_type.name))


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
            value = types_pb2.WeekdaySet(weekdays=[cast(Any, _weekday_number(key, v)) for v in value])
        converted[key] = value
    return cls(**converted)


def _weekday_number(field: str, value: Any) -> int:
    """A weekday of a `WeekdaySet` as its number, or a TypeError that says what is taken."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"{field}: {value!r} is not a weekday; give Weekday members (Weekday.MONDAY) "
                    f"or their numbers, 1 = Sunday ... 7 = Saturday")


def default_address() -> tuple[str, int]:
    """From $STREAK_SERVER (`HOST:PORT`), else 127.0.0.1:7411."""
    return parse_address(os.environ.get("STREAK_SERVER") or f"127.0.0.1:{framing.DEFAULT_PORT}")


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT`, `HOST` (port 7411), `:PORT` (host 127.0.0.1), `[IPV6]:PORT` or `[IPV6]` into
    (host, port), by the rule of `streak --server` (docs/vectors/server-addresses.json has the
    cases). The port is ASCII digits, 1 to 65535. Raises ValueError for white space, a scheme, a
    path, more than one ':' outside brackets, brackets that do not hold an IPv6 address, a bad port.
    """
    def refuse(problem: str) -> ValueError:
        return ValueError(f"not HOST:PORT: {address!r}: {problem}")

    if not address:
        raise refuse("empty server address")
    if any(ord(char) in _WHITE_SPACE for char in address):
        raise refuse("it has white space")
    if "://" in address:
        raise refuse(f"it has a scheme ({address.split('://', 1)[0]}://)")
    if "/" in address:
        raise refuse("it has a path")
    port_text: str | None = None
    if address.startswith("["):
        close = address.find("]")
        if close < 0:
            raise refuse("missing ']'; expected [HOST]:PORT")
        host, rest = address[1:close], address[close + 1:]
        if rest:
            if not rest.startswith(":"):
                raise refuse("expected [HOST]:PORT")
            port_text = rest[1:]
        if ":" not in host or "[" in host:
            raise refuse("brackets hold an IPv6 address, as in [::1]:7411")
    else:
        if address.count(":") > 1:
            raise refuse("it has more than one ':' (an IPv6 address goes in brackets: [::1]:7411)")
        host, colon, rest = address.partition(":")
        port_text = rest if colon else None
    if "[" in host or "]" in host or (port_text is not None and "]" in port_text):
        raise refuse("a stray bracket")
    port = framing.DEFAULT_PORT
    if port_text is not None:
        if not _PORT.fullmatch(port_text) or not 1 <= int(port_text) <= 65535:
            raise refuse(f"bad port {port_text!r}; expected a port in 1...65535")
        port = int(port_text)
    return host or "127.0.0.1", port


# ASCII digits only: `str.isdigit` also takes other scripts' digits and superscripts.
_PORT = re.compile(r"[0-9]+")


_Stream = TypeVar("_Stream", bound="ServerStream[Any]")


class ServerStream(Generic[T]):
    """A server stream (`Client.watch`, `Client.export_data`): iterate for its messages.

    Iteration ends when the server ends the stream with OK and raises `StreakError` for any
    other status (CANCELLED after `cancel()` ends iteration quietly). `read(timeout)` waits
    at most `timeout` seconds and returns None when nothing came.
    """

    _METHOD = ""

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

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        item = self._read(self._deadline)
        if item is None:
            raise StopIteration
        return item

    def read(self, timeout: float | None = None) -> T | None:
        """The next message; None when `timeout` passed first or the stream ended (see `done`).

        Raises StreakError when the stream ends with an error or its own deadline passes.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        if self._deadline is not None:
            deadline = self._deadline if deadline is None else min(deadline, self._deadline)
        return self._read(deadline)

    def _message(self, body: bytes) -> T:
        raise NotImplementedError

    def _ended(self) -> None:
        """Called when the stream ends with OK; a subclass raises StreakError if that is too early."""

    def _read(self, deadline: float | None) -> T | None:
        if self.status is not None:
            return None
        frame = self._connection.wait(self._request_id, deadline)
        if frame is None:
            if self._deadline is not None and time.monotonic() >= self._deadline:
                self._connection.cancel(self._request_id)
                self._finish(framing.StatusHeader(StatusCode.DEADLINE_EXCEEDED, "deadline exceeded (client)"))
                raise StreakError(StatusCode.DEADLINE_EXCEEDED, f"{self._METHOD}: deadline exceeded (client)")
            return None
        if frame.kind == FrameKind.STREAM_MESSAGE:
            return self._message(frame.body)
        try:
            status, rest = framing.decode_status(frame.body)
            if rest and frame.kind == FrameKind.END_STREAM:  # nothing after it (PROTOCOL.md section 2.1)
                raise framing.FramingError(f"{len(rest)} bytes after an END_STREAM's status")
        except framing.FramingError as exc:
            status = framing.StatusHeader(StatusCode.INTERNAL, f"{self._METHOD}: bad status header: {exc}")
        self._finish(status)
        if status.code == StatusCode.OK:
            self._ended()
            return None
        if status.code == StatusCode.CANCELLED and self._cancelled:
            return None
        raise StreakError(status.code, status.message)

    def _finish(self, status: framing.StatusHeader) -> None:
        self.status = status
        self._connection.forget(self._request_id)

    def _fail(self, message: str) -> StreakError:
        """Ends the stream over a bad message from the server (INTERNAL) and sends CANCEL."""
        self._connection.cancel(self._request_id)
        self._finish(framing.StatusHeader(StatusCode.INTERNAL, message))
        return StreakError(StatusCode.INTERNAL, f"{self._METHOD}: {message}")

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

    def __enter__(self: _Stream) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


class WatchStream(ServerStream[WatchEvent]):
    """The server stream of `Client.watch`: iterate for `WatchEvent`s (see `ServerStream`)."""

    _METHOD = "Watch"

    def _message(self, body: bytes) -> WatchEvent:
        event = service_pb2.WatchEvent()
        try:
            event.ParseFromString(body)
        except DecodeError as exc:
            raise StreakError(StatusCode.INTERNAL, f"bad WatchEvent: {exc}") from exc
        return _convert("Watch", WatchEvent.from_pb, event)


class ExportStream(ServerStream[ExportPage]):
    """The server stream of `Client.export_data`: iterate for `ExportPage`s, the last with `last`
    True; iteration then ends with the server's END_STREAM OK (see `ServerStream`).

    A stream that ends OK before its last page, or sends a page after it, raises StreakError
    (INTERNAL): an export is whole or an error. `total_records` is the first page's count
    (None before it came), for progress; `cancel()` stops the export.
    """

    _METHOD = "ExportData"

    def __init__(self, connection: Connection, request_id: int, deadline: float | None) -> None:
        super().__init__(connection, request_id, deadline)
        self.pages = 0
        """Pages read so far."""
        self.total_records: int | None = None
        self.last_seen = False
        """Whether the last page came."""

    def _message(self, body: bytes) -> ExportPage:
        if self.last_seen:
            raise self._fail("a page after the last one")
        message = service_pb2.ExportDataPage()
        try:
            message.ParseFromString(body)
        except DecodeError as exc:
            raise self._fail(f"bad ExportDataPage: {exc}") from exc
        try:
            page = ExportPage.from_pb(message)
        except ValueError as exc:  # a required date absent or impossible
            raise self._fail(f"bad response: {exc}") from exc
        if self.pages == 0:
            self.total_records = page.total_records
        self.pages += 1
        self.last_seen = page.last
        return page

    def _ended(self) -> None:
        if not self.last_seen:
            raise StreakError(StatusCode.INTERNAL, "ExportData: the stream ended before its last page")


class Client:
    """A synchronous client for one streakd server over one connection.

    `token` is the bearer token sent on every call but Ping; `token_file` names a file holding
    it instead (a missing, unreadable or empty file raises `TokenFileError` here, before
    connecting). `Client.from_env()` finds both the way the `streak` command line does.
    `timeout` (seconds) is the default deadline of every call: sent as `deadline-ms` and
    enforced locally (the call then raises DEADLINE_EXCEEDED and sends CANCEL).

    Every typed method takes its fields as arguments, or `request=` a request message. Dates
    may be `datetime.date`, `"YYYY-MM-DD"`, `(y, m, d)` or `types_pb2.Date` (`DateLike`); week
    starts a `Weekday`, a weekday number or a locale. Results are frozen dataclasses
    (`streakd_client.models`) with `datetime.date`s; `call()` is the generic form and returns
    the response message. Failures raise `StreakError`.

    TLS: `tls=True` verifies the server's certificate against the system store, or against
    `ca_file=` (a PEM file of CA certificates; giving it implies TLS), for the host name or
    address `host` (or `server_hostname=`); `tls=` an `ssl.SSLContext` of your own is used as
    it is. A certificate that fails verification raises `StreakError` (UNAVAILABLE) with
    "certificate verify failed: " and the reason (hostname mismatch, certificate has expired,
    unknown CA).
    """

    def __init__(self, host: str | None = None, port: int | None = None, *, token: str | None = None,
                 token_file: PathLike | None = None, timeout: float | None = 10.0,
                 connect_timeout: float = 5.0, tls: bool | ssl.SSLContext | None = None,
                 ca_file: PathLike | None = None, server_hostname: str | None = None) -> None:
        if token is not None and token_file is not None:
            raise TypeError("pass token= or token_file=, not both")
        if token_file is not None:
            token = read_token(token_file)
        if host is None or port is None:
            default_host, default_port = default_address()
            host = default_host if host is None else host
            port = default_port if port is None else port
        self.token = token
        self.timeout = timeout
        context = _tls.resolve(tls, ca_file, server_hostname)
        self._connection = Connection(host, port, connect_timeout=connect_timeout, tls=context,
                                      server_hostname=server_hostname)

    @classmethod
    def connect(cls, address: str | None = None, **kwargs: Any) -> "Client":
        """A client for `HOST:PORT` (default: `$STREAK_SERVER`, else 127.0.0.1:7411); `kwargs` as for `Client`."""
        host, port = parse_address(address) if address is not None else default_address()
        return cls(host, port, **kwargs)

    @classmethod
    def from_env(cls, address: str | None = None, *, token: str | None = None,
                 token_file: PathLike | None = None, insecure_plaintext: bool = False,
                 **kwargs: Any) -> "Client":
        """A client configured like the `streak` command line: the server `address`, else
        `$STREAK_SERVER`, else 127.0.0.1:7411; the token `token`, else `token_file`'s contents,
        else `$STREAK_TOKEN`, else, for a server on this machine only (`is_loopback`), the token
        file a local streakd writes (`default_token_file()`: `$STREAKD_DATA_DIR/token`,
        `$XDG_DATA_HOME/streakd/token` or `~/.local/share/streakd/token`).

        TLS as well: `tls=`, `ca_file=` or `server_hostname=`, else `$STREAK_TLS=1` (with
        `$STREAK_CA_FILE` as the CA file, else the system store).

        Raises `TokenFileError` naming the file and what to do when no token is given and that
        file is missing, unreadable or empty; `StreakError` (UNAUTHENTICATED) when no token is
        given for another machine's server; and `StreakError` (FAILED_PRECONDITION), before
        connecting, for a token that would travel in clear to another machine (no TLS, a server
        not on a loopback address) unless `insecure_plaintext=True` (streakd itself serves
        plaintext beyond loopback only with `--insecure-plaintext`).
        """
        if kwargs.get("tls") is None:
            kwargs["tls"] = _tls.resolve(None, kwargs.get("ca_file"), kwargs.get("server_hostname"), os.environ)
        host, port = parse_address(address) if address is not None else default_address()
        resolved = resolve_token(token, token_file, host=host)
        if not kwargs["tls"] and not is_loopback(host) and not insecure_plaintext:
            raise StreakError(
                StatusCode.FAILED_PRECONDITION,
                f"refusing to send the token in clear to {host}:{port}, which is not a loopback address: "
                "anyone on the way could read it and act as you; connect with tls=True (or set STREAK_TLS=1), "
                "or pass insecure_plaintext=True to send it unencrypted anyway")
        return cls(host, port, token=resolved, **kwargs)

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

    def call(self, method: str, request: Message | None = None, /, *, timeout: Timeout = DEFAULT_TIMEOUT,
             metadata: list[tuple[str, str]] | None = None, **fields: Any) -> Any:
        """Calls a unary method by name (e.g. `"GetStreak"`) with a request message or its fields
        (the protocol's names: `**{"from": ...}`), and returns the response message (protobuf).

        CreateHabit's and RenameHabit's `name` is checked first: a name the server would refuse
        (blank, over 200 Unicode scalars, a control character, a lone surrogate) raises ValueError, unsent."""
        if method in _STREAMING:
            raise ValueError(f"{method} is server-streaming: use watch() or export_data()")
        if method in _NAMED and isinstance(fields.get("name"), str):
            # Before the message is built: protobuf's own error for a name UTF-8 cannot encode
            # (a lone surrogate) would not say what is wrong with it.
            check_habit_name(fields["name"])
        message = _build(method, request, fields)
        if method in _NAMED:
            check_habit_name(cast(Any, message).name)  # refused here, before anything is sent
        seconds = self.timeout if timeout is DEFAULT_TIMEOUT else timeout
        deadline = None if seconds is None else time.monotonic() + seconds
        token = None if method in _NO_TOKEN else self.token
        conn = self._connection
        request_id = conn.start_request(method_path(method), message.SerializeToString(),
                                        token=token, timeout=seconds, metadata=metadata)
        try:
            frame = conn.wait(request_id, deadline)
            if frame is None:
                conn.cancel(request_id)
                raise StreakError(StatusCode.DEADLINE_EXCEEDED, f"{method}: deadline exceeded (client)")
            if frame.kind == FrameKind.STREAM_MESSAGE:
                raise StreakError(StatusCode.INTERNAL, f"{method}: the server sent a STREAM_MESSAGE for a unary call")
            try:
                status, payload = framing.decode_status(frame.body)
            except framing.FramingError as exc:
                raise StreakError(StatusCode.INTERNAL, f"{method}: bad status header: {exc}") from exc
            if frame.kind != FrameKind.RESPONSE and status.code == StatusCode.OK:
                raise StreakError(StatusCode.INTERNAL, f"{method}: unexpected frame kind {frame.kind}")
            if status.code != StatusCode.OK:
                raise StreakError(status.code, self._explain(status.code, status.message))
            response = _response_type(method)()
            try:
                response.ParseFromString(payload)
            except DecodeError as exc:
                raise StreakError(StatusCode.INTERNAL, f"{method}: bad response message: {exc}") from exc
            return response
        finally:
            conn.forget(request_id)

    def _explain(self, code: int, message: str) -> str:
        if code == StatusCode.UNAUTHENTICATED and not self.token:
            return (f"{message} (this client has no token: pass token= or token_file=, "
                    "or use Client.from_env())")
        return message

    def watch(self, as_of: DateLike | None = None, *, request: service_pb2.WatchRequest | None = None,
              timeout: float | None = None, lifecycle_events: bool = False) -> WatchStream:
        """Opens the Watch stream: a `WatchEvent` each time one of the user's days changes,
        with the streak as of `as_of` (default: today at each event).

        With `lifecycle_events` the first event is SUBSCRIBED (read what you show after it: no
        change is lost between the two), and DAY_STARTED and SETTINGS_CHANGED events follow as
        they happen (`WatchEventKind`). No deadline by default (a stream lives until cancelled);
        `timeout` sets one.
        """
        if isinstance(as_of, service_pb2.WatchRequest):  # 0.1: watch(request) positionally
            as_of, request = None, as_of
        message = _build("Watch", request, {"as_of": as_of, "lifecycle_events": lifecycle_events or None})
        deadline = None if timeout is None else time.monotonic() + timeout
        request_id = self._connection.start_request(method_path("Watch"), message.SerializeToString(),
                                                    token=self.token, timeout=timeout)
        return WatchStream(self._connection, request_id, deadline)

    # -- your data ---------------------------------------------------------------------------

    def export_data(self, page_size: int = 0, *, request: service_pb2.ExportDataRequest | None = None,
                    timeout: float | None = None) -> ExportStream:
        """Opens the ExportData stream: everything of the user, one consistent snapshot, as
        `ExportPage`s of up to `page_size` completions and skips (1...65536; 0: the server's
        4096). The first page has the settings, every habit and every rest period; the last has
        `last` True. `Client.export_all()` assembles them.

        No deadline by default (the server sends pages as fast as they are read); `timeout`
        sets one for the whole stream. `cancel()` (or leaving a `with` block) stops it.
        """
        message = _build("ExportData", request, {"page_size": page_size or None})
        deadline = None if timeout is None else time.monotonic() + timeout
        request_id = self._connection.start_request(method_path("ExportData"), message.SerializeToString(),
                                                    token=self.token, timeout=timeout)
        return ExportStream(self._connection, request_id, deadline)

    def export_all(self, page_size: int = 0, *, timeout: float | None = None) -> Export:
        """ExportData read to its end: the settings, every habit with its completions and skips
        (`ExportedHabit`s, ascending by id) and every rest period. Raises StreakError when the
        stream fails or ends before its last page."""
        with self.export_data(page_size, timeout=timeout) as stream:
            return _convert("ExportData", Export.from_pages, stream)

    def import_data(self, habits: Iterable[ImportHabitLike] | None = None,
                    rest_periods: Iterable[RestPeriodLike] | None = None,
                    settings: SettingsLike | None = None, *,
                    request: service_pb2.ImportDataRequest | None = None,
                    timeout: Timeout = DEFAULT_TIMEOUT) -> ImportResult:
        """ImportData: brings `habits` (each matched by exact name or created; its schedule,
        completions and skips added where missing; `archived_on` archives a live habit),
        `rest_periods` (`RestPeriod`s or `(start, end[, note])`; added unless an equal one exists)
        and `settings` (replaces every field) in, in one transaction and idempotently: the same
        import again changes nothing. Records the server cannot apply are listed in the result's
        `errors` (the first 1,000; `error_count` counts them all); the rest is applied. A user has
        at most 1,000 habits, archived ones included: a habit that would be created past that is
        an error record (field "name") and its entry in `habits` is None.

        A request holds about 120,000 dates (the server's 16 MiB decoding budget: each date
        unpacks to a message of its own; more is RESOURCE_EXHAUSTED): send a large history in
        several calls of, say, 20,000 dates (a habit split over calls is matched by name in the
        later ones).
        """
        response = self.call("ImportData", request, timeout=timeout, habits=_import_habits(habits),
                             rest_periods=_rest_periods(rest_periods), settings=_settings(settings))
        return _convert("ImportData", ImportResult.from_pb, response)

    def ping_frame(self, payload: bytes | None = None, timeout: float = 5.0) -> float:
        """A PING frame (no rpc, no token): returns the round trip to the PONG in seconds."""
        return self._connection.ping(payload, timeout)

    # -- habits ----------------------------------------------------------------------------

    def create_habit(self, name: str | None = None, created_on: DateLike | None = None, *,
                     schedule: Iterable[int] | None = None,
                     request: service_pb2.CreateHabitRequest | None = None,
                     timeout: Timeout = DEFAULT_TIMEOUT) -> Habit:
        """CreateHabit: a new habit (created today in the user's zone unless `created_on`), expected
        on the weekdays in `schedule` (`Weekday`s or numbers, 1 = Sunday; None: every day)."""
        response = self.call("CreateHabit", request, timeout=timeout, name=name, created_on=created_on,
                             schedule=schedule)
        return _convert("CreateHabit", Habit.from_pb, response.habit)

    def set_habit_schedule(self, habit_id: int | None = None, weekdays: Iterable[int] | None = None,
                           effective_from: DateLike | None = None, *,
                           request: service_pb2.SetHabitScheduleRequest | None = None,
                           timeout: Timeout = DEFAULT_TIMEOUT) -> Habit:
        """SetHabitSchedule: expected on `weekdays` (`Weekday`s or numbers) from `effective_from` (default today)."""
        response = self.call("SetHabitSchedule", request, timeout=timeout, habit_id=habit_id, weekdays=weekdays,
                             effective_from=effective_from)
        return _convert("SetHabitSchedule", Habit.from_pb, response.habit)

    def list_habits(self, include_archived: bool = False, *,
                    request: service_pb2.ListHabitsRequest | None = None,
                    timeout: Timeout = DEFAULT_TIMEOUT) -> list[Habit]:
        """ListHabits: the user's habits (live ones unless `include_archived`)."""
        response = self.call("ListHabits", request, timeout=timeout, include_archived=include_archived or None)
        return _convert("ListHabits", lambda m: [Habit.from_pb(h) for h in m.habits], response)

    def rename_habit(self, habit_id: int | None = None, name: str | None = None, *,
                     request: service_pb2.RenameHabitRequest | None = None,
                     timeout: Timeout = DEFAULT_TIMEOUT) -> Habit:
        """RenameHabit."""
        response = self.call("RenameHabit", request, timeout=timeout, habit_id=habit_id, name=name)
        return _convert("RenameHabit", Habit.from_pb, response.habit)

    def archive_habit(self, habit_id: int | None = None, archived_on: DateLike | None = None, *,
                      request: service_pb2.ArchiveHabitRequest | None = None,
                      timeout: Timeout = DEFAULT_TIMEOUT) -> Habit:
        """ArchiveHabit: inactive from `archived_on` (default today)."""
        response = self.call("ArchiveHabit", request, timeout=timeout, habit_id=habit_id, archived_on=archived_on)
        return _convert("ArchiveHabit", Habit.from_pb, response.habit)

    def unarchive_habit(self, habit_id: int | None = None, *,
                        request: service_pb2.UnarchiveHabitRequest | None = None,
                        timeout: Timeout = DEFAULT_TIMEOUT) -> Habit:
        """UnarchiveHabit: an archived habit counts again from its archive day on. A live habit is
        FAILED_PRECONDITION, an unknown one NOT_FOUND."""
        response = self.call("UnarchiveHabit", request, timeout=timeout, habit_id=habit_id)
        return _convert("UnarchiveHabit", Habit.from_pb, response.habit)

    def delete_habit(self, habit_id: int | None = None, *, request: service_pb2.DeleteHabitRequest | None = None,
                     timeout: Timeout = DEFAULT_TIMEOUT) -> DeletedHabit:
        """DeleteHabit: the habit goes away with its schedule, completions and skips, durably. The
        result has the habit as it was and how many completions and skips went with it."""
        response = self.call("DeleteHabit", request, timeout=timeout, habit_id=habit_id)
        return _convert("DeleteHabit", DeletedHabit.from_pb, response)

    # -- completions -----------------------------------------------------------------------

    def record_completion(self, habit_id: int | None = None, date: DateLike | None = None,
                          as_of: DateLike | None = None, *,
                          request: service_pb2.RecordCompletionRequest | None = None,
                          timeout: Timeout = DEFAULT_TIMEOUT) -> CompletionResult:
        """RecordCompletion (idempotent): the habit done on `date` (default today); the day and streak after it."""
        response = self.call("RecordCompletion", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)
        return _convert("RecordCompletion", CompletionResult.from_pb, response)

    def remove_completion(self, habit_id: int | None = None, date: DateLike | None = None,
                          as_of: DateLike | None = None, *,
                          request: service_pb2.RemoveCompletionRequest | None = None,
                          timeout: Timeout = DEFAULT_TIMEOUT) -> CompletionResult:
        """RemoveCompletion (idempotent): the completion taken back."""
        response = self.call("RemoveCompletion", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)
        return _convert("RemoveCompletion", CompletionResult.from_pb, response)

    def batch_completions(self, record: Iterable[CompletionLike] | None = None,
                          remove: Iterable[CompletionLike] | None = None, as_of: DateLike | None = None, *,
                          request: service_pb2.BatchCompletionsRequest | None = None,
                          timeout: Timeout = DEFAULT_TIMEOUT) -> BatchResult:
        """BatchCompletions: `record`, then `remove`; each a list of `Completion`s or `(habit_id, date)` pairs."""
        response = self.call("BatchCompletions", request, timeout=timeout, record=_completions(record),
                             remove=_completions(remove), as_of=as_of)
        return _convert("BatchCompletions", BatchResult.from_pb, response)

    def skip_habit(self, habit_id: int | None = None, date: DateLike | None = None,
                   as_of: DateLike | None = None, *, request: service_pb2.SkipHabitRequest | None = None,
                   timeout: Timeout = DEFAULT_TIMEOUT) -> CompletionResult:
        """SkipHabit (idempotent): the habit is excused on `date` (default today)."""
        response = self.call("SkipHabit", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)
        return _convert("SkipHabit", CompletionResult.from_pb, response)

    def unskip_habit(self, habit_id: int | None = None, date: DateLike | None = None,
                     as_of: DateLike | None = None, *, request: service_pb2.UnskipHabitRequest | None = None,
                     timeout: Timeout = DEFAULT_TIMEOUT) -> CompletionResult:
        """UnskipHabit (idempotent): the skip is taken back."""
        response = self.call("UnskipHabit", request, timeout=timeout, habit_id=habit_id, date=date, as_of=as_of)
        return _convert("UnskipHabit", CompletionResult.from_pb, response)

    # -- rest periods ----------------------------------------------------------------------

    def add_rest_period(self, start: DateLike | None = None, end: DateLike | None = None,
                        note: str | None = None, as_of: DateLike | None = None, *,
                        from_: DateLike | None = None, to: DateLike | None = None,
                        request: service_pb2.AddRestPeriodRequest | None = None,
                        timeout: Timeout = DEFAULT_TIMEOUT) -> RestPeriodResult:
        """AddRestPeriod: no habit is expected from `start` through `end` (both included; `from_`/`to`
        are the same two with the protocol's names)."""
        first, last = _range("add_rest_period", start, end, from_, to)
        response = self.call("AddRestPeriod", request, timeout=timeout, to=last, note=note, as_of=as_of,
                             **_from(first))
        return _convert("AddRestPeriod", RestPeriodResult.from_pb, response)

    def list_rest_periods(self, *, timeout: Timeout = DEFAULT_TIMEOUT) -> list[RestPeriod]:
        """ListRestPeriods: every rest period, ascending by start."""
        response = self.call("ListRestPeriods", None, timeout=timeout)
        return _convert("ListRestPeriods", lambda m: [RestPeriod.from_pb(p) for p in m.rest_periods], response)

    def remove_rest_period(self, rest_period_id: int | None = None, as_of: DateLike | None = None, *,
                           request: service_pb2.RemoveRestPeriodRequest | None = None,
                           timeout: Timeout = DEFAULT_TIMEOUT, **deprecated: Any) -> RestPeriodResult:
        """RemoveRestPeriod: the removed period and the streak after it. (`id=` still works, deprecated.)"""
        old = _deprecated("remove_rest_period", deprecated, {"id": "rest_period_id"})
        rest_period_id = _merge("remove_rest_period", "rest_period_id", rest_period_id, "id", old.get("id"))
        response = self.call("RemoveRestPeriod", request, timeout=timeout, id=rest_period_id, as_of=as_of)
        return _convert("RemoveRestPeriod", RestPeriodResult.from_pb, response)

    # -- queries ---------------------------------------------------------------------------

    def get_day(self, date: DateLike | None = None, *, habit_ids: Iterable[int] | None = None,
                request: service_pb2.GetDayRequest | None = None,
                timeout: Timeout = DEFAULT_TIMEOUT) -> DayDetail:
        """GetDay: the day's detail (completed, skipped and open habits, percent, label), over
        `habit_ids` alone when given."""
        response = self.call("GetDay", request, timeout=timeout, date=date, habit_ids=_ids(habit_ids))
        return _convert("GetDay", DayDetail.from_pb, response.day)

    def get_heatmap(self, start: DateLike | None = None, end: DateLike | None = None, *,
                    as_of: DateLike | None = None, week_start: WeekStartLike | None = None,
                    locale: str | None = None, accessibility_labels: bool = False,
                    habit_ids: Iterable[int] | None = None, packed: bool = False, month_labels: bool = True,
                    from_: DateLike | None = None, to: DateLike | None = None,
                    request: service_pb2.GetHeatmapRequest | None = None,
                    timeout: Timeout = DEFAULT_TIMEOUT, **deprecated: Any) -> Heatmap:
        """GetHeatmap: the days `start` through `end` (default: the 1st of the month 11 months
        before `as_of`'s, through `as_of`, default today). `from_`/`to` are the same two with the
        protocol's names. `week_start`: a `Weekday`, number or locale (default: the user's setting);
        `locale` for the labels (default: the user's); over `habit_ids` alone when given.

        `packed=True` has the answer travel in the compact encoding (PROTOCOL.md section 9: about
        500 bytes for a year instead of about 9 KB), decoded here into the same `Heatmap`;
        `month_labels=False` leaves the month labels out of it (about 100 bytes less). A `request`
        message with `packed` set is decoded the same way."""
        first, last = _range_with_legacy("get_heatmap", start, end, from_, to, deprecated)
        response = self.call("GetHeatmap", request, timeout=timeout, to=last, as_of=as_of, week_start=week_start,
                             locale=locale or None, accessibility_labels=accessibility_labels or None,
                             habit_ids=_ids(habit_ids), packed=packed or None,
                             packed_month_labels=(packed and month_labels) or None, **_from(first))
        labels = request.accessibility_labels if request is not None else accessibility_labels
        return _convert("GetHeatmap", lambda m: _heatmap(m, labels), response)

    def get_streak(self, as_of: DateLike | None = None, *, habit_ids: Iterable[int] | None = None,
                   request: service_pb2.GetStreakRequest | None = None,
                   timeout: Timeout = DEFAULT_TIMEOUT) -> Streak:
        """GetStreak: the streak as of a day (default today), over `habit_ids` alone when given."""
        response = self.call("GetStreak", request, timeout=timeout, as_of=as_of, habit_ids=_ids(habit_ids))
        return _convert("GetStreak", Streak.from_pb, response.streak)

    def get_weekday_chart(self, start: DateLike | None = None, end: DateLike | None = None, *,
                          as_of: DateLike | None = None, locale: str | None = None,
                          include_total: bool = False, habit_ids: Iterable[int] | None = None,
                          from_: DateLike | None = None, to: DateLike | None = None,
                          request: service_pb2.GetWeekdayChartRequest | None = None,
                          timeout: Timeout = DEFAULT_TIMEOUT, **deprecated: Any) -> WeekdayChart:
        """GetWeekdayChart: completions per weekday from `start` (default: all history) through
        `end` (default `as_of`, default today); `from_`/`to` are the same two."""
        first, last = _range_with_legacy("get_weekday_chart", start, end, from_, to, deprecated)
        response = self.call("GetWeekdayChart", request, timeout=timeout, to=last, as_of=as_of,
                             locale=locale or None, include_total=include_total or None,
                             habit_ids=_ids(habit_ids), **_from(first))
        return _convert("GetWeekdayChart", WeekdayChart.from_pb, response.chart)

    def get_month_page(self, year: int | None = None, month: int | None = None, *,
                       selected: DateLike | None = None, as_of: DateLike | None = None,
                       week_start: WeekStartLike | None = None, locale: str | None = None,
                       habit_ids: Iterable[int] | None = None,
                       request: service_pb2.GetMonthPageRequest | None = None,
                       timeout: Timeout = DEFAULT_TIMEOUT) -> MonthPage:
        """GetMonthPage: the 42-day page of `year`-`month` (neither given: `as_of`'s month)."""
        response = self.call("GetMonthPage", request, timeout=timeout, year=year, month=month, selected=selected,
                             as_of=as_of, week_start=week_start, locale=locale or None, habit_ids=_ids(habit_ids))
        return _convert("GetMonthPage", MonthPage.from_pb, response.page)

    # -- settings --------------------------------------------------------------------------

    def get_settings(self, *, timeout: Timeout = DEFAULT_TIMEOUT) -> Settings:
        """GetSettings."""
        return _convert("GetSettings", Settings.from_pb, self.call("GetSettings", None, timeout=timeout).settings)

    def update_settings(self, *, time_zone: str | None = None, locale: str | None = None,
                        week_start: int | None = None, min_percent: int | None = None,
                        clear_min_percent: bool = False, day_start_minutes: int | None = None,
                        set_day_start: bool | None = None,
                        request: service_pb2.UpdateSettingsRequest | None = None,
                        timeout: Timeout = DEFAULT_TIMEOUT) -> Settings:
        """UpdateSettings: changes what is given and returns the settings after it. `week_start` is a
        `Weekday`; `min_percent` 1...100 (`clear_min_percent=True`: back to "at least one habit");
        `day_start_minutes` 0...720 (`set_day_start` is implied; still accepted)."""
        if day_start_minutes is not None and set_day_start is None:
            set_day_start = True
        response = self.call("UpdateSettings", request, timeout=timeout, time_zone=time_zone or None,
                             locale=locale or None, week_start=week_start, min_percent=min_percent,
                             clear_min_percent=clear_min_percent or None, set_day_start=set_day_start,
                             day_start_minutes=day_start_minutes)
        return _convert("UpdateSettings", Settings.from_pb, response.settings)

    # -- stateless builders ----------------------------------------------------------------

    def build_month_labels(self, week_starts: Iterable[DateLike] | None = None, locale: str | None = None, *,
                           request: service_pb2.BuildMonthLabelsRequest | None = None,
                           timeout: Timeout = DEFAULT_TIMEOUT) -> list[MonthLabel]:
        """BuildMonthLabels: the labels for columns starting on `week_starts`."""
        starts = None if week_starts is None else list(week_starts)
        response = self.call("BuildMonthLabels", request, timeout=timeout, week_starts=starts, locale=locale or None)
        return _convert("BuildMonthLabels", lambda m: [MonthLabel.from_pb(label) for label in m.labels], response)

    def build_heatmap(self, habits: Iterable[HabitLike] | None = None,
                      completions: Iterable[CompletionLike] | None = None, *,
                      start: DateLike | None = None, end: DateLike | None = None,
                      as_of: DateLike | None = None, week_start: WeekStartLike | None = None,
                      locale: str | None = None, min_percent: int | None = None,
                      accessibility_labels: bool = False, skips: Iterable[SkipLike] | None = None,
                      rest_periods: Iterable[RestPeriodLike] | None = None,
                      packed: bool = False, month_labels: bool = True, compact: bool = False,
                      from_: DateLike | None = None, to: DateLike | None = None,
                      request: service_pb2.BuildHeatmapRequest | None = None,
                      timeout: Timeout = DEFAULT_TIMEOUT, **deprecated: Any) -> HeatmapResult:
        """BuildHeatmap (stateless: nothing is stored): the heatmap and streak of the data sent.
        `habits` are `Habit`s (with their schedules); `completions` and `skips` `Completion`/`Skip`s
        or `(habit_id, date)` pairs; `rest_periods` `RestPeriod`s or `(start, end[, note])`;
        `as_of` is required; `start`/`end` (or `from_`/`to`) the range, `week_start` default Monday.

        `compact=True` sends the completions as days per habit (`completion_days`, varint deltas:
        one or two bytes a completion, so ten times as many fit the server's decoding budget);
        `packed=True` (and `month_labels`) as for `get_heatmap`: the answer is the same either way."""
        first, last = _range_with_legacy("build_heatmap", start, end, from_, to, deprecated)
        done = _completions(completions)
        days = None
        if compact and done is not None:
            days, done = _habit_days(done), None
        response = self.call(
            "BuildHeatmap", request, timeout=timeout, habits=_habits(habits), completions=done,
            completion_days=days, skips=_skips(skips), rest_periods=_rest_periods(rest_periods), to=last,
            as_of=as_of, week_start=week_start, locale=locale or None, min_percent=min_percent,
            accessibility_labels=accessibility_labels or None, packed=packed or None,
            packed_month_labels=(packed and month_labels) or None, **_from(first))
        labels = request.accessibility_labels if request is not None else accessibility_labels
        return _convert("BuildHeatmap",
                        lambda m: HeatmapResult(_heatmap(m, labels), Streak.from_pb(m.streak)), response)

    def build_month_page(self, year: int | None = None, month: int | None = None, *,
                         as_of: DateLike | None = None, selected: DateLike | None = None,
                         week_start: WeekStartLike | None = None, locale: str | None = None,
                         highlighted: Iterable[DateLike] | None = None,
                         request: service_pb2.BuildMonthPageRequest | None = None,
                         timeout: Timeout = DEFAULT_TIMEOUT) -> MonthPage:
        """BuildMonthPage (stateless): the page of `year`-`month` with `as_of` as today (required) and
        `highlighted` days marked."""
        marked = None if highlighted is None else list(highlighted)
        response = self.call("BuildMonthPage", request, timeout=timeout, year=year, month=month, as_of=as_of,
                             selected=selected, week_start=week_start, locale=locale or None, highlighted=marked)
        return _convert("BuildMonthPage", MonthPage.from_pb, response.page)

    # -- operational -----------------------------------------------------------------------

    def ping(self, payload: bytes = b"", *, timeout: Timeout = DEFAULT_TIMEOUT) -> Pong:
        """Ping (no token needed): echoes `payload`; `serving` is False while shutting down."""
        return _convert("Ping", Pong.from_pb, self.call("Ping", None, timeout=timeout, payload=payload or None))

    def get_server_info(self, *, timeout: Timeout = DEFAULT_TIMEOUT) -> ServerInfo:
        """GetServerInfo: version, uptime, counters."""
        return _convert("GetServerInfo", ServerInfo.from_pb, self.call("GetServerInfo", None, timeout=timeout))


# -- argument helpers ------------------------------------------------------------------------------

def _convert(method: str, convert: Callable[[Any], T], message: Any) -> T:
    """A response message (or part of it) as the typed method's value; a message that does not
    convert (a required date absent or impossible) is a bad response: INTERNAL."""
    try:
        return convert(message)
    except ValueError as exc:
        raise StreakError(StatusCode.INTERNAL, f"{method}: bad response: {exc}") from exc


def _heatmap(response: Any, accessibility_labels: bool) -> Heatmap:
    """The heatmap of a GetHeatmap or BuildHeatmap response: decoded from `packed` when it has one."""
    if response.HasField("packed"):
        return decode_packed_heatmap(response.packed, accessibility_labels=accessibility_labels)
    return Heatmap.from_pb(response.heatmap)


def _habit_days(completions: list[types_pb2.Completion]) -> list[types_pb2.HabitDays]:
    """Completions as days per habit (BuildHeatmap's compact `completion_days`), by habit id."""
    by_habit: dict[int, list[types_pb2.Date]] = {}
    for completion in completions:
        by_habit.setdefault(completion.habit_id, []).append(completion.date)
    return [types_pb2.HabitDays(habit_id=habit_id, day_deltas=encode_day_deltas(from_pb_date(d) for d in dates))
            for habit_id, dates in sorted(by_habit.items())]


def _merge(method: str, name: str, value: Any, alias: str, alias_value: Any) -> Any:
    if value is not None and alias_value is not None:
        raise TypeError(f"{method}() got both {name}= and {alias}= (the same argument): pass one")
    return value if value is not None else alias_value


def _range(method: str, start: DateLike | None, end: DateLike | None, from_: DateLike | None,
           to: DateLike | None) -> tuple[DateLike | None, DateLike | None]:
    return _merge(method, "start", start, "from_", from_), _merge(method, "end", end, "to", to)


def _deprecated(method: str, given: dict[str, Any], renamed: dict[str, str], *, stacklevel: int = 3) -> dict[str, Any]:
    """Keyword arguments of the 0.1 API (`id=`, `**{"from": ...}`), with a DeprecationWarning each;
    any other unknown keyword is the TypeError Python raises for it."""
    for key in given:
        if key not in renamed:
            raise TypeError(f"{method}() got an unexpected keyword argument {key!r}")
        # stacklevel: the warning points at the caller of the public method.
        warnings.warn(f"{method}(): the keyword {key!r} is deprecated, use {renamed[key]}=", DeprecationWarning,
                      stacklevel=stacklevel)
    return given


def _range_with_legacy(method: str, start: DateLike | None, end: DateLike | None, from_: DateLike | None,
                       to: DateLike | None, deprecated: dict[str, Any]) -> tuple[DateLike | None,
                                                                                    DateLike | None]:
    old = _deprecated(method, deprecated, {"from": "start"}, stacklevel=4)
    return _range(method, _merge(method, "start", start, "from", old.get("from")), end, from_, to)


def _from(value: DateLike | None) -> dict[str, Any]:
    """`**_from(x)` passes the protocol field `from` (a Python keyword) by name."""
    return {"from": value}


def _ids(values: Iterable[int] | None) -> list[int] | None:
    return None if values is None else [int(v) for v in values]


def _completions(items: Iterable[CompletionLike] | None) -> list[types_pb2.Completion] | None:
    if items is None:
        return None
    out = []
    for item in items:
        if isinstance(item, types_pb2.Completion):
            out.append(item)
        elif isinstance(item, Completion):
            out.append(item.to_pb())
        else:
            habit_id, day = item
            out.append(types_pb2.Completion(habit_id=habit_id, date=to_pb_date(day)))
    return out


def _skips(items: Iterable[SkipLike] | None) -> list[types_pb2.Skip] | None:
    if items is None:
        return None
    out = []
    for item in items:
        if isinstance(item, types_pb2.Skip):
            out.append(item)
        elif isinstance(item, Skip):
            out.append(item.to_pb())
        else:
            habit_id, day = item
            out.append(types_pb2.Skip(habit_id=habit_id, date=to_pb_date(day)))
    return out


def _habits(items: Iterable[HabitLike] | None) -> list[types_pb2.Habit] | None:
    if items is None:
        return None
    return [item.to_pb() if isinstance(item, Habit) else item for item in items]


def _rest_periods(items: Iterable[RestPeriodLike] | None) -> list[types_pb2.RestPeriod] | None:
    if items is None:
        return None
    out = []
    for index, item in enumerate(items):
        if isinstance(item, types_pb2.RestPeriod):
            out.append(item)
        elif isinstance(item, RestPeriod):
            out.append(item.to_pb())
        else:
            first, last, *rest = item
            out.append(types_pb2.RestPeriod(id=index + 1, note=str(rest[0]) if rest else "",
                                            **{"from": to_pb_date(first), "to": to_pb_date(last)}))
    return out


def _import_habits(items: Iterable[ImportHabitLike] | None) -> list[service_pb2.ImportHabit] | None:
    if items is None:
        return None
    out = []
    for item in items:
        if isinstance(item, service_pb2.ImportHabit):
            out.append(item)
        elif isinstance(item, ImportHabit):
            out.append(item.to_pb())
        elif isinstance(item, ExportedHabit):
            out.append(item.to_import().to_pb())
        elif isinstance(item, Habit):
            out.append(ImportHabit(item.name, item.created_on, item.archived_on, item.schedule).to_pb())
        else:
            raise TypeError(f"cannot import a habit from {type(item).__name__}")
    return out


def _settings(value: SettingsLike | None) -> types_pb2.Settings | None:
    if value is None or isinstance(value, types_pb2.Settings):
        return value
    return value.to_pb()
