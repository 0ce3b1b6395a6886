"""Where the server and the token come from: arguments, then the environment, then a local streakd's files.

The same order as the `streak` command line: server `STREAK_SERVER`, else 127.0.0.1:7411; token
`STREAK_TOKEN`, else the file `<data dir>/token` that a local streakd writes on its first start,
with the data dir `STREAKD_DATA_DIR`, else `$XDG_DATA_HOME/streakd`, else `~/.local/share/streakd`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping, Union

from .errors import TokenFileError

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


def resolve_token(token: str | None = None, token_file: PathLike | None = None,
                  environ: Mapping[str, str] | None = None) -> str:
    """The token to use: `token`, else the contents of `token_file`, else `$STREAK_TOKEN`, else
    the default token file. Raises `TokenFileError` when the file it ends up reading is
    missing, unreadable or empty."""
    if token:
        return token
    if token_file is not None:
        return read_token(token_file)
    env = os.environ if environ is None else environ
    if env.get("STREAK_TOKEN"):
        return env["STREAK_TOKEN"]
    return read_token(default_token_file(env))
