"""Offline: the connection options every C example shares (clients/c/examples/example-options.c):
usage errors exit 64 with a usage line naming the example, token files and the environment
($STREAK_SERVER, $STREAK_TOKEN, the local token file, $STREAK_TLS, $STREAK_CA_FILE) are read the
same way by all four, against the fake server."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from fakeserver import FakeServer
from streakd_client import StatusCode
from streakd_client.framing import FrameKind

USAGE = 64

# Each example with the arguments of its own it needs to get as far as connecting.
EXAMPLES = {
    "streak-example": [],
    "streak-schedule-example": [],
    "streak-data-example": ["export"],
    "streak-display-example": [],
}


@pytest.fixture(params=list(EXAMPLES))
def example(request, c_build):
    return request.param, str(c_build / request.param), EXAMPLES[request.param]


@pytest.fixture
def clean_env(tmp_path):
    """The environment without anything the examples read; HOME an empty directory."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("STREAK_") and k not in ("STREAKD_DATA_DIR", "XDG_DATA_HOME")}
    env["HOME"] = str(tmp_path / "home")
    return env


def run(binary, *args, env):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=30, env=env)


def assert_usage(out, name, message):
    assert out.returncode == USAGE, (out.returncode, out.stderr)
    lines = out.stderr.splitlines()
    assert lines[0] == f"{name}: {message}", out.stderr
    assert lines[1].startswith(f"usage: {name} [--server HOST:PORT] [--token TOKEN | --token-file FILE] [--tls]")
    assert "[--tls-server-name NAME] [--insecure-plaintext]" in lines[2]
    assert out.stdout == ""


def refusing_handler(conn, frame, server):
    """Answers every request UNAUTHENTICATED: the examples stop at their first call."""
    if frame.kind == FrameKind.REQUEST:
        conn.respond(frame.request_id, StatusCode.UNAUTHENTICATED, "refused by the test")


def sent_tokens(example, env, *args):
    """Runs the example against a fake server; returns the run and the authorization it sent."""
    name, binary, own = example
    server = FakeServer(refusing_handler)
    try:
        out = run(binary, *args, *own, env=dict(env, STREAK_SERVER=f"127.0.0.1:{server.port}"))
    finally:
        server.close()
    return out, [dict(body.metadata).get("authorization") for _, body in server.requests]


@pytest.mark.parametrize("option", ["--server", "--token", "--token-file", "--ca-file", "--tls-server-name"])
def test_a_missing_value_is_a_usage_error(example, clean_env, option):
    name, binary, own = example
    assert_usage(run(binary, *own, option, env=clean_env), name, f"{option} needs a value")


def test_an_unknown_option_is_a_usage_error(example, clean_env):
    name, binary, own = example
    assert_usage(run(binary, "--bogus", *own, "--token", "t", env=clean_env), name, "unknown option --bogus")
    assert_usage(run(binary, "--server=127.0.0.1:1", *own, env=clean_env), name,
                 "unknown option --server=127.0.0.1:1")


def test_bad_connection_options_are_usage_errors(example, clean_env, tmp_path):
    name, binary, own = example
    (tmp_path / "token").write_text("tok\n")
    assert_usage(run(binary, "--server", "::1", "--token", "t", *own, env=clean_env), name,
                 "not HOST:PORT: '::1'")
    assert_usage(run(binary, "--token", "t", *own, env=dict(clean_env, STREAK_SERVER="http://nowhere")), name,
                 "not HOST:PORT: 'http://nowhere' (from $STREAK_SERVER)")
    # The rule's cases are docs/vectors/server-addresses.json (test_c_library.py); a few of them here.
    for loose in ("a: 80", "a:+80", "a:80 ", "a:-1", "a:0", "a:65536", "a:80/x"):
        assert_usage(run(binary, "--server", loose, "--token", "t", *own, env=clean_env), name,
                     f"not HOST:PORT: '{loose}'")
    assert_usage(run(binary, "--token", "t", "--token-file", str(tmp_path / "token"), *own, env=clean_env), name,
                 "--token and --token-file exclude each other")
    assert_usage(run(binary, "--token", "", *own, env=clean_env), name,
                 "--token is empty (leave it out for $STREAK_TOKEN or the local token file)")
    assert_usage(run(binary, "--token", "t", *own, env=dict(clean_env, STREAK_TLS="maybe")), name,
                 "STREAK_TLS must be 1 or 0, not 'maybe'")


def test_help_prints_the_usage(example, clean_env):
    name, binary, _ = example
    out = run(binary, "--help", env=clean_env)
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith(f"usage: {name} [--server HOST:PORT]")


def test_a_token_file_that_does_not_exist(example, clean_env, tmp_path):
    name, binary, own = example
    missing = tmp_path / "no-such-token"
    out = run(binary, "--server", "127.0.0.1:1", "--token-file", str(missing), *own, env=clean_env)
    assert out.returncode == 1
    assert out.stderr == f"{name}: cannot read the token file {missing}: No such file or directory\n"
    assert out.stdout == ""


