"""Where the server and the token come from: arguments, then the environment, then a local streakd's files.

The same order as the `streak` command line: server `STREAK_SERVER`, else 127.0.0.1:7411; token
`STREAK_TOKEN`, else, for a server on this machine only, the file `<data dir>/token` that a local
streakd writes on its first start, with the data dir `STREAKD_DATA_DIR`, else
`$XDG_DATA_HOME/streakd`, else `~/.local/share/streakd`.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Mapping, Union

from .errors import StreakError, StatusCode, TokenFileError

PathLike = Union[str, "os.PathLike[str]"]

TOKEN_FILE_NAME = "token"


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """streakd's default data directory: `$STREAKD_DATA_DIR`, else `$XDG_DATA_HOME/streakd`,
    else `~/.local/share/streakd`."""
    env = os.environ if environ is None else environ
    if env.get("STREAKD_DATA_DIR"):
        return Path(env["STREAKD_DATA_DIR"])
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]) / "streakd"
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".local" / "share" / "streakd"


def default_token_file(environ: Mapping[str, str] | None = None) -> Path:
    """`<default data dir>/token`: the file a local streakd writes its local user's token to."""
    return default_data_dir(environ) / TOKEN_FILE_NAME


def read_token(path: PathLike | None = None) -> str:
    """The token in `path` (default: `default_token_file()`), surrounding whitespace removed.

    Raises `TokenFileError` (a `StreakError`, code UNAUTHENTICATED) naming the file and what to
    do when it is missing, unreadable, not text, or empty.
    """
    file = Path(default_token_file() if path is None else path).expanduser()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TokenFileError(file, "it does not exist") from None
    except IsADirectoryError:
        raise TokenFileError(file, "it is a directory (the token file is <data dir>/token)") from None
    except PermissionError as exc:
        raise TokenFileError(file, f"permission denied ({exc.strerror})", permission=True) from exc
    except UnicodeDecodeError as exc:
        raise TokenFileError(file, "it is not UTF-8 text") from exc
    except OSError as exc:
        raise TokenFileError(file, exc.strerror or str(exc)) from exc
    token = text.strip()
    if not token:
        raise TokenFileError(file, "it is empty")
    return token


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine as written: `localhost` (any case), an IPv4 address in
    127.0.0.0/8 in dotted-quad form, or `::1`. Nothing is resolved: any other name, and other
    spellings such as `127.1` or `::ffff:127.0.0.1`, count as other machines (as in `streak`)."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv4Address):
        return address in ipaddress.IPv4Network("127.0.0.0/8")
    return address == ipaddress.IPv6Address("::1")


def resolve_token(token: str | None = None, token_file: PathLike | None = None,
                  environ: Mapping[str, str] | None = None, *, host: str = "127.0.0.1") -> str:
    """The token to use: `token`, else the contents of `token_file`, else `$STREAK_TOKEN`, else,
    when the server `host` is this machine (`is_loopback`), the default token file: the local
    user's token is never sent to another machine. Raises `TokenFileError` when the file it ends
    up reading is missing, unreadable or empty, and `StreakError` (UNAUTHENTICATED) when there is
    no token for another machine's server."""
    if token:
        return token
    if token_file is not None:
        return read_token(token_file)
    env = os.environ if environ is None else environ
    if env.get("STREAK_TOKEN"):
        return env["STREAK_TOKEN"]
    if not is_loopback(host):
        raise StreakError(
            StatusCode.UNAUTHENTICATED,
            f"no token: the local token file is used only for a server on this machine, and {host} is not "
            "one; pass token= or token_file=, or set STREAK_TOKEN (on the server's machine, "
            "`streakd user add NAME` prints a new token)")
    return read_token(default_token_file(env))
