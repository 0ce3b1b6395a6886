"""Starts a real streakd (path in $STREAKD_BIN) on 127.0.0.1 with an ephemeral port."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import tempfile
import time
from pathlib import Path

LISTENING = re.compile(r"streakd listening on (\S+):(\d+)")


class StreakdProcess:
    """`streakd --port 0 --data-dir DIR`; `port` from its stdout line, `token` from DIR/token."""

    def __init__(self, binary: str, data_dir: str | None = None, extra: list[str] | None = None,
                 startup_timeout: float = 60.0) -> None:
        self.binary = binary
        self._tmp = tempfile.TemporaryDirectory(prefix="streakd-py-")
        self.data_dir = data_dir or os.path.join(self._tmp.name, "data")
        os.makedirs(self.data_dir, exist_ok=True)
        self.log_path = os.path.join(self._tmp.name, "streakd.log")
        # stderr goes to a file: a pipe nobody reads would block a chatty server.
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [binary, "--host", "127.0.0.1", "--port", "0", "--data-dir", self.data_dir, *(extra or [])],
                stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            self.host, self.port = self._wait_for_listening(startup_timeout)
            self.token = self._wait_for_token(startup_timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_for_listening(self, timeout: float) -> tuple[str, int]:
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            if not selector.select(timeout=0.2):
                if self.process.poll() is not None:
                    break
                continue
            line = self.process.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = LISTENING.search(line)
            if match:
                return match.group(1), int(match.group(2))
        raise RuntimeError(f"streakd did not start; stdout: {''.join(seen)!r}; stderr: {self._stderr_tail()}")

    def _wait_for_token(self, timeout: float) -> str:
        path = Path(self.data_dir) / "token"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if path.exists():
                token = path.read_text().strip()
                if token:
                    return token
            time.sleep(0.05)
        raise RuntimeError(f"no token in {path}")

    def _stderr_tail(self) -> str:
        try:
            with open(self.log_path) as log:
                return log.read()[-2000:]
        except OSError:
            return ""

    def add_user(self, name: str) -> str:
        """`streakd user add NAME --data-dir DIR`: the new user's token."""
        out = subprocess.run([self.binary, "user", "add", name, "--data-dir", self.data_dir],
                             capture_output=True, text=True, timeout=60, check=True)
        return out.stdout.strip()

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.process.stdout:
            self.process.stdout.close()
        self._tmp.cleanup()


def streakd_binary() -> str | None:
    path = os.environ.get("STREAKD_BIN")
    return path if path and os.access(path, os.X_OK) else None


def running_streakd():
    """Yields a started StreakdProcess and stops it afterwards (the body of a `server` fixture);
    skips the test when STREAKD_BIN names no executable."""
    import pytest

    binary = streakd_binary()
    if binary is None:
        pytest.skip("STREAKD_BIN is not set to an executable streakd")
    process = StreakdProcess(binary)
    yield process
    process.stop()


def connected(server: StreakdProcess, timeout: float = 10.0):
    """Yields a Client of `server` with its token and closes it afterwards (the body of a
    `client` fixture)."""
    from streakd_client import Client

    with Client(server.host, server.port, token=server.token, timeout=timeout) as client:
        yield client


def expect_error(code, call, *args, **kwargs):
    """Calls `call(*args, **kwargs)`, checks that it raises StreakError with status `code` (and
    that code's name), and returns the error."""
    import pytest

    from streakd_client import StatusCode, StreakError

    with pytest.raises(StreakError) as info:
        call(*args, **kwargs)
    assert info.value.code == code, info.value
    assert info.value.code_name == StatusCode(code).name
    return info.value