@pytest.mark.parametrize("content, reason", [("", "it is empty"), (" \n\n", "it is empty"),
                                             ("x" * 2000, "longer than a token")])
def test_a_token_file_without_a_token(example, clean_env, tmp_path, content, reason):
    name, binary, own = example
    (tmp_path / "token").write_text(content)
    out = run(binary, "--server", "127.0.0.1:1", "--token-file", str(tmp_path / "token"), *own, env=clean_env)
    assert out.returncode == 1
    assert out.stderr == f"{name}: cannot read the token file {tmp_path / 'token'}: {reason}\n"


def test_no_token_anywhere(example, clean_env):
    name, _, _ = example
    out, sent = sent_tokens(example, clean_env)
    assert out.returncode == 1 and sent == []
    local = Path(clean_env["HOME"]) / ".local/share/streakd/token"
    assert out.stderr == (f"{name}: no token: give --token or --token-file, set $STREAK_TOKEN, or start a local "
                          f"streakd (it writes {local})\n")


def test_the_token_comes_from_the_options_then_the_environment_then_the_local_file(example, clean_env, tmp_path):
    (tmp_path / "file-token").write_text("  from-file \n")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "token").write_text("from-data-dir\n")
    xdg = tmp_path / "xdg"
    (xdg / "streakd").mkdir(parents=True)
    (xdg / "streakd" / "token").write_text("from-xdg\n")
    env = dict(clean_env, STREAK_TOKEN="from-env", STREAKD_DATA_DIR=str(data_dir), XDG_DATA_HOME=str(xdg))
    for args, environment, expected in [
        (["--token", "from-option"], env, "from-option"),
        (["--token-file", str(tmp_path / "file-token")], env, "from-file"),
        ([], env, "from-env"),
        ([], dict(env, STREAK_TOKEN=""), "from-data-dir"),
        ([], dict(clean_env, XDG_DATA_HOME=str(xdg)), "from-xdg"),
    ]:
        out, sent = sent_tokens(example, environment, *args)
        assert out.returncode == 1 and "UNAUTHENTICATED (16): refused by the test" in out.stderr, out.stderr
        assert sent == [f"Bearer {expected}"], (args, sent)


