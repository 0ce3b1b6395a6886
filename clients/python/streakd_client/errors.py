"""Status codes (gRPC numbering) and the typed error every failed call raises."""

from __future__ import annotations

import enum
import os
from typing import Union


class StatusCode(enum.IntEnum):
    """gRPC status codes as used by Streakd (PROTOCOL.md section 2)."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


def code_name(code: int) -> str:
    """The gRPC name of a status code, e.g. `NOT_FOUND`; `CODE_42` for unknown numbers."""
    try:
        return StatusCode(code).name
    except ValueError:
        return f"CODE_{code}"


class StreakError(Exception):
    """A call that did not end with OK: the server's status, or a local failure mapped to one.

    Local failures: connection lost or refused -> UNAVAILABLE, the client-side deadline
    passed -> DEADLINE_EXCEEDED, a response that does not parse -> INTERNAL, a request over the
    4 MiB frame limit -> RESOURCE_EXHAUSTED (unsent).
    """

    def __init__(self, code: int, message: str = "") -> None:
        self.code = int(code)
        self.message = message
        super().__init__(f"{code_name(self.code)} ({self.code}): {message}")

    @property
    def code_name(self) -> str:
        """The status code's name, e.g. `UNAUTHENTICATED`."""
        return code_name(self.code)

    @property
    def status(self) -> StatusCode | int:
        """The code as a StatusCode when known."""
        try:
            return StatusCode(self.code)
        except ValueError:
            return self.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StreakError) and (self.code, self.message) == (other.code, other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.message))


class TokenFileError(StreakError):
    """The token file could not be read: missing, unreadable, not text or empty.

    A local failure, raised before anything is sent, with code UNAUTHENTICATED (no usable
    credentials). `path` is the file and `reason` what was wrong with it; the message names
    both and says how to get a token.
    """

    def __init__(self, path: Union[str, "os.PathLike[str]"], reason: str, *, permission: bool = False) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        if permission:
            remedy = ("streakd writes it with mode 0600 for the user it runs as: read it as that user, "
                      "or pass token= (or set STREAK_TOKEN)")
        else:
            remedy = ("start streakd once with that data directory (it writes the file on its first start), "
                      "pass token_file= naming another file, or pass token= (or set STREAK_TOKEN); "
                      "`streakd user add NAME` prints a new token")
        super().__init__(StatusCode.UNAUTHENTICATED, f"cannot read the token file {self.path}: {reason}; {remedy}")