def non_loopback_ipv4() -> str | None:
    """An IPv4 address of this machine that is not a loopback one, or None."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=10).stdout
    except OSError:
        return None
    return next((a for a in out.split() if "." in a and not a.startswith("127.")), None)


def test_no_token_goes_in_clear_to_another_machine(example, clean_env, tmp_path):
    name, binary, own = example
    # Refused before connecting: TEST-NET-1 is never reached.
    out = run(binary, "--server", "192.0.2.1:7411", "--token", "tok", *own, env=clean_env)
    assert_usage(out, name, "refusing to send the token in clear to 192.0.2.1:7411, which is not a loopback "
                            "address: use --tls (or $STREAK_TLS=1), or --insecure-plaintext to send it "
                            "unencrypted anyway")
    # The local token file is this machine's user's: not read for another machine's server.
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "token").write_text("local-token\n")
    out = run(binary, "--server", "192.0.2.1:7411", "--insecure-plaintext", *own,
              env=dict(clean_env, STREAKD_DATA_DIR=str(data_dir)))
    assert out.returncode == 1, out.stderr
    assert out.stderr == (f"{name}: no token: give --token or --token-file, or set $STREAK_TOKEN (the local "
                          "token file is read only for a server on this machine)\n")


def test_insecure_plaintext_sends_the_token_to_another_machine(example, clean_env):
    name, binary, own = example
    address = non_loopback_ipv4()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address")
    server = FakeServer(refusing_handler, host=address)
    try:
        out = run(binary, "--server", f"{address}:{server.port}", "--token", "tok", "--insecure-plaintext", *own,
                  env=clean_env)
    finally:
        server.close()
    assert out.returncode == 1 and "UNAUTHENTICATED (16)" in out.stderr, out.stderr
    assert [dict(body.metadata).get("authorization") for _, body in server.requests] == ["Bearer tok"]


def test_the_server_option_wins_over_the_environment(example, clean_env):
    name, binary, own = example
    server = FakeServer(refusing_handler)
    try:
        out = run(binary, "--server", f"127.0.0.1:{server.port}", "--token", "tok", *own,
                  env=dict(clean_env, STREAK_SERVER="127.0.0.1:1"))
    finally:
        server.close()
    assert out.returncode == 1 and "UNAUTHENTICATED (16)" in out.stderr, out.stderr
    assert len(server.requests) == 1


@pytest.mark.parametrize("args, env", [
    (["--ca-file", "/nonexistent/ca.pem"], {}),
    (["--tls", "--ca-file", "/nonexistent/ca.pem"], {"STREAK_CA_FILE": "/elsewhere.pem"}),
    (["--tls"], {"STREAK_CA_FILE": "/nonexistent/ca.pem"}),
    (["--tls-server-name", "localhost"], {"STREAK_CA_FILE": "/nonexistent/ca.pem"}),
    ([], {"STREAK_TLS": " On ", "STREAK_CA_FILE": "/nonexistent/ca.pem"}),
], ids=["ca-file", "ca-file-over-env", "tls", "tls-server-name", "STREAK_TLS"])
def test_every_example_takes_the_tls_options(example, clean_env, args, env):
    """The CA file is loaded once the TCP connection stands: a missing one shows that TLS was on."""
    name, binary, own = example
    server = FakeServer(refusing_handler)
    try:
        out = run(binary, "--server", f"127.0.0.1:{server.port}", "--token", "tok", *args, *own,
                  env=dict(clean_env, **env))
    finally:
        server.close()
    assert out.returncode == 1
    assert "INVALID_ARGUMENT (3): cannot load CA certificates from /nonexistent/ca.pem" in out.stderr, out.stderr
    assert server.requests == []


def test_streak_tls_off_and_no_ca_file_without_tls(example, clean_env):
    out, sent = sent_tokens(example, dict(clean_env, STREAK_TLS="0", STREAK_CA_FILE="/nonexistent/ca.pem"),
                            "--token", "tok")
    assert out.returncode == 1 and "UNAUTHENTICATED (16)" in out.stderr, out.stderr
    assert sent == ["Bearer tok"]


@pytest.mark.parametrize("name, args, message", [
    ("streak-example", ["--date", "March"], "--date must be a date, YYYY-MM-DD, not 'March'"),
    ("streak-example", ["--as-of", "2024-03"], "--as-of must be a date, YYYY-MM-DD, not '2024-03'"),
    ("streak-example", ["--date", "2024-3-1"], "--date must be a date, YYYY-MM-DD, not '2024-3-1'"),
    ("streak-example", ["--date", "99999-01-01"], "--date must be a date, YYYY-MM-DD, not '99999-01-01'"),
    ("streak-example", ["--date", "+2024-03-01"], "--date must be a date, YYYY-MM-DD, not '+2024-03-01'"),
    ("streak-example", ["--habit"], "--habit needs a value"),
    ("streak-example", ["Read"], "unexpected argument 'Read'"),
    ("streak-schedule-example", ["now"], "unexpected argument 'now'"),
    ("streak-data-example", [], "no COMMAND"),
    ("streak-data-example", ["import"], "unknown command 'import'"),
    ("streak-data-example", ["export", "--page-size", "ten"],
     "--page-size must be a whole number from 0 to 2147483647, not 'ten'"),
    ("streak-data-example", ["export", "extra"], "export takes only [--page-size N]"),
    ("streak-data-example", ["copy"], "copy takes --to-token-file FILE [--page-size N] [--chunk DATES]"),
    ("streak-data-example", ["copy", "--chunk", "0"], "--chunk must be a whole number from 1 to 1000000, not '0'"),
    ("streak-data-example", ["archive", "2"], "archive takes ID DATE"),
    ("streak-data-example", ["archive", "2", "soon"], "DATE must be a date, YYYY-MM-DD, not 'soon'"),
    ("streak-data-example", ["delete", "two"], "ID must be a whole number from 1 to 9223372036854775807, not 'two'"),
    ("streak-data-example", ["delete", "-5"], "ID must be a whole number from 1 to 9223372036854775807, not '-5'"),
    ("streak-data-example", ["export", "--frobnicate"], "unknown option --frobnicate"),
    ("streak-display-example", ["--week-start", "8"], "--week-start must be a whole number from 0 to 7, not '8'"),
    ("streak-display-example", ["--check", "7"], "--check needs SEED and ROUNDS"),
    ("streak-display-example", ["--check", "7", "40"], "--check needs --as-of"),
    ("streak-display-example", ["--decode", "zz"], "--decode takes hex bytes (at most 65536)"),
])
def test_an_examples_own_usage_errors(c_build, clean_env, name, args, message):
    out = run(str(c_build / name), "--token", "tok", *args, env=clean_env)
    assert_usage(out, name, message)


def test_the_data_example_takes_the_connection_options_after_the_command(c_build, clean_env):
    server = FakeServer(refusing_handler)
    try:
        out = run(str(c_build / "streak-data-example"), "delete", "5", "--server", f"127.0.0.1:{server.port}",
                  "--token", "tok", env=clean_env)
    finally:
        server.close()
    assert out.returncode == 1 and "DeleteHabit failed: UNAUTHENTICATED (16)" in out.stderr, out.stderr


def test_copy_reads_the_other_token_file_before_connecting(c_build, clean_env, tmp_path):
    missing = tmp_path / "bob"
    out = run(str(c_build / "streak-data-example"), "--server", "127.0.0.1:1", "--token", "tok", "copy",
              "--to-token-file", str(missing), env=clean_env)
    assert out.returncode == 1
    assert out.stderr == f"streak-data-example: cannot read the token file {missing}: No such file or directory\n"
